import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../core/engine/run.ts';
import { LinkEventKind, NONE, type TraceFrame } from '../../core/engine/trace_types.ts';
import { viewRunScenario } from '../../core/replay/replay.ts';
import { applyDefaults } from '../../core/scenarios/defaults.ts';
import type { ResolvedLink, Scenario } from '../../core/scenarios/types.ts';
import * as B from '../../core/packets/testing/build.ts';
import { fromWorld, linkInfos, linkLabel, formatRate, type LinkConfig } from './link_info.ts';
import { cslipWire, ethernetWire, fateText, nfcPausesOf, nfcWire, serialWire, tcpIpHeaderLen, wireModel } from './wire_model.ts';

function frame(bytes: Uint8Array, p: Partial<TraceFrame> = {}): TraceFrame {
  return {
    id: 0,
    parent: NONE,
    tSent: 0,
    link: 0,
    dir: 0,
    retx: 255,
    faults: 0,
    node: 0,
    orig: NONE,
    cause: NONE,
    queue: 0,
    rule: NONE,
    bytes,
    ethernet: false,
    dgram: bytes,
    fate: 0,
    reason: 0,
    tWire: 0,
    tWireEnd: 0,
    tEnd: 0,
    slots: 0,
    wireLen: 0,
    firstSlot: 0,
    ...p,
  };
}
const shipped = (name: string): Scenario => JSON.parse(readFileSync(new URL(`../../core/scenarios/shipped/${name}.json`, import.meta.url), 'utf8'));
const NFC_14 = { chunk_bytes: 14, chunk_overhead: 4, pkt_overhead: 16, slot_period_us: 10_000, slot_air_us: 1500, uart_baud: 115_200, uart_bits_per_char: 10 };

describe('hand-computed wire models', () => {
  it('SLIP: ENDs and escapes counted, leading END read from the wire length, line time', () => {
    const d = Uint8Array.from([0x45, 0xc0, 0x01, 0xdb]);
    const w = serialWire(frame(d, { wireLen: 8 }), 'slip', false, 57600, 10);
    expect(w).toMatchObject({ leadingEnd: true, ends: 2, escapes: 2, wireLen: 8, mismatch: false });
    expect(w.lineUs).toBeCloseTo((8 * 10 * 1e6) / 57600);
    expect(serialWire(frame(d, { wireLen: 7 }), 'slip', true, 57600, 10).leadingEnd).toBe(false);
    expect(serialWire(frame(d, { wireLen: 99 }), 'slip', true, 57600, 10).mismatch).toBe(true);
  });
  it('SLIP6: ceil(8n/6) characters and the ENDs', () => {
    const w = serialWire(frame(new Uint8Array(84), { wireLen: 114 }), 'slip6', true, 57600, 10);
    expect(w).toMatchObject({ leadingEnd: true, wireLen: 114, mismatch: false });
    expect(w.bytes.length).toBe(114);
  });
  it('CSLIP: the compressed header size from the wire length; whole datagrams are SLIP-sized', () => {
    const d = B.tcp({ src: '10.0.7.1', dst: '10.0.7.2', sport: 1, dport: 7, seq: 1, ack: 1, flags: 'PA', payload: 100 });
    expect(tcpIpHeaderLen(d)).toBe(40);
    // 2 ENDs + 5 header bytes + 100 payload bytes (no escapes in 'a'..'z')
    const c = cslipWire(frame(d, { wireLen: 107 }), true, 9600, 10);
    expect(c).toMatchObject({ whole: false, headerLen: 40, compressedLen: 5, slipLen: 142, datagramLen: 140 });
    expect(cslipWire(frame(d, { wireLen: 142 }), true, 9600, 10)).toMatchObject({ whole: true, compressedLen: null });
    expect(tcpIpHeaderLen(B.echo('1.1.1.1', '2.2.2.2', false, 1, 1))).toBe(0);
  });
  it('NFC: the packet in chunks of 10 bytes, one per 10 ms slot', () => {
    const cfg = fromWorld({ type: 'nfc', config: NFC_14 });
    if (cfg.type !== 'nfc') throw new Error('nfc');
    const w = nfcWire(frame(new Uint8Array(40), { slots: 6, firstSlot: 110_000, wireLen: 80 }), cfg);
    expect(w).toMatchObject({ packetLen: 56, payloadPerChunk: 10, slots: 6 });
    expect(w.chunks.map((c) => [c.from, c.to, c.slotStart, c.slotEnd])).toEqual([
      [0, 10, 110_000, 111_500],
      [10, 20, 120_000, 121_500],
      [20, 30, 130_000, 131_500],
      [30, 40, 140_000, 141_500],
      [40, 50, 150_000, 151_500],
      [50, 56, 160_000, 161_500],
    ]);
    expect(w.uartUs).toBeCloseTo((56 * 10 * 1e6) / 115200);
    expect(nfcWire(frame(new Uint8Array(40), { fate: 1 }), cfg).chunks).toEqual([]);
  });
  it('Ethernet: padding to 46 data bytes, 64-byte minimum, preamble and gap', () => {
    expect(ethernetWire(frame(new Uint8Array(54), { ethernet: true }), 10e6)).toMatchObject({
      payloadLen: 40,
      padding: 6,
      frameLen: 64,
      total: 84,
      lineUs: 67.2,
    });
    expect(ethernetWire(frame(new Uint8Array(1078), { ethernet: true }), 100e6)).toMatchObject({ payloadLen: 1064, padding: 0, frameLen: 1082, total: 1102 });
  });
  it('fate lines and link labels', () => {
    expect(fateText(frame(new Uint8Array(1), { fate: 1, reason: 1 }), ['none', 'link: transmit queue full'])).toBe('dropped: link: transmit queue full');
    expect(fateText(frame(new Uint8Array(1), { fate: 3 }), [])).toBe('in flight at the end of the run');
    expect(linkLabel('nfc', fromWorld({ type: 'nfc', config: NFC_14 }))).toBe('nfc (NFC, 11.2 kbps)');
    expect(linkLabel('nfc', fromWorld({ type: 'nfc', config: { ...NFC_14, chunk_bytes: 30 } }))).toBe('nfc (NFC, 24 kbps)');
    expect(linkLabel('s', fromWorld({ type: 'serial', config: { framing: 'cslip', leading_end: true, baud: 9600, bits_per_char: 10 } }))).toBe(
      's (CSLIP, 9600 baud)',
    );
    expect(linkLabel('eth', fromWorld({ type: 'ethernet', config: { rate_bps: 100_000_000, delay_us: 500 } }))).toBe('eth (Ethernet, 100 Mbit/s)');
    expect(formatRate(2_500_000_000)).toBe('2.5 Gbit/s');
    expect(formatRate(300)).toBe('300 bit/s');
  });
});

