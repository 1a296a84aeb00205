// The Protocol and Info columns of TCP frames, in tshark 4.0's words: the ports, flags,
// relative Seq/Ack, scaled Win, Urg, Len and the options' words, with the analysis
// prefixes in front ("[TCP Dup ACK 7#1] ") and, for a payload an application dissector
// takes, that dissector's Info after the prefixes ("[TCP Window Full] Request").
import { appProtocol } from './ports.ts';
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
import { CONTAINED_BOUNDS, optionsInfo } from './tcp_options.ts';
import type { TcpSegmentResult } from './tcp_segment.ts';
import { TH_ACK, TH_RST, TH_URG, tcpFlagsString, type TcpHeader } from './tcp.ts';

/** The analysis flags Wireshark prints for a frame: the segment's flags, unless the
 *  dissection stopped before the analysis was printed (bogus header, truncated). */
export function printedAnalysis(h: TcpHeader, r: TcpSegmentResult | null): TcpAcked | null {
  if (!r || !r.ta || h.bogusHlen || h.stage !== 'full' || h.malformed) return null;
  return r.ta;
}

/** Each flag with the tcp.analysis.* fields it makes present (the expert infos of fast and
 *  spurious retransmissions include tcp.analysis.retransmission), in Wireshark's order. */
const FIELDS: [number, string[]][] = [
  [TCP_A_RETRANSMISSION, ['tcp.analysis.retransmission']],
  [TCP_A_FAST_RETRANSMISSION, ['tcp.analysis.fast_retransmission', 'tcp.analysis.retransmission']],
  [TCP_A_SPURIOUS_RETRANSMISSION, ['tcp.analysis.spurious_retransmission', 'tcp.analysis.retransmission']],
  [TCP_A_OUT_OF_ORDER, ['tcp.analysis.out_of_order']],
  [TCP_A_LOST_PACKET, ['tcp.analysis.lost_segment']],
  [TCP_A_ACK_LOST_PACKET, ['tcp.analysis.ack_lost_segment']],
  [TCP_A_DUPLICATE_ACK, ['tcp.analysis.duplicate_ack']],
  [TCP_A_ZERO_WINDOW, ['tcp.analysis.zero_window']],
  [TCP_A_ZERO_WINDOW_PROBE, ['tcp.analysis.zero_window_probe']],
  [TCP_A_ZERO_WINDOW_PROBE_ACK, ['tcp.analysis.zero_window_probe_ack']],
  [TCP_A_WINDOW_FULL, ['tcp.analysis.window_full']],
  [TCP_A_WINDOW_UPDATE, ['tcp.analysis.window_update']],
  [TCP_A_KEEP_ALIVE, ['tcp.analysis.keep_alive']],
  [TCP_A_KEEP_ALIVE_ACK, ['tcp.analysis.keep_alive_ack']],
  [TCP_A_REUSED_PORTS, ['tcp.analysis.reused_ports']],
];

/** The tcp.analysis.* field names present for these flags, without duplicates. */
export function analysisFieldNames(ta: TcpAcked | null): string[] {
  if (!ta || !ta.flags) return [];
  const out: string[] = [];
  for (const [bit, names] of FIELDS) {
    if (!(ta.flags & bit)) continue;
    if (bit === TCP_A_DUPLICATE_ACK && !ta.dupackNum) continue;
    for (const n of names) if (!out.includes(n)) out.push(n);
  }
  return out;
}

/** Info's analysis prefixes. Wireshark prepends each one (col_prepend_fence_fstr) in the
 *  order of tcp_print_sequence_number_analysis(), so the last printed comes first. */
