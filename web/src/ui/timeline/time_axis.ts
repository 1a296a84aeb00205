// Time axes in seconds, with as many decimals as the tick step needs (0.5 s steps: "1.5";
// 20 µs steps: "1.00002"), so neighbouring ticks never print the same.
import type { NumberValue } from '../common/d3.ts';

export function secondsDecimals(stepUs: number): number {
  if (!(stepUs > 0)) return 0;
  return Math.max(0, Math.min(6, Math.ceil(-Math.log10(stepUs / 1e6) - 1e-9)));
}

export function secondsTickFormat(ticksUs: readonly number[]): (t: NumberValue) => string {
  const step = ticksUs.length > 1 ? Math.abs(ticksUs[1]! - ticksUs[0]!) : 1e6;
  const d = secondsDecimals(step);
  return (t) => `${(Number(t) / 1e6).toFixed(d)}`;
}

/** How many ticks an axis `lengthPx` long can label at `textPx` without crowding: one per
 *  `emPerTick` ems (a presenter's larger text gets fewer ticks), never fewer than two. */
export function tickCount(lengthPx: number, textPx: number, emPerTick: number): number {
  return Math.max(2, Math.floor(lengthPx / (textPx * emPerTick)));
}
