import { describe, expect, it } from 'vitest';
import type { JudgedRow } from './judge.ts';
import { percent } from './number_text.ts';
import { againstText, judgedAgainst, offPaper, standing, standingCounts, standingSummary } from './standing.ts';

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
    expect(offPaper(row(null, 8, 7, true))).toBeNull();
  });

  it("counts the summary from the rows: a theory's pass is not the paper's, outside only when there is one", () => {
    const rows = [row(29.2, 29.86, 29.86, true), row(2.776, 8, 7.01, true), row(31.36, 31.36, 31.86, true), row(17.7, 17.7, 15.98, null)];
    expect(standingSummary(standingCounts(rows))).toBe('1 matches the paper, 2 match the corrected theory, 1 differs (shown, not judged)');
    rows.push(row(1, 1, 9, false), row(2, 2, 0.5, null));
    expect(standingSummary(standingCounts(rows))).toBe(
      '1 matches the paper, 2 match the corrected theory, 1 outside the tolerance, 2 differ (shown, not judged)',
    );
  });

  it('says what a row is judged against: the paper, a corrected theory with its reason, or nothing', () => {
    // mTCP 10 MB: passes against the theory while 153 % off the paper's figure
    const tenMb = { ...row(2.776, 8, 7.01, true), deviation: (7.01 - 8) / 8, expected_why: 'cwnd/RTT = 8 Mbit/s' };
    expect(judgedAgainst(tenMb)).toEqual({ kind: 'theory', value: 8, why: 'cwnd/RTT = 8 Mbit/s' });
    expect(againstText(tenMb)).toBe('theory 8 (−12.4 %)');
    expect(percent(offPaper(tenMb))).toBe('+153 %');
    expect(judgedAgainst(row(36.86, 36.86, 37.1, true))).toEqual({ kind: 'paper' });
    expect(againstText(row(36.86, 36.86, 37.1, true))).toBe('the paper');
    // an information row is judged against nothing, even one with a corrected value
    expect(judgedAgainst(row(734, 716.7, 720, null))).toEqual({ kind: 'not judged' });
    expect(againstText(row(734, 734, 720, null))).toBe('—');
    // a row with no paper figure, judged against the line's limit alone
    expect(judgedAgainst({ ...row(null, 41.98, 41.9, true), expected_why: "the line's limit" }).kind).toBe('theory');
  });
});
