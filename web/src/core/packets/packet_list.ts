// The packet list of a capture, as tshark -2 shows it with default preferences. Like
// Wireshark, two passes: the first decodes every frame in order, runs the stateful parts
// (reassembly, TCP sequence analysis, ICMP echo pairing, stream numbers) and writes each
// row; the second re-dissects what the end of the capture changes: "(reply in N)",
// "[Reassembled in #N]", and TCP frames whose relative numbers or window scale differ
// with the conversation's final state (rare: a SYN/ACK with a new ISN, a window scale
// learnt late). Per frame only the row and the TCP result are kept, so 100 000 frames
// take a fraction of a second. The first pass can go on as frames come (a run going on),
// and what it has done so far can be shown meanwhile, as Wireshark shows a live capture:
// first-pass rows; the second pass runs once, when the capture has ended (finish()).
import { verifyChecksums } from './checksums.ts';
import { colourFor, noFacts, type ColourFacts } from './colour.ts';
import { analysisFieldNames, printedAnalysis, tcpColumns } from './columns.ts';
import { decodeFrame, type Decoded } from './dissect.ts';
import { ETHERTYPE_ARP } from './ethernet.ts';
import { EchoMatcher, type EchoPairing } from './icmp_echo.ts';
import { ICMP_ECHO, ICMP_ECHOREPLY, isError } from './icmp.ts';
import { Reassembler } from './ip_reassembly.ts';
import { quotedHeaders } from './quoted.ts';
import { TCP_A_KEEP_ALIVE, TCP_A_KEEP_ALIVE_ACK, TCP_A_WINDOW_UPDATE, type TcpAcked } from './tcp_analysis.ts';
import { TcpSegments, type SegmentContext, type TcpSegmentResult } from './tcp_segment.ts';
import { TH_FIN, TH_RST, TH_SYN, type TcpHeader } from './tcp.ts';
import type { CapturedFrame, PacketRow, TcpRowInfo } from './types.ts';
import { UdpStreams } from './udp_streams.ts';
import { withRoom } from '../util/grown.ts';

export interface AnalyzeOptions {
  /** Validate IP, TCP, UDP and ICMP checksums for colouring ("Checksum Errors"), which
   *  Wireshark does not do by default. Off by default, like Wireshark. */
  checkChecksums?: boolean;
}

/** What the capture pass learnt about one frame (for the details tree). */
export interface FrameRecord {
  tcp: TcpSegmentResult | null;
  udpStream?: number;
  /** frame number of the fragment that completed this fragment's datagram */
  reassembledIn?: number;
  /** the frames whose fragments make up the datagram this frame completed */
  fragments?: number[];
  /** those fragments by offset */
  pieces?: { frame: number; off: number; len: number }[];
  /** time since the UDP stream's first and previous datagram, µs */
  udpTimes?: [number, number];
  /** the stream of the segment or datagram an ICMP error quotes */
  quotedStream?: number;
  /** the quoted TCP segment's conversation state, as for any segment (no analysis) */
  quotedTcp?: TcpSegmentResult;
  /** the reassembled datagram payload, for the frame that completed it */
  payload?: Uint8Array;
  echo?: EchoPairing;
}

const NO_FLAGS: string[] = Object.freeze([]) as unknown as string[];

/** An analysed capture as the views read it: the whole one (CaptureAnalysis) or what the
 *  first pass had done at some point of a capture going on (CaptureAnalysis.soFar). */
export interface AnalysedCapture {
  readonly frames: readonly CapturedFrame[];
  readonly rows: readonly PacketRow[];
  /** What the capture pass learnt about every frame, built on first use. */
  readonly records: readonly FrameRecord[];
  /** What the capture pass learnt about frame `i` (0-based). */
  record(i: number): FrameRecord;
  /** Frame `i` (0-based) decoded again, with its reassembled datagram if it completed one. */
  decoded(i: number): Decoded;
}

