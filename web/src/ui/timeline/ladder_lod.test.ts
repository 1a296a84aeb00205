import { describe, expect, it } from 'vitest';
import { thinByRow, type ThinBins } from './ladder_lod.ts';

/** Frames as [slot, row], frame i at position i. */
function bins(frames: [number, number][], always: number[] = []): ThinBins {
  return { slots: 4, slotOf: (i) => frames[i]![0], rowOf: (i) => frames[i]![1], always: (i) => always.includes(i) };
}

describe('ladder level of detail', () => {
  it('keeps the first frame of each slot and pixel row, the others counted into it', () => {
    // slot 0: rows 0, 0, 0, 1; slot 1 (interleaved): rows 0, 0, 2
    const frames: [number, number][] = [
      [0, 0],
      [1, 0],
      [0, 0],
      [1, 0],
      [0, 0],
      [0, 1],
      [1, 2],
    ];
    const t = thinByRow([0, 1, 2, 3, 4, 5, 6], bins(frames));
    expect(t.keep).toEqual([0, 1, 5, 6]);
    expect(t.stands).toEqual([3, 2, 1, 1]);
  });

  it('every frame is counted once, and a frame asked for stays on its own', () => {
    const frames: [number, number][] = Array.from({ length: 1000 }, (_, i) => [i % 3, Math.floor(i / 50)]);
    const visible = frames.map((_, i) => i);
    const t = thinByRow(visible, bins(frames, [503]));
    expect(t.stands.reduce((a, b) => a + b, 0)).toBe(1000);
    // 20 rows, 3 slots, and frame 503 (slot 2, row 10, not its first) splits its bin
    expect(t.keep).toHaveLength(61);
    expect(t.keep).toContain(503);
    expect(t.stands[t.keep.indexOf(503)]).toBe(1 + frames.filter(([s, r], i) => i > 503 && s === 2 && r === 10).length);
  });

  it('only the frames given are looked at', () => {
    const frames: [number, number][] = [
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 5],
    ];
    expect(thinByRow([1, 3], bins(frames))).toEqual({ keep: [1, 3], stands: [1, 1] });
  });
});
