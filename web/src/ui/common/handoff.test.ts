import { describe, expect, it } from 'vitest';
import { handoff, type Later } from './handoff.ts';

/** A `later` run by hand: `flush` runs what is queued, as the browser's next paint would. */
function manual(): { later: Later; flush: () => void; queued: () => number } {
  let queue: (() => void)[] = [];
  return {
    later: (fn) => {
      queue.push(fn);
      return () => {
        queue = queue.filter((f) => f !== fn);
      };
    },
    flush: () => {
      const now = queue;
      queue = [];
      now.forEach((f) => f());
    },
    queued: () => queue.length,
  };
}

describe('handoff', () => {
  it('hands the value on only when `later` runs', () => {
    const m = manual();
    const got: string[] = [];
    const h = handoff<string>(m.later, (v) => got.push(v));
    h.offer('run 1');
    expect(got).toEqual([]);
    m.flush();
    expect(got).toEqual(['run 1']);
  });

  it('values offered faster than paints are not postponed forever: the pending hand-over takes the newest', () => {
    // `later` runs its function two ticks on, as a paint follows a live session's change;
    // a value is offered every tick.
    let now = 0;
    let queue: { due: number; fn: () => void }[] = [];
    const later: Later = (fn) => {
      const entry = { due: now + 2, fn };
      queue.push(entry);
      return () => {
        queue = queue.filter((e) => e !== entry);
      };
    };
    const got: number[] = [];
    const h = handoff<number>(later, (v) => got.push(v));
    for (let v = 1; v <= 6; v++) {
      h.offer(v);
      now++;
      const due = queue.filter((e) => e.due <= now);
      queue = queue.filter((e) => e.due > now);
      due.forEach((e) => e.fn());
    }
    expect(got).toEqual([2, 4, 6]);
  });

  it('a value offered back to the one shown replaces the pending one', () => {
    const m = manual();
    const got: string[] = [];
    const h = handoff<string>(m.later, (v) => got.push(v));
    h.offer('B');
    h.offer('A');
    m.flush();
    expect(got).toEqual(['A']);
  });

  it('cancel drops what is pending, and a later offer schedules again', () => {
    const m = manual();
    const got: string[] = [];
    const h = handoff<string>(m.later, (v) => got.push(v));
    h.offer('gone');
    h.cancel();
    m.flush();
    expect(got).toEqual([]);
    h.offer('kept');
    m.flush();
    expect(got).toEqual(['kept']);
  });
});