export function analysisPrefix(ta: TcpAcked | null): string {
  if (!ta || !ta.flags) return '';
  const f = ta.flags;
  let s = '';
  const pre = (x: string): void => {
    s = x + s;
  };
  if (f & TCP_A_REUSED_PORTS) pre('[TCP Port numbers reused] ');
  if (f & TCP_A_RETRANSMISSION) pre('[TCP Retransmission] ');
  if (f & TCP_A_FAST_RETRANSMISSION) pre('[TCP Fast Retransmission] ');
  if (f & TCP_A_SPURIOUS_RETRANSMISSION) pre('[TCP Spurious Retransmission] ');
  if (f & TCP_A_OUT_OF_ORDER) pre('[TCP Out-Of-Order] ');
  if (f & TCP_A_LOST_PACKET) pre('[TCP Previous segment not captured] ');
  if (f & TCP_A_ACK_LOST_PACKET) pre('[TCP ACKed unseen segment] ');
  if (f & TCP_A_WINDOW_UPDATE) pre('[TCP Window Update] ');
  if (f & TCP_A_WINDOW_FULL) pre('[TCP Window Full] ');
  if (f & TCP_A_KEEP_ALIVE) pre('[TCP Keep-Alive] ');
  if (f & TCP_A_KEEP_ALIVE_ACK) pre('[TCP Keep-Alive ACK] ');
  if (ta.dupackNum && f & TCP_A_DUPLICATE_ACK) pre(`[TCP Dup ACK ${ta.dupackFrame}#${ta.dupackNum}] `);
  if (f & TCP_A_ZERO_WINDOW_PROBE) pre('[TCP ZeroWindowProbe] ');
  if (f & TCP_A_ZERO_WINDOW) pre('[TCP ZeroWindow] ');
  if (f & TCP_A_ZERO_WINDOW_PROBE_ACK) pre('[TCP ZeroWindowProbeAck] ');
  return s;
}

/** Flags that keep the payload from the application dissector: retransmitted and
 *  out-of-order data (tcp.no_subdissector_on_error), spurious retransmissions (skipped
 *  by the reassembly code), keep-alives (shown as plain data). */
const NO_SUBDISSECTOR = TCP_A_RETRANSMISSION | TCP_A_OUT_OF_ORDER | TCP_A_SPURIOUS_RETRANSMISSION | TCP_A_KEEP_ALIVE;

/** Protocol and Info of a TCP frame. */
export function tcpColumns(b: Uint8Array, h: TcpHeader, r: TcpSegmentResult | null): { protocol: string; info: string } {
  let s = `${h.sport} \u2192 ${h.dport}`;
  if (h.stage === 'ports') return { protocol: 'TCP', info: s + '[Malformed Packet]' };
  const seq = r ? r.seq : h.seq;
  const ack = r ? r.ack : h.ack;
  const win = r ? r.win : h.win;
  s += ` [${tcpFlagsString(h.flags)}] Seq=${seq}`;
  if (h.flags & TH_ACK) s += ` Ack=${ack}`;
  s += ` Win=${win}`;
  if (h.bogusHlen) return { protocol: 'TCP', info: `${s}, bogus TCP header length (${h.hlen}, must be at least 20)` };
  if (h.stage !== 'full') return { protocol: 'TCP', info: s + '[Malformed Packet]' };
  if (h.flags & TH_URG) s += ` Urg=${h.urp}`;
  if (h.haveSegLen) s += ` Len=${h.payloadLen}`;
  if (h.options) s += optionsInfo(b, h.options, r ? r.sackBase : 0);
  // An MPTCP option names the protocol (packet-tcp.c dissect_tcpopt_mptcp).
  const proto = h.options?.mptcp ? 'MPTCP' : 'TCP';
  if (h.malformed) return { protocol: proto, info: s + (h.options?.cut === 'contained' ? `[Malformed Packet: ${CONTAINED_BOUNDS}]` : '[Malformed Packet]') };
  const ta = printedAnalysis(h, r);
  const prefix = analysisPrefix(ta);
  if (h.haveSegLen && h.payloadLen > 0 && !(h.flags & TH_RST) && !(ta && ta.flags & NO_SUBDISSECTOR)) {
    const app = appProtocol(h.sport, h.dport);
    if (app) return { protocol: app.protocol, info: prefix + app.info };
  }
  return { protocol: proto, info: prefix + s };
}
