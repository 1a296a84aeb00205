import { describe, expect, it } from 'vitest';
import { LONG_RUN_MS, soFarPacer } from './run_so_far.ts';

/** A clock moved by hand, and a `later` whose callbacks run when the test says. */
function rig() {
  let t = 1000;
  const queued: (() => void)[] = [];
  const pacer = soFarPacer(
    () => t,
    (fn) => {
      queued.push(fn);
      return () => {};
    },
  );
  return {
    pacer,
    advance: (ms: number) => (t += ms),
    runLater: () => queued.splice(0).forEach((fn) => fn()),
  };
}

describe('soFarPacer', () => {
  it('shows nothing of a run before it counts as long', () => {
    const r = rig();
    r.advance(LONG_RUN_MS - 1);
    expect(r.pacer.due()).toBe(false);
    r.advance(1);
    expect(r.pacer.due()).toBe(true);
  });

  it('waits for a showing to be painted, then for twice its cost (at least 500 ms)', () => {
    const r = rig();
    r.advance(LONG_RUN_MS);
    r.pacer.show(() => r.advance(300)); // the state change costs 300 ms
    expect(r.pacer.due()).toBe(false);
    r.runLater(); // the paint of the list
    r.advance(100);
    r.runLater(); // the paint of the ladder: 400 ms in all
    r.advance(799);
    expect(r.pacer.due()).toBe(false);
    r.advance(1);
    expect(r.pacer.due()).toBe(true);
  });

  it('a cheap showing is followed by the next one 500 ms later', () => {
    const r = rig();
    r.advance(LONG_RUN_MS);
    r.pacer.show(() => r.advance(10));
    r.runLater();
    r.runLater();
    r.advance(499);
    expect(r.pacer.due()).toBe(false);
    r.advance(1);
    expect(r.pacer.due()).toBe(true);
  });

  it('after a showing that cost more than 1.5 s, there are no more', () => {
    const r = rig();
    r.advance(LONG_RUN_MS);
    r.pacer.show(() => r.advance(1501));
    r.runLater();
    r.runLater();
    r.advance(3_600_000);
    expect(r.pacer.due()).toBe(false);
  });
});
