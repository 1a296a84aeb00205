// The shapes the packets module hands to the CLI and the page. UI-agnostic: plain data.

/** One captured frame and its capture time in microseconds: a raw IPv4 datagram
 *  (LINKTYPE_RAW, no link header), or with `ethernet` an Ethernet II frame
 *  (LINKTYPE_ETHERNET). Frames of one capture/link, in capture order. */
export interface CapturedFrame {
  timeUs: number;
  bytes: Uint8Array;
  ethernet?: boolean;
}

/** Wireshark's expert info severities and the groups we use. */
export type ExpertSeverity = 'chat' | 'note' | 'warn' | 'error';
export type ExpertGroup = 'malformed' | 'checksum' | 'sequence' | 'protocol' | 'response' | 'comment';

export interface ExpertInfo {
  severity: ExpertSeverity;
  group: ExpertGroup;
  message: string;
}

/** A node of the details tree, in Wireshark's wording. */
export interface DetailNode {
  label: string;
  /** Bytes of the frame this node covers: [offset, length]. Generated fields (Wireshark's
   *  [bracketed] lines) cover [0, 0]. */
  range: [number, number];
  /** Which bytes `range` points into: 0 (or absent) the frame, 1 the reassembled datagram
   *  (Wireshark's "Reassembled IPv4" tab). */
  src?: number;
  /** Wireshark's display-filter field name, when the node is a field (e.g. "tcp.srcport"). */
  field?: string;
  /** True for values Wireshark computes rather than reads ("[...]" lines). */
  generated?: boolean;
  expert?: ExpertInfo;
  children?: DetailNode[];
}

/** Wireshark's colouring rule that matched a row (foreground and background as #rrggbb). */
export interface RowColour {
  name: string;
  fg: string;
  bg: string;
}

/** TCP values of one row, after the analysis (relative numbers as Wireshark shows them). */
export interface TcpRowInfo {
  /** tcp.stream: conversation index in order of first appearance, from 0 */
  stream: number;
  srcPort: number;
  dstPort: number;
  /** raw header flags (FIN 0x01 ... CWR 0x80, AE 0x100) */
  flags: number;
  seqRel: number;
  ackRel: number;
  /** tcp.len: payload bytes */
  len: number;
  /** tcp.nxtseq (relative), present when the segment has data, SYN or FIN */
  nextSeqRel?: number;
  /** tcp.window_size_value (the header field) */
  winValue: number;
  /** tcp.window_size: scaled when the scale is known, -1 if not computable */
  win: number;
  /** tcp.analysis.acks_frame */
  acksFrame?: number;
  /** tcp.analysis.ack_rtt in seconds */
  ackRttS?: number;
  /** tcp.analysis.bytes_in_flight */
  bytesInFlight?: number;
  /** tcp.analysis.rto in seconds and tcp.analysis.rto_frame (retransmissions) */
  rtoS?: number;
  rtoFrame?: number;
  /** tcp.analysis.duplicate_ack_num and tcp.analysis.duplicate_ack_frame */
  dupAckNum?: number;
  dupAckFrame?: number;
}

/** One row of the packet list, in Wireshark's default columns. */
export interface PacketRow {
  /** 1-based frame number */
  no: number;
  /** seconds since the first frame */
  timeS: number;
  source: string;
  destination: string;
  protocol: string;
  /** frame length in bytes */
  length: number;
  info: string;
  /** the tcp.analysis.* field names that fired, e.g. "tcp.analysis.retransmission" */
  flags: string[];
  colour: RowColour;
  tcp?: TcpRowInfo;
  /** ICMP echo pairing: icmp.resp_in / icmp.resp_to frame numbers */
  icmp?: { respIn?: number; respTo?: number; noResponse?: boolean };
  /** set when the frame (or a layer of it) is malformed */
  malformed?: string;
}
