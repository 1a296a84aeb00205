// The lesson in the side panel: which step, its caption with the run's own values, the
// question with its choices, Reveal, and Back / Next (PageUp / PageDown, what a presenter's
// clicker sends). The cursor, the hidden future and the ladder's zoom follow each step.
import { useEffect, useRef } from 'react';
import type { Lesson, PlayedStep } from '../../core/lessons/index.ts';
import { findLesson, goToStep, pickChoice, playedSteps, revealAnswer } from './lesson_player.ts';
import { getState, useApp, type LessonState } from '../common/store.ts';

export function LessonPanel() {
  const state = useApp((s) => s.lesson);
  const run = useApp((s) => s.run);
  const status = useApp((s) => s.status);
  const lesson = state ? findLesson(state.name) : undefined;
  const steps = run && lesson && status === 'ready' ? playedSteps(run, lesson) : null;
  const playable = Array.isArray(steps) ? steps : null;

  // Each new run (the lesson opened, a parameter turned, a what-if) puts the page on the
  // step again, with its anchors found in that run.
  const placedFor = useRef<PlayedStep[] | null>(null);
  useEffect(() => {
    if (!playable || placedFor.current === playable) return;
    placedFor.current = playable;
    goToStep(playable, getState().lesson?.step ?? 0);
  }, [playable]);
  useEffect(() => {
    if (!playable) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'PageDown' && e.key !== 'PageUp') return;
      // Where Page Up / Down mean something else (text, the scrubber, the list, a menu);
      // a checkbox (Presenter, Hide the future) keeps the clicker working.
      if ((e.target as HTMLElement | null)?.closest('input:not([type="checkbox"]), select, textarea, [role="grid"], [role="menu"]')) return;
      e.preventDefault();
      const at = getState().lesson?.step ?? 0;
      goToStep(playable, at + (e.key === 'PageDown' ? 1 : -1));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [playable]);

  if (!state || !lesson) return null;
  return (
    <section className="lesson" aria-label="Lesson">
      <h2 className="lesson-title">{lesson.title}</h2>
      {typeof steps === 'string' && <p role="alert">{steps}</p>}
      {!steps && <p className="muted">Running the lesson's scenario…</p>}
      {playable && <StepView lesson={lesson} steps={playable} state={state} />}
    </section>
  );
}

function StepView({ lesson, steps, state }: { lesson: Lesson; steps: PlayedStep[]; state: LessonState }) {
  const k = Math.min(state.step, steps.length - 1);
  const step = steps[k]!;
  return (
    <>
      <nav className="lesson-nav" aria-label="Lesson steps">
        <button type="button" onClick={() => goToStep(steps, k - 1)} disabled={k === 0} title="Previous step (Page Up)">
          ◀ Back
        </button>
        <span className="lesson-count" aria-live="polite">
          Step {k + 1} of {steps.length}
        </span>
        <button type="button" onClick={() => goToStep(steps, k + 1)} disabled={k === steps.length - 1} title="Next step (Page Down)">
          Next ▶
        </button>
      </nav>
      <p className="lesson-caption" data-testid="lesson-caption">
        {step.caption}
      </p>
      {step.question && <QuestionView step={step} state={state} />}
      {k === 0 && lesson.description && <p className="lesson-about muted">{lesson.description}</p>}
    </>
  );
}

function QuestionView({ step, state }: { step: PlayedStep; state: LessonState }) {
  const q = step.question!;
  const mark = (i: number) => (!state.revealed ? '' : i === q.correct ? ' ✓' : i === state.picked ? ' ✗' : '');
  return (
    <div className="lesson-question" role="group" aria-label="Question">
      <p className="lesson-prompt">{q.prompt}</p>
      <div className="lesson-choices">
        {q.choices.map((c, i) => (
          <button
            key={i}
            type="button"
            aria-pressed={state.picked === i}
            className={state.revealed ? (i === q.correct ? 'right' : i === state.picked ? 'wrong' : '') : ''}
            disabled={state.revealed}
            onClick={() => pickChoice(i)}
          >
            {c.text}
            {mark(i)}
          </button>
        ))}
      </div>
      {!state.revealed ? (
        <button type="button" className="lesson-reveal" onClick={() => revealAnswer(step)}>
          Reveal
        </button>
      ) : (
        <p className="lesson-answer" data-testid="lesson-answer">
          {state.picked === null ? '' : state.picked === q.correct ? 'Right: ' : 'Not quite: '}
          the run says {q.answerText}, so “{q.choices[q.correct]!.text}”.{q.explain ? ` ${q.explain}` : ''}
        </p>
      )}
    </div>
  );
}
