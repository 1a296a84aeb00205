// A replay from its scenario to its judged rows: every run the rows name (the scenario as
// written, or one of reference.runs with its overrides) is run once, or once per
// repetition, then each row's metric is measured on its run (the mean over a run's
// repetitions; a ratio row: divided by the same metric on its `over_run`) and judged. The
// engine is the caller's (`runScenario` in Node, the worker in the page), so this file runs
// anywhere.

import { applySet, ScenarioSetError } from '../scenarios/set_path.ts';
import { formatErrors } from '../scenarios/errors.ts';
import type { ReferenceRun, SizeMixSweep } from '../scenarios/reference.ts';
import type { Scenario } from '../scenarios/types.ts';
import { validateScenario } from '../scenarios/validate.ts';
import { compareFigure, reproducesFigure, type FigureComparison } from './figures.ts';
import { judgeRow, type JudgedRow } from './judge.ts';
import { ReplayPlanError } from './plan_error.ts';
import { sweepsOf, sweepUnit, type Sweep } from './sweeps.ts';
import { measure, MetricError, type RunView } from './metrics.ts';
import { MixLatencies, mixRuns, mixSweepOf, type MixPlan } from './mix_sweep.ts';
import type { Measured } from '../scenarios/why_placeholders.ts';
import { fillWhy, whyMeasures } from './why_fill.ts';

/** Runs one scenario (JSON text, already validated) to its end. */
export type Runner = (json: string) => Promise<RunView>;

export { ReplayPlanError };

export interface ReplayResult {
  name: string;
  title: string;
  document: string;
  rows: JudgedRow[];
  /** The seed's packet lists beside the runs' captures. */
  figures: FigureComparison[];
  /** The rows that form curves, ours beside the seed's points. */
  sweeps: Sweep[];
  /** Every row that is judged passes. */
  pass: boolean;
}

/** The scenarios of one run: the replay without its reference block, with the run's
 *  overrides; one per repetition when the run has `repeat` (that entry's overrides after
 *  the run's own). */
export function runScenariosOf(replay: Scenario, runName: string): Scenario[] {
  const { reference, ...base } = replay;
  if (runName === '') return [base];
  const run = reference?.runs?.find((r) => r.name === runName);
  if (!run) throw new ReplayPlanError(`${replay.name}: no run "${runName}"`);
  return (run.repeat ?? [[]]).map((extra, i) => {
    const where = run.repeat ? `run "${runName}", repetition ${i}` : `run "${runName}"`;
    let doc: unknown = base;
    try {
      for (const s of [...run.set, ...extra]) doc = applySet(doc, s);
    } catch (e) {
      if (e instanceof ScenarioSetError) throw new ReplayPlanError(`${replay.name}: ${where}: ${e.message}`);
      throw e;
    }
    const r = validateScenario(doc);
    if (!r.ok) throw new ReplayPlanError(formatErrors(r.errors, `${replay.name}, ${where}`));
    return r.scenario;
  });
}

/** The scenario of one run (its first repetition, when it repeats). */
export function runScenarioOf(replay: Scenario, runName: string): Scenario {
  return runScenariosOf(replay, runName)[0]!;
}

/** A run to show in the views: a run's name, or for one repetition of a run that repeats
 *  "name.k" (k from 1; a run name holds no "."), so that any of the runs a row's mean is
 *  taken over can be opened, not only the first. */
export function viewRunScenario(replay: Scenario, choice: string): Scenario {
  const m = /^([^.]*)\.(\d+)$/.exec(choice);
  if (!m) return runScenarioOf(replay, choice);
  const reps = runScenariosOf(replay, m[1]!);
  const k = Number(m[2]);
  if (k < 1 || k > reps.length) throw new ReplayPlanError(`${replay.name}: run "${m[1]}" has ${reps.length} repetition(s), not a repetition ${k}`);
  return reps[k - 1]!;
}

/** How many repetitions a run has (1 for a run that does not repeat). */
export function repetitionsOf(replay: Scenario, runName: string): number {
  return repeatsOf(replay.reference?.runs, runName);
}

/** How many repetitions a row's value is the mean over: its run's (1 for a run that does
 *  not repeat, and for the scenario as written). */
function repeatsOf(runs: ReferenceRun[] | undefined, run: string | undefined): number {
  return runs?.find((r) => r.name === run)?.repeat?.length ?? 1;
}

/** How many times the engine runs for a replay: every run its rows and figures need, each
 *  repetition counted. */
export function runCount(replay: Scenario): number {
  const m = replay.reference?.size_mix_sweep;
  const mix = m ? m.large.length * m.seeds.length * new Set([m.over_run, ...m.series.map((s) => s.run)]).size : 0;
  return runNames(replay).reduce((n, name) => n + repeatsOf(replay.reference?.runs, name), mix);
}

/** The runs a replay's rows need, in the order of first mention ('' is the scenario as
 *  written): each row's run, and a ratio row's `over_run` too; then those the placeholders
 *  in the rows' texts measure (a run may feed only a placeholder), then the figures'. */
export function runNames(replay: Scenario): string[] {
  const rows: Measured[] = [...(replay.reference?.rows ?? []), ...(replay.reference ? whyMeasures(replay.reference).values() : [])];
  const figures = replay.reference?.figures ?? [];
  const ofFigures = figures.flatMap((f) => [f.run ?? '', ...(f.placements === undefined ? [] : [f.placements])]);
  return [...new Set([...rows.flatMap((r) => (r.over_run === undefined ? [r.run ?? ''] : [r.run ?? '', r.over_run])), ...ofFigures])];
}

/** The row's value from its metric as measured on a run (`measuredOn` throws MetricError
 *  when that run lacks it): on its run, or for a ratio row (`over_run`) that divided by the
 *  same metric on `over_run`. Throws MetricError when either run lacks the metric (the
 *  divisor's run named) or the divisor is 0. */
