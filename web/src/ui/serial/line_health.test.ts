// The line's health from real traces: a board at the wrong rate (emulated, its bits resampled),
// and silence.
import { describe, expect, it } from 'vitest';
import { Engine } from '../../core/engine/engine.ts';
import { Trace } from '../../core/engine/trace_reader.ts';
import { lineHealth } from './line_health.ts';
import { liveScenario } from './live_scenario.ts';
import { garbleForBaud } from './uart_mismatch.ts';
import { echoRequestFrame } from './warm_up.ts';

async function pageHost(): Promise<{ engine: Engine; trace: Trace }> {
  return { engine: await Engine.create(JSON.stringify(liveScenario('t'))), trace: new Trace() };
}

describe('lineHealth', () => {
  /** What a page listening at `pageBaud` makes of 20 echo requests sent by the board's UART. */
  async function heardAt(pageBaud: number) {
    const { engine, trace } = await pageHost();
    let bytesIn = 0;
    for (let i = 1; i <= 20; i++) {
      const heard = garbleForBaud(echoRequestFrame(i), 58823, pageBaud);
      bytesIn += heard.length;
      engine.run(i * 100_000);
      engine.portWrite(0, heard);
    }
    engine.run(3_000_000);
    trace.append(engine.takeTrace());
    return lineHealth(trace, engine.describe(), bytesIn, pageBaud);
  }

  it("a page at 9600 hears the board's frames as short, malformed ones: counted by reason, and named", async () => {
    const h = await heardAt(9600);
    expect(h.badTotal).toBeGreaterThanOrEqual(3);
    expect([...h.bad.keys()].every((why) => /^(slip|ip|icmp|tcp|udp):/.test(why))).toBe(true);
    expect(h.problem).toBe('Bytes arrive but most do not make frames: is the board set to 9600 baud, and running the echo firmware?');
  });

  it('a page at 115200 hears bytes with no END among them: no frame at all, and named', async () => {
    const h = await heardAt(115200);
    expect(h.framesIn).toBe(0);
    expect(h.problem).toContain('most do not make frames');
  });

  it('the right rate: every frame good, no problem', async () => {
    expect(await heardAt(57600)).toMatchObject({ framesIn: 20, badTotal: 0, problem: null });
  });

  it('a well-formed frame is not bad, and a silent line is named after three frames out', async () => {
    const { engine, trace } = await pageHost();
    engine.appAdd({ type: 'ping', host: 'pc', to: '10.0.7.2', count: 3, interval_ms: 100 });
    engine.run(500_000);
    trace.append(engine.takeTrace());
    const h = lineHealth(trace, engine.describe(), 0, 57600);
    expect(h).toMatchObject({ framesOut: 3, framesIn: 0, badTotal: 0 });
    expect(h.problem).toBe('3 frames sent and not a byte back: is the board running the echo firmware, at 57600 baud?');
  });
});
