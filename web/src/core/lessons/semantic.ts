// The checks of a lesson that lesson.schema.json cannot express (docs/lessons.md, "checked by
// validate.ts"). Names of hosts, links and event kinds are checked against the run (play.ts):
// a lesson may name a shipped scenario this code does not read.

import type { LessonError } from './errors.ts';
import { placeholders, VALUE_NAMES } from './template.ts';
import { type Anchor, type AnswerKind, type Lesson, type Question } from './types.ts';

/** What kind of value each answer is: choices must be of that kind. */
const ANSWER_TYPE: Record<AnswerKind, 'number' | 'string' | 'boolean'> = {
  wait_s: 'number',
  rto_s: 'number',
  timer_s: 'number',
  cwnd: 'number',
  ssthresh: 'number',
  segment: 'number',
  dupacks: 'number',
  len: 'number',
  retransmission: 'boolean',
  cause: 'string',
  host: 'string',
  state: 'string',
};

export function checkLesson(lesson: Lesson): LessonError[] {
  const errors: LessonError[] = [];
  const ids = new Set<string>();
  let questions = 0;
  lesson.steps.forEach((step, i) => {
    const path = `steps[${i}]`;
    errors.push(...checkAnchor(step.at, `${path}.at`, ids), ...checkTemplate(step.caption, `${path}.caption`));
    if (step.id !== undefined) {
      if (ids.has(step.id)) errors.push({ path: `${path}.id`, message: `"${step.id}" is the id of an earlier step too` });
      ids.add(step.id);
    }
    if (step.question) {
      questions++;
      // the reveal may count from this step's own anchor
      errors.push(...checkQuestion(step.question, `${path}.question`, ids));
    }
  });
  if (questions === 0) errors.push({ path: 'steps', message: 'must ask at least one question (a step with "question")' });
  return errors;
}

function checkAnchor(a: Anchor, path: string, ids: ReadonlySet<string>): LessonError[] {
  const kinds = (a.event ? 1 : 0) + (a.frame ? 1 : 0);
  if (kinds !== 1) return [{ path, message: 'must have exactly one of "event" and "frame"' }];
  const field = a.event ? 'event' : 'frame';
  const after = a.event?.after ?? a.frame?.after;
  if (after !== undefined && !ids.has(after))
    return [{ path: `${path}.${field}.after`, message: `names "${after}", which is not the id of this or an earlier step` }];
  return [];
}

function checkQuestion(q: Question, path: string, ids: ReadonlySet<string>): LessonError[] {
  const errors = checkAnchor(q.reveal, `${path}.reveal`, ids);
  if (q.explain !== undefined) errors.push(...checkTemplate(q.explain, `${path}.explain`));
  const want = ANSWER_TYPE[q.answer];
  const seen = new Map<string, number>();
  q.choices.forEach((c, i) => {
    if (typeof c.value !== want) errors.push({ path: `${path}.choices[${i}].value`, message: `must be a ${want}: the answer "${q.answer}" is one` });
    const key = JSON.stringify(c.value);
    const first = seen.get(key);
    if (first !== undefined) errors.push({ path: `${path}.choices[${i}].value`, message: `${key} is also choices[${first}]'s value` });
    else seen.set(key, i);
  });
  return errors;
}

function checkTemplate(text: string, path: string): LessonError[] {
  const known: readonly string[] = VALUE_NAMES;
  return placeholders(text)
    .filter((name) => !known.includes(name))
    .map((name) => ({ path, message: `{${name}} is not a value a caption can quote (${VALUE_NAMES.join(', ')})` }));
}
