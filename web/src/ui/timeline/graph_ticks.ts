// How many ticks an axis gets: as many as the text size lets stand side by side. Asking d3
// for a count from the length alone collides at presenter size (16 px labels on a 60 px
// plot); here each candidate count's labels are measured and the most that fit is kept.
import type * as d3 from '../common/d3.ts';

export interface Ticks {
  values: number[];
  format: (v: d3.NumberValue) => string;
}

export interface TickRoom {
  /** where labels may lie along the axis, in pixels */
  lo: number;
  hi: number;
  /** the least space between two neighbouring labels */
  gap: number;
  /** the longest a label may be across the axis (the margin it sits in) */
  across: number;
}

/** A label's extent along the axis and across it. */
export type LabelSize = (label: string) => { along: number; across: number };

/** The most ticks, `most` at most, whose labels fit `room`: each inside [lo, hi] (ticks
 *  whose label would stick out are left unlabelled and undrawn), none closer than `gap` to
 *  its neighbour, none longer than `across`. Failing all, the fewest d3 gives. */
export function fitTicks(
  scale: d3.ScaleLinear<number, number>,
  most: number,
  formatFor: (count: number) => (v: d3.NumberValue) => string,
  size: LabelSize,
  room: TickRoom,
): Ticks {
  let last: Ticks = { values: [], format: String };
  for (let n = Math.max(1, Math.floor(most)); n >= 1; n--) {
    const format = formatFor(n);
    const placed = scale
      .ticks(n)
      .map((v) => ({ v, p: scale(v), ...size(format(v)) }))
      .filter((t) => t.p - t.along / 2 >= room.lo && t.p + t.along / 2 <= room.hi)
      .sort((a, b) => a.p - b.p);
    last = { values: placed.map((t) => t.v), format };
    const apart = placed.every((t, i) => i === 0 || t.p - placed[i - 1]!.p >= (t.along + placed[i - 1]!.along) / 2 + room.gap);
    if (placed.length && apart && placed.every((t) => t.across <= room.across + 0.5)) return last;
  }
  return last;
}
