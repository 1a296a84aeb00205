// The packet list of a capture, as tshark -2 shows it with default preferences. Two passes
// like Wireshark's: the first decodes every frame in order and runs the stateful parts
// (reassembly, TCP sequence analysis, ICMP echo pairing, stream numbers); the second
// writes the rows, once "(reply in N)" and "[Reassembled in #N]" are known.
import { NO_COLOUR, colourFor, type ColourFacts } from './colour.ts';
import { analysisFieldNames, printedAnalysis, tcpColumns } from './columns.ts';
import { decodeFrame, type Decoded } from './dissect.ts';
import { EchoMatcher, type EchoPairing } from './icmp_echo.ts';
import { ICMP_ECHO, ICMP_ECHOREPLY, isError } from './icmp.ts';
import { Reassembler } from './ip_reassembly.ts';
import { quotedHeaders, type Quoted } from './quoted.ts';
import { TcpSegments, type TcpSegmentResult } from './tcp_segment.ts';
import type { CapturedFrame, PacketRow, TcpRowInfo } from './types.ts';
import { UdpStreams } from './udp_streams.ts';

export interface AnalyzeOptions {
  /** Validate IP, TCP and UDP checksums for colouring ("Checksum Errors"), which Wireshark
   *  does not do by default. Off by default, like Wireshark. */
  checkChecksums?: boolean;
}

/** Everything the first pass learnt about one frame. */
export interface FrameRecord {
  decoded: Decoded;
  tcp: TcpSegmentResult | null;
  udpStream?: number;
  /** frame number of the fragment that completed this fragment's datagram */
  reassembledIn?: number;
  /** the frames whose fragments make up the datagram this frame completed */
  fragments?: number[];
  quoted?: Quoted;
  echo?: EchoPairing;
}

export class CaptureAnalysis {
  readonly records: FrameRecord[] = [];
  readonly rows: PacketRow[] = [];

  constructor(
    readonly frames: readonly CapturedFrame[],
    readonly options: AnalyzeOptions = {},
  ) {
    const t0 = frames.length ? frames[0]!.timeUs : 0;
    const tcp = new TcpSegments();
    const udp = new UdpStreams();
    const echo = new EchoMatcher();
    const reasm = new Reassembler();
    // First pass.
    for (let i = 0; i < frames.length; i++) {
      const f = frames[i]!;
      const no = i + 1;
      let d = decodeFrame(f.bytes);
      const rec: FrameRecord = { decoded: d, tcp: null };
      const ip = d.ip?.header ?? null;
      if (d.fragment && ip) {
        const r = reasm.add(no, f.bytes, ip);
        if (r.payload) {
          d = decodeFrame(f.bytes, r.payload);
          rec.decoded = d;
          rec.fragments = r.frames;
          for (const n of r.frames) if (n !== no) this.records[n - 1]!.reassembledIn = no;
        }
      }
      if (ip && d.tcp) rec.tcp = tcp.segment({ frame: no, t: f.timeUs, src: ip.srcNum, dst: ip.dstNum }, d.tcp);
      if (ip && d.udp && !d.udp.noPorts) rec.udpStream = udp.stream(ip.srcNum, ip.dstNum, d.udp.sport, d.udp.dport);
      if (ip && d.icmp) {
        const m = d.icmp;
        if (m.type === ICMP_ECHO || m.type === ICMP_ECHOREPLY) echo.add(no, f.timeUs, ip.srcNum, ip.dstNum, m);
        if (isError(m.type) && m.quotedLen > 0) {
          rec.quoted = quotedHeaders(d.buf, m.quotedOff, m.quotedLen);
          const q = rec.quoted;
          if (q.ip?.header && q.tcp) tcp.quoted({ frame: no, t: f.timeUs, src: q.ip.header.srcNum, dst: q.ip.header.dstNum }, q.tcp);
          if (q.ip?.header && q.udp && !q.udp.noPorts) udp.stream(q.ip.header.srcNum, q.ip.header.dstNum, q.udp.sport, q.udp.dport);
        }
      }
      this.records.push(rec);
    }
    // Second pass.
    for (let i = 0; i < frames.length; i++) {
      const rec = this.records[i]!;
      const ip = rec.decoded.ip?.header ?? null;
      if (ip && rec.tcp && rec.decoded.tcp) tcp.revisit({ frame: i + 1, t: frames[i]!.timeUs, src: ip.srcNum, dst: ip.dstNum }, rec.decoded.tcp, rec.tcp);
      if (rec.decoded.icmp && ip && (rec.decoded.icmp.type === ICMP_ECHO || rec.decoded.icmp.type === ICMP_ECHOREPLY) && !rec.decoded.icmp.malformed) {
        rec.echo = echo.pairing(i + 1, rec.decoded.icmp, ip.dstNum);
      }
      this.rows.push(this.row(i, rec, (frames[i]!.timeUs - t0) / 1e6));
    }
  }

