// stackscope lesson: with no argument, the shipped lessons; with one, its steps played on the
// run: captions with the run's values, each question with the answer the run gives. A lesson
// the run cannot play (an anchor not found) is one line naming the field, exit status 2.
//   stackscope lesson [name|file.json] [--set path=value ...]
import { readFileSync } from 'node:fs';
import { formatLessonErrors, frameLabel, LessonFileError, parseLesson, runLesson, withPositions } from '../web/src/core/lessons/index.ts';
import type { LessonRun, PlayedStep } from '../web/src/core/lessons/index.ts';
import type { Hit } from '../web/src/core/lessons/hit.ts';
import { seconds } from '../web/src/core/lessons/values.ts';
import { parseArgs, UsageError, type CommandSpec } from './args.ts';
import { shippedLessons, shippedScenarioDoc } from './lessons.ts';
import { readArgFile, ScenarioInputError } from './scenario_input.ts';

export const LESSON: CommandSpec = {
  name: 'lesson',
  usage: `usage: stackscope lesson [name|file.json] [--set path=value ...]
  A lesson's steps, captions and answers as its run gives them; with no name, the lessons.
  --set path=value   change a field of the lesson's scenario first; repeatable`,
  withValue: ['--set'],
  bare: [],
  repeatable: ['--set'],
  positional: { min: 0, max: 1, what: 'one lesson (a name or a file)' },
};

export async function lessonCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, LESSON);
  if (args.positional.length === 0) {
    if (args.values.has('--set')) throw new UsageError('lesson: --set needs a lesson to change');
    return listLessons();
  }
  const { source, text } = locate(args.positional[0]!);
  const parsed = parseLesson(text);
  if (!parsed.ok) throw new ScenarioInputError(formatLessonErrors(parsed.errors, source));
  const lesson = { ...parsed.lesson, set: [...(parsed.lesson.set ?? []), ...(args.values.get('--set') ?? [])] };
  try {
    const play = await runLesson(lesson, shippedScenarioDoc);
    console.log(`${lesson.name}: ${lesson.title}`);
    play.steps.forEach((s, i) => printStep(play.run, s, i));
    return 0;
  } catch (e) {
    if (e instanceof LessonFileError) {
      // a --set of the command line is not in the file: no line and column for it
      const inFile = e.errors.filter((x) => !fromCommandLine(x.path, parsed.lesson.set?.length ?? 0));
      const placed = withPositions(inFile, text);
      throw new ScenarioInputError(
        formatLessonErrors(
          e.errors.map((x) => placed.find((p) => p.path === x.path) ?? x),
          source,
        ),
      );
    }
    throw e;
  }
}

function fromCommandLine(path: string, setsInFile: number): boolean {
  const m = /^set\[(\d+)\]/.exec(path);
  return m !== null && Number(m[1]) >= setsInFile;
}

function listLessons(): number {
  const all = shippedLessons();
  const width = Math.max(...all.map((l) => l.name.length));
  for (const l of all) console.log(`${l.name.padEnd(width)}  ${l.title}`);
  return 0;
}

function locate(arg: string): { source: string; text: string } {
  const file = readArgFile(arg);
  if (file) return file;
  const shipped = shippedLessons().find((l) => l.name === arg);
  if (!shipped)
    throw new ScenarioInputError(
      `${arg}: no such lesson (${shippedLessons()
        .map((l) => l.name)
        .join(', ')}) and no such file`,
    );
  return { source: arg, text: readFileSync(shipped.file, 'utf8') };
}

function printStep(run: LessonRun, s: PlayedStep, i: number): void {
  console.log(`\n${i + 1}. [${where(run, s.at)}] ${s.caption}`);
  const q = s.question;
  if (!q) return;
  console.log(`   Q: ${q.prompt}`);
  q.choices.forEach((c, k) => console.log(`      ${k === q.correct ? '*' : ' '} ${String.fromCharCode(97 + k)}) ${c.text}`));
  console.log(`   A: ${String.fromCharCode(97 + q.correct)}) the run says ${q.answerText} [${where(run, q.reveal)}]`);
  if (q.explain) console.log(`      ${q.explain}`);
}

/** "1.083 s, client tcp.rto.expire" or "1.083 s, eth No. 9 (client)" */
function where(run: LessonRun, h: Hit): string {
  const what =
    h.event && !h.frame
      ? `${run.world.hosts[h.event.host]!.name} ${run.world.trace_kinds[h.event.kind]}`
      : frameLabel(run, h.frame!) + (h.event ? ` ${run.world.trace_kinds[h.event.kind]}` : '');
  return `${seconds(h.time / 1e6)}, ${what}`;
}