export class CaptureAnalysis implements AnalysedCapture {
  readonly rows: PacketRow[] = [];
  private readonly tcpResults: (TcpSegmentResult | null)[] = [];
  private udpStreams = new Int32Array(0);
  private readonly reassembledIn = new Map<number, number>();
  private readonly reassembled = new Map<number, { payload: Uint8Array; fragments: number[]; pieces: FrameRecord['pieces'] }>();
  private udpTimes = new Float64Array(0);
  private readonly quotedStreams = new Map<number, number>();
  private readonly quotedTcp = new Map<number, TcpSegmentResult>();
  private readonly echoes = new Map<number, EchoPairing>();
  private readonly facts = noFacts();
  // The first pass's state, kept from one call of more() to the next.
  private readonly tcp = new TcpSegments();
  private readonly udp = new UdpStreams();
  private readonly echo = new EchoMatcher();
  private readonly reasm = new Reassembler();
  private readonly ctx: SegmentContext = { frame: 0, t: 0, src: 0, dst: 0 };
  private readonly echoFrames: number[] = [];
  /** how many frames the first pass has done */
  private done = 0;
  private finished = false;

  /** `frames`: the capture, which may still grow (more() takes what came since); the
   *  analysis reads the array, never changes it. */
  constructor(
    readonly frames: readonly CapturedFrame[],
    readonly options: AnalyzeOptions = {},
  ) {}

  /** The first pass over the frames that came since the last call. */
  more(): void {
    const n = this.frames.length;
    if (this.finished && n > this.done) throw new Error(`the capture was analysed to its end at ${this.done} frames: no frame can follow`);
    this.room(n);
    for (let i = this.done; i < n; i++) this.first(i);
    this.done = n;
  }

  /** The capture has ended: the first pass over the last frames, then the second pass
   *  (once: a second call changes nothing). */
  finish(): this {
    if (this.finished) return this;
    this.more();
    this.finished = true;
    this.second();
    return this;
  }

  /** The first `n` frames as the first pass has done them (n at most what it has done),
   *  unchanged by what it does next: the rows Wireshark shows while it captures (the
   *  second pass's changes come with finish()). */
  soFar(n: number): AnalysedCapture {
    if (n > this.done) throw new RangeError(`the first pass has done ${this.done} frames, not ${n}`);
    const frames = this.frames.slice(0, n);
    const record = (i: number) => this.record(i);
    let records: FrameRecord[] | null = null;
    return {
      frames,
      rows: this.rows.slice(0, n),
      get records() {
        return (records ??= frames.map((_, i) => record(i)));
      },
      record,
      decoded: (i) => this.decoded(i),
    };
  }

  /** Room for `n` frames in the per-frame arrays. */
  private room(n: number): void {
    const had = this.udpStreams.length;
    this.udpStreams = withRoom(this.udpStreams, n);
    this.udpStreams.fill(-1, had); // no stream
    this.udpTimes = withRoom(this.udpTimes, 2 * this.udpStreams.length);
  }

