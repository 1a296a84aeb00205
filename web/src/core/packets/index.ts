// The packets module: dissectors, Wireshark's packet list and TCP analysis, UI-agnostic.
//
//   analyzeCapture(frames)  the packet list rows (No., Time, Source, Destination, Protocol,
//                           Length, Info, analysis flags, colour) of a capture
//   analyze(frames)         the same with the per-frame state, for details trees
//   dissect(bytes)          one frame's details tree, as if it were alone in a capture
import { frameDetails } from './details.ts';
import { analyze, type AnalysedCapture, type AnalyzeOptions } from './packet_list.ts';
import type { CapturedFrame, DetailNode, PacketRow } from './types.ts';
import type { FrameHeaders } from './details.ts';

export type { CapturedFrame, DetailNode, ExpertInfo, PacketRow, RowColour, TcpRowInfo } from './types.ts';
export type { AnalysedCapture, AnalyzeOptions, CaptureAnalysis } from './packet_list.ts';
export { analyze } from './packet_list.ts';
export { colourRules } from './colour.ts';
export { frameDetails, type FrameHeaders } from './details.ts';
export type { Ipv4Header } from './ipv4.ts';
export type { TcpHeader } from './tcp.ts';
export type { TcpOptions } from './tcp_options.ts';
export type { UdpHeader } from './udp.ts';
export type { IcmpMessage } from './icmp.ts';

/** A frame's dissection: its details tree, the values of its packet-list row, and the
 *  decoded headers. */
export interface Dissection {
  tree: DetailNode[];
  row: PacketRow;
  /** byte sources other than the frame: a node with src = k (k >= 1) points into
   *  sources[k - 1] (the reassembled datagram); nodes without src point into the frame */
  sources: { name: string; bytes: Uint8Array }[];
  /** the headers as decoded (null where the frame has none) */
  headers: FrameHeaders;
}

/** The rows Wireshark's packet list shows for a capture (frames of one link, in order). */
export function analyzeCapture(frames: readonly CapturedFrame[], options?: AnalyzeOptions): PacketRow[] {
  return analyze(frames, options).rows;
}

/** One frame's details tree and row, dissected as the only frame of a capture. */
export function dissect(bytes: Uint8Array, timeUs = 0): Dissection {
  return dissectFrame(analyze([{ timeUs, bytes }]), 1);
}

/** Frame `no` (1-based) of an analysed capture: its details tree and row. */
export function dissectFrame(a: AnalysedCapture, no: number): Dissection {
  return frameDetails(a, no);
}
