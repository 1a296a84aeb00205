// Where a replay's row stands, in the words the page shows a researcher: the simulation
// matches the paper's own figure, or a corrected theory the replay puts in its place (the
// paper's arithmetic was wrong, or it measured something else: the row's `why` says), or it
// is outside its tolerance, or it is not judged at all (an information row: shown, with its
// reason, never counted as agreement).
import type { JudgedRow } from './judge.ts';
import { percent, sig4 } from './number_text.ts';

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

/** A count and its noun, with the verb agreeing: "1 matches", "3 match". */
function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The summary line of a replay table, the page's and the CLI's: agreement with the paper
 *  and with a corrected theory counted apart, rows outside their tolerance only when there
 *  are any, and the rows not judged never folded into agreement. */
export function standingSummary(c: Record<Standing, number>): string {
  return [
    `${count(c.paper, 'matches', 'match')} the paper`,
    `${count(c.theory, 'matches', 'match')} the corrected theory`,
    ...(c.outside > 0 ? [`${c.outside} outside the tolerance`] : []),
    `${count(c['not judged'], 'differs', 'differ')} (shown, not judged)`,
  ].join(', ');
}

/** What a row is judged against, in the tables' words: nothing (not judged), the paper's
 *  own figure, or a corrected theory (its value and the replay's reason for it). */
export type Against = { kind: 'not judged' } | { kind: 'paper' } | { kind: 'theory'; value: number; why: string };

export function judgedAgainst(r: Pick<JudgedRow, 'pass' | 'seed' | 'expected' | 'expected_why'>): Against {
  if (r.pass === null) return { kind: 'not judged' };
  if (r.expected === r.seed || r.expected === null) return { kind: 'paper' };
  return { kind: 'theory', value: r.expected, why: r.expected_why ?? '' };
}

/** The same in a short text: "the paper", "theory 8 (−12.4 %)" (ours against the theory),
 *  "—" when not judged. */
export function againstText(r: Pick<JudgedRow, 'pass' | 'seed' | 'expected' | 'expected_why' | 'deviation'>): string {
  const a = judgedAgainst(r);
  if (a.kind === 'not judged') return '—';
  if (a.kind === 'paper') return 'the paper';
  return `theory ${sig4(a.value)}${r.deviation === null ? '' : ` (${percent(r.deviation)})`}`;
}