  /** The first pass over frame `i` (0-based): the stateful parts, then its row. */
  private first(i: number): void {
    const { tcp, udp, echo, reasm, ctx } = this;
    const f = this.frames[i]!;
    const t0 = this.frames[0]!.timeUs;
    const no = i + 1;
    let d = decodeFrame(f.bytes, null, f.ethernet);
    let r: TcpSegmentResult | null = null;
    const ip = d.ip?.header ?? null;
    if (d.fragment && ip) {
      const re = reasm.add(no, d.ipBytes, ip);
      if (re.payload) {
        d = decodeFrame(f.bytes, re.payload, f.ethernet);
        this.reassembled.set(i, { payload: re.payload, fragments: re.frames, pieces: re.pieces });
        for (const k of re.frames) if (k !== no) this.reassembledIn.set(k - 1, no);
      }
    }
    if (ip) {
      ctx.frame = no;
      ctx.t = f.timeUs;
      ctx.src = ip.srcNum;
      ctx.dst = ip.dstNum;
      if (d.tcp) r = tcp.segment(ctx, d.tcp, d.buf);
      else if (d.udp && d.udp.length >= 8 && d.udp.avail >= 8) {
        const timed = d.udp.length > 8;
        this.udpStreams[i] = udp.stream(ip.srcNum, ip.dstNum, d.udp.sport, d.udp.dport, f.timeUs, timed);
        if (timed) {
          this.udpTimes[2 * i] = udp.sinceFirst;
          this.udpTimes[2 * i + 1] = udp.sincePrev;
        }
      } else if (d.icmp) {
        const m = d.icmp;
        if ((m.type === ICMP_ECHO || m.type === ICMP_ECHOREPLY) && !m.malformed) {
          echo.add(no, f.timeUs, ip.srcNum, ip.dstNum, m);
          this.echoFrames.push(i);
        }
        if (isError(m.type) && m.quotedLen > 0) {
          // Wireshark runs a quoted segment through its TCP dissector too, analysis aside:
          // it finds or starts a conversation (a SYN with a new ISN starts one), and
          // timestamps, SYN times, window scale and completeness follow it. (Our stack
          // quotes 8 bytes, RFC 792, too few for that; Linux quotes more.)
          const q = quotedHeaders(d.buf, m.quotedOff, m.quotedLen);
          const qh = q.ip?.header;
          if (qh) {
            ctx.src = qh.srcNum;
            ctx.dst = qh.dstNum;
            const qr = q.tcp ? tcp.segment(ctx, q.tcp, d.buf) : null;
            if (qr) {
              this.quotedStreams.set(i, qr.conv.stream);
              this.quotedTcp.set(i, qr);
            }
            // (as for any datagram: a stream once the whole header is there)
            if (q.udp && q.udp.length >= 8 && q.udp.avail >= 8)
              this.quotedStreams.set(i, udp.stream(qh.srcNum, qh.dstNum, q.udp.sport, q.udp.dport, f.timeUs, false));
          }
        }
      }
    }
    this.tcpResults.push(r);
    this.rows.push(this.row(i, d, r, (f.timeUs - t0) / 1e6));
  }

  /** The second pass: what the end of the capture changes. A quoted segment's analysis
   *  flags are only those this pass gives it (see revisitQuoted). */
  private second(): void {
    const { tcp, echo, ctx } = this;
    const n = this.done;
    for (const qr of this.quotedTcp.values()) qr.ta = null;
    for (let i = 0; i < n; i++) {
      const qr = this.quotedTcp.get(i);
      if (qr && qr.conv.unstable) this.revisitQuoted(tcp, ctx, i, qr);
      const r = this.tcpResults[i];
      if (!r || !r.conv.unstable) continue;
      const f = this.frames[i]!;
      const d = this.decoded(i);
      const ip = d.ip!.header!;
      ctx.frame = i + 1;
      ctx.t = f.timeUs;
      ctx.src = ip.srcNum;
      ctx.dst = ip.dstNum;
      const { seq, ack, win, nextSeq, sackBase } = r;
      const taFlags = r.ta ? r.ta.flags : -1;
      tcp.revisit(ctx, d.tcp!, r);
      if (seq !== r.seq || ack !== r.ack || win !== r.win || nextSeq !== r.nextSeq || sackBase !== r.sackBase || taFlags !== (r.ta ? r.ta.flags : -1)) {
        this.rows[i] = this.row(i, d, r, this.rows[i]!.timeS);
      }
    }
    // New row objects, not the first pass's changed: soFar() may still show those.
    for (const [i, k] of this.reassembledIn) this.rows[i] = { ...this.rows[i]!, info: `${this.rows[i]!.info} [Reassembled in #${k}]` };
    for (const i of this.echoFrames) {
      const d = this.decoded(i);
      const p = echo.pairing(i + 1, d.icmp!, d.ip!.header!.dstNum);
      this.echoes.set(i, p);
      const row = { ...this.rows[i]!, info: this.rows[i]!.info + p.suffix };
      if (p.respIn || p.respTo || p.noResponse) row.icmp = { respIn: p.respIn, respTo: p.respTo, noResponse: p.noResponse };
      this.rows[i] = row;
    }
  }

