import { describe, expect, it } from 'vitest';
import { buildLadderModel } from './ladder_model.ts';
import { IntervalIndex, lowerBound, upperBound } from '../../core/util/interval_index.ts';
import { shippedRun } from '../../core/run/testing/test_runs.ts';

describe('visible window', () => {
  const spans: [number, number][] = [
    [0, 10],
    [5, 100],
    [20, 30],
    [40, 45],
    [50, 60],
    [55, 56],
  ];
  const index = new IntervalIndex(
    spans.length,
    (i) => spans[i]![0],
    (i) => spans[i]![1],
  );
  const brute = (t0: number, t1: number) => spans.flatMap(([a, b], i) => (a <= t1 && b >= t0 ? [i] : []));

  it('finds every span that meets the window, long ones included', () => {
    expect(index.query(31, 39)).toEqual([1]);
    expect(index.query(42, 52)).toEqual([1, 3, 4]);
    expect(index.query(200, 300)).toEqual([]);
    for (let t0 = -5; t0 < 110; t0 += 3) for (let w = 0; w < 40; w += 7) expect(index.query(t0, t0 + w)).toEqual(brute(t0, t0 + w));
  });

  it('keeps the order of start even when the items come out of order', () => {
    const s = [30, 10, 20];
    const ix = new IntervalIndex(
      3,
      (i) => s[i]!,
      (i) => s[i]! + 1,
    );
    expect(ix.query(0, 100)).toEqual([1, 2, 0]);
    expect(ix.bound(0, 100)).toBe(3);
  });

  it('binary searches', () => {
    const a = [1, 2, 2, 2, 5];
    expect([lowerBound(a, 2), upperBound(a, 2), lowerBound(a, 6), upperBound(a, 0)]).toEqual([1, 4, 5, 0]);
  });

  it('ethernet-bulk-lossy: the window query agrees with looking at every frame', async () => {
    const m = buildLadderModel(await shippedRun('ethernet-bulk-lossy'));
    expect(m.frames.length).toBeGreaterThan(1000);
    for (const [t0, t1] of [
      [0, 50_000],
      [1_000_000, 1_200_000],
      [5e6, 5.01e6],
      [0, m.endUs],
    ]) {
      const want = m.paths.flatMap((p, i) => (p.t0 <= t1! && p.t1 >= t0! ? [i] : []));
      expect(m.frameIndex.query(t0!, t1!)).toEqual(want);
    }
  });
});
