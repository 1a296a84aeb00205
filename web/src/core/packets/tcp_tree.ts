// The TCP details node in Wireshark's layout and words: header fields with relative
// numbers, flags, window scaling, options, [Timestamps] and [SEQ/ACK analysis] with the
// expert infos of each analysis flag.
import { hex16, u32 } from './bytes.ts';
import {
  TCP_A_ACK_LOST_PACKET,
  TCP_A_DUPLICATE_ACK,
  TCP_A_FAST_RETRANSMISSION,
  TCP_A_KEEP_ALIVE,
  TCP_A_KEEP_ALIVE_ACK,
  TCP_A_LOST_PACKET,
  TCP_A_OUT_OF_ORDER,
  TCP_A_RETRANSMISSION,
  TCP_A_REUSED_PORTS,
  TCP_A_SPURIOUS_RETRANSMISSION,
  TCP_A_WINDOW_FULL,
  TCP_A_WINDOW_UPDATE,
  TCP_A_ZERO_WINDOW,
  TCP_A_ZERO_WINDOW_PROBE,
  TCP_A_ZERO_WINDOW_PROBE_ACK,
  type TcpAcked,
} from './tcp_analysis.ts';
import { completenessText } from './tcp_conversation.ts';
import { optionsNode } from './tcp_options_tree.ts';
import { shownCompleteness, type TcpSegmentResult } from './tcp_segment.ts';
import {
  TCP_OFF_ACK,
  TCP_OFF_CHKSUM,
  TCP_OFF_FLAGS,
  TCP_OFF_SEQ,
  TCP_OFF_URP,
  TCP_OFF_WIN,
  TH_ACK,
  TH_AE,
  TH_CWR,
  TH_ECE,
  TH_FIN,
  TH_PUSH,
  TH_RES,
  TH_RST,
  TH_SYN,
  TH_URG,
  tcpFlagsLetters,
  tcpFlagsString,
  type TcpHeader,
} from './tcp.ts';
import { bits, expertNode, field, generated, setNotSet } from './tree.ts';
import type { DetailNode, ExpertInfo } from './types.ts';

const secs = (us: number): string => `${(us / 1e6).toFixed(9)} seconds`;

/** Payload bytes as text (a RST's "reset cause", RFC 1122 4.2.2.12). */
function asciiText(b: Uint8Array, off: number, n: number): string {
  let s = '';
  for (let i = off; i < off + n && i < b.length; i++)
    s += b[i]! >= 0x20 && b[i]! < 0x7f ? String.fromCharCode(b[i]!) : '\\x' + b[i]!.toString(16).padStart(2, '0');
  return s;
}

export interface TcpTreeContext {
  r: TcpSegmentResult | null;
  /** analysis flags as printed (null when the dissection stopped before them) */
  ta: TcpAcked | null;
  inError: boolean;
  /** for a FIN: whether it initiates the closing (the peer has sent no FIN) */
  finInitiates?: boolean;
}

