// The `reference` block of a replay scenario (docs/replays.md): the seed's figures beside
// which `stackscope replay` and the page put the simulated ones. Its types (generated from
// schema.json into schema_types.ts), the names derived from them, and the checks JSON Schema
// cannot say (a row's run, over_run, app and host must exist; exactly one tolerance).

import type { Reference, ReferenceFigure, ReferenceRow, ReferenceSweep, SizeMixSweep } from './schema_types.ts';

export type { Reference, ReferenceFigure, ReferenceRow, ReferenceRun, ReferenceSweep, SizeMixSweep, Tolerance } from './schema_types.ts';

import { APP_METRICS, HOST_METRICS, LINK_METRICS } from './metric_kinds.ts';
import { placeholdersOf, type Measured } from './why_placeholders.ts';

export { APP_METRICS, HOST_METRICS, LINK_METRICS, type MetricName } from './metric_kinds.ts';
/** One row of a seed's packet list, as the figure prints it. */
export type FigureRow = ReferenceFigure['rows'][number];

interface Context {
  hosts: string[];
  links: string[];
  apps: { type: string; rounds?: unknown[] }[];
}

/** The semantic errors of a schema-valid reference block. */
export function checkReference(ref: Reference, s: Context, report: (path: string, message: string) => void): void {
  const runs = new Set<string>();
  (ref.runs ?? []).forEach((r, i) => {
    if (runs.has(r.name)) report(`reference.runs[${i}].name`, `"${r.name}" is used by another run`);
    runs.add(r.name);
  });
  (ref.figures ?? []).forEach((f, i) => {
    const base = `reference.figures[${i}]`;
    if (f.run !== undefined && !runs.has(f.run))
      report(`${base}.run`, `names run "${f.run}", which does not exist${runs.size ? ` (runs: ${[...runs].join(', ')})` : ''}`);
    if (!s.links.includes(f.link)) report(`${base}.link`, `names link "${f.link}", which does not exist`);
    if (f.placements !== undefined && !ref.runs?.find((r) => r.name === f.placements)?.repeat)
      report(`${base}.placements`, `names run "${f.placements}", which ${runs.has(f.placements) ? 'has no "repeat"' : 'does not exist'}`);
  });
  ref.rows.forEach((row, i) => {
    const base = `reference.rows[${i}]`;
    const t = row.tolerance;
    const given = (['abs', 'rel', 'above', 'info'] as const).filter((k) => t[k] !== undefined);
    if (given.length !== 1)
      report(`${base}.tolerance`, `give exactly one of "abs", "rel", "above" and "info" (it has ${given.length === 0 ? 'none' : given.join(', ')})`);
    if (t.info === undefined && t.above === undefined && row.seed === null && row.expected === undefined)
      report(`${base}.seed`, 'is null, so "expected" or an "info" tolerance is needed');
    if (t.rel !== undefined && (row.expected ?? row.seed) === 0) report(`${base}.tolerance`, 'cannot be relative to 0');
    // A corrected theory is shown with its reason: a row never says "ok" beside a paper
    // figure it was not judged against without saying what it was judged against.
    if (row.expected !== undefined && row.expected_why === undefined)
      report(`${base}.expected_why`, 'is required with "expected": say what the corrected theory is');
    if (row.expected === undefined && row.expected_why !== undefined) report(`${base}.expected_why`, 'explains an "expected" value the row does not have');
    checkMeasured(row, `${base}.`, runs, s, report);
    checkPlaceholders(row, base, runs, s, report);
  });
  (ref.sweeps ?? []).forEach((sw, i) => checkSweep(sw, `reference.sweeps[${i}]`, ref.rows, report));
  if (ref.size_mix_sweep) checkMixSweep(ref.size_mix_sweep, runs, s, report);
}

type Report = (path: string, message: string) => void;

/** What a row (or a placeholder in a row's texts) measures names a run, an app, a host
 *  and a link that exist, as its metric needs. `base` ends with "." for a row's fields. */