  private row(i: number, rec: FrameRecord, timeS: number): PacketRow {
    const d = rec.decoded;
    const ipr = d.ip;
    const ip = ipr?.header ?? null;
    let protocol = d.protocol;
    let info = d.info;
    let flags: string[] = [];
    let tcpInfo: TcpRowInfo | undefined;
    if (d.fragment && rec.reassembledIn) info += ` [Reassembled in #${rec.reassembledIn}]`;
    if (d.tcp && d.tcp.stage !== 'none') {
      ({ protocol, info } = tcpColumns(d.buf, d.tcp, rec.tcp));
      flags = analysisFieldNames(printedAnalysis(d.tcp, rec.tcp));
      if (rec.tcp) tcpInfo = tcpRow(d, rec.tcp);
    }
    if (rec.echo) info += rec.echo.suffix;
    const row: PacketRow = {
      no: i + 1,
      timeS,
      source: ipr ? ipr.source : 'N/A',
      destination: ipr ? ipr.destination : 'N/A',
      protocol,
      length: d.len,
      info,
      flags,
      colour: NO_COLOUR,
    };
    row.colour = colourFor(this.colourFacts(rec, flags, ip?.dstNum ?? null, ip?.ttl ?? null));
    if (tcpInfo) row.tcp = tcpInfo;
    if (rec.echo && (rec.echo.respIn || rec.echo.respTo || rec.echo.noResponse)) {
      row.icmp = {};
      if (rec.echo.respIn) row.icmp.respIn = rec.echo.respIn;
      if (rec.echo.respTo) row.icmp.respTo = rec.echo.respTo;
      if (rec.echo.noResponse) row.icmp.noResponse = true;
    }
    if (d.malformed) row.malformed = d.malformed;
    return row;
  }

  private colourFacts(rec: FrameRecord, analysis: string[], ipDst: number | null, ipTtl: number | null): ColourFacts {
    const d = rec.decoded;
    const q = rec.quoted;
    const tcpFlags: number[] = [];
    const tcpPorts: number[] = [];
    const icmpTypes: number[] = [];
    for (const t of [d.tcp, q?.tcp]) {
      if (!t || t.stage === 'none') continue;
      tcpPorts.push(t.sport, t.dport);
      if (t.stage !== 'ports' && !t.bogusHlen) tcpFlags.push(t.flags);
    }
    // An ICMP message shorter than 6 bytes throws before Wireshark adds "icmp" to the tree.
    if (d.icmp && d.icmp.malformed !== 'early') icmpTypes.push(d.icmp.type);
    if (q?.icmp) icmpTypes.push(q.icmp.type);
    let badChecksum = false;
    if (this.options.checkChecksums) {
      badChecksum = (d.ip?.header && !d.ip.header.checksumOk) || d.tcp?.checksumOk === false || d.udp?.checksumOk === false || false;
    }
    return {
      analysis,
      tcp: tcpPorts.length > 0,
      tcpFlags,
      tcpPorts,
      udp: !!(d.udp && !d.udp.noPorts) || !!(q?.udp && !q.udp.noPorts),
      icmpTypes,
      ipDst,
      ipTtl,
      badChecksum,
    };
  }
}

function tcpRow(d: Decoded, r: TcpSegmentResult): TcpRowInfo {
  const h = d.tcp!;
  const ta = printedAnalysis(h, r);
  const t: TcpRowInfo = {
    stream: r.conv.stream,
    srcPort: h.sport,
    dstPort: h.dport,
    flags: h.flags,
    seqRel: r.seq,
    ackRel: r.ack,
    seqRaw: h.seq,
    ackRaw: h.ack,
    len: h.haveSegLen ? h.payloadLen : 0,
    winValue: h.win,
    win: r.win,
  };
  if (r.nextSeq !== null) t.nextSeqRel = r.nextSeq;
  if (ta) {
    if (ta.frameAcked) {
      t.acksFrame = ta.frameAcked;
      if (ta.rttUs) t.ackRttS = ta.rttUs / 1e6;
    }
    if (ta.bytesInFlight) t.bytesInFlight = ta.bytesInFlight;
    if (ta.rtoUs !== 0) {
      t.rtoS = ta.rtoUs / 1e6;
      t.rtoFrame = ta.rtoFrame;
    }
    if (ta.dupackNum) {
      t.dupAckNum = ta.dupackNum;
      t.dupAckFrame = ta.dupackFrame;
    }
  }
  return t;
}

export function analyze(frames: readonly CapturedFrame[], options?: AnalyzeOptions): CaptureAnalysis {
  return new CaptureAnalysis(frames, options);
}
