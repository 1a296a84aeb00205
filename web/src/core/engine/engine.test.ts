// The wasm engine from TypeScript: a run's records read back whole, the engine's own errors,
// and real-time mode (bytes in and out of an external link, the clock given by the caller).
import { describe, expect, it } from 'vitest';
import { Engine, EngineScenarioError } from './engine.ts';
import { runScenario, streamScenario, type RunProgress } from './run.ts';
import { Trace } from './trace_reader.ts';
import { AppRecordKind, Fate, LinkEventKind } from './trace_types.ts';

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

  it("TCP small queues: the sender's frames wait in its socket, not on the line, and the count follows the link", async () => {
    const bulk = (tsq: number) =>
      JSON.stringify({
        version: 1,
        name: 't',
        title: 't',
        duration_ms: 20000,
        hosts: [
          { name: 'a', addr: '10.0.7.1/24', stack: { tcp_small_queues: tsq } },
          { name: 'b', addr: '10.0.7.2/24' },
        ],
        links: [{ name: 's', type: 'serial', a: 'a', b: 'b', baud: 19200, mtu: 296 }],
        apps: [
          { type: 'bulk_receiver', host: 'b' },
          { type: 'bulk_sender', host: 'a', to: 'b', bytes: 20000 },
        ],
      });
    const deepest = (r: Awaited<ReturnType<typeof runScenario>>) =>
      Math.max(0, ...r.trace.linkEvents.filter((e) => e.kind === LinkEventKind.Queue && e.dir === 0).map((e) => e.value));
    const off = await runScenario(bulk(0));
    const on = await runScenario(bulk(2));
    expect(deepest(off)).toBe(10); // the window fills the line's queue (qlen 10)
    expect(deepest(on)).toBe(1); // one on the line, one waiting
    for (const r of [off, on]) {
      const report = r.trace.apps.find((a) => a.app === 1 && a.kind === AppRecordKind.Report)!;
      expect(report.done).toBe(true);
      expect(report.bytes).toBe(20000);
    }
  });

  it('takes the trace in any slicing and gets the same records', async () => {
    const json = twoHosts([{ type: 'ping', host: 'a', to: 'b', count: 3 }]);
    const coarse = await runScenario(json, undefined, 5_000_000);
    const fine = await runScenario(json, undefined, 1_000);
    expect(fine.hash).toBe(coarse.hash);
    expect(fine.traceBytes).toEqual(coarse.traceBytes);
  });

  it('traceView and clearTrace read the records in place: the same bytes as takeTrace, and cleared', async () => {
    const json = twoHosts([{ type: 'ping', host: 'a', to: 'b', count: 3, interval_ms: 1000 }]);
    const whole = await runScenario(json);
    const engine = await Engine.create(json);
    const parts: Uint8Array[] = [];
    let done = false;
    while (!done) {
      done = engine.run(engine.nowUs + 700_000);
      parts.push(engine.traceView().slice());
      engine.clearTrace();
      expect(engine.traceView().length).toBe(0);
    }
    expect(Buffer.concat(parts).equals(Buffer.from(whole.traceBytes))).toBe(true);
    expect(engine.hash()).toBe(whole.hash);
    engine.destroy();
  });

  it("reports progress after each slice: frames so far and virtual time, up to the run's end, the hash unchanged", async () => {
    const json = twoHosts([{ type: 'ping', host: 'a', to: 'b', count: 3, interval_ms: 1000 }]);
    const whole = await runScenario(json);
    const seen: RunProgress[] = [];
    const run = await streamScenario(json, { trace: () => {}, progress: (p) => seen.push(p) }, undefined, 500_000);
    expect(run.hash).toBe(whole.hash);
    expect(seen.length).toBeGreaterThan(3);
    for (const [i, p] of seen.entries()) {
      expect(p.durationUs).toBe(5_000_000);
      if (i === 0) continue;
      expect(p.nowUs).toBeGreaterThan(seen[i - 1]!.nowUs);
      expect(p.frames).toBeGreaterThanOrEqual(seen[i - 1]!.frames);
    }
    expect(seen[0]!.frames).toBeLessThan(whole.trace.frames.length);
    expect(seen.at(-1)).toEqual({ nowUs: whole.virtualUs, durationUs: 5_000_000, frames: whole.trace.frames.length });
  });

  it('refuses an impossible value with the field named', async () => {
    await expect(Engine.create(twoHosts([], { baud: 0 }))).rejects.toThrow(/^line 1, column \d+: links\[0\]\.baud: must be an integer between 50 and 4000000$/);
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

describe('engine: applications added while a real-time world runs', () => {
  const realtime = () =>
    Engine.create(
      JSON.stringify({
        version: 1,
        name: 'rt',
        title: 'rt',
        duration_ms: 600000,
        hosts: [{ name: 'pc', addr: '10.0.7.1/24' }],
        links: [{ name: 'usb', type: 'external', a: 'pc' }],
      }),
    );

  it('a tcp_client connects, its bytes leave the port SLIP-framed at the time of the send, what comes back is data', async () => {
    const engine = await realtime();
    const trace = new Trace();
    try {
      engine.run(1000);
      expect(engine.appAdd({ type: 'tcp_client', host: 'pc', to: '10.0.7.2', port: 7 })).toBe(0);
      const [syn] = slipDecode(engine.portRead(0));
      expect(syn![33]).toBe(0x02); // SYN
      expect([...syn!.slice(16, 20)]).toEqual([10, 0, 7, 2]);
      const sport = (syn![20]! << 8) | syn![21]!;
      expect((syn![22]! << 8) | syn![23]!).toBe(7);
      const iss = u32(syn!, 24);

      engine.run(20000);
      engine.portWrite(0, slipEncode(tcpSegment(sport, 5000, iss + 1, 0x12, [])));
      expect(slipDecode(engine.portRead(0))[0]![33]).toBe(0x10); // our ACK of the SYN/ACK

      engine.run(50000);
      const sent = Uint8Array.of(0x68, 0x69, 0xc0, 0xdb, 0x0a);
      expect(engine.appSend(0, sent)).toBe(5);
      const wire = engine.portRead(0);
      expect(wire[0]).toBe(0xc0);
      expect(wire[wire.length - 1]).toBe(0xc0);
      expect(hasRun(wire, [0xdb, 0xdc, 0xdb, 0xdd])).toBe(true); // both escapes of RFC 1055
      const [data] = slipDecode(wire);
      expect([...data!.slice(40)]).toEqual([...sent]);
      expect(u32(data!, 24)).toBe(iss + 1);

      engine.run(60000);
      engine.portWrite(0, slipEncode(tcpSegment(sport, 5001, iss + 6, 0x18, [0x6f, 0x6b, 0xc0, 0x00])));
      trace.append(engine.takeTrace());
      const lines = trace.apps.filter((a) => a.kind === AppRecordKind.Line).map((a) => [a.time, a.text]);
      expect(lines).toEqual([[20000, 'Connected to 10.0.7.2:7']]);
      const got = trace.apps.filter((a) => a.kind === AppRecordKind.Data);
      expect(got).toHaveLength(1);
      expect(got[0]!.time).toBe(60000);
      expect([...got[0]!.data!]).toEqual([0x6f, 0x6b, 0xc0, 0x00]);
      const fromPc = trace.frames.filter((f) => f.dir === 0);
      // SYN, ACK, data; the ACK of "ok" waits for the delayed-ACK timer (RFC 1122 4.2.3.2)
      expect(fromPc.map((f) => f.tSent)).toEqual([1000, 20000, 50000]);
      expect(fromPc[2]!.bytes.length).toBe(45);

      engine.appClose(0);
      expect(slipDecode(engine.portRead(0))[0]![33]! & 0x01).toBe(1); // FIN
      expect(() => engine.appSend(0, sent)).toThrow('app 0: is closing');
    } finally {
      engine.destroy();
    }
  });

  it('ping to 10.0.7.2 put on the port: the echo request at once, the reply timed when it comes back', async () => {
    const engine = await realtime();
    const trace = new Trace();
    try {
      engine.run(5000);
      expect(engine.appAdd('{"type":"ping","host":"pc","to":"10.0.7.2","count":2}')).toBe(0);
      expect(engine.nextEventUs()).toBe(1005000); // the second request
      const [req] = slipDecode(engine.portRead(0));
      expect(req!.length).toBe(84);
      expect(req![20]).toBe(8); // echo request
      expect([...req!.slice(16, 20)]).toEqual([10, 0, 7, 2]);
      engine.run(35000);
      engine.portWrite(0, slipEncode(echoReplyTo(req!)));
      trace.append(engine.takeTrace());
      expect(trace.frames[0]!.tSent).toBe(5000);
      expect(trace.apps.map((a) => [a.time, a.text])).toEqual([
        [5000, 'PING 10.0.7.2 (10.0.7.2) 56(84) bytes of data.'],
        [35000, '64 bytes from 10.0.7.2: icmp_seq=1 ttl=64 time=30.0 ms'],
      ]);
      engine.appClose(0);
      trace.append(engine.takeTrace());
      const report = trace.apps.find((a) => a.kind === AppRecordKind.Report)!;
      expect(report.time).toBe(35000);
      expect(report.text).toMatch(/^--- 10\.0\.7\.2 ping statistics ---\n1 packets transmitted, 1 received, 0% packet loss, time 0ms\n/);
    } finally {
      engine.destroy();
    }
  });

  it('refuses what it cannot start, naming the field or the app', async () => {
    const engine = await realtime();
    try {
      engine.run(1000);
      expect(() => engine.appAdd({ type: 'ping', host: 'pc', to: '10.0.7.1' })).toThrow(
        new EngineScenarioError('app.to: must differ from host (10.0.7.1 is the address of host "pc")'),
      );
      expect(() => engine.appAdd({ type: 'tcp_client', host: 'pc', to: '10.0.7.2' })).toThrow('app.port: is required');
      const ping = engine.appAdd({ type: 'ping', host: 'pc', to: '10.0.7.2' });
      expect(() => engine.appSend(ping, Uint8Array.of(1))).toThrow('only a tcp_client takes bytes to send');
      expect(() => engine.appClose(ping + 1)).toThrow(`app ${ping + 1}: no such app`);
    } finally {
      engine.destroy();
    }
  });
});

function slipEncode(d: Uint8Array): Uint8Array {
  const out = [0xc0];
  for (const b of d) out.push(...(b === 0xc0 ? [0xdb, 0xdc] : b === 0xdb ? [0xdb, 0xdd] : [b]));
  out.push(0xc0);
  return Uint8Array.from(out);
}

function slipDecode(wire: Uint8Array): Uint8Array[] {
  const frames: Uint8Array[] = [];
  let cur: number[] = [];
  for (let i = 0; i < wire.length; i++) {
    const b = wire[i]!;
    if (b === 0xc0) {
      if (cur.length > 0) frames.push(Uint8Array.from(cur));
      cur = [];
    } else if (b === 0xdb) {
      cur.push(wire[++i] === 0xdc ? 0xc0 : 0xdb);
    } else cur.push(b);
  }
  return frames;
}

function hasRun(a: Uint8Array, run: number[]): boolean {
  return a.some((_, i) => run.every((b, k) => a[i + k] === b));
}

function u32(d: Uint8Array, o: number): number {
  return ((d[o]! << 24) | (d[o + 1]! << 16) | (d[o + 2]! << 8) | d[o + 3]!) >>> 0;
}

function onesSum(words: number[]): number {
  let s = 0;
  for (const w of words) s += w;
  while (s > 0xffff) s = (s & 0xffff) + (s >>> 16);
  return ~s & 0xffff;
}

function words(d: ArrayLike<number>, from: number, to: number): number[] {
  const w: number[] = [];
  for (let i = from; i < to; i += 2) w.push((d[i]! << 8) | (i + 1 < to ? d[i + 1]! : 0));
  return w;
}

/** 10.0.7.2:7 -> 10.0.7.1:dport, window 4096, checksums right (RFC 791, RFC 9293 3.1). */
function tcpSegment(dport: number, seq: number, ack: number, flags: number, data: number[]): Uint8Array {
  const d = new Uint8Array(40 + data.length);
  d.set([0x45, 0, 0, d.length, 0, 1, 0, 0, 64, 6, 0, 0, 10, 0, 7, 2, 10, 0, 7, 1]);
  d.set([0, 7, dport >> 8, dport & 0xff], 20);
  for (let i = 0; i < 4; i++) {
    d[24 + i] = (seq >>> (24 - 8 * i)) & 0xff;
    d[28 + i] = (ack >>> (24 - 8 * i)) & 0xff;
  }
  d.set([0x50, flags, 0x10, 0x00], 32);
  d.set(data, 40);
  const ip = onesSum(words(d, 0, 20));
  d[10] = ip >> 8;
  d[11] = ip & 0xff;
  const tcp = onesSum([...words(d, 12, 20), 6, d.length - 20, ...words(d, 20, d.length)]);
  d[36] = tcp >> 8;
  d[37] = tcp & 0xff;
  return d;
}

/** The echo reply to an echo request: addresses swapped, type 0, checksums redone. */
function echoReplyTo(req: Uint8Array): Uint8Array {
  const d = Uint8Array.from(req);
  d.set(req.slice(16, 20), 12);
  d.set(req.slice(12, 16), 16);
  d[10] = d[11] = 0;
  d[20] = 0;
  d[22] = d[23] = 0;
  const ip = onesSum(words(d, 0, 20));
  d[10] = ip >> 8;
  d[11] = ip & 0xff;
  const icmp = onesSum(words(d, 20, d.length));
  d[22] = icmp >> 8;
  d[23] = icmp & 0xff;
  return d;
}

/** 10.0.7.2 -> 10.0.7.1 ICMP echo request, id 0x1234, seq 1, 8 bytes of data, no SLIP specials. */
function echoRequest(): Uint8Array {
  const d = Uint8Array.of(
    0x45,
    0,
    0,
    36,
    0,
    1,
    0,
    0,
    64,
    1,
    0,
    0,
    10,
    0,
    7,
    2,
    10,
    0,
    7,
    1,
    8,
    0,
    0,
    0,
    0x12,
    0x34,
    0,
    1,
    0x70,
    0x69,
    0x6e,
    0x67,
    0x21,
    0x21,
    0x21,
    0x21,
  );
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