function checkMeasured(m: Measured, base: string, runs: ReadonlySet<string>, s: Context, report: Report): void {
  if (m.run !== undefined && !runs.has(m.run))
    report(`${base}run`, `names run "${m.run}", which does not exist${runs.size ? ` (runs: ${[...runs].join(', ')})` : ''}`);
  if (m.over_run !== undefined) {
    if (!runs.has(m.over_run))
      report(`${base}over_run`, `names run "${m.over_run}", which does not exist${runs.size ? ` (runs: ${[...runs].join(', ')})` : ''}`);
    else if (m.over_run === m.run) report(`${base}over_run`, `is the row's own run "${m.run}": the ratio would always be 1`);
  }
  if (APP_METRICS.has(m.metric)) {
    if (m.app === undefined) report(`${base}app`, `is required by metric "${m.metric}"`);
    // A run may replace `apps` (a `set` of "apps=[...]"): its rows are checked when measured.
    else if (m.run === undefined && m.app >= s.apps.length) report(`${base}app`, `names apps[${m.app}], which does not exist`);
    else if (m.run === undefined && m.metric.startsWith('ping_') !== (s.apps[m.app]!.type === 'ping'))
      report(`${base}app`, `is a ${s.apps[m.app]!.type}, which metric "${m.metric}" cannot read`);
  }
  if (HOST_METRICS.has(m.metric)) {
    if (m.host === undefined) report(`${base}host`, `is required by metric "${m.metric}"`);
    else if (!s.hosts.includes(m.host)) report(`${base}host`, `names host "${m.host}", which does not exist`);
  }
  if (LINK_METRICS.has(m.metric)) {
    if (m.link === undefined) report(`${base}link`, `is required by metric "${m.metric}"`);
    else if (!s.links.includes(m.link)) report(`${base}link`, `names link "${m.link}", which does not exist`);
  }
}

/** Every placeholder in a row's `why` and `expected_why` (why_placeholders.ts) measures
 *  what a row could: the error names the row's label and the placeholder. */
function checkPlaceholders(row: ReferenceRow, base: string, runs: ReadonlySet<string>, s: Context, report: Report): void {
  for (const field of ['why', 'expected_why'] as const) {
    for (const p of placeholdersOf(row[field] ?? '')) {
      const say = (message: string): void => report(`${base}.${field}`, `row "${row.label ?? row.metric}": placeholder "${p.text}" ${message}`);
      if ('error' in p.measured) say(p.measured.error);
      else checkMeasured(p.measured, '', runs, s, (path, message) => say(`(its ${path}) ${message}`));
    }
  }
}

/** A size-mix sweep names runs that exist, a reqresp client, and counts of large requests
 *  that the client's rounds can hold; the seed's count is one of them. */
function checkMixSweep(m: SizeMixSweep, runs: ReadonlySet<string>, s: Context, report: Report): void {
  const base = 'reference.size_mix_sweep';
  const named = (path: string, run: string): void => {
    if (!runs.has(run)) report(path, `names run "${run}", which does not exist${runs.size ? ` (runs: ${[...runs].join(', ')})` : ''}`);
  };
  named(`${base}.over_run`, m.over_run);
  m.series.forEach((x, i) => named(`${base}.series[${i}].run`, x.run));
  const app = s.apps[m.app];
  if (app?.type !== 'reqresp_client') {
    report(`${base}.app`, app ? `is a ${app.type}, not a reqresp_client` : `names apps[${m.app}], which does not exist`);
    return;
  }
  const n = app.rounds?.length ?? 0;
  m.large.forEach((k, i) => {
    if (k > n) report(`${base}.large[${i}]`, `is ${k}, more than the client's ${n} rounds`);
  });
  if (m.paper_large !== undefined && !m.large.includes(m.paper_large))
    report(`${base}.paper_large`, `is ${m.paper_large}, which is not one of "large" (${m.large.join(', ')})`);
}

/** A sweep's points name rows by label: each must name exactly one row. (That one sweep's
 *  rows share a unit is checked where units are known: web/src/core/replay/sweeps.ts.) */
function checkSweep(sw: ReferenceSweep, base: string, rows: readonly ReferenceRow[], report: Report): void {
  sw.series.forEach((series, j) =>
    series.points.forEach((p, k) => {
      const n = rows.filter((r) => (r.label ?? r.metric) === p.row).length;
      if (n === 0) report(`${base}.series[${j}].points[${k}].row`, `names row "${p.row}", which does not exist`);
      else if (n > 1) report(`${base}.series[${j}].points[${k}].row`, `names row "${p.row}", the label of ${n} rows`);
    }),
  );
}
