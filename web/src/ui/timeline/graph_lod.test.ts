import { describe, expect, it } from 'vitest';
import { beamsPerColumn, stairPerColumn } from './graph_lod.ts';

const x = (t: number) => t / 10; // 10 µs per pixel

describe('graph level of detail', () => {
  it('beams in one pixel column become one beam over their span; few beams are kept as they are', () => {
    const segs = Array.from({ length: 30 }, (_, k) => ({ t: k * 2, seq: 1000 * k, end: 1000 * k + 1000, retx: false, frameId: k }));
    const thin = beamsPerColumn(segs, x, 10);
    // t = 0..58 µs: columns 0..5, five segments each
    expect(thin.map((g) => [g.t, g.seq, g.end, g.frameId])).toEqual([0, 1, 2, 3, 4, 5].map((c) => [c * 10, c * 5000, c * 5000 + 5000, c * 5]));
    expect(segs[0]!.end).toBe(1000); // the input is left alone
    expect(beamsPerColumn(segs, x, 30)).toBe(segs);
  });

  it('a stair keeps the first, lowest, highest and last point of each column, in order', () => {
    const v = [5, 9, 1, 7, 6, 3, 3, 8];
    const pts = v.map((value, k) => ({ t: k < 5 ? k : 10 + k, v: value, frameId: k }));
    // column 0: points 0..4 (5 9 1 7 6); column 1: points 5..7 (3 3 8)
    expect(stairPerColumn(pts, x, 4).map((p) => p.frameId)).toEqual([0, 1, 2, 4, 5, 7]);
    expect(stairPerColumn(pts, x, 8)).toBe(pts);
  });
});
