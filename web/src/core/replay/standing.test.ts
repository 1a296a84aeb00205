import { describe, expect, it } from 'vitest';
import type { JudgedRow } from './judge.ts';
import { offPaper, percent, sig4, standing, standingCounts } from './standing.ts';

const row = (seed: number | null, expected: number | null, simulated: number | null, pass: boolean | null): JudgedRow => ({
  label: 'r',
  metric: 'app_kbps',
  run: '',
  seed,
  expected,
  simulated,
  tolerance: '±5 %',
  deviation: null,
  pass,
  why: '',
});

describe('where a replay row stands', () => {
  it('tells the paper from a corrected theory, an outside row from one not judged', () => {
    expect(standing(row(36.86, 36.86, 37.1, true))).toBe('paper');
    // mTCP 10 MB: judged against the corrected 8 Mbit/s, far from the paper's 2.776
    expect(standing(row(2.776, 8, 7.01, true))).toBe('theory');
    expect(standing(row(36.86, 36.86, 20, false))).toBe('outside');
    expect(standing(row(39.17, 39.17, 34.0, null))).toBe('not judged');
    expect(standingCounts([row(1, 1, 1, true), row(2.776, 8, 7.01, true), row(1, 1, 9, false), row(1, 1, 0.5, null), row(1, 1, 0.4, null)])).toEqual({
      paper: 1,
      theory: 1,
      outside: 1,
      'not judged': 2,
    });
  });

  it("measures the distance from the paper's own figure, whatever the row is judged against", () => {
    expect(offPaper(row(2.776, 8, 7.01, true))).toBeCloseTo(1.525, 3);
    expect(percent(offPaper(row(2.776, 8, 7.01, true)))).toBe('+153 %');
    expect(percent(-0.716)).toBe('−71.6 %');
    expect(percent(0.00004)).toBe('0.0 %');
    expect(percent(-0.99996)).toBe('−100 %');
    expect(offPaper(row(null, 8, 7, true))).toBeNull();
  });

  it('writes figures with at most four significant digits', () => {
    expect(sig4(29.86123)).toBe('29.86');
    expect(sig4(0.000245)).toBe('0.000245');
    expect(sig4(32901.747)).toBe('32900');
    expect(sig4(7.546)).toBe('7.546');
    expect(sig4(null)).toBe('—');
  });
});
