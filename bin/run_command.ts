// stackscope run: one scenario to its end, a summary, and the files asked for. Every
// argument and every output path is checked before the run starts.
import { EngineMemoryError, EngineScenarioError } from '../web/src/core/engine/engine.ts';
import { streamScenario } from '../web/src/core/engine/run.ts';
import { pcapFileHeader, pcapRecord } from '../web/src/core/engine/pcap_export.ts';
import { FRAME_OFF, RecordType, Trace, forEachRecord, u64 } from '../web/src/core/engine/trace_reader.ts';
import { defaultCapturePoint } from '../web/src/core/engine/capture_point.ts';
import { parseArgs, single, UsageError, type CommandSpec } from './args.ts';
import { OutputError, OutputFiles } from './output_files.ts';
import { RunTally } from './run_tally.ts';
import { ScenarioInputError, readScenarioInput, type ScenarioInput } from './scenario_input.ts';
import { contentMismatches, summaryLines } from './summary.ts';
import { formatTable, linkRows, tableJson } from './table.ts';

export const RUN: CommandSpec = {
  name: 'run',
  usage: `usage: stackscope run <name|file.json> [--set path=value ...] [--seed N] [--link NAME|all]
                      [--pcapng FILE] [--pcap FILE] [--trace FILE] [--table] [--table-json FILE]
  Runs a shipped scenario (stackscope list) or a scenario file to its end and prints what
  happened: frames per link, drops, retransmissions, each application's result.
  --set path=value   change a field first (links.serial.baud=9600); repeatable
  --seed N           the run's seed (0 .. 4294967295)
  --link NAME|all    the link --pcap and --table show (default: the capture point the page
                     opens on, the first link of the scenario's capture list); all: every
                     link's packet list, one after another (--table, --table-json only)
  --pcapng FILE      every captured link, with the stack's comments
  --pcap FILE        the one link, for tools that read classic pcap
  --trace FILE       the engine's trace records (docs/trace-format.md)
  --table            the link's packet list as Wireshark shows it
  --table-json FILE  the same packet list as JSON (with --link all: [{link, rows}, ...])
  Exit status: 0 done; 1 an application found bytes that differ from those sent, a file
  could not be written or the engine ran out of memory (no file is left short); 2 a bad
  scenario, argument or output path.`,
  withValue: ['--set', '--seed', '--link', '--pcapng', '--pcap', '--trace', '--table-json'],
  bare: ['--table'],
  repeatable: ['--set'],
  positional: { min: 1, max: 1, what: 'one scenario (a name or a file)' },
};

const FILE_FLAGS = ['--pcapng', '--pcap', '--trace', '--table-json'];
/** `--link all`: every link's packet list. */
const ALL_LINKS = 'all';

export async function runCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, RUN);
  const seed = single(args, '--seed');
  if (seed !== undefined && !/^\d+$/.test(seed)) throw new UsageError(`run: --seed must be a whole number from 0 to 4294967295, not "${seed}"`);
  if (seed !== undefined && Number(seed) > 0xffffffff) throw new UsageError(`run: --seed ${seed} is more than 4294967295`);
  const input = readScenarioInput(args.positional[0]!, args.values.get('--set') ?? [], seed);
  const linkName = single(args, '--link');
  if (linkName === ALL_LINKS && single(args, '--pcap') !== undefined)
    throw new UsageError('run: --pcap holds one link, so not --link all (--pcapng holds every captured link)');
  if (linkName !== undefined && linkName !== ALL_LINKS && !input.scenario.links.some((l) => l.name === linkName)) {
    const names = input.scenario.links.map((l) => l.name).join(', ');
    throw new ScenarioInputError(`${input.source}: --link ${linkName}: no such link (links: ${names}, or all)`);
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
  // The table reads the whole trace (a row names the frames it re-sends, on any link);
  // everything else is written or counted as the run goes.
  let whole: Trace | null = null;
  let tally: RunTally | undefined;
  let links: number[] = [];
  let run;
  try {
    run = await streamScenario(input.json, {
      start: (world) => {
        tally = new RunTally(world);
        if (table || outputs.has('--table-json')) whole = new Trace(world.links);
        links = linkName === ALL_LINKS ? world.links.map((_, i) => i) : [chosenLink(world, linkName)];
        if (outputs.has('--pcap')) files.write('--pcap', pcapFileHeader(world.links[links[0]!]?.type === 'ethernet'));
      },
      trace: (batch) => {
        tally!.add(batch);
        whole?.append(batch);
        if (outputs.has('--trace')) files.write('--trace', batch);
        if (outputs.has('--pcap')) writePcapRecords(files, batch, links[0]!);
      },
      pcapng: outputs.has('--pcapng') ? (bytes) => files.write('--pcapng', bytes) : undefined,
      capture: outputs.has('--pcapng'),
    });
  } catch (e) {
    if (e instanceof EngineScenarioError) throw new ScenarioInputError(`${input.source}: ${e.message}`);
    // Nothing is written: the files asked for would be short.
    if (e instanceof EngineMemoryError) throw new OutputError(`${input.source}: ${e.message}`, 1);
    throw e;
  }
  const wallMs = performance.now() - wall0;

  for (const line of summaryLines(input.scenario, { ...run, tally: tally! }, wallMs)) console.log(line);
  const world = run.world;
  const trace: Trace | null = whole; // set in start(): TypeScript cannot see the callback ran
  const lists = trace ? links.map((i) => ({ link: world.links[i]!.name, rows: linkRows({ world, trace }, i) })) : [];
  if (table) {
    for (const { link, rows } of lists) {
      console.log(`\npacket list of link ${link}:`);
      for (const line of formatTable(rows)) console.log(line);
    }
  }
  if (outputs.has('--table-json')) {
    // --link all: [{link, rows}, ...], each list written row by row as for one link
    const pieces = linkName === ALL_LINKS ? allTablesJson(lists) : tableJson(lists[0]!.rows);
    for (const piece of pieces) files.write('--table-json', piece);
  }
  files.commit();
  const mismatches = contentMismatches(input.scenario, run);
  for (const line of mismatches) console.error(`stackscope: ${line}`);
  return mismatches.length > 0 ? 1 : 0;
}

function* allTablesJson(lists: { link: string; rows: Parameters<typeof tableJson>[0] }[]): Generator<string> {
  yield '[\n';
  for (let i = 0; i < lists.length; i++) {
    yield `{"link": ${JSON.stringify(lists[i]!.link)}, "rows": `;
    yield* tableJson(lists[i]!.rows);
    yield i + 1 < lists.length ? '},\n' : '}\n';
  }
  yield ']\n';
}

/** The frames of `link` in a batch of records, as classic pcap records. */
function writePcapRecords(files: OutputFiles, batch: Uint8Array, link: number): void {
  forEachRecord(batch, (type, v, o) => {
    if (type !== RecordType.Frame || v.getUint16(o + FRAME_OFF.link, true) !== link) return;
    const start = o + FRAME_OFF.fixed;
    files.write('--pcap', pcapRecord(u64(v, o + FRAME_OFF.tSent), batch.subarray(start, start + v.getUint16(o + FRAME_OFF.len, true))));
  });
}

/** The link named by --link, else the page's default capture point. */
function chosenLink(world: Parameters<typeof defaultCapturePoint>[0], name: string | undefined): number {
  return name === undefined ? defaultCapturePoint(world) : world.links.findIndex((l) => l.name === name);
}
