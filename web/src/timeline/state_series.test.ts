import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../engine/trace_types.ts';
import { graphModel } from './graph_model.ts';
import { bytesTop, clampBytes, hostOfAddr, stateSeries, timeTop } from './state_series.ts';
import { shippedRun } from './test_runs.ts';
import { INFINITE } from './time_format.ts';

const KINDS = ['tcp.cwnd', 'tcp.ssthresh', 'tcp.rto.value', 'tcp.rto.arm', 'tcp.rto.restart', 'tcp.state', 'tcp.rto.initial'];
const ev = (time: number, kind: string, a: number, b = 0, p: Partial<TraceEvent> = {}): TraceEvent => ({
  time, seq: 0, kind: KINDS.indexOf(kind), host: 0, conn: 0, lport: 5000, rport: 80, a, b, c: 0, d: 0, cause: 0, ...p,
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
    expect(s.cwnd).toEqual([{ t: 0, v: 2920 }, { t: 60_000, v: 4380 }, { t: 1_000_000, v: 1460 }]);
    expect(s.ssthresh).toEqual([{ t: 0, v: INFINITE }, { t: 1_000_000, v: 2190 }]);
    // the initial RTO from the first timer on, then each sample's; srtt only from samples
    expect(s.rto).toEqual([{ t: 0, v: 1_000_000 }, { t: 50_000, v: 300_000 }]);
    expect(s.srtt).toEqual([{ t: 50_000, v: 40_000 }]);
    expect(s.rtoArmed).toEqual([{ t: 0, v: 1_000_000 }, { t: 400_000, v: 600_000 }]);
  });

  it("axes: the infinite ssthresh does not stretch the byte axis, it is clamped to the top", () => {
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
});