/** What the scenario says of a link, schema.json's defaults filled in: what the engine's
 *  description must agree with. */
function fromScenario(l: ResolvedLink): LinkConfig {
  switch (l.type) {
    case 'serial':
      return { type: 'serial', framing: l.framing, leadingEnd: l.leading_end, baud: l.baud, bitsPerChar: l.bits_per_char };
    case 'nfc':
      return {
        type: 'nfc',
        chunkBytes: l.chunk_bytes,
        chunkOverhead: l.chunk_overhead,
        pktOverhead: l.pkt_overhead,
        slotPeriodUs: l.slot_period_us,
        slotAirUs: l.slot_air_us,
        uartBaud: l.uart_baud,
        uartBitsPerChar: l.uart_bits_per_char,
      };
    case 'ethernet':
      return { type: 'ethernet', rateBps: l.rate_bps, delayUs: l.delay_us };
    case 'external':
      return { type: 'external', framing: l.framing };
  }
}

describe('against real runs of the engine', () => {
  const dir = new URL('../../core/scenarios/shipped/', import.meta.url);
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    it(`${file}: the engine's link facts are the scenario's with the schema's defaults`, async () => {
      const s = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as Scenario;
      const r = await runScenario(JSON.stringify(s));
      const resolved = applyDefaults(s).links;
      expect(r.world.links.map((l) => l.name)).toEqual(resolved.map((l) => l.name));
      expect(linkInfos(r.world).map((l) => l.config)).toEqual(resolved.map(fromScenario));
    });
  }
  it('a serial link with every field changed from its default, and an NFC link at 424 kbit/s', async () => {
    const s = shipped('nfc-bridge-1080');
    const nfc = s.links.find((l) => l.type === 'nfc');
    if (nfc?.type !== 'nfc') throw new Error('nfc');
    Object.assign(nfc, { rate_kbps: 424, slot_air_us: 1200, uart_baud: 230_400, pkt_overhead: 12 });
    const serial = shipped('arduino-slip');
    Object.assign(serial.links[0]!, { framing: 'cslip', leading_end: false, baud: 9600, bits_per_char: 11 });
    for (const sc of [s, serial]) {
      const r = await runScenario(JSON.stringify(sc));
      expect(linkInfos(r.world).map((l) => l.config)).toEqual(applyDefaults(sc).links.map(fromScenario));
    }
  });

  it('NFC, channel "a_first": a paused packet of end b has its chunks in the slots it really used (Fig. 5.6 run)', async () => {
    const replay = JSON.parse(readFileSync(new URL('../../core/scenarios/replays/nfc-bridge-sessions.json', import.meta.url), 'utf8')) as Scenario;
    const s = viewRunScenario(replay, 'fig56');
    const r = await runScenario(JSON.stringify(s));
    const nfc = r.world.links.findIndex((l) => l.type === 'nfc');
    const cfg = linkInfos(r.world)[nfc]!.config;
    const period = 10_000;
    const onNfc = r.trace.frames.filter((f) => f.link === nfc && f.slots > 0);
    // end a's packets take their slots one after another, never paused (link_nfc.h, 5)
    const aSlots = new Set(onNfc.filter((f) => f.dir === 0).flatMap((f) => Array.from({ length: f.slots }, (_, i) => f.firstSlot + i * period)));
    let paused = 0;
    for (const f of onNfc) {
      const pauses = nfcPausesOf(r.trace.linkEvents, f.id);
      const w = wireModel(f, cfg, pauses);
      if (w.kind !== 'nfc') throw new Error('nfc');
      expect(w.chunks).toHaveLength(f.slots);
      expect(w.chunks[0]!.slotStart).toBe(f.firstSlot);
      expect(w.chunks.at(-1)!.slotEnd).toBe(f.tWireEnd); // the trace's end of the last slot
      for (const [i, c] of w.chunks.entries()) {
        if (i > 0) expect(c.slotStart - w.chunks[i - 1]!.slotStart).toBeGreaterThanOrEqual(period);
        if (f.dir === 1) expect(aSlots.has(c.slotStart)).toBe(false);
      }
      if (pauses.length) {
        paused++;
        // each pause is an end-a packet's grant: its first slot and its slot count
        for (const p of pauses) expect(onNfc.some((a) => a.dir === 0 && a.firstSlot === p.time && a.slots === p.value)).toBe(true);
        const gaps = w.chunks
          .slice(1)
          .map((c, i) => c.slotStart - w.chunks[i]!.slotStart - period)
          .filter((g) => g > 0);
        expect(gaps).toEqual(pauses.map((p) => p.value * period));
        expect(w.pausedSlots).toBe(pauses.reduce((n, p) => n + p.value, 0));
      }
    }
    expect(paused).toBeGreaterThan(0);
    // the shipped scenario shares each slot both ways: nothing pauses
    const plain = await runScenario(JSON.stringify(shipped('nfc-bridge-1080')));
    expect(plain.trace.linkEvents.filter((e) => e.kind === LinkEventKind.NfcPause)).toEqual([]);
  });
  it('NFC and Ethernet: the models give the wire lengths the simulator reports', async () => {
    const s = shipped('nfc-bridge-1080');
    const r = await runScenario(JSON.stringify(s));
    const links = linkInfos(r.world);
    expect(links.map((l) => l.label)).toEqual(['nfc (NFC, 11.2 kbps)', 'eth (Ethernet, 100 Mbit/s)']);
    let checked = 0;
    for (const f of r.trace.frames) {
      const w = wireModel(f, links[f.link]!.config);
      if (w.kind === 'nfc' && f.slots) {
        expect(w.packetLen + 4 * w.slots).toBe(f.wireLen);
        expect(w.chunks.at(-1)!.to).toBe(w.packetLen);
        expect(w.chunks.at(-1)!.slotEnd).toBe(f.tWireEnd);
        checked++;
      }
      if (w.kind === 'ethernet') {
        expect(w.total).toBe(f.wireLen);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });
  for (const framing of ['slip', 'slip6', 'cslip'] as const) {
    it(`${framing}: re-encoded frames have the simulator's wire length`, async () => {
      const s = shipped('arduino-slip');
      const link = s.links[0]!;
      if (link.type !== 'serial') throw new Error('serial');
      link.framing = framing;
      if (framing === 'slip6') link.leading_end = false;
      const r = await runScenario(JSON.stringify(s));
      const info = linkInfos(r.world)[0]!;
      expect(info.label).toBe(`serial (${framing.toUpperCase()}, 57600 baud)`);
      let compressed = 0;
      for (const f of r.trace.frames) {
        if (!f.wireLen) continue;
        const w = wireModel(f, info.config);
        if (w.kind === 'cslip') {
          expect(w.wireLen).toBe(f.wireLen);
          if (!w.whole) {
            compressed++;
            expect(w.compressedLen).toBeGreaterThanOrEqual(3); // type/mask byte + TCP checksum at least
            expect(w.compressedLen).toBeLessThan(w.headerLen);
          }
        } else {
          if (w.kind !== 'slip' && w.kind !== 'slip6') throw new Error(w.kind);
          expect(w.mismatch).toBe(false);
          expect(w.leadingEnd).toBe(framing === 'slip');
          expect(w.lineUs).toBeCloseTo(f.tWireEnd - f.tWire, -1);
        }
      }
      if (framing === 'cslip') expect(compressed).toBeGreaterThan(0);
    });
  }
});
