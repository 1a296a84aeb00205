// The tcptrace time-sequence graph of one direction of a connection, as data: every data
// segment a vertical bar from its relative sequence number to seq + len at the time it was
// captured (retransmissions marked), the peer's cumulative ACK as stairs, and the receive
// window's right edge (ack + window) as stairs above it. Relative numbers are Wireshark's,
// from the packet list of the capture, so the graph and the list agree.
import type { PacketRow } from '../../core/packets/index.ts';
import { lowerBound, upperBound } from '../../core/util/interval_index.ts';
import { pointsIn, stepsInView, timesOf, type TV } from './steps.ts';
import { sameEndpoint, type Endpoint } from './tcp_streams.ts';

export interface SeqSegment {
  t: number;
  seq: number;
  end: number;
  retx: boolean;
  frameId: number;
}

export interface StepPoint {
  t: number;
  v: number;
  frameId: number;
}

export interface SeqSeries {
  segments: SeqSegment[];
  acks: StepPoint[];
  windows: StepPoint[];
  /** first and last capture time of the stream (both directions) */
  t0: number;
  t1: number;
}

/** A capture as the graphs read it: row k was captured at times[k] and is frame ids[k]. */
export interface SeqInput {
  rows: readonly PacketRow[];
  times: readonly number[];
  ids: readonly number[];
  /** the stack's word on row k (the frame, or the frame a bridge forwarded, re-sent data) */
  stackRetx: (k: number) => boolean;
}

const TH_ACK = 0x10;
const WIRESHARK_RETX = ['tcp.analysis.retransmission', 'tcp.analysis.fast_retransmission', 'tcp.analysis.spurious_retransmission'];

export function seqSeries(input: SeqInput, stream: number, from: Endpoint): SeqSeries {
  const out: SeqSeries = { segments: [], acks: [], windows: [], t0: Infinity, t1: -Infinity };
  input.rows.forEach((r, k) => {
    const t = r.tcp;
    if (!t || t.stream !== stream) return;
    const time = input.times[k]!;
    out.t0 = Math.min(out.t0, time);
    out.t1 = Math.max(out.t1, time);
    if (sameEndpoint(r, from)) {
      if (t.len > 0) {
        const retx = input.stackRetx(k) || r.flags.some((f) => WIRESHARK_RETX.includes(f));
        out.segments.push({ t: time, seq: t.seqRel, end: t.seqRel + t.len, retx, frameId: input.ids[k]! });
      }
    } else if (t.flags & TH_ACK) {
      out.acks.push({ t: time, v: t.ackRel, frameId: input.ids[k]! });
      const win = t.win >= 0 ? t.win : t.winValue;
      out.windows.push({ t: time, v: t.ackRel + win, frameId: input.ids[k]! });
    }
  });
  if (out.t0 > out.t1) out.t0 = out.t1 = 0;
  return out;
}

/** How far the window line may reach above the data (in spans of the data in view) before
 *  the axis stops following it: a window far above a few segments would flatten them
 *  (without segments in view there is nothing to flatten). */
const WINDOW_ROOM = 4;

export interface SeqExtent {
  lo: number;
  hi: number;
  /** the window line runs off the top */
  windowClipped: boolean;
}

/** The range of sequence numbers in [t0, t1]: data and ACKs, and the window line unless it
 *  is far above them (stairs count from the step before the window: it is still drawn). */
export function seqExtent(s: SeqSeries, t0: number, t1: number): SeqExtent {
  let lo = Infinity;
  let hi = -Infinity;
  const segs = pointsIn(s.segments, t0, t1);
  for (const g of segs) {
    lo = Math.min(lo, g.seq);
    hi = Math.max(hi, g.end);
  }
  for (const v of stairValues(s.acks, t0, t1)) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  let winLo = Infinity;
  let winHi = -Infinity;
  for (const v of stairValues(s.windows, t0, t1)) {
    winLo = Math.min(winLo, v);
    winHi = Math.max(winHi, v);
  }
  if (lo > hi) return winLo > winHi ? { lo: 0, hi: 1, windowClipped: false } : { lo: winLo, hi: winHi, windowClipped: false };
  if (segs.length && winHi > hi && winHi - lo > WINDOW_ROOM * Math.max(1, hi - lo)) return { lo, hi, windowClipped: true };
  return { lo: Math.min(lo, winLo), hi: Math.max(hi, winHi), windowClipped: false };
}

/** The values a stair line shows in [t0, t1]: its changes there and the one it holds from before. */
function stairValues(line: readonly StepPoint[], t0: number, t1: number): number[] {
  const times = timesOf(line);
  const last = upperBound(times, t1);
  const first = Math.max(0, Math.min(lowerBound(times, t0), last) - 1);
  return line.slice(first, last).map((p) => p.v);
}

/** What the time-sequence graph draws of a time window. */
export interface SeqView {
  segments: SeqSegment[];
  acks: TV[];
  windows: TV[];
  extent: SeqExtent;
}

/** The time window [t0, t1] when nothing after `horizon` may show (the cursor, with the
 *  future hidden; Infinity otherwise): the data and the stairs end there, and the sequence
 *  axis fits only what is drawn, so its top does not tell how far the transfer goes. */
export function seqInView(s: SeqSeries, t0: number, t1: number, horizon: number): SeqView {
  const end = Math.min(t1, horizon);
  return {
    segments: pointsIn(s.segments, t0, end),
    acks: stepsInView(s.acks, t0, end, s.t1),
    windows: stepsInView(s.windows, t0, end, s.t1),
    extent: seqExtent(s, t0, end),
  };
}
