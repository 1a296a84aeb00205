// A lesson played against its run: every step's anchor found, its caption filled in, every
// question's answer computed and matched to its choices. Anything the run cannot give (an
// anchor not found, a value the anchor has not, an answer no choice or two choices equal) is
// a LessonFileError naming the lesson's field.

import { LessonFileError } from './errors.ts';
import { computeAnswer, matchingChoices } from './answer.ts';
import type { Hit } from './hit.ts';
import type { LessonRun } from './lesson_run.ts';
import { resolveAnchor } from './query.ts';
import { fillTemplate, MissingValueError } from './template.ts';
import type { Choice, Compare, Lesson, Question } from './types.ts';
import { anchorValues, type RawValue, type Values } from './values.ts';

export interface PlayedQuestion {
  prompt: string;
  choices: Choice[];
  /** where the answer shows: play on to this instant */
  reveal: Hit;
  /** the run's value, and how it reads */
  answer: RawValue;
  answerText: string;
  /** the index of the right choice */
  correct: number;
  explain?: string;
}

export interface PlayedStep {
  id?: string;
  at: Hit;
  caption: string;
  question?: PlayedQuestion;
  /** show the step beside the lesson's run with these changes */
  compare?: Compare;
}

export function playLesson(lesson: Lesson, run: LessonRun): PlayedStep[] {
  const byId = new Map<string, Hit>();
  const out: PlayedStep[] = [];
  lesson.steps.forEach((step, i) => {
    const path = `steps[${i}]`;
    const at = resolveAnchor(run, step.at, `${path}.at`, byId);
    if (step.id !== undefined) byId.set(step.id, at);
    const values = anchorValues(run, at, out[i - 1]?.at);
    const played: PlayedStep = { at, caption: fill(step.caption, values, `${path}.caption`) };
    if (step.id !== undefined) played.id = step.id;
    if (step.question) played.question = playQuestion(run, step.question, at, byId, `${path}.question`);
    if (step.compare) played.compare = step.compare;
    out.push(played);
  });
  return out;
}

function playQuestion(run: LessonRun, q: Question, step: Hit, byId: ReadonlyMap<string, Hit>, path: string): PlayedQuestion {
  const reveal = resolveAnchor(run, q.reveal, `${path}.reveal`, byId);
  const values = anchorValues(run, reveal, step);
  const computed = computeAnswer(q.answer, step, reveal, values);
  if (computed === undefined) throw new LessonFileError([{ path: `${path}.answer`, message: `"${q.answer}" has no value at the reveal anchor` }]);
  const { raw: answer, text: answerText } = computed;
  const hits = matchingChoices(q, answer);
  if (hits.length !== 1) {
    const why = hits.length === 0 ? 'which none of the choices is' : `which choices ${hits.join(' and ')} both are`;
    throw new LessonFileError([{ path: `${path}.choices`, message: `the run's answer is ${answerText}, ${why}` }]);
  }
  const played: PlayedQuestion = { prompt: q.prompt, choices: q.choices, reveal, answer, answerText, correct: hits[0]! };
  if (q.explain !== undefined) played.explain = fill(q.explain, values, `${path}.explain`);
  return played;
}

function fill(template: string, values: Values, path: string): string {
  try {
    return fillTemplate(template, values);
  } catch (e) {
    if (e instanceof MissingValueError) throw new LessonFileError([{ path, message: e.message }]);
    throw e;
  }
}
