// The tcptrace time-sequence graph of one direction of a connection, as data: every data
// segment a vertical bar from its relative sequence number to seq + len at the time it was
// captured (retransmissions marked), the peer's cumulative ACK as stairs, and the receive
// window's right edge (ack + window) as stairs above it. Relative numbers are Wireshark's,
// from the packet list of the capture, so the graph and the list agree.
import type { PacketRow } from '../packets/index.ts';
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

/** Largest and smallest values of the marks within [t0, t1] (stairs count from the step
 *  before the window, since it is still drawn there). */
export function seqExtent(s: SeqSeries, t0: number, t1: number): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const g of s.segments) {
    if (g.t < t0 || g.t > t1) continue;
    lo = Math.min(lo, g.seq);
    hi = Math.max(hi, g.end);
  }
  for (const line of [s.acks, s.windows]) {
    let before: StepPoint | undefined;
    for (const p of line) {
      if (p.t < t0) before = p;
      else if (p.t <= t1) {
        lo = Math.min(lo, p.v);
        hi = Math.max(hi, p.v);
      }
    }
    if (before) {
      lo = Math.min(lo, before.v);
      hi = Math.max(hi, before.v);
    }
  }
  return lo > hi ? [0, 1] : [lo, hi];
}
