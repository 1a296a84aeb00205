// Zoomed out, a bulk transfer re-arms its RTO on every ACK: tens of thousands of timer runs
// touching each other on one lifeline. Runs of one timer closer than a pixel, one of them
// too short to see, become one bar (no label: which value?); runs long enough to read keep
// their own bars, and so does the run still going at the horizon (its label says the time
// left). The merge looks at each run's pixels only, and a bar's mark is made once per bar
// drawn, not once per run: at Fit making a mark per run and then merging it was half of a
// wheel step's JavaScript.
import type { TimerBar } from './timers.ts';
import type { TimerMark } from './ladder_scene.ts';

/** Where one run lies on screen: what the merge decides on. */
export interface TimerRunPx {
  /** the timer it belongs to (host, connection slot, kind) as one number */
  key: number;
  y0: number;
  y1: number;
  /** the run's length in pixels before clipping to the view */
  length: number;
  /** still running at the horizon */
  running: boolean;
}

export interface TimerRuns {
  count: number;
  /** fills `into` with the k-th run's pixels (one object reused: no allocation per run) */
  px(k: number, into: TimerRunPx): void;
  /** the k-th run's mark, made only for a run that starts a bar */
  mark(k: number): TimerMark;
  /** the k-th run's bar (how it ended) */
  bar(k: number): TimerBar;
}

/** The key a run's timer merges under: host, connection slot and kind. */
export function timerKey(bar: TimerBar): number {
  return (bar.host * 1024 + bar.slot) * 2 + (bar.kind === 'rto' ? 1 : 0);
}

/** A run shorter than this many pixels cannot be seen on its own. */
const TINY_PX = 3;

/** Merges the runs (in order of arming) into the bars to draw. */
export function mergeTimerRuns(runs: TimerRuns): TimerMark[] {
  const open = new Map<number, { mark: TimerMark; first: number; last: number }>();
  const out: TimerMark[] = [];
  const r: TimerRunPx = { key: 0, y0: 0, y1: 0, length: 0, running: false };
  for (let k = 0; k < runs.count; k++) {
    runs.px(k, r);
    const prev = open.get(r.key);
    if (prev && canJoin(prev.mark, r)) {
      const p = prev.mark;
      p.y1 = Math.max(p.y1, r.y1);
      p.runs++;
      p.length += r.length;
      prev.last = k;
      continue;
    }
    if (prev) endAsLast(prev, runs);
    const mark = runs.mark(k);
    open.set(r.key, { mark, first: k, last: k });
    out.push(mark);
  }
  open.forEach((o) => endAsLast(o, runs));
  return out;
}

/** A run joins the bar before it when it touches it and one of them is too short to see
 *  (or the bar already stands for several runs); a running one never joins. */
function canJoin(p: TimerMark, r: TimerRunPx): boolean {
  return !r.running && r.y0 - p.y1 <= 1 && (r.length < TINY_PX || p.length < TINY_PX || p.runs > 1);
}

/** A merged bar ends the way its last run ended (a bar of one run keeps its own, which
 *  may be cut at the horizon). */
function endAsLast(o: { mark: TimerMark; first: number; last: number }, runs: TimerRuns): void {
  if (o.last === o.first) return;
  const last = runs.bar(o.last);
  o.mark.bar = { ...o.mark.bar, end: last.end, t1: last.t1 };
}
