// stackscope: list the scenarios, run one, replay the seeds' experiments, play a lesson on
// its run, benchmark the engine. `stackscope COMMAND --help` prints a command's usage.
// Exit status: 0 done, 2 a bad scenario, bad arguments or an output path that cannot be
// written (one line on stderr naming the field, argument or file, and why), 1 anything
// else (replay: a row outside its tolerance; run: bytes that came back wrong, a write that
// failed).
import { runCommand, RUN } from './run_command.ts';
import { listCommand, LIST } from './list_command.ts';
import { benchCommand, BENCH } from './bench_command.ts';
import { replayCommand, REPLAY } from './replay_command.ts';
import { lessonCommand, LESSON } from './lesson_command.ts';
import { HelpRequest, UsageError, type CommandSpec } from './args.ts';
import { OutputError } from './output_files.ts';
import { ScenarioInputError } from './scenario_input.ts';

const COMMANDS: [CommandSpec, (argv: string[]) => Promise<number>][] = [
  [LIST, listCommand],
  [RUN, runCommand],
  [REPLAY, replayCommand],
  [LESSON, lessonCommand],
  [BENCH, benchCommand],
];

/** Each command's first usage line (its synopsis), and where the rest is. */
const USAGE = [
  'usage:',
  ...COMMANDS.map(([spec]) => spec.usage.split('\n')[0]!.replace(/^usage: /, '  ')),
  'stackscope COMMAND --help says more about each.',
].join('\n');

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === '-h' || command === '--help') {
      // "stackscope --help run" is "stackscope run --help".
      const topic = rest.length === 1 ? COMMANDS.find(([spec]) => spec.name === rest[0]) : undefined;
      if (rest.length > 0 && !topic) throw new UsageError(`--help takes a command (${COMMANDS.map(([s]) => s.name).join(', ')}), not "${rest.join(' ')}"`);
      console.log(topic ? topic[0].usage : USAGE);
      return command === undefined ? 2 : 0;
    }
    const entry = COMMANDS.find(([spec]) => spec.name === command);
    if (!entry) throw new UsageError(`unknown command "${command}" (commands: ${COMMANDS.map(([s]) => s.name).join(', ')})`);
    return await entry[1](rest);
  } catch (err) {
    return report(err, command);
  }
}

/** One line on stderr for what the user got wrong, with its exit status; anything else is
 *  a fault of stackscope and keeps its stack trace. */
function report(err: unknown, command: string | undefined): number {
  if (err instanceof HelpRequest) {
    console.log(err.usage);
    return 0;
  }
  if (err instanceof UsageError) {
    const help = command && COMMANDS.some(([s]) => s.name === command) ? `stackscope ${command} --help` : 'stackscope --help';
    console.error(`stackscope: ${err.message} (${help} for the usage)`);
    return 2;
  }
  if (err instanceof ScenarioInputError) {
    console.error(err.message);
    return 2;
  }
  if (err instanceof OutputError) {
    console.error(`stackscope: ${err.message}`);
    return err.exitCode;
  }
  throw err;
}
