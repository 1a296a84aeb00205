// stackscope replay: run the replays of the seeds' experiments (web/src/core/scenarios/replays,
// docs/replays.md) and print each row beside the seed's figure. Exit 1 when a judged row is
// outside its tolerance, 2 for bad arguments or a bad replay file.
import { EngineScenarioError } from '../web/src/core/engine/engine.ts';
import { runScenario } from '../web/src/core/engine/run.ts';
import { ReplayPlanError, runReplay, type ReplayResult } from '../web/src/core/replay/replay.ts';
import { parseArgs, type CommandSpec } from './args.ts';
import { figureLines, replayLines, sweepLines } from './replay_table.ts';
import { standingCounts, standingSummary } from '../web/src/core/replay/standing.ts';
import { ScenarioInputError, readScenarioInput } from './scenario_input.ts';
import { replayScenarios } from './shipped.ts';

export const REPLAY: CommandSpec = {
  name: 'replay',
  usage: `usage: stackscope replay [name|file.json ...] [--json] [--why] [--figures]
  Runs the replays of the seeds' experiments (all of them when none is named) and prints
  each row beside the seed's figure.
  --json     the rows as JSON
  --why      each row's reason
  --figures  the seed's packet lists aligned with the runs' captures, row by row:
             each row matched, differing (fields named), missing or extra; and
             the sweeps (curves over line speed, size mix) as tables
  Exit status: 0 every judged row within its tolerance, 1 a row outside it, 2 a bad
  argument or replay file.`,
  withValue: [],
  bare: ['--json', '--why', '--figures'],
  positional: { min: 0, max: Infinity, what: 'replays' },
};

export async function replayCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, REPLAY);
  const names = args.positional.length > 0 ? args.positional : replayScenarios().map((s) => s.name);
  // Every file is read and checked before anything runs.
  const inputs = names.map((n) => {
    const input = readScenarioInput(n, [], undefined);
    if (!input.scenario.reference) throw new ScenarioInputError(`${input.source}: has no "reference" block, so it is not a replay`);
    return input;
  });
  const results: ReplayResult[] = [];
  for (const input of inputs) {
    try {
      results.push(await runReplay(input.scenario, (json) => runScenario(json)));
    } catch (e) {
      if (e instanceof ReplayPlanError || e instanceof EngineScenarioError) throw new ScenarioInputError(`${input.source}: ${e.message}`);
      throw e;
    }
  }
  if (args.flags.has('--json')) {
    console.log(JSON.stringify({ pass: results.every((r) => r.pass), replays: results }, null, 1));
  } else {
    for (const r of results) {
      const figures = args.flags.has('--figures')
        ? [...r.figures.flatMap((f) => ['', ...figureLines(f)]), ...r.sweeps.flatMap((s) => ['', ...sweepLines(s)])]
        : [];
      console.log([...replayLines(r, args.flags.has('--why')), ...figures, ''].join('\n'));
    }
    const rows = results.flatMap((r) => r.rows);
    console.log(`${results.length} replay(s), ${rows.length} rows: ${standingSummary(standingCounts(rows))}`);
  }
  return results.every((r) => r.pass) ? 0 : 1;
}
