// The sender's congestion and timer state over time, from its own trace events (what no
// capture shows): cwnd and ssthresh in bytes, the RTO the estimator gives and the one the
// timer was last armed with (backoff included), the smoothed RTT, in microseconds.
import { traceField, type TraceEvent } from '../../core/engine/trace_types.ts';
import { upperBound } from '../../core/util/interval_index.ts';
import { pointsIn, stepsInView, timesOf, type TV } from './steps.ts';
import { INFINITE } from '../../core/run/time_format.ts';

export interface ValuePoint {
  t: number;
  v: number;
}

export interface StateSeries {
  cwnd: ValuePoint[];
  /** INFINITE (0xFFFFFFFF) where the stack has no threshold yet */
  ssthresh: ValuePoint[];
  rto: ValuePoint[];
  rtoArmed: ValuePoint[];
  srtt: ValuePoint[];
}

export type StateKey = keyof StateSeries;

/** Events of `host`'s connection lport -> rport, in trace order. `kinds` is
 *  world.trace_kinds. */
export function stateSeries(events: readonly TraceEvent[], kinds: readonly string[], host: number, lport: number, rport: number): StateSeries {
  const k = (name: string) => kinds.indexOf(name);
  const cwnd = k('tcp.cwnd');
  const ssthresh = k('tcp.ssthresh');
  const rtoValue = k('tcp.rto.value');
  const rtoInitial = k('tcp.rto.initial');
  const arm = k('tcp.rto.arm');
  const restart = k('tcp.rto.restart');
  const out: StateSeries = { cwnd: [], ssthresh: [], rto: [], rtoArmed: [], srtt: [] };
  for (const e of events) {
    if (e.host !== host || e.lport !== lport || e.rport !== rport) continue;
    if (e.kind === cwnd) out.cwnd.push({ t: e.time, v: traceField(e, 'tcp.cwnd', 'cwnd') });
    else if (e.kind === ssthresh) out.ssthresh.push({ t: e.time, v: traceField(e, 'tcp.ssthresh', 'ssthresh') });
    else if (e.kind === arm || e.kind === restart)
      out.rtoArmed.push({ t: e.time, v: traceField(e, e.kind === arm ? 'tcp.rto.arm' : 'tcp.rto.restart', 'rto_us') });
    else if (e.kind === rtoInitial) out.rto.push({ t: e.time, v: traceField(e, 'tcp.rto.initial', 'rto_us') });
    else if (e.kind === rtoValue) {
      out.rto.push({ t: e.time, v: traceField(e, 'tcp.rto.value', 'rto_us') });
      out.srtt.push({ t: e.time, v: traceField(e, 'tcp.rto.value', 'srtt_us') });
    }
  }
  return out;
}

/** The byte axis' top: the largest cwnd and finite ssthresh up to `horizon`, with room
 *  above. The "infinite" ssthresh is drawn along the top instead of stretching the axis to
 *  4 GB. With the future hidden the axis grows as the cursor goes, never telling the class
 *  how large cwnd will get. */
export function bytesTop(s: StateSeries, horizon = Infinity): number {
  return Math.max(1, maxUpTo(s.cwnd, horizon), maxUpTo(s.ssthresh, horizon)) * 1.15;
}

export function clampBytes(v: number, top: number): number {
  return v === INFINITE ? top : Math.min(v, top);
}

/** The seconds axis' top up to `horizon`, in microseconds. */
export function timeTop(s: StateSeries, horizon = Infinity): number {
  return Math.max(1000, maxUpTo(s.rto, horizon), maxUpTo(s.rtoArmed, horizon), maxUpTo(s.srtt, horizon)) * 1.15;
}

// Running maxima of the finite values, made once per series: an axis top at any horizon is
// then a binary search, cheap enough for every animation frame.
const runningMax = new WeakMap<readonly ValuePoint[], Float64Array>();

/** The largest finite value at or before `horizon` (0 if none). */
export function maxUpTo(points: readonly ValuePoint[], horizon: number): number {
  let m = runningMax.get(points);
  if (!m) {
    let top = 0;
    runningMax.set(points, (m = Float64Array.from(points, (p) => (top = p.v === INFINITE ? top : Math.max(top, p.v)))));
  }
  const i = upperBound(timesOf(points), horizon) - 1;
  return i >= 0 ? m[i]! : 0;
}

/** What the state graph draws of a time window. */
export interface StateView {
  cwnd: TV[];
  ssthresh: TV[];
  rto: TV[];
  srtt: TV[];
  armed: TV[];
  bytesTop: number;
  timeTop: number;
}

/** The time window [t0, t1]: each line from the change before the window, held to `tEnd`
 *  (the connection's last packet) or to `horizon` (the cursor, with the future hidden) if
 *  sooner; the timer arms inside both; the axis tops from what is at or before `horizon`. */
export function stateInView(s: StateSeries, t0: number, t1: number, tEnd: number, horizon: number): StateView {
  const end = Math.min(t1, horizon);
  const steps = (line: readonly ValuePoint[]) => stepsInView(line, t0, end, tEnd);
  return {
    cwnd: steps(s.cwnd),
    ssthresh: steps(s.ssthresh),
    rto: steps(s.rto),
    srtt: steps(s.srtt),
    armed: pointsIn(s.rtoArmed, t0, end),
    bytesTop: bytesTop(s, horizon),
    timeTop: timeTop(s, horizon),
  };
}

/** Host index of an address (the graphs' sender), or -1 for a device outside the run. */
export function hostOfAddr(hosts: readonly { addr: string }[], addr: string): number {
  return hosts.findIndex((h) => h.addr === addr);
}
