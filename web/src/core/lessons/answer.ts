// A question's right answer, computed from the run at its reveal anchor (never written into
// the lesson), and the one choice that equals it.

import type { Hit } from './hit.ts';
import type { AnswerKind, Question } from './types.ts';
import { seconds, type RawValue, type Value, type Values } from './values.ts';

// Which value of the reveal anchor each answer reads; wait_s is the time from the question's
// step to its reveal.
const FROM_VALUE: Record<Exclude<AnswerKind, 'wait_s'>, string> = {
  rto_s: 'rto',
  timer_s: 'timer',
  cwnd: 'cwnd',
  ssthresh: 'ssthresh',
  segment: 'segment',
  retransmission: 'retransmission',
  cause: 'cause',
  dupacks: 'dupacks',
  len: 'len',
  host: 'host',
  state: 'state',
};

/** The answer and how it reads ("1.000 s", "∞"), or undefined if the reveal anchor has not that value. */
export function computeAnswer(kind: AnswerKind, step: Hit, reveal: Hit, values: Values): Value | undefined {
  if (kind !== 'wait_s') return values.get(FROM_VALUE[kind]);
  const wait = (reveal.time - step.time) / 1e6;
  return { raw: wait, text: seconds(wait) };
}

/** The indices of the choices the value equals: numbers within the question's tolerance (a
 *  fraction of the choice's value), anything else exactly. */
export function matchingChoices(q: Question, value: RawValue): number[] {
  const tolerance = q.tolerance ?? 0.05;
  const equal = (c: RawValue) => (typeof c === 'number' && typeof value === 'number' ? Math.abs(value - c) <= tolerance * Math.abs(c) : c === value);
  return q.choices.flatMap((c, i) => (equal(c.value) ? [i] : []));
}
