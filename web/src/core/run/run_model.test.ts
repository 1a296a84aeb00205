import { describe, expect, it } from 'vitest';
import { shippedRun, shippedText } from './testing/test_runs.ts';
import { buildRunModel, frameSentAt, GrowingRun, stepInstant, type RunModel } from './run_model.ts';
import { runScenario, streamScenario } from '../engine/run.ts';
import { Trace } from '../engine/trace_reader.ts';
import { CaptureAnalysis } from '../packets/packet_list.ts';
import type { PacketRow } from '../packets/types.ts';
import { concatBytes } from '../util/concat_bytes.ts';

describe('stepping through a run', () => {
  it('frames are in the order sent, so a step finds the frame sent at its instant', async () => {
    const run = await shippedRun('nfc-bridge-1080');
    const frames = run.result.trace.frames;
    for (let i = 1; i < frames.length; i++) expect(frames[i]!.tSent).toBeGreaterThanOrEqual(frames[i - 1]!.tSent);
    // Walk every instant: where frames were sent, the one found was sent then, on the
    // capture point asked for when one of them crossed it.
    let t = -1;
    let found = 0;
    for (;;) {
      const next = stepInstant(run.instants, t, 1);
      if (next === t) break;
      t = next;
      const atT = frames.filter((f) => f.tSent === t);
      const f = frameSentAt(frames, t, 1);
      if (atT.length === 0) expect(f).toBeUndefined();
      else {
        found++;
        expect(f!.tSent).toBe(t);
        expect(f!.link === 1 || atT.every((g) => g.link !== 1)).toBe(true);
      }
    }
    expect(found).toBeGreaterThan(10);
  });
});

describe('the packet list of a link', () => {
  it('finds the row of each of its frames by id, and none for the frames of other links', async () => {
    const run = await shippedRun('nfc-bridge-1080');
    const { frames } = run.result.trace;
    const links = new Set(frames.map((f) => f.link));
    expect(links.size).toBeGreaterThan(1);
    for (const l of links) {
      const v = run.link(l);
      expect(v.frames).toEqual(frames.filter((f) => f.link === l));
      for (const f of frames) expect(v.rowOf.get(f.id)).toBe(f.link === l ? v.frames.indexOf(f) : undefined);
      expect(v.analysis.rows.length).toBe(v.frames.length);
    }
    expect(run.link(0).rowOf.get(0xfffffff)).toBeUndefined();
  });

  it('gives the run model every instant of frames and events, sorted and once each', async () => {
    const model = await shippedRun('ethernet-bulk-lossy');
    const run = model.result;
    const times = new Set<number>();
    for (const f of run.trace.frames) {
      times.add(f.tSent);
      if (f.tEnd) times.add(f.tEnd);
    }
    for (const e of run.trace.events) times.add(e.time);
    expect(Array.from(model.instants)).toEqual([...times].sort((a, b) => a - b));
  });
});

describe('a model that grows with its run', () => {
  /** The packet rows as text, to compare later with what they were (and fast to compare). */
  const copy = (rows: readonly PacketRow[]) => JSON.stringify(rows);

  for (const name of ['arduino-slip', 'ethernet-bulk-lossy', 'nfc-bridge-1080'] as const) {
    it(`${name}: shown slice by slice, each showing's rows are the first pass over the frames so far, unchanged by what comes after; the end is the whole run's model`, async () => {
      const json = shippedText(name);
      const whole = buildRunModel(await runScenario(json));
      const links = new Set(whole.result.trace.frames.map((f) => f.link));
      let trace = new Trace();
      let growing = new GrowingRun(trace);
      const batches: Uint8Array[] = [];
      const shown: { model: RunModel; rows: Map<number, string> }[] = [];
      let showAt = 1;
      const end = await streamScenario(
        json,
        {
          start: (world) => {
            trace = new Trace(world.links);
            growing = new GrowingRun(trace);
          },
          trace: (batch) => {
            batches.push(batch);
            trace.append(batch);
          },
          progress: (p) => {
            // shown at 1, 2, 4, 8, ... frames or more: a few showings, from the first frames on
            if (p.frames < showAt) return;
            showAt = 2 * p.frames;
            const empty = new Uint8Array(0);
            const model = growing.model({
              world: whole.result.world,
              trace: trace.prefix(),
              hash: '',
              pcapng: empty,
              traceBytes: empty,
              virtualUs: p.nowUs,
              partial: true,
            });
            shown.push({ model, rows: new Map([...links].map((l) => [l, copy(model.link(l).analysis.rows)])) });
          },
        },
        undefined,
        50_000,
      );
      const last = growing.model({ ...end, trace, traceBytes: concatBytes(batches) });
      expect(shown.length).toBeGreaterThan(2);
      for (const l of links) {
        expect(last.link(l).analysis.rows).toEqual(whole.link(l).analysis.rows);
        expect(last.link(l).frames.map((f) => f.id)).toEqual(whole.link(l).frames.map((f) => f.id));
      }
      for (const { model, rows } of shown) {
        for (const l of links) {
          const v = model.link(l);
          expect(copy(v.analysis.rows)).toBe(rows.get(l)); // unchanged by the second pass
          const first = new CaptureAnalysis(v.frames.map((f) => ({ timeUs: f.tSent, bytes: f.bytes, ethernet: f.ethernet })));
          first.more();
          expect(rows.get(l)).toBe(copy(first.rows));
          expect(v.frames.filter((f, row) => v.rowOf.get(f.id) !== row)).toEqual([]);
        }
        expect(model.result.trace.frames.every((f) => f.tSent <= model.endUs)).toBe(true);
      }
    });
  }
});
