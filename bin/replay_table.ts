// The replay table as `stackscope replay` prints it: one line per row (its run, or for a
// ratio row "run / over_run"; the paper's figure, ours, how far ours is from the paper's,
// what the row is judged against, the tolerance, the verdict), then what each corrected
// theory is, and with --why each row's reason; with --figures, the seed's packet lists
// aligned with the runs' captures, each row marked, and the sweeps as tables. Figures, deviations, verdicts and marks
// are written by the same core functions as the page's table (web/src/core/replay/).
import type { AlignRow, Segment } from '../web/src/core/replay/align.ts';
import { alignmentSummary, markText, type FigureComparison } from '../web/src/core/replay/figures.ts';
import { unitOf, type JudgedRow } from '../web/src/core/replay/judge.ts';
import { percent, sig4 } from '../web/src/core/replay/number_text.ts';
import type { ReplayResult } from '../web/src/core/replay/replay.ts';
import type { Sweep, SweepPoint } from '../web/src/core/replay/sweeps.ts';
import { againstText, judgedAgainst, offPaper, standing, standingCounts, standingSummary, type Standing } from '../web/src/core/replay/standing.ts';

const VERDICT: Record<Standing, string> = { paper: 'ok (paper)', theory: 'ok (theory)', outside: 'FAIL', 'not judged': 'not judged' };

function pad(cells: string[][]): string[] {
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  // Text left, figures right.
  const left = new Set([0, 1, 2, 6, 7, 8]);
  return cells.map((r) =>
    r
      .map((c, i) => (left.has(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

function cells(row: JudgedRow): string[] {
  return [
    // A ratio row: "run / over_run", its metric's ratio in "x"; a repeating run: "run (mean of N)".
    `${row.over_run === undefined ? row.run || '-' : `${row.run || '-'} / ${row.over_run}`}${row.repeats ? ` (mean of ${row.repeats}${row.range ? `: ${sig4(row.range[0])} to ${sig4(row.range[1])}` : ''})` : ''}`,
    row.label,
    `${row.metric}${row.over_run === undefined ? '' : ' ratio'} (${unitOf(row)})`,
    sig4(row.seed),
    sig4(row.simulated),
    percent(offPaper(row)) || '-',
    againstText(row),
    row.tolerance,
    VERDICT[standing(row)],
  ];
}

export function replayLines(r: ReplayResult, withWhy: boolean): string[] {
  const head = ['run', 'row', 'metric', 'paper', 'simulated', 'Δ paper', 'judged against', 'tolerance', 'verdict'];
  const failed = r.rows.filter((x) => x.pass === false).length;
  const out = [
    `${r.name}: ${r.title}`,
    `  seed: ${r.document}; ${failed === 0 ? 'every judged row within its tolerance' : `${failed} row(s) outside their tolerance`}`,
    `  ${standingSummary(standingCounts(r.rows))}`,
  ];
  out.push(...pad([head, ...r.rows.map(cells)]).map((l) => `  ${l}`));
  r.rows.forEach((row, i) => {
    const a = judgedAgainst(row);
    if (a.kind === 'theory') out.push(`  row ${i + 1} (${row.label}) is judged against a corrected theory, ${sig4(a.value)}: ${a.why}`);
    if (row.error) out.push(`  row ${i + 1} (${row.label}): no value: ${row.error}`);
    if (withWhy) out.push(`  ${i + 1}. ${row.label}: ${row.why}`);
  });
  return out;
}

/** A side's cells: No., time and the compared fields (empty where the side has no row). */
function side(r: (AlignRow & Segment) | null): string[] {
  if (!r) return ['', '', '', '', '', '', ''];
  const n = (v: number | null): string => (v === null ? '' : String(v));
  return [String(r.no), r.time.toFixed(6), r.flags, n(r.seq), n(r.ack), n(r.len), String(r.length)];
}

/** A seed's packet list aligned with the run's (core/replay/align.ts states the rule): one
 *  line per row, its mark, its direction, then the seed's fields and ours. Times from each
 *  list's first TCP row. */
export function figureLines(f: FigureComparison): string[] {
  const fields = ['time', 'flags', 'Seq', 'Ack', 'Len', 'Length'];
  const head = ['mark', 'direction', 'seed', ...fields, 'ours', ...fields];
  const body = f.rows.map((r) => [markText(r), (r.seed ?? r.ours)!.direction, ...side(r.seed), ...side(r.ours)]);
  const widths = head.map((_, i) => Math.max(...[head, ...body].map((r) => r[i]!.length)));
  const text = new Set([0, 1, 4, 11]);
  const fmt = (r: string[]): string =>
    `    ${r
      .map((c, i) => (text.has(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd()}`;
  return [`  ${alignmentSummary(f)}`, fmt(head), ...body.map(fmt)];
}

/** A sweep as text, one line per swept value: per series ours (the mean, and the smallest
 *  and largest of the values it is the mean of, when there are several) and the seed's
 *  point where it has one; the figure's note below. The page draws the same points. */
export function sweepLines(sw: Sweep): string[] {
  const xs = [...new Set(sw.series.flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => a - b);
  const ours = (p: SweepPoint | undefined): string => {
    if (!p) return '';
    const range = p.each && p.each.length > 1 ? ` (${sig4(Math.min(...p.each))} to ${sig4(Math.max(...p.each))})` : '';
    return `${sig4(p.simulated)}${range}`;
  };
  const head = [
    sw.x_label,
    ...sw.series.flatMap((s) => [`${s.name}${sw.series.some((x) => x.points.some((p) => p.each)) ? ', mean (min to max)' : ''}`, 'paper']),
  ];
  const body = xs.map((x) => [
    sig4(x),
    ...sw.series.flatMap((s) => {
      const p = s.points.find((q) => q.x === x);
      return [ours(p), p?.seed == null ? '' : sig4(p.seed)];
    }),
  ]);
  const widths = head.map((_, i) => Math.max(...[head, ...body].map((r) => r[i]!.length)));
  const fmt = (r: string[]): string =>
    `    ${r
      .map((c, i) => c.padStart(widths[i]!))
      .join('  ')
      .trimEnd()}`;
  return [`  ${sw.label} (${sw.unit}), not judged:`, fmt(head), ...body.map(fmt), ...(sw.note ? [`    ${sw.note}`] : [])];
}
