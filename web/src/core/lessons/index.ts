// The lesson engine (docs/lessons.md): a scenario plus steps anchored to what the run did,
// captions quoting the stack's own values, questions answered by the run. No UI here.
//
//   const r = parseLesson(text);                       // errors name the field, line, column
//   const played = await runLesson(r.lesson, shipped); // steps, captions, answers

import { runScenario, type RunResult } from '../engine/run.ts';
import type { EngineModule } from '../engine/engine_module.ts';
import type { Scenario } from '../scenarios/index.ts';
import { LessonFileError } from './errors.ts';
import { lessonRun, type LessonRun } from './lesson_run.ts';
import { playLesson, type PlayedStep } from './play.ts';
import { lessonScenario } from './scenario.ts';
import type { Lesson } from './types.ts';

export { parseLesson, validateLesson, lessonSchema, type LessonResult } from './validate.ts';
export { formatLessonErrors, LessonFileError, withPositions, type LessonError } from './errors.ts';
export { lessonScenario } from './scenario.ts';
export { lessonRun, type LessonRun } from './lesson_run.ts';
export { playLesson, type PlayedQuestion, type PlayedStep } from './play.ts';
export { frameLabel } from './query_frame.ts';
export type * from './types.ts';

export interface LessonPlay {
  scenario: Scenario;
  result: RunResult;
  run: LessonRun;
  steps: PlayedStep[];
}

/** Runs the lesson's scenario and plays the lesson on it. `shipped(name)`: a shipped
 *  scenario's parsed JSON. Throws LessonFileError for anything the lesson gets wrong. */
export async function runLesson(lesson: Lesson, shipped: (name: string) => unknown, mod?: EngineModule): Promise<LessonPlay> {
  const s = lessonScenario(lesson, shipped);
  if (!s.ok) throw new LessonFileError(s.errors);
  const result = await runScenario(s.json, mod);
  const run = lessonRun(result);
  return { scenario: s.scenario, result, run, steps: playLesson(lesson, run) };
}
