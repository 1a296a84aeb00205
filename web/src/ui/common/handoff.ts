// A value handed on later, always the latest one: the ladder and the graphs take a new run
// one paint after the packet list, so that the list's first rows are not held back by their
// models (docs/performance.md, "Run and first render at 100 000 frames").

/** Runs `fn` later; returns what cancels it. */
export type Later = (fn: () => void) => () => void;

export interface Handoff<T> {
  /** The value to hand on; values offered before the hand-over replace each other. */
  offer(value: T): void;
  /** Drops what was offered and not yet handed on. */
  cancel(): void;
}

/** At most one hand-over is pending: values offered faster than `later` runs (a live session's
 *  changes) are not postponed again and again, the pending one takes the newest. */
export function handoff<T>(later: Later, deliver: (value: T) => void): Handoff<T> {
  let latest: T;
  let pending: (() => void) | null = null;
  return {
    offer(value) {
      latest = value;
      if (pending) return;
      pending = later(() => {
        pending = null;
        deliver(latest);
      });
    },
    cancel() {
      pending?.();
      pending = null;
    },
  };
}

/** After the browser's next paint: an animation frame runs just before it, a task queued
 *  from there runs after it. */
export const afterPaint: Later = (fn) => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(fn, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
};
