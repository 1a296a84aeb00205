import { parseArgs } from './args.ts';
import { shippedScenarios } from './shipped.ts';

export async function listCommand(argv: string[]): Promise<number> {
  parseArgs(argv, [], []);
  const all = shippedScenarios();
  const width = Math.max(...all.map((s) => s.name.length));
  for (const s of all) console.log(`${s.name.padEnd(width)}  ${s.title}`);
  return 0;
}
