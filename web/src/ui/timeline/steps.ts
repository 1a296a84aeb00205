// Stairs in view: a quantity that holds its value until the next change (cwnd, the ACK
// line) is drawn from the last change before the window to the last one in it, then held
// to the window's end (or to `tEnd`, when the series stops there), so it never vanishes
// while it still has a value.
import { lowerBound, upperBound } from '../../core/util/interval_index.ts';

export interface TV {
  t: number;
  v: number;
}

// A series never changes once built; its times are made once so that each redraw (every
// animation frame while playing with the future hidden) costs a binary search, not a pass.
const timesCache = new WeakMap<readonly { t: number }[], Float64Array>();

/** The times of a series in time order, made once per series. */
export function timesOf(points: readonly { t: number }[]): Float64Array {
  let times = timesCache.get(points);
  if (!times) timesCache.set(points, (times = Float64Array.from(points, (p) => p.t)));
  return times;
}

/** The points with t0 <= t <= t1. */
export function pointsIn<P extends { t: number }>(points: readonly P[], t0: number, t1: number): P[] {
  const times = timesOf(points);
  return points.slice(lowerBound(times, t0), upperBound(times, t1));
}

export function stepsInView(points: readonly TV[], t0: number, t1: number, tEnd: number): TV[] {
  if (points.length === 0) return [];
  const times = timesOf(points);
  const first = Math.max(0, lowerBound(times, t0) - 1);
  const last = upperBound(times, t1);
  const out: TV[] = points.slice(first, last).map((p) => ({ t: p.t, v: p.v }));
  if (out.length === 0) return out;
  const hold = Math.min(t1, tEnd);
  const tail = out[out.length - 1]!;
  if (hold > tail.t) out.push({ t: hold, v: tail.v });
  return out;
}

/** The value held at time t (the last change at or before t), or undefined before the first. */
export function valueAt(points: readonly TV[], t: number): number | undefined {
  const i = upperBound(timesOf(points), t) - 1;
  return i >= 0 ? points[i]!.v : undefined;
}
