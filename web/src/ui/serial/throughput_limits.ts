// What bounds a throughput run, read from the frames it put on the line: never from what
// today's firmware is known to do, so the figures follow any board.
//
// - The ceiling: every data segment of a full MSS answered by one ACK-only segment, each
//   direction carrying both (the echo's data comes back as the page's goes out): MSS bytes
//   of data per framed data frame plus a framed ACK frame. The MSS is the one the board
//   announced in its SYN-ACK (RFC 9293 3.7.1; 536 without the option, RFC 1122 4.2.2.6);
//   the header sizes are those of the run's segments; the framing is the link's.
// - The window: a sender has at most the receiver's advertised window unacknowledged
//   (RFC 9293 3.8.6), so a connection moves at most one window per round trip, and k
//   connections served at once k windows. The window is the one the board advertised most
//   often but none (a board may offer a connection alone more than several at once, and
//   none to a connection that waits its turn while others hold one), the round trip
//   the mean of Wireshark's tcp.analysis.ack_rtt over the board's ACKs of data, k the most
//   connections that had data on the line and an open window at the same time.
import type { TraceFrame } from '../../core/engine/trace_types.ts';
import { analyzeCapture, type PacketRow } from '../../core/packets/index.ts';
import { decodeFrame } from '../../core/packets/dissect.ts';
import { TH_ACK, TH_FIN, TH_RST, TH_SYN } from '../../core/packets/tcp.ts';
import { framedBytes, lineShare, type LiveFraming } from './serial_theory.ts';

/** RFC 1122 4.2.2.6: the MSS a host assumes when the peer's SYN carries no MSS option. */
const TCP_DEFAULT_MSS = 536;

export interface RunOnLine {
  /** the run's connections are those the page opened to board:port from this time on */
  sinceUs: number;
  board: string;
  port: number;
  framing: LiveFraming;
  baud: number;
}

export interface LineLimits {
  connections: number;
  mss: number;
  /** the board's SYN-ACK carried no MSS option (RFC 1122's default was used) */
  mssDefault: boolean;
  /** IP + TCP header bytes of a data segment and of an ACK-only one */
  dataHeader: number;
  ackHeader: number;
  /** line bytes of a full data frame and of an ACK-only frame */
  dataFrame: number;
  ackFrame: number;
  /** share of the line: MSS / (data frame + ACK frame) */
  ceiling: number;
  /** the largest window the board advertised, and the smallest but none */
  window: number;
  minWindow: number;
  /** the open window the board advertised most often (the larger of two as frequent) */
  usualWindow: number;
  /** the board's segments that closed the window: connections waiting their turn */
  zeroWindows: number;
  /** the board's SYN-ACK window(s), as first offered */
  synAckWindow: number;
  /** mean round trip from a data segment to the board's ACK of it, µs; its sample count */
  rttUs: number;
  rttSamples: number;
  /** most connections with data on the line and an open window at the same time */
  atOnce: number;
  /** share of the line `atOnce` windows per round trip allow (null without a round trip) */
  windowBound: number | null;
  /** µs the run had data on the line (some connection between its first and last data) */
  busyUs: number;
}

interface StreamSpan {
  first: number;
  last: number;
}

