// stackscope run: one scenario to its end, a summary, and the files asked for.
import { writeFileSync } from 'node:fs';
import { EngineScenarioError } from '../web/src/engine/engine.ts';
import { runScenario } from '../web/src/engine/run.ts';
import { classicPcap } from '../web/src/engine/pcap_export.ts';
import { parseArgs, single, UsageError } from './args.ts';
import { ScenarioInputError, readScenarioInput } from './scenario_input.ts';
import { summaryLines } from './summary.ts';
import { formatTable, linkRows } from './table.ts';

export async function runCommand(argv: string[]): Promise<number> {
  const args = parseArgs(
    argv,
    ['--set', '--seed', '--link', '--pcapng', '--pcap', '--trace', '--table-json'],
    ['--table'],
  );
  if (args.positional.length !== 1) throw new UsageError('run needs exactly one scenario (a name or a file)');
  const seed = single(args, '--seed');
  if (seed !== undefined && !/^\d+$/.test(seed)) throw new UsageError(`--seed must be a whole number, not "${seed}"`);
  const input = readScenarioInput(args.positional[0]!, args.values.get('--set') ?? [], seed);

  const wall0 = performance.now();
  let result;
  try {
    result = await runScenario(input.json);
  } catch (e) {
    if (e instanceof EngineScenarioError) throw new ScenarioInputError(`${input.source}: ${e.message}`);
    throw e;
  }
  const wallMs = performance.now() - wall0;

  const linkName = single(args, '--link');
  const link = linkName === undefined ? firstCapturedLink(result.world) : result.world.links.findIndex((l) => l.name === linkName);
  if (link < 0) {
    const names = result.world.links.map((l) => l.name).join(', ');
    throw new ScenarioInputError(`${input.source}: --link ${linkName}: no such link (links: ${names})`);
  }

  for (const line of summaryLines(input.scenario, result, wallMs)) console.log(line);
  const pcapng = single(args, '--pcapng');
  if (pcapng) writeFileSync(pcapng, result.pcapng);
  const pcap = single(args, '--pcap');
  if (pcap) writeFileSync(pcap, classicPcap(result.trace.frames.filter((f) => f.link === link)));
  const tracePath = single(args, '--trace');
  if (tracePath) writeFileSync(tracePath, result.traceBytes);
  if (args.flags.has('--table') || single(args, '--table-json')) {
    const rows = linkRows(result, link);
    if (args.flags.has('--table')) {
      console.log(`\npacket list of link ${result.world.links[link]!.name}:`);
      for (const line of formatTable(rows)) console.log(line);
    }
    const tableJson = single(args, '--table-json');
    if (tableJson) writeFileSync(tableJson, JSON.stringify(rows, null, 1) + '\n');
  }
  return 0;
}

function firstCapturedLink(world: { links: { capture_interface: number }[] }): number {
  const i = world.links.findIndex((l) => l.capture_interface === 0);
  return i < 0 ? 0 : i;
}
