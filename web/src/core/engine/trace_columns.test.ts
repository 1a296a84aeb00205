import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { runScenario } from './run.ts';
import { FATE_OFF, FRAME_OFF, RecordType, forEachRecord, readEvent, u64 } from './trace_reader.ts';
import { Fate, type TraceEvent, type TraceFrame } from './trace_types.ts';

const shippedText = (name: string) => readFileSync(new URL(`../scenarios/shipped/${name}.json`, import.meta.url), 'utf8');

// The frames as plain objects, read from the records one by one (the way the reader read
// them before the columns): what the columns must give back, field for field.
function objectFrames(records: Uint8Array, links: readonly { type: string }[]): TraceFrame[] {
  const out: TraceFrame[] = [];
  const byId = new Map<number, TraceFrame>();
  forEachRecord(records, (type, v, o) => {
    if (type === RecordType.Frame) {
      const link = v.getUint16(o + FRAME_OFF.link, true);
      const start = o + FRAME_OFF.fixed;
      const bytes = records.slice(start, start + v.getUint16(o + FRAME_OFF.len, true));
      const ethernet = links[link]?.type === 'ethernet';
      const f: TraceFrame = {
        id: v.getUint32(o + FRAME_OFF.id, true),
        parent: v.getUint32(o + FRAME_OFF.parent, true),
        tSent: u64(v, o + FRAME_OFF.tSent),
        link,
        dir: v.getUint8(o + FRAME_OFF.dir) as 0 | 1,
        retx: v.getUint8(o + FRAME_OFF.retx),
        faults: v.getUint8(o + FRAME_OFF.faults),
        node: v.getUint8(o + FRAME_OFF.node),
        orig: v.getUint32(o + FRAME_OFF.orig, true),
        cause: v.getUint32(o + FRAME_OFF.cause, true),
        queue: v.getUint32(o + FRAME_OFF.queue, true),
        rule: v.getUint32(o + FRAME_OFF.rule, true),
        bytes,
        ethernet,
        dgram: ethernet && bytes[12] === 0x08 && bytes[13] === 0 ? bytes.subarray(14) : ethernet ? bytes.subarray(0, 0) : bytes,
        fate: Fate.Pending,
        reason: 0,
        tWire: 0,
        tWireEnd: 0,
        tEnd: 0,
        slots: 0,
        wireLen: 0,
        firstSlot: 0,
      };
      out.push(f);
      byId.set(f.id, f);
    } else if (type === RecordType.Fate) {
      const f = byId.get(v.getUint32(o + FATE_OFF.id, true))!;
      f.fate = v.getUint8(o + FATE_OFF.fate) as Fate;
      f.tWire = u64(v, o + FATE_OFF.tWire);
      f.tWireEnd = u64(v, o + FATE_OFF.tWireEnd);
      f.tEnd = u64(v, o + FATE_OFF.tEnd);
      f.reason = v.getUint16(o + FATE_OFF.reason, true);
      f.slots = v.getUint16(o + FATE_OFF.slots, true);
      f.wireLen = v.getUint32(o + FATE_OFF.wireLen, true);
      f.firstSlot = u64(v, o + FATE_OFF.firstSlot);
    }
  });
  return out;
}

const FIELDS = ['id', 'parent', 'tSent', 'link', 'dir', 'retx', 'faults', 'node', 'orig', 'cause', 'queue', 'rule', 'ethernet', 'fate'] as const;
const FATE_FIELDS = ['reason', 'tWire', 'tWireEnd', 'tEnd', 'slots', 'wireLen', 'firstSlot'] as const;

describe('the trace as columns', () => {
  for (const name of ['ethernet-bulk-lossy', 'nfc-bridge-1080'] as const) {
    it(`gives every frame of ${name} as the records say, read in many batches`, async () => {
      // short slices: many batches, so a frame's bytes are found in the right one
      const run = await runScenario(shippedText(name), undefined, 20_000);
      const want = objectFrames(run.traceBytes, run.world.links);
      const got = run.trace.frames;
      expect(run.trace.columns.batches.length).toBeGreaterThan(5);
      expect(got.length).toBe(want.length);
      expect(run.trace.columns.length).toBe(want.length);
      expect(want.some((f) => f.fate === Fate.Dropped)).toBe(true);
      // every difference, named (one expect: a hundred thousand would take seconds)
      const diffs: string[] = [];
      const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, j) => x === b[j]);
      for (let i = 0; i < want.length; i++) {
        const w = want[i]!;
        const g = got[i]!;
        for (const k of [...FIELDS, ...FATE_FIELDS]) if (g[k] !== w[k]) diffs.push(`frame ${i} ${k}: ${g[k]} not ${w[k]}`);
        if (!same(g.bytes, w.bytes)) diffs.push(`frame ${i} bytes`);
        if (!same(g.dgram, w.dgram)) diffs.push(`frame ${i} dgram`);
        if (run.trace.frame(w.id)?.tSent !== w.tSent) diffs.push(`frame ${i} by id`);
      }
      expect(diffs.slice(0, 10)).toEqual([]);
    });
  }

  it('gives every event of ethernet-bulk-lossy as the records say', async () => {
    const run = await runScenario(shippedText('ethernet-bulk-lossy'), undefined, 20_000);
    const want: TraceEvent[] = [];
    forEachRecord(run.traceBytes, (type, v, o) => {
      if (type === RecordType.Event) want.push(readEvent(v, o));
    });
    const got = run.trace.events;
    expect(want.length).toBeGreaterThan(1000);
    expect(got.length).toBe(want.length);
    const diffs: string[] = [];
    const keys = Object.keys(want[0]!) as (keyof TraceEvent)[];
    expect(keys.length).toBe(12);
    want.forEach((w, i) => {
      for (const k of keys) if (got[i]![k] !== w[k]) diffs.push(`event ${i} ${k}: ${got[i]![k]} not ${w[k]}`);
    });
    expect(diffs.slice(0, 10)).toEqual([]);
  });
});