export function tcpNode(b: Uint8Array, h: TcpHeader, ctx: TcpTreeContext): DetailNode {
  const o = h.off;
  const r = ctx.r;
  const kids: DetailNode[] = [field(`Source Port: ${h.sport}`, o, 2, 'tcp.srcport'), field(`Destination Port: ${h.dport}`, o + 2, 2, 'tcp.dstport')];
  let label = `Transmission Control Protocol, Src Port: ${h.sport}, Dst Port: ${h.dport}`;
  const node = (): DetailNode => ({ ...field(label, o, Math.min(Math.max(h.hlen, 4), h.avail), 'tcp'), children: kids });
  if (h.stage === 'ports') {
    // A quoted segment shows its sequence number as soon as its 8 bytes are there.
    if (ctx.inError && h.avail >= 8) kids.push(field(`Sequence Number: ${u32(b, o + TCP_OFF_SEQ)}`, o + TCP_OFF_SEQ, 4, 'tcp.seq'));
    return node();
  }
  const seq = r ? r.seq : h.seq;
  const ack = r ? r.ack : h.ack;
  label += `, Seq: ${seq}`;
  // packet-tcp.c adds the raw sequence number early for a segment quoted in an ICMP error.
  if (ctx.inError) kids.push(field(`Sequence Number: ${h.seq}`, o + TCP_OFF_SEQ, 4, 'tcp.seq'));
  if (r) {
    kids.push(generated(`Stream index: ${r.conv.stream}`, 'tcp.stream'));
    kids.push(generated(`Conversation completeness: ${completenessText(shownCompleteness(r))}`, 'tcp.completeness'));
  }
  if (h.haveSegLen) kids.push(generated(`TCP Segment Len: ${h.payloadLen}`, 'tcp.len'));
  else if (!ctx.inError && h.avail < h.hlen) {
    const msg = 'Short segment. Segment/fragment does not contain a full TCP header (might be NMAP or someone else deliberately sending unusual packets)';
    kids.push({ ...field(msg, o, 0), children: [expertNode({ severity: 'warn', group: 'malformed', message: msg })] });
  }
  if (!ctx.inError) {
    // With relative numbers on, Wireshark words it so even when it could not make it relative.
    kids.push(field(`Sequence Number: ${seq}    (relative sequence number)`, o + TCP_OFF_SEQ, 4, 'tcp.seq'));
    kids.push(field(`Sequence Number (raw): ${h.seq}`, o + TCP_OFF_SEQ, 4, 'tcp.seq_raw'));
  }
  if (h.bogusHlen) {
    const hl = field(bits(b[o + TCP_OFF_FLAGS]!, 8, 0xf0, `Header Length: ${h.hlen} bytes (${h.hlen >> 2})`), o + TCP_OFF_FLAGS, 1, 'tcp.hdr_len');
    hl.children = [expertNode({ severity: 'error', group: 'protocol', message: `Bogus TCP header length (${h.hlen}, must be at least 20)` })];
    kids.push(hl);
    return node();
  }
  if (h.flags & TH_ACK) label += `, Ack: ${ack}`;
  if (h.haveSegLen) label += `, Len: ${h.payloadLen}`;
  if (r?.nextSeq != null) kids.push(generated(`Next Sequence Number: ${r.nextSeq}    (relative sequence number)`, 'tcp.nxtseq'));
  // (Worded so whenever the ACK flag is set, relative or not: relative numbers are on.)
  const relAckWords = h.flags & TH_ACK ? '    (relative ack number)' : '';
  const ackNode = field(`Acknowledgment Number: ${ack}${relAckWords}`, o + TCP_OFF_ACK, 4, 'tcp.ack');
  // A SYN/ACK acknowledging more than the SYN accepts TCP Fast Open data (RFC 7413).
  if (r && (h.flags & (TH_SYN | TH_ACK)) === (TH_SYN | TH_ACK) && ack > 1) {
    ackNode.children = [expertNode({ severity: 'note', group: 'sequence', message: 'TCP SYN-ACK accepting TFO data' })];
  }
  kids.push(ackNode);
  kids.push(field(`Acknowledgment number (raw): ${h.ack}`, o + TCP_OFF_ACK, 4, 'tcp.ack_raw'));
  kids.push(field(bits(b[o + TCP_OFF_FLAGS]!, 8, 0xf0, `Header Length: ${h.hlen} bytes (${h.hlen >> 2})`), o + TCP_OFF_FLAGS, 1, 'tcp.hdr_len'));
  kids.push(flagsNode(h, r, ctx.finInitiates));
  kids.push(field(`Window: ${h.win}`, o + TCP_OFF_WIN, 2, 'tcp.window_size_value'));
  kids.push(generated(`Calculated window size: ${r ? r.win : h.win}`, 'tcp.window_size'));
  if (r && r.scaleFactor !== null) {
    const sf = r.scaleFactor;
    const text = sf === -1 ? '-1 (unknown)' : sf === -2 ? '-2 (no window scaling used)' : String(sf);
    kids.push(generated(`Window size scaling factor: ${text}`, 'tcp.window_size_scalefactor'));
  }
  if (h.stage !== 'full') return node();
  checksumNodes(h, ctx.inError, kids);
  kids.push(field(`Urgent Pointer: ${h.urp}`, o + TCP_OFF_URP, 2, 'tcp.urgent_pointer'));
  if (h.hlen > 20 && h.options) kids.push(optionsNode(b, o + 20, h.hlen - 20, h.options, r ? r.sackBase : 0, (h.flags & TH_SYN) !== 0, ack));
  if (r) {
    kids.push({
      label: '[Timestamps]',
      range: [0, 0],
      generated: true,
      children: [
        generated(`Time since first frame in this TCP stream: ${secs(r.sinceFirstUs)}`, 'tcp.time_relative'),
        generated(`Time since previous frame in this TCP stream: ${secs(r.sincePrevUs)}`, 'tcp.time_delta'),
      ],
    });
  }
  if (h.malformed) return node();
  if (ctx.ta && r) kids.push(analysisNode(ctx.ta, r.conv.tsFirstRtt));
  // A quoted segment has no segment length, but the bytes quoted after its header are
  // still shown as its payload (and handed on, see quotedPayload).
  const n = ctx.inError ? quotedPayload(h) : h.haveSegLen ? h.payloadLen : 0;
  if (n > 0) {
    const bytes = `${n} byte${n === 1 ? '' : 's'}`;
    if (h.flags & TH_RST) {
      kids.push(field(`Reset cause: ${asciiText(b, o + h.hlen, n)}`, o + h.hlen, n, 'tcp.reset_cause'));
    } else {
      kids.push(field(`TCP payload (${bytes})`, o + h.hlen, n, 'tcp.payload'));
      // Retransmitted data is not handed to a subdissector again (desegment_tcp).
      if (ctx.ta && ctx.ta.flags & TCP_A_RETRANSMISSION && !(ctx.ta.flags & TCP_A_SPURIOUS_RETRANSMISSION)) {
        kids.push(field(`Retransmitted TCP segment data (${bytes})`, o + h.hlen, n, 'tcp.segment_data'));
      }
    }
  }
  return node();
}

