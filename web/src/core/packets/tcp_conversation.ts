// TCP conversations and their two flows, as Wireshark's packet-tcp.c keeps them
// (struct tcp_analysis, tcp_flow_t, tcp_analyze_seq_info_t): the state the sequence
// analysis reads and writes. Field names follow Wireshark's so the algorithm in
// tcp_analysis.ts can be checked line by line against tcp_analyze_sequence_number().

/** A segment sent but not yet acknowledged (tcp_unacked_t). */
export interface Unacked {
  frame: number;
  seq: number;
  nextseq: number;
  ts: number; // capture time, microseconds
}

// tcp_flow_t.static_flags
export const TCP_S_BASE_SEQ_SET = 0x01;
export const TCP_S_SAW_SYN = 0x03;
export const TCP_S_SAW_SYNACK = 0x05;

/** Wireshark stops recording unacked segments past this many (TCP_MAX_UNACKED_SEGMENTS). */
export const TCP_MAX_UNACKED_SEGMENTS = 10000;

/** One direction of a conversation (tcp_flow_t with its tcp_analyze_seq_info_t). */
export class TcpFlow {
  baseSeq = 0;
  staticFlags = 0;
  /** -1 unknown, -2 no scaling used, >= 0 the shift (Wireshark's win_scale) */
  winScale = -1;
  /** last window field seen, unscaled; starts at G_MAXUINT32 as in Wireshark */
  window = 0xffffffff;
  validBif = true;
  lastSegmentFlags = 0;
  isFirstAck = false;
  pushBytesSent = 0;
  pushSetLast = false;
  closingInitiator = false;
  /** a segment of this flow showed a window (so a later change of scale changes it) */
  shownWindow = false;
  // tcp_analyze_seq_info_t
  /** unacked segments, oldest first (Wireshark's list is newest first) */
  segments: Unacked[] = [];
  nextseq = 0;
  nextseqframe = 0;
  nextseqtime = 0;
  maxseqtobeacked = 0;
  lastack = 0;
  lastacktime = 0;
  lastnondupack = 0;
  dupacknum = 0;
  /** SACK blocks of this flow's last segment, relative, at most 3 (1-based like Wireshark) */
  numSackRanges = 0;
  sackLeft: number[] = [0, 0, 0, 0];
  sackRight: number[] = [0, 0, 0, 0];
}

// Conversation completeness bits (tcp.completeness).
export const TCP_COMPLETENESS_SYNSENT = 0x01;
export const TCP_COMPLETENESS_SYNACK = 0x02;
export const TCP_COMPLETENESS_ACK = 0x04;
export const TCP_COMPLETENESS_DATA = 0x08;
export const TCP_COMPLETENESS_FIN = 0x10;
export const TCP_COMPLETENESS_RST = 0x20;

export class TcpConversation {
  readonly flow1 = new TcpFlow();
  readonly flow2 = new TcpFlow();
  /** iRTT: first pure ACK after a SYN, minus that SYN's time (0 = not known), µs */
  tsFirstRtt = 0;
  /** time of the most recent SYN (0 = none), µs */
  tsMruSyn = 0;
  completeness = 0;
  /** the conversation's first frame and the completeness bits Wireshark's second pass
   *  adds for it (its first pass only looks for a SYN in a new conversation) */
  firstFrame = 0;
  firstBits = 0;
  /** the first pass moved a base sequence number or a window scale after segments had
   *  used it: the second pass must re-dissect this conversation's frames */
  unstable = false;
  serverPort = 0;
  /** time of the first and the previous frame of the stream, for [Timestamps] */
  tsFirst: number;
  tsPrev: number;

  constructor(
    readonly stream: number,
    t: number,
  ) {
    this.tsFirst = t;
    this.tsPrev = t;
  }

  /** The flow of a segment sent from src:sport (Wireshark's direction: the endpoint with
   *  the greater address, ports breaking a tie, sends on flow1). */
  fwd(src: number, dst: number, sport: number, dport: number): TcpFlow {
    let dir = src > dst ? 1 : src < dst ? -1 : 0;
    if (dir === 0) dir = sport > dport ? 1 : -1;
    return dir >= 0 ? this.flow1 : this.flow2;
  }

  /** The other direction's flow. */
  other(f: TcpFlow): TcpFlow {
    return f === this.flow1 ? this.flow2 : this.flow1;
  }
}

/** "Complete, WITH_DATA (31)" and the other words of tcp.completeness. */
export function completenessText(v: number): string {
  const S = TCP_COMPLETENESS_SYNSENT | TCP_COMPLETENESS_SYNACK;
  const E = S | TCP_COMPLETENESS_ACK;
  const D = E | TCP_COMPLETENESS_DATA;
  const F = TCP_COMPLETENESS_FIN;
  const R = TCP_COMPLETENESS_RST;
  switch (v) {
    case TCP_COMPLETENESS_SYNSENT:
      return `Incomplete, SYN_SENT (${v})`;
    case S:
      return `Incomplete, CLIENT_ESTABLISHED (${v})`;
    case E:
      return `Incomplete, ESTABLISHED (${v})`;
    case D:
      return `Incomplete, DATA (${v})`;
    case D | F:
    case D | R:
    case D | F | R:
      return `Complete, WITH_DATA (${v})`;
    case E | F:
    case E | R:
    case E | F | R:
      return `Complete, NO_DATA (${v})`;
    default:
      return `Incomplete (${v})`;
  }
}

/** Maps an unordered pair of endpoints (address and port) to a value, without building
 *  a string key per frame: an endpoint is address * 65536 + port (below 2^48, exact). */
export class EndpointPairMap<V> {
  private readonly outer = new Map<number, Map<number, V>>();

  private static order(src: number, dst: number, sport: number, dport: number): [number, number] {
    const a = src * 65536 + sport;
    const b = dst * 65536 + dport;
    return a < b ? [a, b] : [b, a];
  }

  get(src: number, dst: number, sport: number, dport: number): V | undefined {
    const a = src * 65536 + sport;
    const b = dst * 65536 + dport;
    return a < b ? this.outer.get(a)?.get(b) : this.outer.get(b)?.get(a);
  }

  set(src: number, dst: number, sport: number, dport: number, v: V): void {
    const [a, b] = EndpointPairMap.order(src, dst, sport, dport);
    let inner = this.outer.get(a);
    if (!inner) {
      inner = new Map();
      this.outer.set(a, inner);
    }
    inner.set(b, v);
  }
}

/** The table of conversations: the latest conversation for each pair of endpoints, as
 *  Wireshark's find_conversation() returns it, and the stream counter. */
export class TcpConversations {
  private readonly byPair = new EndpointPairMap<TcpConversation>();
  private count = 0;

  find(src: number, dst: number, sport: number, dport: number): TcpConversation | undefined {
    return this.byPair.get(src, dst, sport, dport);
  }

  create(src: number, dst: number, sport: number, dport: number, t: number): TcpConversation {
    const c = new TcpConversation(this.count++, t);
    this.byPair.set(src, dst, sport, dport, c);
    return c;
  }
}