/** The limits of the run's connections, or null when none of them carried data. */
export function lineLimits(frames: readonly TraceFrame[], run: RunOnLine): LineLimits | null {
  const rows = analyzeCapture(frames.map((f) => ({ timeUs: f.tSent, bytes: f.bytes, ethernet: f.ethernet })));
  const streams = runStreams(frames, rows, run);
  const spans = new Map<number, StreamSpan>();
  let boardMss: number | null = null;
  let dataHeader = 0;
  let ackHeader = 0;
  let window = 0;
  let minWindow = Infinity;
  let synAckWindow = 0;
  const windows = new Map<number, number>();
  let rttSum = 0;
  let rttSamples = 0;
  rows.forEach((row, i) => {
    const tcp = row.tcp;
    if (!tcp || !streams.has(tcp.stream)) return;
    const d = decodeFrame(frames[i]!.bytes, null, frames[i]!.ethernet);
    if (!d.ip?.header || !d.tcp) return;
    const header = d.ip.header.hlen + d.tcp.hlen;
    const fromBoard = row.source === run.board;
    const t = frames[i]!.tSent;
    if (tcp.len > 0) {
      dataHeader = Math.max(dataHeader, header);
      const s = spans.get(tcp.stream);
      if (s) s.last = t;
      else spans.set(tcp.stream, { first: t, last: t });
    } else if ((tcp.flags & (TH_SYN | TH_FIN | TH_RST)) === 0 && tcp.flags & TH_ACK) ackHeader = Math.max(ackHeader, header);
    if (!fromBoard || tcp.flags & TH_RST) return;
    const win = tcp.win >= 0 ? tcp.win : tcp.winValue;
    window = Math.max(window, win);
    if (win > 0) minWindow = Math.min(minWindow, win);
    windows.set(win, (windows.get(win) ?? 0) + 1);
    if (tcp.flags & TH_SYN) {
      boardMss ??= d.tcp.options?.mss ?? null;
      synAckWindow = Math.max(synAckWindow, win);
    }
    // the round trip of data (the SYN-ACK's and a FIN's ACK have one too: not a window's)
    const acked = tcp.acksFrame !== undefined ? rows[tcp.acksFrame - 1]?.tcp : undefined;
    if (tcp.ackRttS !== undefined && acked && acked.len > 0) {
      rttSum += tcp.ackRttS * 1e6;
      rttSamples++;
    }
  });
  if (dataHeader === 0) return null;
  // no ACK-only segment seen: one would be a data segment's header alone
  if (ackHeader === 0) ackHeader = dataHeader;
  const mss = boardMss ?? TCP_DEFAULT_MSS;
  const dataFrame = framedBytes(mss + dataHeader, run.framing);
  const ackFrame = framedBytes(ackHeader, run.framing);
  const busyUs = busyTime([...spans.values()]);
  const atOnce = holdingAtOnce(frames, rows, streams, spans, run.board);
  const rttUs = rttSamples ? rttSum / rttSamples : 0;
  const zeroWindows = windows.get(0) ?? 0;
  windows.delete(0);
  const usualWindow = mostFrequent(windows);
  return {
    connections: streams.size,
    mss,
    mssDefault: boardMss === null,
    dataHeader,
    ackHeader,
    dataFrame,
    ackFrame,
    ceiling: mss / (dataFrame + ackFrame),
    window,
    minWindow: Number.isFinite(minWindow) ? minWindow : 0,
    usualWindow,
    zeroWindows,
    synAckWindow,
    rttUs,
    rttSamples,
    atOnce,
    windowBound: rttUs > 0 ? lineShare((atOnce * usualWindow) / (rttUs / 1e6), run.baud) : null,
    busyUs,
  };
}

/** The key counted most often; of two as frequent, the larger. */
function mostFrequent(counts: Map<number, number>): number {
  let best = 0;
  let bestCount = 0;
  for (const [key, count] of counts) if (count > bestCount || (count === bestCount && key > best)) [best, bestCount] = [key, count];
  return best;
}

/** The TCP streams the page opened to board:port (its first SYN) at or after run.sinceUs. */
function runStreams(frames: readonly TraceFrame[], rows: PacketRow[], run: RunOnLine): Set<number> {
  const streams = new Set<number>();
  rows.forEach((row, i) => {
    const tcp = row.tcp;
    if (!tcp || (tcp.flags & (TH_SYN | TH_ACK)) !== TH_SYN) return;
    if (row.destination === run.board && tcp.dstPort === run.port && frames[i]!.tSent >= run.sinceUs) streams.add(tcp.stream);
  });
  return streams;
}

/**
 * The most connections at one instant within their data on the line and holding an open
 * window of the board's (the last it advertised them, not 0): a board that serves some
 * at a time closes the others' windows while they wait their turn.
 */
function holdingAtOnce(frames: readonly TraceFrame[], rows: PacketRow[], streams: Set<number>, spans: Map<number, StreamSpan>, board: string): number {
  const open = new Set<number>();
  let most = 0;
  rows.forEach((row, i) => {
    const tcp = row.tcp;
    if (!tcp || !streams.has(tcp.stream)) return;
    if (row.source === board && !(tcp.flags & TH_RST)) {
      const win = tcp.win >= 0 ? tcp.win : tcp.winValue;
      if (win > 0) open.add(tcp.stream);
      else open.delete(tcp.stream);
    }
    const t = frames[i]!.tSent;
    let now = 0;
    for (const stream of open) {
      const s = spans.get(stream);
      if (s && s.first <= t && t <= s.last) now++;
    }
    most = Math.max(most, now);
  });
  return most;
}

/** The time covered by at least one span. */
function busyTime(spans: StreamSpan[]): number {
  // at equal times starts come first, so that a span of one segment opens before it closes
  const edges = spans
    .flatMap((s) => [
      { t: s.first, d: 1 },
      { t: s.last, d: -1 },
    ])
    .sort((a, b) => a.t - b.t || b.d - a.d);
  let open = 0;
  let busyUs = 0;
  let since = 0;
  for (const e of edges) {
    if (e.d > 0 && open === 0) since = e.t;
    open += e.d;
    if (open === 0) busyUs += e.t - since;
  }
  return busyUs;
}
