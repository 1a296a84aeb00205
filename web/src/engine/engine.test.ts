// The wasm engine from TypeScript: a run's records read back whole, the engine's own errors,
// and real-time mode (bytes in and out of an external link, the clock given by the caller).
import { describe, expect, it } from 'vitest';
import { Engine, EngineScenarioError } from './engine.ts';
import { runScenario } from './run.ts';
import { Fate } from './trace_types.ts';

const twoHosts = (apps: unknown[], link: Record<string, unknown> = {}) =>
  JSON.stringify({
    version: 1,
    name: 't',
    title: 't',
    duration_ms: 5000,
    hosts: [
      { name: 'a', addr: '10.0.7.1/24' },
      { name: 'b', addr: '10.0.7.2/24' },
    ],
    links: [{ name: 's', type: 'serial', a: 'a', b: 'b', baud: 57600, ...link }],
    apps,
  });

describe('engine', () => {
  it('a ping over SLIP: frames with their fates, events, ping lines', async () => {
    const r = await runScenario(twoHosts([{ type: 'ping', host: 'a', to: 'b', count: 2 }]));
    expect(r.trace.frames).toHaveLength(4);
    for (const f of r.trace.frames) {
      expect(f.fate).toBe(Fate.Delivered);
      expect(f.bytes.length).toBe(84);
      expect(f.wireLen).toBe(86);
      expect(f.tEnd - f.tSent).toBe(14931);
    }
    expect(r.trace.apps.map((a) => a.text)).toContain('64 bytes from 10.0.7.2: icmp_seq=2 ttl=64 time=29.9 ms');
    expect(r.world.hosts.map((h) => h.name)).toEqual(['a', 'b']);
    expect(r.world.trace_kinds).toContain('tcp.retransmit');
  });

  it('takes the trace in any slicing and gets the same records', async () => {
    const json = twoHosts([{ type: 'ping', host: 'a', to: 'b', count: 3 }]);
    const coarse = await runScenario(json, undefined, 5_000_000);
    const fine = await runScenario(json, undefined, 1_000);
    expect(fine.hash).toBe(coarse.hash);
    expect(fine.traceBytes).toEqual(coarse.traceBytes);
  });

  it('refuses an impossible value with the field named', async () => {
    await expect(Engine.create(twoHosts([], { baud: 0 }))).rejects.toThrow(
      new EngineScenarioError('links[0].baud: must be an integer from 50 to 4000000'),
    );
  });

  it('real-time mode: a SLIP-framed echo request in, the reply out', async () => {
    const engine = await Engine.create(
      JSON.stringify({
        version: 1,
        name: 'rt',
        title: 'rt',
        duration_ms: 60000,
        hosts: [{ name: 'pc', addr: '10.0.7.1/24' }],
        links: [{ name: 'usb', type: 'external', a: 'pc' }],
      }),
    );
    try {
      const req = echoRequest();
      engine.run(1000);
      engine.portWrite(0, Uint8Array.of(0xc0, ...req, 0xc0));
      engine.run(1500);
      const out = engine.portRead(0);
      const reply = out.filter((b) => b !== 0xc0);
      expect(reply.length).toBe(req.length);
      expect(reply[20]).toBe(0); // ICMP echo reply
      expect([...reply.slice(12, 16)]).toEqual([10, 0, 7, 1]);
      expect(engine.portRead(0).length).toBe(0);
    } finally {
      engine.destroy();
    }
  });
});

/** 10.0.7.2 -> 10.0.7.1 ICMP echo request, id 0x1234, seq 1, 8 bytes of data, no SLIP specials. */
function echoRequest(): Uint8Array {
  const d = Uint8Array.of(0x45, 0, 0, 36, 0, 1, 0, 0, 64, 1, 0, 0, 10, 0, 7, 2, 10, 0, 7, 1,
    8, 0, 0, 0, 0x12, 0x34, 0, 1, 0x70, 0x69, 0x6e, 0x67, 0x21, 0x21, 0x21, 0x21);
  const sum = (from: number, to: number) => {
    let s = 0;
    for (let i = from; i < to; i += 2) s += (d[i]! << 8) | d[i + 1]!;
    while (s > 0xffff) s = (s & 0xffff) + (s >>> 16);
    return ~s & 0xffff;
  };
  const ip = sum(0, 20);
  d[10] = ip >> 8;
  d[11] = ip & 0xff;
  const icmp = sum(20, 36);
  d[22] = icmp >> 8;
  d[23] = icmp & 0xff;
  return d;
}
