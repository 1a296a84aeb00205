// The page's side of a lesson (docs/lessons.md): opening one makes its scenario the page's
// run; the lesson engine (web/src/core/lessons) plays it on that run, so the captions and the
// answers follow every parameter the teacher turns; a step puts the cursor on its anchor
// with the future hidden and zooms the ladder onto it; Reveal plays on to the answer.
import {
  formatLessonErrors,
  LessonFileError,
  lessonRun,
  lessonScenario,
  parseLesson,
  playLesson,
  type Lesson,
  type PlayedStep,
} from '../../core/lessons/index.ts';
import type { Hit } from '../../core/lessons/hit.ts';
import { LESSON_PREFIX } from './permalink.ts';
import type { RunModel } from '../../core/run/run_model.ts';
import { lessonByName, loadLesson, shippedByName } from '../common/shipped.ts';
import { getState, runNow, setState } from '../common/store.ts';
import { openedLesson, rememberOpened } from './opened_lessons.ts';

export function findLesson(name: string): Lesson | undefined {
  return openedLesson(name) ?? lessonByName(name);
}

/** Opens a lesson from its text (a file, a link); returns what is wrong with it instead,
 *  each problem with its field, line and column in `source`. */
export function openLessonText(text: string, source: string, step = 0): string | null {
  const r = parseLesson(text);
  if (!r.ok) return formatLessonErrors(r.errors, source);
  rememberOpened(r.lesson);
  return chooseLesson(r.lesson.name, step);
}

/** chooseLesson() for a lesson that may not be loaded yet: a shipped one is fetched first. */
export async function openLesson(name: string, step = 0): Promise<string | null> {
  if (!openedLesson(name)) await loadLesson(name);
  return chooseLesson(name, step);
}

/** Makes lesson `name` the page's, on step `step` (0-based) once its run is there; returns
 *  what is wrong instead (no such lesson, a scenario it cannot make). */
function chooseLesson(name: string, step = 0): string | null {
  const lesson = findLesson(name);
  if (!lesson) return `there is no lesson called "${name}"`;
  const s = lessonScenario(lesson, (n) => shippedByName(n));
  if (!s.ok) return formatLessonErrors(s.errors, `lesson ${name}`);
  setState({
    mode: 'scenario',
    scenarioName: LESSON_PREFIX + name,
    base: s.scenario,
    sets: [],
    rules: [],
    selected: null,
    hideFuture: true,
    lesson: { name, step, picked: null, revealed: false },
    stepChange: null,
  });
  return null;
}

const played = new WeakMap<RunModel, { lesson: Lesson; steps: PlayedStep[] | string }>();

/** The lesson played on the page's run (computed once per run), or why it cannot be: a
 *  changed parameter can take away an anchor ("no RTO expired"), and the panel says so. */
export function playedSteps(run: RunModel, lesson: Lesson): PlayedStep[] | string {
  const hit = played.get(run);
  if (hit && hit.lesson === lesson) return hit.steps;
  let steps: PlayedStep[] | string;
  try {
    steps = playLesson(lesson, lessonRun(run.result, run));
  } catch (e) {
    if (!(e instanceof LessonFileError)) throw e;
    steps = `With these parameters the lesson cannot be played: ${formatLessonErrors(e.errors, lesson.name)}`;
  }
  played.set(run, { lesson, steps });
  return steps;
}

/** When what a hit found is over: a frame once it has landed (or died), an event at once. */
function settledAt(h: Hit): number {
  return Math.max(h.time, h.frame?.tEnd ?? 0);
}

/** The time span a step is about: from the step before (what led to it) to the answer, or
 *  to the next step, padded. */
function stepSpan(steps: readonly PlayedStep[], i: number): { t0: number; t1: number } {
  const s = steps[i]!;
  const next = s.question?.reveal ?? steps[i + 1]?.at ?? s.at;
  const t0 = Math.min(s.at.time, steps[i - 1]?.at.time ?? s.at.time);
  const t1 = Math.max(settledAt(s.at), settledAt(next));
  const pad = Math.max(5_000, (t1 - t0) * 0.1);
  return { t0: Math.max(0, t0 - pad), t1: t1 + pad };
}

/** Where a step puts the cursor. A question on a stack's decision is asked the instant
 *  before it: what the stack does in that microsecond (the segment a third dup ACK sends at
 *  once) is the answer, not part of the question. */
function stepCursor(s: PlayedStep): number {
  return s.question && s.at.event ? Math.max(0, s.at.time - 1) : s.at.time;
}

/** Puts the page on step `i`: the cursor on its anchor, the future hidden, its frame (if
 *  any) selected, the ladder zoomed onto it, the question not yet answered. */
export function goToStep(steps: readonly PlayedStep[], i: number): void {
  const st = getState();
  if (!st.lesson || steps.length === 0) return;
  const k = Math.max(0, Math.min(steps.length - 1, i));
  const s = steps[k]!;
  // A step that compares runs the changed lesson beside it (once: the run that follows
  // brings the page back here with the same change).
  const change = s.compare ?? null;
  const rerun = JSON.stringify(change) !== JSON.stringify(st.stepChange);
  // Two ladders need the room: such a step shows the ladder pane alone (Escape restores).
  const maximised = change ? 'ladder' : st.stepChange && st.maximised === 'ladder' ? null : st.maximised;
  setState({
    stepChange: change,
    maximised,
    lesson: { ...st.lesson, step: k, picked: null, revealed: false },
    hideFuture: true,
    playing: false,
    cursorUs: stepCursor(s),
    selected: s.at.frame?.id ?? null,
    focus: { ...stepSpan(steps, k), n: (st.focus?.n ?? 0) + 1 },
  });
  if (rerun) void runNow();
}

/** The class's guess for the step's question. */
export function pickChoice(index: number): void {
  const l = getState().lesson;
  if (l && !l.revealed) setState({ lesson: { ...l, picked: index } });
}

/** Plays on to the moment that answers the step's question: a frame is played until it has
 *  landed, so the ladder shows it whole. */
export function revealAnswer(step: PlayedStep): void {
  const l = getState().lesson;
  const q = step.question;
  if (!l || !q) return;
  setState({ lesson: { ...l, revealed: true }, cursorUs: settledAt(q.reveal), ...(q.reveal.frame ? { selected: q.reveal.frame.id } : {}) });
}