  /** A quoted segment in the second pass: its tree can change (window scale factor, SACK
   *  base), and a quoted SYN/ACK whose ISN is not the flow's base gets the reused-ports
   *  flag, which Wireshark prints for the ICMP frame (its flags and colour) because the
   *  second pass finds it set; nothing else of the analysis is printed for a segment
   *  without a segment length. */
  private revisitQuoted(tcp: TcpSegments, ctx: SegmentContext, i: number, qr: TcpSegmentResult): void {
    const d = this.decoded(i);
    const q = quotedHeaders(d.buf, d.icmp!.quotedOff, d.icmp!.quotedLen);
    const qh = q.ip!.header!;
    ctx.frame = i + 1;
    ctx.t = this.frames[i]!.timeUs;
    ctx.src = qh.srcNum;
    ctx.dst = qh.dstNum;
    tcp.revisit(ctx, q.tcp!, qr);
    const ta = printedAnalysis(q.tcp!, qr);
    if (ta && ta.flags) this.rows[i] = this.row(i, d, null, this.rows[i]!.timeS, ta);
    else qr.ta = null;
  }

  /** Frame `i` (0-based) decoded again, with its reassembled datagram if it completed one. */
  decoded(i: number): Decoded {
    const f = this.frames[i]!;
    return decodeFrame(f.bytes, this.reassembled.get(i)?.payload ?? null, f.ethernet);
  }

  private allRecords: FrameRecord[] | null = null;

  /** What the capture pass learnt about every frame, built on first use. */
  get records(): readonly FrameRecord[] {
    return (this.allRecords ??= this.frames.map((_, i) => this.record(i)));
  }

  /** What the capture pass learnt about frame `i` (0-based). */
  record(i: number): FrameRecord {
    const rec: FrameRecord = { tcp: this.tcpResults[i] ?? null };
    if (this.udpStreams[i]! >= 0) {
      rec.udpStream = this.udpStreams[i]!;
      rec.udpTimes = [this.udpTimes[2 * i]!, this.udpTimes[2 * i + 1]!];
    }
    const qs = this.quotedStreams.get(i);
    if (qs !== undefined) rec.quotedStream = qs;
    const qt = this.quotedTcp.get(i);
    if (qt) rec.quotedTcp = qt;
    const inFrame = this.reassembledIn.get(i);
    if (inFrame) rec.reassembledIn = inFrame;
    const re = this.reassembled.get(i);
    if (re) {
      rec.fragments = re.fragments;
      rec.pieces = re.pieces;
      rec.payload = re.payload;
    }
    const e = this.echoes.get(i);
    if (e) rec.echo = e;
    return rec;
  }

  /** `quotedTa`: the analysis printed for a segment an ICMP error quotes. */
  private row(i: number, d: Decoded, r: TcpSegmentResult | null, timeS: number, quotedTa: TcpAcked | null = null): PacketRow {
    const ipr = d.ip;
    let protocol = d.protocol;
    let info = d.info;
    let flags = quotedTa ? analysisFieldNames(quotedTa) : NO_FLAGS;
    let ta: TcpAcked | null = quotedTa;
    let tcpInfo: TcpRowInfo | undefined;
    if (d.tcp && d.tcp.stage !== 'none') {
      const c = tcpColumns(d.buf, d.tcp, r);
      protocol = c.protocol;
      info = c.info;
      ta = printedAnalysis(d.tcp, r);
      if (ta && ta.flags) flags = analysisFieldNames(ta);
      if (r) tcpInfo = tcpRow(d.tcp, r, ta);
    }
    // Info is built by concatenation: V8 keeps it as a tree of the pieces until something
    // reads its characters. Reading one flattens it, so a row holds one string, not twenty.
    info.charCodeAt(0);
    return {
      no: i + 1,
      timeS,
      source: ipr ? ipr.source : (d.eth?.srcName ?? 'N/A'),
      destination: ipr ? ipr.destination : (d.eth?.dstName ?? 'N/A'),
      protocol,
      length: d.len,
      info,
      flags,
      colour: colourFor(this.colourFacts(d, ta)),
      tcp: tcpInfo,
      icmp: undefined,
      malformed: d.malformed ?? undefined,
    };
  }

