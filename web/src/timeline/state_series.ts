// The sender's congestion and timer state over time, from its own trace events (what no
// capture shows): cwnd and ssthresh in bytes, the RTO the estimator gives and the one the
// timer was last armed with (backoff included), the smoothed RTT, in microseconds.
import type { TraceEvent } from '../engine/trace_types.ts';
import { INFINITE } from './time_format.ts';

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
    if (e.kind === cwnd) out.cwnd.push({ t: e.time, v: e.a });
    else if (e.kind === ssthresh) out.ssthresh.push({ t: e.time, v: e.a });
    else if (e.kind === arm || e.kind === restart) out.rtoArmed.push({ t: e.time, v: e.a });
    else if (e.kind === rtoInitial) out.rto.push({ t: e.time, v: e.a });
    else if (e.kind === rtoValue) {
      out.rto.push({ t: e.time, v: e.a });
      out.srtt.push({ t: e.time, v: e.b });
    }
  }
  return out;
}

/** The byte axis' top: the largest cwnd and finite ssthresh, with room above. The
 *  "infinite" ssthresh is drawn along the top instead of stretching the axis to 4 GB. */
export function bytesTop(s: StateSeries): number {
  let m = 0;
  for (const p of s.cwnd) m = Math.max(m, p.v);
  for (const p of s.ssthresh) if (p.v !== INFINITE) m = Math.max(m, p.v);
  return Math.max(1, m) * 1.15;
}

export function clampBytes(v: number, top: number): number {
  return v === INFINITE ? top : Math.min(v, top);
}

/** The seconds axis' top, in microseconds. */
export function timeTop(s: StateSeries): number {
  let m = 0;
  for (const line of [s.rto, s.rtoArmed, s.srtt]) for (const p of line) m = Math.max(m, p.v);
  return Math.max(1000, m) * 1.15;
}

/** Host index of an address (the graphs' sender), or -1 for a device outside the run. */
export function hostOfAddr(hosts: readonly { addr: string }[], addr: string): number {
  return hosts.findIndex((h) => h.addr === addr);
}
