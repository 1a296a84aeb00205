// The replay table as `stackscope replay` prints it: one line per row (its run, or for a
// ratio row "run / over_run"; the paper's figure, ours, how far ours is from the paper's,
// what the row is judged against, the tolerance, the verdict), then what each corrected
// theory is, and with --why each row's reason; with --figures, the seed's packet lists
// beside the runs' captures. Figures, deviations and verdicts are written by the same core
// functions as the page's table (web/src/core/replay/standing.ts, number_text.ts).
import type { FigureComparison, FigureLine } from '../web/src/core/replay/figures.ts';
import { unitOf, type JudgedRow } from '../web/src/core/replay/judge.ts';
import { percent, sig4 } from '../web/src/core/replay/number_text.ts';
import type { ReplayResult } from '../web/src/core/replay/replay.ts';
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

function line(l: FigureLine | null): string[] {
  if (!l) return ['', '', ''];
  return [String(l.no), l.time.toFixed(6), `${l.source} > ${l.destination} ${l.protocol === 'TCP' ? '' : `${l.protocol} `}${l.info}`];
}

/** A seed's packet list and the run's, side by side: times from each list's first TCP
 *  row; "=" where the segment is the same (Info but for the window), "x" where not. */
export function figureLines(f: FigureComparison): string[] {
  const head = ['seed', 'time', 'seed row', 'same', 'ours', 'time', 'our row'];
  const body = f.pairs.map((p) => {
    const [sn, st, si] = line(p.seed);
    const [on, ot, oi] = line(p.ours);
    return [sn!, st!, si!, p.same === null ? '' : p.same ? '=' : 'x', on!, ot!, oi!];
  });
  const widths = head.map((_, i) => Math.max(...[head, ...body].map((r) => r[i]!.length)));
  const fmt = (r: string[]): string =>
    `    ${r
      .map((c, i) => (i === 2 || i === 6 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd()}`;
  return [
    `  ${f.label} beside run ${f.run || '(as written)'}, link ${f.link}: ${f.same} of ${f.compared} TCP rows the same segment`,
    fmt(head),
    ...body.map(fmt),
  ];
}
