import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../core/engine/trace_types.ts';
import { shippedRun } from '../../core/run/testing/test_runs.ts';
import { timerBars } from './timers.ts';

const KINDS = ['tcp.state', 'tcp.rto.arm', 'tcp.rto.restart', 'tcp.rto.stop', 'tcp.rto.expire', 'tcp.delack.arm', 'tcp.delack.fire', 'tcp.delack.cancel'];
const STATES = ['CLOSED', 'LISTEN', 'SYN_SENT', 'SYN_RECEIVED', 'ESTABLISHED'];
let seq = 0;
const ev = (time: number, kind: string, p: Partial<TraceEvent> = {}): TraceEvent => ({
  time,
  seq: seq++,
  kind: KINDS.indexOf(kind),
  host: 0,
  conn: 0,
  lport: 1000,
  rport: 7,
  a: 0,
  b: 0,
  c: 0,
  d: 0,
  cause: 0xffffffff,
  ...p,
});

describe('timer bars', () => {
  it('pairs each arm with what ended it', () => {
    const bars = timerBars(
      [
        ev(0, 'tcp.rto.arm', { a: 1_000_000, b: 1 }),
        ev(1_000_000, 'tcp.rto.expire', { a: 1_000_000, b: 1 }),
        ev(1_000_000, 'tcp.rto.arm', { a: 2_000_000, b: 2 }),
        ev(1_500_000, 'tcp.rto.restart', { a: 2_000_000, b: 3 }),
        ev(1_600_000, 'tcp.rto.stop', { a: 3 }),
        ev(1_600_000, 'tcp.delack.arm', { a: 200_000 }),
        ev(1_800_000, 'tcp.delack.fire'),
        ev(1_900_000, 'tcp.delack.arm', { a: 200_000 }),
        ev(1_950_000, 'tcp.delack.cancel'),
      ],
      KINDS,
      STATES,
      10e6,
    );
    expect(bars.map((b) => [b.kind, b.t0, b.t1, b.valueUs, b.end])).toEqual([
      ['rto', 0, 1_000_000, 1_000_000, 'expire'],
      ['rto', 1_000_000, 1_500_000, 2_000_000, 'rearm'],
      ['rto', 1_500_000, 1_600_000, 2_000_000, 'stop'],
      ['delack', 1_600_000, 1_800_000, 200_000, 'fire'],
      ['delack', 1_900_000, 1_950_000, 200_000, 'cancel'],
    ]);
  });

  it('keeps connections and hosts apart, and gives each connection of a host its own slot', () => {
    const bars = timerBars(
      [
        ev(0, 'tcp.rto.arm', { a: 100, lport: 1 }),
        ev(10, 'tcp.rto.arm', { a: 100, lport: 2, conn: 1 }),
        ev(10, 'tcp.rto.arm', { a: 100, lport: 1, host: 1 }),
        ev(50, 'tcp.rto.stop', { lport: 1 }),
      ],
      KINDS,
      STATES,
      1000,
    );
    expect(bars.map((b) => [b.host, b.slot, b.t1, b.end])).toEqual([
      [0, 0, 50, 'stop'],
      [0, 1, 110, 'open'],
      [1, 0, 110, 'open'],
    ]);
  });

  it('ends timers when the connection closes, and at the end of the run', () => {
    const bars = timerBars([ev(0, 'tcp.rto.arm', { a: 5000 }), ev(100, 'tcp.state', { a: 4, b: 0 }), ev(200, 'tcp.rto.arm', { a: 5000 })], KINDS, STATES, 3000);
    expect(bars.map((b) => [b.t1, b.end])).toEqual([
      [100, 'closed'],
      [3000, 'open'],
    ]);
  });

  it("nfc-bridge-1080: the appliance's RTO runs out on the 500 ms tick, backs off, and starts again at 1 s after an ACK", async () => {
    const run = await shippedRun('nfc-bridge-1080');
    const { world, trace } = run.result;
    const rto = timerBars(trace.events, world.trace_kinds, world.tcp_states, run.endUs).filter((b) => b.kind === 'rto' && b.host === 0);
    // lwIP's coarse timer: armed at 232 ms with 1 s, it fires on the tick at 1 s.
    const expired = rto.filter((b) => b.end === 'expire');
    // The data: 1 s, then 2 s. The response's ACK at 3.34 s ends the backoff, as lwIP's does,
    // so the FIN (lost in the busy module) runs out after 1 s, then 2 s.
    expect(expired.map((b) => [b.t1, b.valueUs])).toEqual([
      [1_000_000, 1_000_000],
      [3_000_000, 2_000_000],
      [4_000_000, 1_000_000],
      [6_000_000, 2_000_000],
    ]);
    expect(expired[0]!.t0).toBe(trace.frames[6]!.tSent); // the ACK that goes with the first data (frames 1, 2: ARP)
    for (const b of rto) expect(b.t1).toBeGreaterThanOrEqual(b.t0);
  });
});
