import { describe, expect, it } from 'vitest';
import type { ReferenceRow } from '../scenarios/reference.ts';
import { judgeRow, toleranceText, unitOf, within } from './judge.ts';

const row = (over: Partial<ReferenceRow>): ReferenceRow => ({ metric: 'ping_rtt_avg_ms', app: 0, seed: 100, tolerance: { rel: 0.03 }, why: 'w', ...over });

describe('judging a row', () => {
  it('relative tolerances are fractions of the expected value, both sides', () => {
    expect(within({ rel: 0.03 }, 100, 103)).toBe(true);
    expect(within({ rel: 0.03 }, 100, 96.9)).toBe(false);
    expect(within({ rel: 0.03 }, -100, -103)).toBe(true);
  });

  it('absolute tolerances are in the metric unit; 0 is exact', () => {
    expect(within({ abs: 0.002 }, 29.8611, 29.862)).toBe(true);
    expect(within({ abs: 0.002 }, 29.8611, 29.8632)).toBe(false);
    expect(within({ abs: 0 }, 3, 3)).toBe(true);
    expect(within({ abs: 0 }, 3, 4)).toBe(false);
  });

  it('an ordering (above) passes only strictly above its bound, however far from the seed figure', () => {
    expect(within({ above: 1 }, 1.415, 1.0001)).toBe(true);
    expect(within({ above: 1 }, 1.415, 1)).toBe(false);
    expect(within({ above: 0 }, 8, 0)).toBe(false);
    const j = judgeRow(row({ metric: 'app_elapsed_s', app: 1, run: 'vj', over_run: 'alg1', seed: 1.415, tolerance: { above: 1 } }), 1.184);
    expect(j).toMatchObject({ pass: true, tolerance: '> 1' });
    expect(j.deviation).toBeCloseTo(1.184 / 1.415 - 1, 12);
  });

  it('checks against `expected` when the row gives one, not the seed figure', () => {
    const j = judgeRow(row({ seed: 29.2, expected: 29.8611, tolerance: { abs: 0.002 } }), 29.862);
    expect(j.pass).toBe(true);
    expect(j.seed).toBe(29.2);
    expect(judgeRow(row({ seed: 29.2, tolerance: { abs: 0.002 } }), 29.862).pass).toBe(false);
  });

  it('an information row is never judged; a missing value fails a judged row', () => {
    expect(judgeRow(row({ tolerance: { info: true } }), 1e9).pass).toBeNull();
    const j = judgeRow(row({}), null, 'no reply');
    expect(j.pass).toBe(false);
    expect(j.error).toBe('no reply');
  });

  it('words the tolerance', () => {
    expect(toleranceText({ rel: 0.03 })).toBe('±3 %');
    expect(toleranceText({ abs: 0 })).toBe('exact');
    expect(toleranceText({ abs: 0.5 })).toBe('±0.5');
    expect(toleranceText({ info: true })).toBe('info');
  });

  it('a ratio row (over_run) keeps its divisor run and is in x; other rows in the unit of their metric', () => {
    const j = judgeRow(row({ metric: 'app_elapsed_s', app: 1, run: 'lossy', over_run: 'clean', seed: 5.7, tolerance: { rel: 0.5 } }), 8);
    expect(j.over_run).toBe('clean');
    expect(j.run).toBe('lossy');
    expect(unitOf(j)).toBe('x');
    expect(unitOf(judgeRow(row({}), 1))).toBe('ms');
    expect('over_run' in judgeRow(row({}), 1)).toBe(false);
  });
});
