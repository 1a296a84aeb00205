import { describe, expect, it } from 'vitest';
import { AppRecordKind, Fate, type TraceAppRecord, type TraceEvent, type TraceFrame, type WorldDescription } from '../engine/trace_types.ts';
import { measure, MetricError, type RunView } from './metrics.ts';

const world = {
  hosts: [{ name: 'pc' }, { name: 'mcu' }],
  trace_kinds: ['x', 'tcp.retransmit', 'tcp.dupack'],
} as unknown as WorldDescription;

const app = (over: Partial<TraceAppRecord>): TraceAppRecord => ({
  time: 0,
  host: 0,
  app: 0,
  kind: AppRecordKind.Line,
  done: false,
  error: 0,
  bytes: 0,
  elapsedUs: 0,
  text: '',
  ...over,
});
const ev = (kind: number, host: number): TraceEvent => ({ time: 0, seq: 0, kind, host, conn: 0, lport: 0, rport: 0, a: 0, b: 0, c: 0, d: 0, cause: 0 });

const run: RunView = {
  world,
  trace: {
    frames: [{ fate: Fate.Dropped }, { fate: Fate.Delivered }, { fate: Fate.Dropped }] as TraceFrame[],
    events: [ev(1, 0), ev(1, 0), ev(1, 1), ev(2, 1), ev(0, 0)],
    apps: [
      app({ text: '64 bytes from 10.0.7.2: icmp_seq=1 ttl=64 time=31.9 ms\n' }),
      app({ text: 'rtt min/avg/max/mdev = 31.037/31.361/31.963/0.315 ms\n' }),
      app({ app: 1, kind: AppRecordKind.Report, done: true, bytes: 1_000_000, elapsedUs: 1_068_000 }),
      app({ app: 2, kind: AppRecordKind.Report, done: false, bytes: 10, elapsedUs: 0 }),
      app({ app: 3, kind: AppRecordKind.Report, done: true, error: -9, bytes: 0, elapsedUs: 5 }),
    ],
  },
};

describe('metrics', () => {
  it("reads ping's statistics line", () => {
    expect(measure({ metric: 'ping_rtt_min_ms', app: 0 }, run)).toBe(31.037);
    expect(measure({ metric: 'ping_rtt_avg_ms', app: 0 }, run)).toBe(31.361);
    expect(measure({ metric: 'ping_rtt_max_ms', app: 0 }, run)).toBe(31.963);
  });

  it('throughput and time from the report: bytes x 8 / elapsed', () => {
    expect(measure({ metric: 'app_mbps', app: 1 }, run)).toBeCloseTo(7.491, 3);
    expect(measure({ metric: 'app_kbps', app: 1 }, run)).toBeCloseTo(7490.6, 1);
    expect(measure({ metric: 'app_elapsed_s', app: 1 }, run)).toBe(1.068);
  });

  it('apps_total_kbps: every finished app, from the first start to the last end', () => {
    // app 1: 1 000 000 B ending at 1 068 000 us after 1 068 000 us; app 4: 500 000 B from 500 000 to 2 000 000 us
    const two: RunView = {
      world,
      trace: {
        ...run.trace,
        apps: [
          ...run.trace.apps.map((a) => (a.app === 1 ? { ...a, time: 1_068_000 } : a)),
          app({ app: 4, kind: AppRecordKind.Report, done: true, bytes: 500_000, elapsedUs: 1_500_000, time: 2_000_000 }),
        ],
      },
    };
    expect(measure({ metric: 'apps_total_kbps' }, two)).toBeCloseTo((1_500_000 * 8 * 1000) / 2_000_000, 6);
    expect(() => measure({ metric: 'apps_total_kbps' }, { world, trace: { ...run.trace, apps: [] } })).toThrow(/no app finished/);
  });

  it('counts retransmissions and dup ACKs per host, dropped frames per run', () => {
    expect(measure({ metric: 'retransmissions', host: 'pc' }, run)).toBe(2);
    expect(measure({ metric: 'retransmissions', host: 'mcu' }, run)).toBe(1);
    expect(measure({ metric: 'dup_acks', host: 'mcu' }, run)).toBe(1);
    expect(measure({ metric: 'dup_acks', host: 'pc' }, run)).toBe(0);
    expect(measure({ metric: 'frames_dropped' }, run)).toBe(2);
  });

  it('a value the run does not have is a MetricError, with the reason', () => {
    expect(() => measure({ metric: 'ping_rtt_avg_ms', app: 1 }, run)).toThrow(/no rtt statistics/);
    expect(() => measure({ metric: 'app_mbps', app: 2 }, run)).toThrow(/did not finish/);
    expect(() => measure({ metric: 'app_mbps', app: 3 }, run)).toThrow(/error -9/);
    expect(() => measure({ metric: 'app_mbps', app: 9 }, run)).toThrow(MetricError);
    expect(() => measure({ metric: 'dup_acks', host: 'zz' }, run)).toThrow(MetricError);
  });
});