  /** The facts the colouring rules test (one scratch object, filled per frame). */
  private colourFacts(d: Decoded, ta: TcpAcked | null): ColourFacts {
    const f = this.facts;
    const ip = d.ip?.header ?? null;
    f.ipDst = ip ? ip.dstNum : -1;
    f.ipTtl = ip ? ip.ttl : -1;
    f.badTcp = ta !== null && ta.flags !== 0 && !(ta.flags & (TCP_A_WINDOW_UPDATE | TCP_A_KEEP_ALIVE | TCP_A_KEEP_ALIVE_ACK));
    f.tcp = f.tcpSynOrFin = f.tcpRst = f.tcpPort80 = f.udp = f.icmp = f.icmpError = f.badChecksum = false;
    f.arp = d.eth !== null && d.eth.type === ETHERTYPE_ARP;
    f.ethGroup = d.eth !== null && d.eth.group;
    if (d.tcp) addTcp(f, d.tcp);
    if (d.udp && !d.udp.noPorts) f.udp = true;
    // An ICMP message shorter than 6 bytes throws before Wireshark adds "icmp" to the tree.
    if (d.icmp && d.icmp.malformed !== 'early') {
      addIcmp(f, d.icmp.type);
      if (isError(d.icmp.type) && d.icmp.quotedLen > 0) {
        const q = quotedHeaders(d.buf, d.icmp.quotedOff, d.icmp.quotedLen);
        if (q.tcp) addTcp(f, q.tcp);
        if (q.udp && !q.udp.noPorts) f.udp = true;
        if (q.icmp) addIcmp(f, q.icmp.type);
      }
    }
    if (this.options.checkChecksums) {
      verifyChecksums(d.ipBytes, d);
      f.badChecksum = (ip !== null && !ip.checksumOk) || d.tcp?.checksumOk === false || d.udp?.checksumOk === false || d.icmp?.checksumOk === false;
    }
    return f;
  }
}

function addTcp(f: ColourFacts, t: TcpHeader): void {
  if (t.stage === 'none') return;
  f.tcp = true;
  if (t.sport === 80 || t.dport === 80) f.tcpPort80 = true;
  if (t.stage !== 'ports' && !t.bogusHlen) {
    if (t.flags & (TH_SYN | TH_FIN)) f.tcpSynOrFin = true;
    if (t.flags & TH_RST) f.tcpRst = true;
  }
}

function addIcmp(f: ColourFacts, type: number): void {
  f.icmp = true;
  if ((type >= 3 && type <= 5) || type === 11) f.icmpError = true;
}

function tcpRow(h: TcpHeader, r: TcpSegmentResult, ta: TcpAcked | null): TcpRowInfo {
  // Every field in the literal, so V8 keeps them in the object (no properties array);
  // absent values are undefined, which JSON and deep equality treat as absent.
  const acked = ta !== null && ta.frameAcked !== 0;
  const rto = ta !== null && ta.rtoUs !== 0;
  const dup = ta !== null && ta.dupackNum !== 0;
  return {
    stream: r.conv.stream,
    srcPort: h.sport,
    dstPort: h.dport,
    flags: h.flags,
    seqRel: r.seq,
    ackRel: r.ack,
    len: h.haveSegLen ? h.payloadLen : 0,
    nextSeqRel: r.nextSeq ?? undefined,
    winValue: h.win,
    win: r.win,
    acksFrame: acked ? ta.frameAcked : undefined,
    ackRttS: acked && ta.rttUs ? ta.rttUs / 1e6 : undefined,
    bytesInFlight: ta && ta.bytesInFlight ? ta.bytesInFlight : undefined,
    rtoS: rto ? ta.rtoUs / 1e6 : undefined,
    rtoFrame: rto ? ta.rtoFrame : undefined,
    dupAckNum: dup ? ta.dupackNum : undefined,
    dupAckFrame: dup ? ta.dupackFrame : undefined,
  };
}

/** The whole capture, both passes. */
export function analyze(frames: readonly CapturedFrame[], options?: AnalyzeOptions): CaptureAnalysis {
  return new CaptureAnalysis(frames, options).finish();
}
