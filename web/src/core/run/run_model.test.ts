import { describe, expect, it } from 'vitest';
import { shippedRun } from './testing/test_runs.ts';
import { frameSentAt, stepInstant } from './run_model.ts';

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
