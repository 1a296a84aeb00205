// Stairs in view: a quantity that holds its value until the next change (cwnd, the ACK
// line) is drawn from the last change before the window to the last one in it, then held
// to the window's end (or to `tEnd`, when the series stops there), so it never vanishes
// while it still has a value.
import { lowerBound, upperBound } from './interval_index.ts';

export interface TV {
  t: number;
  v: number;
}

export function stepsInView(points: readonly TV[], t0: number, t1: number, tEnd: number): TV[] {
  if (points.length === 0) return [];
  const times = points.map((p) => p.t);
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
  const i = upperBound(points.map((p) => p.t), t) - 1;
  return i >= 0 ? points[i]!.v : undefined;
}
