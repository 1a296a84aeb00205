// The echo firmware, as built for the Uno, on the emulated board, against the wasm stack on
// one virtual clock (lockstep.ts): what the page's emulated Arduino does, with exact times.
// Every byte sent must arrive (the USART fix), the services answer as the seed's do.
import { describe, expect, it } from 'vitest';
import { Engine } from '../../core/engine/engine.ts';
import { AppRecordKind, type TraceAppRecord } from '../../core/engine/trace_types.ts';
import { EmulatedBoard } from './emulated_board.ts';
import { FIRMWARE_HEX } from './firmware_hex.ts';
import { lineHealth } from './line_health.ts';
import { Lockstep } from './testing/lockstep.ts';
import { BOARD_ADDR, liveScenario } from './live_scenario.ts';
import { pingTheoryMs } from './serial_theory.ts';
import { Trace } from '../../core/engine/trace_reader.ts';

const BOOT_US = 50_000;

async function connected(stepUs = 50): Promise<{ ls: Lockstep; trace: Trace; records: (app: number) => TraceAppRecord[] }> {
  const engine = await Engine.create(JSON.stringify(liveScenario('test')));
  const board = new EmulatedBoard(FIRMWARE_HEX);
  const ls = new Lockstep(engine, board, stepUs);
  ls.runUntil(BOOT_US);
  const trace = new Trace();
  const take = () => trace.append(engine.takeTrace());
  return { ls, trace, records: (app) => (take(), trace.apps.filter((r) => r.app === app)) };
}

describe('the echo firmware on the emulated board', () => {
  it('sets up its UART for 57600 (58823 at 16 MHz)', async () => {
    const { ls } = await connected();
    expect(ls.board.baud).toBe(58823);
  });

  it('answers 10 pings of 56 bytes in the line time plus its own work', async () => {
    const { ls, records } = await connected();
    const app = ls.engine.appAdd({ type: 'ping', host: 'pc', to: BOARD_ADDR, count: 10, size: 56, interval_ms: 100 });
    expect(ls.runUntilDone(() => records(app).some((r) => r.kind === AppRecordKind.Report), 5_000_000)).toBe(true);
    const text = records(app)
      .map((r) => r.text)
      .join('\n');
    expect(text).toContain('10 packets transmitted, 10 received, 0% packet loss');
    const [min, avg, max] = /rtt min\/avg\/max\/mdev = ([\d.]+)\/([\d.]+)\/([\d.]+)/.exec(text)!.slice(1).map(Number) as [number, number, number];
    const line = pingTheoryMs(56, ls.board.baud);
    console.log(`emulated board, ping 10 x 56 B: rtt ${min}/${avg}/${max} ms; line time at ${ls.board.baud} baud ${line.toFixed(3)} ms`);
    // the board's work (decode, checksum, reply) costs it under a millisecond at 16 MHz
    expect(min).toBeGreaterThanOrEqual(line - 0.05);
    expect(max).toBeLessThan(line + 1);
  });

  // In slices of 5 ms, as the page's worker runs it: the board sleeps between bytes and
  // must wake for each (a byte is 170 us), or the next one overwrites it.
  it('echoes 10 KB over TCP byte for byte, with no byte lost on its serial line', async () => {
    const { ls, trace, records } = await connected(5000);
    const app = ls.engine.appAdd({ type: 'tcp_echo_client', host: 'pc', to: BOARD_ADDR, port: 7, bytes: 10240 });
    expect(ls.runUntilDone(() => records(app).some((r) => r.kind === AppRecordKind.Report), 60_000_000)).toBe(true);
    const report = records(app).find((r) => r.kind === AppRecordKind.Report)!;
    expect(report.error).toBe(0);
    expect(report.bytes).toBe(10240);
    ls.runUntil(ls.nowUs + 100_000);
    expect(ls.board.rxDelivered + ls.board.rxPending).toBe(ls.bytesToBoard);
    expect(lineHealth(trace, ls.engine.describe(), ls.bytesFromBoard, 57600)).toMatchObject({ badTotal: 0, problem: null });
    // a byte lost inside the board would cost its frame, and the page's host would resend it
    expect(trace.frames.filter((f) => f.dir === 0 && f.retx !== 255)).toHaveLength(0);
    console.log(`emulated board, TCP echo 10240 B: ${(report.elapsedUs / 1e6).toFixed(2)} s`);
  });

  it('refuses port 8 with RST, and serves discard on 9', async () => {
    const { ls, records } = await connected();
    const probe = ls.engine.appAdd({ type: 'tcp_client', host: 'pc', to: BOARD_ADDR, port: 8, probe: true });
    expect(ls.runUntilDone(() => records(probe).some((r) => r.kind === AppRecordKind.Report), 2_000_000)).toBe(true);
    expect(
      records(probe)
        .map((r) => r.text)
        .join('\n'),
    ).toContain('Connection refused');
    const discard = ls.engine.appAdd({ type: 'tcp_echo_client', host: 'pc', to: BOARD_ADDR, port: 9, bytes: 1000, send_only: true });
    expect(ls.runUntilDone(() => records(discard).some((r) => r.kind === AppRecordKind.Report), 10_000_000)).toBe(true);
    expect(records(discard).find((r) => r.kind === AppRecordKind.Report)).toMatchObject({ error: 0, bytes: 1000 });
  });
});
