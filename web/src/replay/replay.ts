// A replay from its scenario to its judged rows: every run the rows name (the scenario as
// written, or one of reference.runs with its overrides) is run once, then each row's metric
// is measured on its run and judged. The engine is the caller's (`runScenario` in Node, the
// worker in the page), so this file runs anywhere.

import { applySet, ScenarioSetError } from '../scenarios/set_path.ts';
import { formatErrors } from '../scenarios/errors.ts';
import type { Scenario } from '../scenarios/types.ts';
import { validateScenario } from '../scenarios/validate.ts';
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

/** Builds every run first (a bad override fails before anything runs), then runs them in order. */
export async function runReplay(replay: Scenario, runner: Runner): Promise<ReplayResult> {
  const ref = replay.reference;
  if (!ref) throw new ReplayPlanError(`${replay.name}: has no "reference" block, so it is not a replay`);
  const names = [...new Set(ref.rows.map((r) => r.run ?? ''))];
  const scenarios = new Map(names.map((n) => [n, runScenarioOf(replay, n)]));
  const runs = new Map<string, RunView>();
  for (const [n, s] of scenarios) runs.set(n, await runner(JSON.stringify(s)));
  const rows = ref.rows.map((row) => {
    const run = runs.get(row.run ?? '')!;
    try {
      return judgeRow(row, measure(row, run));
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
    pass: rows.every((r) => r.pass !== false),
  };
}
