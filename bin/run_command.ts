// stackscope run: one scenario to its end, a summary, and the files asked for. Every
// argument and every output path is checked before the run starts.
import { EngineScenarioError } from '../web/src/core/engine/engine.ts';
import { runScenario } from '../web/src/core/engine/run.ts';
import { classicPcap } from '../web/src/core/engine/pcap_export.ts';
import { parseArgs, single, UsageError, type CommandSpec } from './args.ts';
import { OutputFiles } from './output_files.ts';
import { ScenarioInputError, readScenarioInput, type ScenarioInput } from './scenario_input.ts';
import { contentMismatches, summaryLines } from './summary.ts';
import { formatTable, linkRows } from './table.ts';

export const RUN: CommandSpec = {
  name: 'run',
  usage: `usage: stackscope run <name|file.json> [--set path=value ...] [--seed N] [--link NAME]
                      [--pcapng FILE] [--pcap FILE] [--trace FILE] [--table] [--table-json FILE]
  Runs a shipped scenario (stackscope list) or a scenario file to its end and prints what
  happened: frames per link, drops, retransmissions, each application's result.
  --set path=value   change a field first (links.serial.baud=9600); repeatable
  --seed N           the run's seed (0 .. 4294967295)
  --link NAME        the link --pcap and --table show (default: the first captured link)
  --pcapng FILE      every captured link, with the stack's comments
  --pcap FILE        the one link, for tools that read classic pcap
  --trace FILE       the engine's trace records (docs/trace-format.md)
  --table            the link's packet list as Wireshark shows it
  --table-json FILE  the same packet list as JSON
  Exit status: 0 done; 1 an application found bytes that differ from those sent, or a
  file could not be written; 2 a bad scenario, argument or output path.`,
  withValue: ['--set', '--seed', '--link', '--pcapng', '--pcap', '--trace', '--table-json'],
  bare: ['--table'],
  repeatable: ['--set'],
  positional: { min: 1, max: 1, what: 'one scenario (a name or a file)' },
};

const FILE_FLAGS = ['--pcapng', '--pcap', '--trace', '--table-json'];

export async function runCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, RUN);
  const seed = single(args, '--seed');
  if (seed !== undefined && !/^\d+$/.test(seed)) throw new UsageError(`run: --seed must be a whole number from 0 to 4294967295, not "${seed}"`);
  if (seed !== undefined && Number(seed) > 0xffffffff) throw new UsageError(`run: --seed ${seed} is more than 4294967295`);
  const input = readScenarioInput(args.positional[0]!, args.values.get('--set') ?? [], seed);
  const linkName = single(args, '--link');
  if (linkName !== undefined && !input.scenario.links.some((l) => l.name === linkName)) {
    const names = input.scenario.links.map((l) => l.name).join(', ');
    throw new ScenarioInputError(`${input.source}: --link ${linkName}: no such link (links: ${names})`);
  }
  const files = new OutputFiles();
  try {
    const outputs = new Set(FILE_FLAGS.filter((flag) => single(args, flag) !== undefined));
    for (const flag of outputs) files.claim(flag, single(args, flag)!);
    return await runAndWrite(input, linkName, args.flags.has('--table'), files, outputs);
  } finally {
    files.discard();
  }
}

async function runAndWrite(input: ScenarioInput, linkName: string | undefined, table: boolean, files: OutputFiles, outputs: Set<string>): Promise<number> {
  const wall0 = performance.now();
  let result;
  try {
    result = await runScenario(input.json);
  } catch (e) {
    if (e instanceof EngineScenarioError) throw new ScenarioInputError(`${input.source}: ${e.message}`);
    throw e;
  }
  const wallMs = performance.now() - wall0;
  const link = linkName === undefined ? firstCapturedLink(result.world) : result.world.links.findIndex((l) => l.name === linkName);

  for (const line of summaryLines(input.scenario, result, wallMs)) console.log(line);
  const rows = table || outputs.has('--table-json') ? linkRows(result, link) : [];
  if (table) {
    console.log(`\npacket list of link ${result.world.links[link]!.name}:`);
    for (const line of formatTable(rows)) console.log(line);
  }
  const data = new Map<string, Uint8Array | string>();
  if (outputs.has('--pcapng')) data.set('--pcapng', result.pcapng);
  if (outputs.has('--pcap'))
    data.set(
      '--pcap',
      classicPcap(
        result.trace.frames.filter((f) => f.link === link),
        result.world.links[link]?.type === 'ethernet',
      ),
    );
  if (outputs.has('--trace')) data.set('--trace', result.traceBytes);
  if (outputs.has('--table-json')) data.set('--table-json', JSON.stringify(rows, null, 1) + '\n');
  files.commit(data);
  const mismatches = contentMismatches(input.scenario, result);
  for (const line of mismatches) console.error(`stackscope: ${line}`);
  return mismatches.length > 0 ? 1 : 0;
}

function firstCapturedLink(world: { links: { capture_interface: number }[] }): number {
  const i = world.links.findIndex((l) => l.capture_interface === 0);
  return i < 0 ? 0 : i;
}
