// When the views show a long run as far as it has gone, while it goes on ("views filling
// while it runs", docs/performance.md). A showing reads the slices that came since the last
// one, for at most SO_FAR_READ_MS (the engine makes frames faster than the page reads and
// analyses them: the views then fall behind the progress line, and catch up at the end),
// takes them into the run's growing model, and draws. Showings are spaced by what the last
// one cost, so the main thread spends at most a third of its time on them; once one costs
// more than SO_FAR_MAX_COST_MS (the views' own models are drawn whole each time), there are
// no more: the page would stop answering for that long (Cancel among the rest). The views
// then keep the last showing, the progress line goes on, and the whole run comes at its end.
import { afterPaint, type Later } from './handoff.ts';

/** Wall time after which a run counts as long: it gets its progress row and Cancel, and the
 *  views start showing the run so far. A shorter run (any lesson's, a parameter's change on
 *  a small scenario) is shown once, at its end, so the page does not flicker. */
export const LONG_RUN_MS = 300;
/** The most wall time a showing spends reading the slices that came (one slice at least). */
export const SO_FAR_READ_MS = 60;
/** The least wall time between two showings of the run so far. */
const SO_FAR_EVERY_MS = 500;
/** The gap after a showing is at least this many times what the showing cost. */
const SO_FAR_COST_FACTOR = 2;
/** The most a showing may cost for another to follow. */
const SO_FAR_MAX_COST_MS = 1500;

export interface SoFarPacer {
  /** True when the run so far is due to be shown now. */
  due(): boolean;
  /** Shows it (`show` reads it and changes the page's state); the cost is timed up to the
   *  paint that drew the views which take a run one paint later (the ladder, the graphs). */
  show(show: () => void): void;
}

export function soFarPacer(now: () => number = () => performance.now(), later: Later = afterPaint): SoFarPacer {
  let next = now() + LONG_RUN_MS;
  let painting = false;
  return {
    due: () => !painting && now() >= next,
    show(show) {
      const t0 = now();
      painting = true;
      show();
      later(() =>
        later(() => {
          painting = false;
          const end = now();
          const cost = end - t0;
          next = cost > SO_FAR_MAX_COST_MS ? Infinity : end + Math.max(SO_FAR_EVERY_MS, SO_FAR_COST_FACTOR * cost);
        }),
      );
    },
  };
}
