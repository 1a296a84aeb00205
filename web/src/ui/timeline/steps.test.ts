import { describe, expect, it } from 'vitest';
import { stepsInView, valueAt } from './steps.ts';

describe('stairs in view', () => {
  const pts = [
    { t: 0, v: 1 },
    { t: 10, v: 2 },
    { t: 20, v: 3 },
    { t: 30, v: 4 },
  ];
  it('starts at the change before the window and holds the last value to its end', () => {
    expect(stepsInView(pts, 12, 25, 100)).toEqual([
      { t: 10, v: 2 },
      { t: 20, v: 3 },
      { t: 25, v: 3 },
    ]);
    expect(stepsInView(pts, 14, 16, 100)).toEqual([
      { t: 10, v: 2 },
      { t: 16, v: 2 },
    ]);
  });
  it('stops where the series stops, and is empty before its first point', () => {
    expect(stepsInView(pts, 25, 90, 40)).toEqual([
      { t: 20, v: 3 },
      { t: 30, v: 4 },
      { t: 40, v: 4 },
    ]);
    expect(stepsInView(pts, -10, -5, 100)).toEqual([]);
    expect(stepsInView([], 0, 1, 1)).toEqual([]);
  });
  it('the value held at an instant', () => {
    expect([valueAt(pts, -1), valueAt(pts, 0), valueAt(pts, 15), valueAt(pts, 99)]).toEqual([undefined, 1, 2, 4]);
  });
});
