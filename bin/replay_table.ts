// The replay table as `stackscope replay` prints it: one line per row (its run, or for a
// ratio row "run / over_run"; the seed's figure, the value checked against when it is a
// corrected one, the simulated value, the deviation, the tolerance, the verdict), and below
// it each row's reason; with --figures, the seed's packet lists beside the runs' captures.
import type { FigureComparison, FigureLine } from '../web/src/core/replay/figures.ts';
import { unitOf } from '../web/src/core/replay/judge.ts';
import type { ReplayResult } from '../web/src/core/replay/replay.ts';

function num(v: number | null): string {
  if (v === null) return '-';
  if (Number.isInteger(v)) return String(v);
  const a = Math.abs(v);
  return v.toFixed(a >= 1000 ? 1 : a >= 1 ? 3 : 4);
}

function pad(cells: string[][]): string[] {
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  // Text left, figures right.
  const left = new Set([0, 1, 2]);
  return cells.map((r) =>
    r
      .map((c, i) => (left.has(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

export function replayLines(r: ReplayResult, withWhy: boolean): string[] {
  const head = ['run', 'row', 'metric', 'seed', 'expected', 'simulated', 'dev', 'tolerance', 'pass'];
  const body = r.rows.map((row) => [
    // A ratio row: "run / over_run", its metric's ratio in "x"; a repeating run: "run (mean of N)".
    `${row.over_run === undefined ? row.run || '-' : `${row.run || '-'} / ${row.over_run}`}${row.repeats ? ` (mean of ${row.repeats}${row.range ? `: ${num(row.range[0])} to ${num(row.range[1])}` : ''})` : ''}`,
    row.label,
    `${row.metric}${row.over_run === undefined ? '' : ' ratio'} (${unitOf(row)})`,
    num(row.seed),
    row.expected === row.seed ? '=' : num(row.expected),
    num(row.simulated),
    row.deviation === null ? '-' : `${row.deviation >= 0 ? '+' : ''}${(row.deviation * 100).toFixed(1)}%`,
    row.tolerance,
    row.pass === null ? 'info' : row.pass ? 'ok' : 'FAIL',
  ]);
  const failed = r.rows.filter((x) => x.pass === false).length;
  const out = [
    `${r.name}: ${r.title}`,
    `  seed: ${r.document}; ${failed === 0 ? 'every judged row within its tolerance' : `${failed} row(s) outside their tolerance`}`,
  ];
  out.push(...pad([head, ...body]).map((l) => `  ${l}`));
  r.rows.forEach((row, i) => {
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
