import { describe, expect, it } from 'vitest';
import { indexInSorted, keyTarget, lastAtOrBefore, rowWindow, rowsPerPage, scrollToRow } from './virtual.ts';

describe('rowWindow', () => {
  it('renders the visible rows plus overscan, clipped to the list', () => {
    expect(rowWindow(0, 100, 20, 1000, 3)).toEqual({ first: 0, end: 8, offsetPx: 0 });
    // rows 50..54 visible (1000/20 = 50, (1000+99)/20 = 54.95)
    expect(rowWindow(1000, 100, 20, 1000, 3)).toEqual({ first: 47, end: 58, offsetPx: 940 });
    expect(rowWindow(19_990, 100, 20, 1000, 3)).toEqual({ first: 996, end: 1000, offsetPx: 19_920 });
  });
  it('a part-visible row at the top or bottom counts as visible', () => {
    const w = rowWindow(10, 20, 20, 100, 0);
    expect([w.first, w.end]).toEqual([0, 2]);
  });
  it('empty lists and odd inputs give an empty or safe window', () => {
    expect(rowWindow(0, 100, 20, 0)).toEqual({ first: 0, end: 0, offsetPx: 0 });
    expect(rowWindow(-50, 100, 20, 10, 0)).toEqual({ first: 0, end: 5, offsetPx: 0 });
    expect(rowWindow(1e9, 100, 20, 10, 0)).toEqual({ first: 9, end: 10, offsetPx: 180 });
    expect(rowWindow(0, 0, 20, 10, 0)).toEqual({ first: 0, end: 1, offsetPx: 0 });
  });
  it('100 000 rows: the window stays small wherever it is', () => {
    for (const top of [0, 777_777, 1_999_980]) {
      const w = rowWindow(top, 600, 20, 100_000);
      expect(w.end - w.first).toBeLessThanOrEqual(30 + 16 + 1);
      expect(w.offsetPx).toBe(w.first * 20);
    }
  });
});

describe('scrollToRow', () => {
  it('leaves a visible row alone and moves the least otherwise', () => {
    expect(scrollToRow(5, 0, 200, 20)).toBe(0);
    expect(scrollToRow(10, 0, 200, 20)).toBe(20); // row 10 at the bottom
    expect(scrollToRow(2, 100, 200, 20)).toBe(40); // row 2 at the top
  });
  it("'end' puts the row at the bottom when it has to move", () => {
    expect(scrollToRow(2, 100, 200, 20, 'end')).toBe(0);
    expect(scrollToRow(50, 0, 200, 20, 'end')).toBe(820);
    expect(scrollToRow(5, 0, 200, 20, 'end')).toBe(0);
  });
});

describe('lastAtOrBefore', () => {
  const times = [0, 10, 10, 20, 35];
  const at = (p: number): number => times[p]!;
  it('finds the last row sent at or before t', () => {
    expect(lastAtOrBefore(times.length, at, -1)).toBe(-1);
    expect(lastAtOrBefore(times.length, at, 0)).toBe(0);
    expect(lastAtOrBefore(times.length, at, 10)).toBe(2);
    expect(lastAtOrBefore(times.length, at, 34)).toBe(3);
    expect(lastAtOrBefore(times.length, at, 1e9)).toBe(4);
    expect(lastAtOrBefore(0, at, 5)).toBe(-1);
  });
});

describe('keyTarget', () => {
  it('moves by one, by a page, to the ends; nothing selected starts at the top', () => {
    expect(keyTarget('ArrowDown', 3, 10, 4)).toBe(4);
    expect(keyTarget('ArrowDown', 9, 10, 4)).toBe(9);
    expect(keyTarget('ArrowUp', 0, 10, 4)).toBe(0);
    expect(keyTarget('ArrowDown', -1, 10, 4)).toBe(0);
    expect(keyTarget('PageDown', 8, 10, 4)).toBe(9);
    expect(keyTarget('PageUp', 3, 10, 4)).toBe(0);
    expect(keyTarget('Home', 5, 10, 4)).toBe(0);
    expect(keyTarget('End', 5, 10, 4)).toBe(9);
    expect(keyTarget('x', 5, 10, 4)).toBeNull();
    expect(keyTarget('End', -1, 0, 4)).toBeNull();
  });
  it('rowsPerPage is at least one', () => {
    expect(rowsPerPage(100, 20)).toBe(5);
    expect(rowsPerPage(5, 20)).toBe(1);
  });
});

describe('indexInSorted', () => {
  it('finds a row among the filtered rows, or -1', () => {
    const rows = Int32Array.of(2, 5, 9, 14);
    expect(indexInSorted(rows, 9)).toBe(2);
    expect(indexInSorted(rows, 2)).toBe(0);
    expect(indexInSorted(rows, 14)).toBe(3);
    expect(indexInSorted(rows, 6)).toBe(-1);
    expect(indexInSorted(rows, 20)).toBe(-1);
    expect(indexInSorted(new Int32Array(0), 1)).toBe(-1);
  });
});
