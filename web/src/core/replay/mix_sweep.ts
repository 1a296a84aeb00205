// A replay's size-mix sweep (reference.size_mix_sweep): how the gain of one RTO scheme over
// another depends on the data set. The NFC paper's long session gives a 29.32 % gain and
// says it "solely depends on the data set" without giving the set; so the replay draws the
// session again with 0 to all of its requests large (long_session_rounds.ts, mixedRounds),
// several seeds per count, runs each series' run and the run it is measured against on every
// sequence, and draws the gain (latency reduction, %) as one more sweep: the mean over the
// seeds as the curve, each seed's point beside it. Shown, never judged.

import type { SizeMixSweep } from '../scenarios/reference.ts';
import type { Scenario } from '../scenarios/types.ts';
import { mixedRounds } from './long_session_rounds.ts';
import { measure } from './metrics.ts';
import type { Sweep } from './sweeps.ts';
import type { RunView } from './metrics.ts';

/** One engine run of the sweep: a run of the replay on the sequence drawn with `seed` and
 *  `large` large requests. */
export interface MixRun {
  large: number;
  seed: number;
  run: string;
  scenario: Scenario;
}

/** The session's length: the client's rounds (validate.ts has checked it is a reqresp client). */
function requestsOf(base: Scenario, m: SizeMixSweep): number {
  const app = base.apps?.[m.app];
  return app?.type === 'reqresp_client' ? app.rounds.length : 0;
}

/** Every reqresp app's rounds replaced by the drawn sequence: client and server must agree
 *  on it, as they do in the replay as written. */
function withRounds(s: Scenario, seed: number, large: number, n: number): Scenario {
  const rounds = mixedRounds(seed, large, n);
  return { ...s, apps: (s.apps ?? []).map((a) => (a.type === 'reqresp_client' || a.type === 'reqresp_server' ? { ...a, rounds } : a)) };
}

/** The sweep's engine runs, in the order they are run, and the session's length. */
export interface MixPlan {
  requests: number;
  runs: MixRun[];
}

/** The runs the sweep needs, each run's first repetition (one tick placement: the spread
 *  over seeds is then the data set's alone). `runOf` gives a run's scenario (replay.ts,
 *  runScenarioOf). */
export function mixRuns(m: SizeMixSweep, runOf: (run: string) => Scenario): MixPlan {
  const bases = new Map([m.over_run, ...m.series.map((s) => s.run)].map((r) => [r, runOf(r)]));
  const n = requestsOf(bases.get(m.over_run)!, m);
  const runs = m.large.flatMap((large) =>
    m.seeds.flatMap((seed) => [...bases].map(([run, s]) => ({ large, seed, run, scenario: withRounds(s, seed, large, n) }))),
  );
  return { requests: n, runs };
}

/** The latencies of the sweep's runs, keyed "large/seed/run". */
export class MixLatencies {
  private readonly t = new Map<string, number>();

  constructor(private readonly m: SizeMixSweep) {}

  add(r: MixRun, view: RunView): void {
    this.t.set(`${r.large}/${r.seed}/${r.run}`, measure({ metric: 'app_elapsed_s', app: this.m.app }, view));
  }

  /** The latency reduction of `run` over the sweep's `over_run`, in %. */
  gain(large: number, seed: number, run: string): number {
    const at = (r: string): number => this.t.get(`${large}/${seed}/${r}`)!;
    return (1 - at(run) / at(this.m.over_run)) * 100;
  }
}

/** The sweep as a figure: x the share of large requests as their count among the session's
 *  (ticks at whole counts, as the caption names them), per series the mean gain over
 *  the seeds, each seed's gain in `each`, the seed's gain at `paper_large`. */
export function mixSweepOf(m: SizeMixSweep, n: number, lat: MixLatencies): Sweep {
  return {
    label: m.label,
    x_label: `large requests among the ${n}`,
    x_log: false,
    unit: `% less latency than the ${m.over_run} run`,
    note: m.note,
    series: m.series.map((s) => ({
      name: s.name,
      points: m.large.map((large) => {
        const each = m.seeds.map((seed) => lat.gain(large, seed, s.run));
        return {
          x: large,
          row: `${s.name}, ${large} of ${n} requests large`,
          seed: large === m.paper_large ? (s.paper ?? null) : null,
          simulated: each.reduce((a, b) => a + b, 0) / each.length,
          each,
          standing: 'not judged' as const,
        };
      }),
    })),
  };
}