/** How many bytes an ICMP error quotes after the TCP header it quotes. */
export function quotedPayload(h: TcpHeader): number {
  return h.stage === 'full' && !h.malformed && !h.bogusHlen ? Math.max(0, h.avail - h.hlen) : 0;
}

function flagsNode(h: TcpHeader, r: TcpSegmentResult | null, finInitiates: boolean | undefined): DetailNode {
  const o = h.off + TCP_OFF_FLAGS;
  const f = h.flags;
  const bit = (mask: number, name: string, expert?: ExpertInfo): DetailNode => {
    const n = field(bits(f, 12, mask, `${name}: ${setNotSet((f & mask) !== 0)}`), o, 2, 'tcp.flags');
    if (expert && f & mask) n.children = [expertNode(expert)];
    return n;
  };
  const server = r ? r.conv.serverPort : 0;
  const synExpert: ExpertInfo =
    f & TH_ACK
      ? { severity: 'chat', group: 'sequence', message: `Connection establish acknowledge (SYN+ACK): server port ${server || h.sport}` }
      : { severity: 'chat', group: 'sequence', message: `Connection establish request (SYN): server port ${server || h.dport}` };
  return {
    ...field(`Flags: 0x${f.toString(16).padStart(3, '0')} (${tcpFlagsString(f)})`, o, 2, 'tcp.flags'),
    children: [
      bit(TH_RES, 'Reserved'),
      bit(TH_AE, 'Accurate ECN'),
      bit(TH_CWR, 'Congestion Window Reduced'),
      bit(TH_ECE, 'ECN-Echo'),
      bit(TH_URG, 'Urgent'),
      bit(TH_ACK, 'Acknowledgment'),
      bit(TH_PUSH, 'Push'),
      bit(TH_RST, 'Reset', { severity: 'warn', group: 'sequence', message: 'Connection reset (RST)' }),
      bit(TH_SYN, 'Syn', synExpert),
      bit(TH_FIN, 'Fin', { severity: 'chat', group: 'sequence', message: 'Connection finish (FIN)' }),
      lettersNode(f, finInitiates),
    ],
  };
}

/** [TCP Flags: ...], which carries the closing expert info of a FIN. */
function lettersNode(f: number, finInitiates: boolean | undefined): DetailNode {
  const n = generated(`TCP Flags: ${tcpFlagsLetters(f)}`, 'tcp.flags.str');
  if (f & TH_FIN && finInitiates !== undefined) {
    const message = finInitiates ? 'This frame initiates the connection closing' : 'This frame undergoes the connection closing';
    n.children = [expertNode({ severity: 'note', group: 'sequence', message })];
  }
  return n;
}

function checksumNodes(h: TcpHeader, inError: boolean, kids: DetailNode[]): void {
  const o = h.off + TCP_OFF_CHKSUM;
  if (inError || h.checksumOk === null) {
    kids.push(field(`Checksum: ${hex16(h.checksum)} [unverified]`, o, 2, 'tcp.checksum'), generated('Checksum Status: Unverified', 'tcp.checksum.status'));
    return;
  }
  // Wireshark leaves TCP checksums unverified by default; we check, and say so.
  const ck = field(`Checksum: ${hex16(h.checksum)} [${h.checksumOk ? 'correct' : 'incorrect'}]`, o, 2, 'tcp.checksum');
  if (!h.checksumOk) ck.children = [expertNode({ severity: 'error', group: 'checksum', message: 'Bad checksum' })];
  kids.push(ck, generated(`Checksum Status: ${h.checksumOk ? 'Good' : 'Bad'}`, 'tcp.checksum.status'));
}

