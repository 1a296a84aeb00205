// Where a replay's row stands, in the words the page shows a researcher: the simulation
// matches the paper's own figure, or a corrected theory the replay puts in its place (the
// paper's arithmetic was wrong, or it measured something else: the row's `why` says), or it
// is outside its tolerance, or it is not judged at all (an information row: shown, with its
// reason, never counted as agreement).
import type { JudgedRow } from './judge.ts';

export type Standing = 'paper' | 'theory' | 'outside' | 'not judged';

export function standing(r: Pick<JudgedRow, 'pass' | 'seed' | 'expected'>): Standing {
  if (r.pass === null) return 'not judged';
  if (!r.pass) return 'outside';
  return r.expected === r.seed ? 'paper' : 'theory';
}

export function standingCounts(rows: readonly JudgedRow[]): Record<Standing, number> {
  const n: Record<Standing, number> = { paper: 0, theory: 0, outside: 0, 'not judged': 0 };
  for (const r of rows) n[standing(r)]++;
  return n;
}

/** (simulated - paper) / paper: how far from the paper's own figure, whatever the row is
 *  judged against; null without both, or for a paper figure of 0. */
export function offPaper(r: Pick<JudgedRow, 'seed' | 'simulated'>): number | null {
  return r.seed !== null && r.simulated !== null && r.seed !== 0 ? (r.simulated - r.seed) / r.seed : null;
}

/** A figure with at most four significant digits ("29.86", "0.0002450", "32900"). */
export function sig4(v: number | null): string {
  return v === null ? '—' : String(+v.toPrecision(4));
}

/** A deviation as a signed percentage, "+2.7 %", "−71.6 %", "0.0 %". */
export function percent(d: number | null): string {
  if (d === null) return '';
  const p = d * 100;
  // One decimal below 100 %, none from there (where 99.96 would round up to "100.0").
  const text = Math.abs(p) >= 99.95 ? Math.abs(p).toFixed(0) : Math.abs(p).toFixed(1);
  return `${p > 0 && text !== '0.0' ? '+' : p < 0 && text !== '0.0' ? '−' : ''}${text} %`;
}
