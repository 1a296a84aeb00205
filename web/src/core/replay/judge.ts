// One row of a replay judged: the simulated value against the expected one (the seed's
// figure, or the corrected value the row gives) within the row's tolerance.

import type { MetricName, ReferenceRow, Tolerance } from '../scenarios/reference.ts';
import { METRICS } from './metrics.ts';
import { sig4 } from './number_text.ts';

export interface JudgedRow {
  label: string;
  metric: string;
  run: string;
  /** A ratio row: the run whose value divides the row's run's (the row's value is in "x"). */
  over_run?: string;
  /** The row's run repeats: its value is the mean over this many repetitions. */
  repeats?: number;
  /** ... whose smallest and largest values these were (not for a ratio row). */
  range?: [number, number];
  seed: number | null;
  /** What the simulated value is checked against: row.expected, else the seed's figure. */
  expected: number | null;
  /** Why `expected` is a corrected theory and not the seed's figure (the replay's words). */
  expected_why?: string;
  simulated: number | null;
  /** "±3 %", "±0.5", "exact", "info". */
  tolerance: string;
  /** (simulated - expected) / expected, when both exist and expected is not 0. */
  deviation: number | null;
  /** null for an information row, which is never judged. */
  pass: boolean | null;
  why: string;
  /** Why there is no simulated value (MetricError's message). */
  error?: string;
}

/** The unit of a judged row's values: "x" for a ratio row, else its metric's. */
export function unitOf(row: Pick<JudgedRow, 'metric' | 'over_run'>): string {
  if (row.over_run !== undefined) return 'x';
  return METRICS[row.metric as MetricName]?.unit ?? '?';
}

export function toleranceText(t: Tolerance): string {
  if (t.info) return 'info';
  if (t.above !== undefined) return `> ${sig4(t.above)}`;
  if (t.rel !== undefined) return `±${sig4(t.rel * 100)} %`;
  if (t.abs === 0) return 'exact';
  return `±${sig4(t.abs ?? 0)}`;
}

/** Inside the tolerance? Relative tolerances are fractions of |expected|; an ordering
 *  (`above`) is met only strictly, with no slack: equal is not faster. */
export function within(t: Tolerance, expected: number, simulated: number): boolean {
  if (t.above !== undefined) return simulated > t.above;
  const diff = Math.abs(simulated - expected);
  // Values pass through decimal text (ping's statistics line) and float arithmetic: a
  // difference of a few ulps is no difference.
  const slack = 1e-9 * Math.max(1, Math.abs(expected));
  if (t.rel !== undefined) return diff <= t.rel * Math.abs(expected) + slack;
  return diff <= (t.abs ?? 0) + slack;
}

/** A repeated run's spread: how many repetitions, and the range of their values. */
export interface Spread {
  repeats: number;
  range?: [number, number];
}

export function judgeRow(row: ReferenceRow, simulated: number | null, error?: string, spread?: Spread): JudgedRow {
  const expected = row.expected ?? row.seed;
  const info = row.tolerance.info === true;
  const out: JudgedRow = {
    label: row.label ?? row.metric,
    metric: row.metric,
    run: row.run ?? '',
    ...(row.over_run !== undefined ? { over_run: row.over_run } : {}),
    ...(spread && spread.repeats > 1 ? { repeats: spread.repeats, ...(spread.range ? { range: spread.range } : {}) } : {}),
    seed: row.seed,
    expected,
    ...(row.expected_why !== undefined ? { expected_why: row.expected_why } : {}),
    simulated,
    tolerance: toleranceText(row.tolerance),
    deviation: simulated !== null && expected !== null && expected !== 0 ? (simulated - expected) / expected : null,
    pass: info ? null : simulated !== null && expected !== null && within(row.tolerance, expected, simulated),
    why: row.why,
  };
  if (error !== undefined) out.error = error;
  return out;
}
