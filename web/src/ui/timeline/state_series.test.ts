import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../core/engine/trace_types.ts';
import { graphModel } from './graph_model.ts';
import { bytesTop, clampBytes, hostOfAddr, maxUpTo, stateInView, stateSeries, timeTop } from './state_series.ts';
import { shippedRun } from '../../core/run/testing/test_runs.ts';
import { INFINITE } from '../../core/run/time_format.ts';

const KINDS = ['tcp.cwnd', 'tcp.ssthresh', 'tcp.rto.value', 'tcp.rto.arm', 'tcp.rto.restart', 'tcp.state', 'tcp.rto.initial'];
const ev = (time: number, kind: string, a: number, b = 0, p: Partial<TraceEvent> = {}): TraceEvent => ({
  time,
  seq: 0,
  kind: KINDS.indexOf(kind),
  host: 0,
  conn: 0,
  lport: 5000,
  rport: 80,
  a,
  b,
  c: 0,
  d: 0,
  cause: 0,
  ...p,
});

describe('state series', () => {
  const events = [
    ev(0, 'tcp.cwnd', 2920),
    ev(0, 'tcp.ssthresh', INFINITE),
    ev(0, 'tcp.rto.initial', 1_000_000),
    ev(0, 'tcp.rto.arm', 1_000_000, 1),
    ev(50_000, 'tcp.rto.value', 300_000, 40_000),
    ev(60_000, 'tcp.cwnd', 4380),
    ev(60_000, 'tcp.cwnd', 9999, 0, { host: 1 }),
    ev(60_000, 'tcp.cwnd', 8888, 0, { lport: 5001 }),
    ev(400_000, 'tcp.rto.restart', 600_000, 2),
    ev(1_000_000, 'tcp.ssthresh', 2190),
    ev(1_000_000, 'tcp.cwnd', 1460),
  ];

  it("the sender's connection only, each quantity as it changed", () => {
    const s = stateSeries(events, KINDS, 0, 5000, 80);
    expect(s.cwnd).toEqual([
      { t: 0, v: 2920 },
      { t: 60_000, v: 4380 },
      { t: 1_000_000, v: 1460 },
    ]);
    expect(s.ssthresh).toEqual([
      { t: 0, v: INFINITE },
      { t: 1_000_000, v: 2190 },
    ]);
    // the initial RTO from the first timer on, then each sample's; srtt only from samples
    expect(s.rto).toEqual([
      { t: 0, v: 1_000_000 },
      { t: 50_000, v: 300_000 },
    ]);
    expect(s.srtt).toEqual([{ t: 50_000, v: 40_000 }]);
    expect(s.rtoArmed).toEqual([
      { t: 0, v: 1_000_000 },
      { t: 400_000, v: 600_000 },
    ]);
  });

  it('axes: the infinite ssthresh does not stretch the byte axis, it is clamped to the top', () => {
    const s = stateSeries(events, KINDS, 0, 5000, 80);
    expect(bytesTop(s)).toBeCloseTo(4380 * 1.15);
    expect(clampBytes(INFINITE, 5000)).toBe(5000);
    expect(clampBytes(2190, 5000)).toBe(2190);
    expect(timeTop(s)).toBeCloseTo(1_150_000);
    expect(hostOfAddr([{ addr: 'x' }, { addr: 'y' }], 'y')).toBe(1);
  });

  it("ethernet-bulk-lossy: the sender's cwnd grows, falls after losses, ssthresh becomes finite", async () => {
    const run = await shippedRun('ethernet-bulk-lossy');
    const g = graphModel(run, { link: 0, stream: 0, from: 'a' })!;
    expect(g.senderName).toBe('sender');
    const st = g.state!;
    expect(st.cwnd.length).toBeGreaterThan(20);
    const max = Math.max(...st.cwnd.map((p) => p.v));
    expect(max).toBeGreaterThan(st.cwnd[0]!.v);
    // A loss halves the window somewhere: some step goes down.
    expect(st.cwnd.some((p, i) => i > 0 && p.v < st.cwnd[i - 1]!.v)).toBe(true);
    expect(st.ssthresh[0]!.v).toBe(INFINITE);
    expect(st.ssthresh.some((p) => p.v !== INFINITE)).toBe(true);
    expect(st.rto.length).toBeGreaterThan(0);
    expect(st.rto.every((p) => p.v >= 200_000)).toBe(true);
    // and the time-sequence graph has its retransmissions
    expect(g.seq.segments.filter((s) => s.retx).length).toBeGreaterThan(0);
    expect(g.seq.segments.at(-1)!.end).toBeGreaterThan(1_000_000);
  });

  it('with the future hidden, the axis tops come from what is at or before the horizon', () => {
    const s = stateSeries(events, KINDS, 0, 5000, 80);
    // before the cwnd grows to 4380, the byte axis knows only 2920 (the ∞ ssthresh never counts)
    expect(bytesTop(s, 50_000)).toBeCloseTo(2920 * 1.15);
    expect(bytesTop(s, 60_000)).toBeCloseTo(4380 * 1.15);
    expect(maxUpTo(s.ssthresh, 999_999)).toBe(0);
    expect(maxUpTo(s.ssthresh, 1_000_000)).toBe(2190);
    expect(maxUpTo(s.cwnd, -1)).toBe(0);
    // the armed RTO of 1 s is there from the start
    expect(timeTop(s, 0)).toBeCloseTo(1_150_000);
    const v = stateInView(s, 0, 2_000_000, 1_500_000, 55_000);
    expect(v.cwnd).toEqual([
      { t: 0, v: 2920 },
      { t: 55_000, v: 2920 },
    ]);
    expect(v.srtt).toEqual([
      { t: 50_000, v: 40_000 },
      { t: 55_000, v: 40_000 },
    ]);
    expect(v.armed).toEqual([{ t: 0, v: 1_000_000 }]);
  });

  it('ethernet-bulk-lossy hidden after 0.4 s: no point after it, every line ends on it, the axes from before it', async () => {
    const run = await shippedRun('ethernet-bulk-lossy');
    const g = graphModel(run, { link: 0, stream: 0, from: 'a' })!;
    const st = g.state!;
    const h = 400_000;
    const v = stateInView(st, g.seq.t0 - 1000, g.seq.t1 + 1000, g.seq.t1, h);
    for (const key of ['cwnd', 'ssthresh', 'rto', 'srtt'] as const) {
      expect(v[key].length, key).toBeGreaterThan(1);
      expect(
        v[key].every((p) => p.t <= h),
        key,
      ).toBe(true);
      expect(v[key].at(-1)!.t, key).toBe(h);
    }
    expect(v.armed.length).toBeGreaterThan(10);
    expect(v.armed.every((p) => p.t <= h)).toBe(true);
    // (the SYN's timer is armed before the window opens: the SYN waited for ARP, and the
    // window starts at its capture)
    expect(v.armed.length).toBe(st.rtoArmed.filter((p) => p.t >= g.seq.t0 - 1000 && p.t <= h).length);
    // The byte axis: the largest cwnd so far, not the largest of the run.
    const soFar = Math.max(...st.cwnd.filter((p) => p.t <= h).map((p) => p.v));
    expect(v.bytesTop).toBeCloseTo(Math.max(soFar, ...st.ssthresh.filter((p) => p.t <= h && p.v !== INFINITE).map((p) => p.v)) * 1.15);
    expect(bytesTop(st)).toBeGreaterThan(v.bytesTop);
  });
});
