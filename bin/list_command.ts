// stackscope list: the shipped scenarios and the replays, by name and title.
import { parseArgs, type CommandSpec } from './args.ts';
import { replayScenarios, shippedScenarios } from './shipped.ts';

export const LIST: CommandSpec = {
  name: 'list',
  usage: `usage: stackscope list
  The shipped scenarios and the replays of the seeds' experiments, by name and title.`,
  withValue: [],
  bare: [],
  positional: { min: 0, max: 0, what: '' },
};

export async function listCommand(argv: string[]): Promise<number> {
  parseArgs(argv, LIST);
  const all = shippedScenarios();
  const replays = replayScenarios();
  const width = Math.max(...[...all, ...replays].map((s) => s.name.length));
  for (const s of all) console.log(`${s.name.padEnd(width)}  ${s.title}`);
  if (replays.length > 0) {
    console.log('\nreplays of the seeds (stackscope replay NAME; stackscope run NAME runs the file as written):');
    for (const s of replays) console.log(`${s.name.padEnd(width)}  ${s.title}`);
  }
  return 0;
}
