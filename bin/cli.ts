// stackscope: list the scenarios, run one, play a lesson on its run, benchmark the engine.
//   stackscope list
//   stackscope run <name|file.json> [--set path=value ...] [--seed N] [--link NAME]
//                  [--pcapng FILE] [--pcap FILE] [--trace FILE] [--table] [--table-json FILE]
//   stackscope replay [name|file.json ...] [--json] [--why] [--figures]
//   stackscope lesson [name|file.json] [--set path=value ...]
//   stackscope bench [--seconds S]
// Exit status: 0 done, 2 a bad scenario or bad arguments (the message says which field and
// why), 1 anything else (for replay: a row outside its tolerance).
import { runCommand } from './run_command.ts';
import { listCommand } from './list_command.ts';
import { benchCommand } from './bench_command.ts';
import { replayCommand } from './replay_command.ts';
import { lessonCommand } from './lesson_command.ts';
import { UsageError } from './args.ts';
import { ScenarioInputError } from './scenario_input.ts';

const USAGE = `usage:
  stackscope list
  stackscope run <name|file.json> [--set path=value ...] [--seed N] [--link NAME]
                 [--pcapng FILE] [--pcap FILE] [--trace FILE] [--table] [--table-json FILE]
  stackscope replay [name|file.json ...] [--json] [--why] [--figures]
                 the seeds' experiments beside their numbers; exit 1 if a row is off
  stackscope lesson [name|file.json] [--set path=value ...]
                 a lesson's steps, captions and answers from its run; no name: the lessons
  stackscope bench [--seconds S]`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'list':
        return await listCommand(rest);
      case 'run':
        return await runCommand(rest);
      case 'replay':
        return await replayCommand(rest);
      case 'lesson':
        return await lessonCommand(rest);
      case 'bench':
        return await benchCommand(rest);
      case undefined:
      case '-h':
      case '--help':
        console.log(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`stackscope: ${err.message}\n${USAGE}`);
      return 2;
    }
    if (err instanceof ScenarioInputError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
}
