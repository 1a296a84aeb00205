// A replay from its scenario to its judged rows: every run the rows name (the scenario as
// written, or one of reference.runs with its overrides) is run once, then each row's metric
// is measured on its run (a ratio row: divided by the same metric on its `over_run`) and
// judged. The engine is the caller's (`runScenario` in Node, the worker in the page), so
// this file runs anywhere.

import { applySet, ScenarioSetError } from '../scenarios/set_path.ts';
import { formatErrors } from '../scenarios/errors.ts';
import type { ReferenceRow } from '../scenarios/reference.ts';
import type { Scenario } from '../scenarios/types.ts';
import { validateScenario } from '../scenarios/validate.ts';
import { compareFigure, type FigureComparison } from './figures.ts';
import { judgeRow, type JudgedRow } from './judge.ts';
import { measure, MetricError, type RunView } from './metrics.ts';

/** Runs one scenario (JSON text, already validated) to its end. */
export type Runner = (json: string) => Promise<RunView>;

/** A run of the replay that cannot be built (a bad override): the replay file is wrong. */
export class ReplayPlanError extends Error {
  override name = 'ReplayPlanError';
}

export interface ReplayResult {
  name: string;
  title: string;
  document: string;
  rows: JudgedRow[];
  /** The seed's packet lists beside the runs' captures. */
  figures: FigureComparison[];
  /** Every row that is judged passes. */
  pass: boolean;
}

/** The scenario of one run: the replay without its reference block, with the run's overrides. */
export function runScenarioOf(replay: Scenario, runName: string): Scenario {
  const { reference, ...base } = replay;
  if (runName === '') return base;
  const run = reference?.runs?.find((r) => r.name === runName);
  if (!run) throw new ReplayPlanError(`${replay.name}: no run "${runName}"`);
  let doc: unknown = base;
  try {
    for (const s of run.set) doc = applySet(doc, s);
  } catch (e) {
    if (e instanceof ScenarioSetError) throw new ReplayPlanError(`${replay.name}: run "${runName}": ${e.message}`);
    throw e;
  }
  const r = validateScenario(doc);
  if (!r.ok) throw new ReplayPlanError(formatErrors(r.errors, `${replay.name}, run "${runName}"`));
  return r.scenario;
}

/** The runs a replay's rows need, in the order of first mention ('' is the scenario as
 *  written): each row's run, and a ratio row's `over_run` too. */
export function runNames(replay: Scenario): string[] {
  const rows = replay.reference?.rows ?? [];
  const figures = replay.reference?.figures ?? [];
  return [...new Set([
    ...rows.flatMap((r) => (r.over_run === undefined ? [r.run ?? ''] : [r.run ?? '', r.over_run])),
    ...figures.map((f) => f.run ?? ''),
  ])];
}

/** The row's value from its metric as measured on a run (`measuredOn` throws MetricError
 *  when that run lacks it): on its run, or for a ratio row (`over_run`) that divided by the
 *  same metric on `over_run`. Throws MetricError when either run lacks the metric (the
 *  divisor's run named) or the divisor is 0. */
export function rowValue(row: ReferenceRow, measuredOn: (run: string) => number): number {
  const v = measuredOn(row.run ?? '');
  if (row.over_run === undefined) return v;
  let d: number;
  try {
    d = measuredOn(row.over_run);
  } catch (e) {
    if (e instanceof MetricError) throw new MetricError(`run "${row.over_run}" (the divisor): ${e.message}`);
    throw e;
  }
  if (d === 0) throw new MetricError(`${row.metric} is 0 on run "${row.over_run}" (the divisor), so there is no ratio`);
  return v / d;
}

/** Builds every run first (a bad override fails before anything runs), then runs them in
 *  order. Each run's rows are measured as soon as it ends and its trace let go: a replay of
 *  many long runs holds one trace at a time (the page runs replays too). */
export async function runReplay(replay: Scenario, runner: Runner): Promise<ReplayResult> {
  const ref = replay.reference;
  if (!ref) throw new ReplayPlanError(`${replay.name}: has no "reference" block, so it is not a replay`);
  const scenarios = new Map(runNames(replay).map((n) => [n, runScenarioOf(replay, n)]));
  // measured[i] maps a run's name to row i's metric on it (or why it has none).
  const measured = ref.rows.map(() => new Map<string, number | MetricError>());
  const figures = new Array<FigureComparison>((ref.figures ?? []).length);
  for (const [n, s] of scenarios) {
    const view: RunView = await runner(JSON.stringify(s));
    (ref.figures ?? []).forEach((f, i) => {
      if ((f.run ?? '') === n) figures[i] = compareFigure(f, view);
    });
    ref.rows.forEach((row, i) => {
      if ((row.run ?? '') !== n && row.over_run !== n) return;
      try {
        measured[i]!.set(n, measure(row, view));
      } catch (e) {
        if (!(e instanceof MetricError)) throw e;
        measured[i]!.set(n, e);
      }
    });
  }
  const rows = ref.rows.map((row, i) => {
    try {
      return judgeRow(
        row,
        rowValue(row, (n) => {
          const m = measured[i]!.get(n)!;
          if (m instanceof MetricError) throw m;
          return m;
        }),
      );
    } catch (e) {
      if (e instanceof MetricError) return judgeRow(row, null, e.message);
      throw e;
    }
  });
  return {
    name: replay.name,
    title: replay.title,
    document: ref.document,
    rows,
    figures,
    pass: rows.every((r) => r.pass !== false),
  };
}