const EXPERTS: [number, string, ExpertInfo['severity'], string][] = [
  [TCP_A_REUSED_PORTS, 'tcp.analysis.reused_ports', 'note', 'A new tcp session is started with the same ports as an earlier session in this trace'],
  [TCP_A_RETRANSMISSION, 'tcp.analysis.retransmission', 'note', 'This frame is a (suspected) retransmission'],
  [TCP_A_FAST_RETRANSMISSION, 'tcp.analysis.fast_retransmission', 'note', 'This frame is a (suspected) fast retransmission'],
  [TCP_A_SPURIOUS_RETRANSMISSION, 'tcp.analysis.spurious_retransmission', 'note', 'This frame is a (suspected) spurious retransmission'],
  [TCP_A_OUT_OF_ORDER, 'tcp.analysis.out_of_order', 'warn', 'This frame is a (suspected) out-of-order segment'],
  [TCP_A_LOST_PACKET, 'tcp.analysis.lost_segment', 'warn', 'Previous segment(s) not captured (common at capture start)'],
  [TCP_A_ACK_LOST_PACKET, 'tcp.analysis.ack_lost_segment', 'warn', "ACKed segment that wasn't captured (common at capture start)"],
  [TCP_A_WINDOW_UPDATE, 'tcp.analysis.window_update', 'chat', 'TCP window update'],
  [TCP_A_WINDOW_FULL, 'tcp.analysis.window_full', 'warn', 'TCP window specified by the receiver is now completely full'],
  [TCP_A_KEEP_ALIVE, 'tcp.analysis.keep_alive', 'note', 'TCP keep-alive segment'],
  [TCP_A_KEEP_ALIVE_ACK, 'tcp.analysis.keep_alive_ack', 'note', 'ACK to a TCP keep-alive segment'],
  [TCP_A_ZERO_WINDOW_PROBE, 'tcp.analysis.zero_window_probe', 'note', 'TCP Zero Window Probe'],
  [TCP_A_ZERO_WINDOW, 'tcp.analysis.zero_window', 'warn', 'TCP Zero Window segment'],
  [TCP_A_ZERO_WINDOW_PROBE_ACK, 'tcp.analysis.zero_window_probe_ack', 'note', 'ACK to a TCP Zero Window Probe'],
];

/** The [SEQ/ACK analysis] subtree (tcp_print_sequence_number_analysis). */
function analysisNode(ta: TcpAcked, firstRttUs: number): DetailNode {
  const kids: DetailNode[] = [];
  if (ta.frameAcked) {
    kids.push(generated(`This is an ACK to the segment in frame: ${ta.frameAcked}`, 'tcp.analysis.acks_frame'));
    if (ta.rttUs) kids.push(generated(`The RTT to ACK the segment was: ${secs(ta.rttUs)}`, 'tcp.analysis.ack_rtt'));
  }
  if (firstRttUs) kids.push(generated(`iRTT: ${secs(firstRttUs)}`, 'tcp.analysis.initial_rtt'));
  if (ta.bytesInFlight) {
    kids.push(generated(`Bytes in flight: ${ta.bytesInFlight}`, 'tcp.analysis.bytes_in_flight'));
    kids.push(generated(`Bytes sent since last PSH flag: ${ta.pushBytesSent}`, 'tcp.analysis.push_bytes_sent'));
  }
  if (ta.flags) {
    const fk: DetailNode[] = [];
    for (const [bit, name, severity, message] of EXPERTS) {
      if (!(ta.flags & bit)) continue;
      const n = expertNode({ severity, group: 'sequence', message });
      n.field = name;
      fk.push(n);
      if (bit === TCP_A_FAST_RETRANSMISSION || bit === TCP_A_SPURIOUS_RETRANSMISSION) {
        const r = expertNode({ severity: 'note', group: 'sequence', message: 'This frame is a (suspected) retransmission' });
        r.field = 'tcp.analysis.retransmission';
        fk.push(r);
      }
      if (bit === TCP_A_RETRANSMISSION && ta.rtoUs) {
        fk.push(generated(`The RTO for this segment was: ${secs(ta.rtoUs)}`, 'tcp.analysis.rto'));
        fk.push(generated(`RTO based on delta from frame: ${ta.rtoFrame}`, 'tcp.analysis.rto_frame'));
      }
    }
    if (ta.dupackNum && ta.flags & TCP_A_DUPLICATE_ACK) {
      fk.push(generated('This is a TCP duplicate ack', 'tcp.analysis.duplicate_ack'));
    }
    kids.push({ label: '[TCP Analysis Flags]', range: [0, 0], generated: true, field: 'tcp.analysis.flags', children: fk });
    if (ta.dupackNum) {
      kids.push(generated(`Duplicate ACK #: ${ta.dupackNum}`, 'tcp.analysis.duplicate_ack_num'));
      const f = generated(`Duplicate to the ACK in frame: ${ta.dupackFrame}`, 'tcp.analysis.duplicate_ack_frame');
      f.children = [expertNode({ severity: 'note', group: 'sequence', message: `Duplicate ACK (#${ta.dupackNum})` })];
      kids.push(f);
    }
  }
  return { label: '[SEQ/ACK analysis]', range: [0, 0], generated: true, field: 'tcp.analysis', children: kids };
}