export function rowValue(row: Measured, measuredOn: (run: string) => number): number {
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

/** The mean of a row's metric over a run's repetitions, or why there is none (the first
 *  repetition that lacks it named, when the run repeats). */
class RunMeasure {
  private sum = 0;
  private n = 0;
  private min = Infinity;
  private max = -Infinity;
  private error: MetricError | null = null;

  add(v: number | MetricError, repetition: number, repeats: number): void {
    if (this.error) return;
    if (v instanceof MetricError) {
      this.error = repeats > 1 ? new MetricError(`repetition ${repetition}: ${v.message}`) : v;
      return;
    }
    this.sum += v;
    this.n++;
    this.min = Math.min(this.min, v);
    this.max = Math.max(this.max, v);
  }

  value(): number {
    if (this.error) throw this.error;
    return this.sum / this.n;
  }

  /** The smallest and largest value, once value() has not thrown. */
  range(): [number, number] {
    return [this.min, this.max];
  }
}

/** The size-mix sweep's runs (mix_sweep.ts), after the rows' runs, as a figure. */
async function runMixSweep(replay: Scenario, m: SizeMixSweep, plan: MixPlan, runner: Runner): Promise<Sweep> {
  const lat = new MixLatencies(m);
  for (const r of plan.runs) {
    const view = await runner(JSON.stringify(r.scenario));
    try {
      lat.add(r, view);
    } catch (e) {
      if (e instanceof MetricError) throw new ReplayPlanError(`${replay.name}: size_mix_sweep: ${r.large} large, seed ${r.seed}, run "${r.run}": ${e.message}`);
      throw e;
    }
  }
  return mixSweepOf(m, plan.requests, lat);
}

/** Builds every run first (a bad override fails before anything runs), then runs them in
 *  order, each repetition of a repeating run in turn. Each run's rows are measured as soon
 *  as it ends and its trace let go: a replay of many long runs holds one trace at a time
 *  (the page runs replays too). */
export async function runReplay(replay: Scenario, runner: Runner): Promise<ReplayResult> {
  const ref = replay.reference;
  if (!ref) throw new ReplayPlanError(`${replay.name}: has no "reference" block, so it is not a replay`);
  const scenarios = new Map(runNames(replay).map((n) => [n, runScenariosOf(replay, n)]));
  (ref.sweeps ?? []).forEach((sw, i) => sweepUnit(sw, i, ref.rows, replay.name));
  const mixPlan = ref.size_mix_sweep ? mixRuns(ref.size_mix_sweep, (r) => runScenarioOf(replay, r)) : null;
  // specs: the rows, then the placeholders of their texts, each measured as a row is;
  // measured[i] maps a run's name to spec i's metric on it (the mean over its repetitions).
  const quoted = whyMeasures(ref);
  const specs: Measured[] = [...ref.rows, ...quoted.values()];
  const measured = specs.map(() => new Map<string, RunMeasure>());
  const figures = new Array<FigureComparison>((ref.figures ?? []).length);
  // reproduced[i]: the repetitions of figure i's placements run with the seed's sequence.
  const reproduced = (ref.figures ?? []).map(() => 0);
  for (const [n, reps] of scenarios) {
    for (const [k, s] of reps.entries()) {
      const view: RunView = await runner(JSON.stringify(s));
      (ref.figures ?? []).forEach((f, i) => {
        if ((f.run ?? '') === n && k === 0) figures[i] = compareFigure(f, view);
        if (f.placements === n && reproducesFigure(f, view)) reproduced[i]!++;
      });
      specs.forEach((row, i) => {
        if ((row.run ?? '') !== n && row.over_run !== n) return;
        const m = measured[i]!.get(n) ?? new RunMeasure();
        measured[i]!.set(n, m);
        try {
          m.add(measure(row, view), k, reps.length);
        } catch (e) {
          if (!(e instanceof MetricError)) throw e;
          m.add(e, k, reps.length);
        }
      });
    }
  }
  const mix = ref.size_mix_sweep;
  const mixSweep = mix && mixPlan ? [await runMixSweep(replay, mix, mixPlan, runner)] : [];
  const valueOf = (i: number): number | MetricError => {
    try {
      return rowValue(specs[i]!, (n) => measured[i]!.get(n)!.value());
    } catch (e) {
      if (e instanceof MetricError) return e;
      throw e;
    }
  };
  const figuresQuoted = new Map([...quoted.keys()].map((text, j) => [text, valueOf(ref.rows.length + j)]));
  const rows = ref.rows.map((row, i) => {
    const own = measured[i]!.get(row.run ?? '')!;
    const repeats = repeatsOf(ref.runs, row.run);
    const value = valueOf(i);
    const filled = {
      ...row,
      why: fillWhy(row.why, figuresQuoted),
      ...(row.expected_why === undefined ? {} : { expected_why: fillWhy(row.expected_why, figuresQuoted) }),
    };
    if (value instanceof MetricError) return judgeRow(filled, null, value.message, { repeats });
    // The range of a ratio row's numerator alone would mislead: only plain rows get one.
    return judgeRow(filled, value, undefined, { repeats, ...(row.over_run === undefined ? { range: own.range() } : {}) });
  });
  return {
    name: replay.name,
    title: replay.title,
    document: ref.document,
    rows,
    figures: figures.map((f, i) => {
      const run = ref.figures![i]!.placements;
      return run === undefined ? f : { ...f, placements: { run, reproduced: reproduced[i]!, of: scenarios.get(run)!.length } };
    }),
    sweeps: [...sweepsOf(ref.sweeps ?? [], rows, replay.name), ...mixSweep],
    pass: rows.every((r) => r.pass !== false),
  };
}
