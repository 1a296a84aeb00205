// Level of detail for the ladder: a view holding far more frames than it has pixel rows
// (a 100 MB bulk at Fit: 110 000 frames over 600 px) cannot draw them one by one, and
// need not: frames leaving along the same hop within one pixel row of each other land on
// the same pixels. Such a bin is drawn as its first frame, which stands for the others;
// plain frames, retransmissions and drops keep bins of their own so none hides the others'
// colour, and the group labels still count every frame.

/** Above this many frames in view the ladder thins them (below it every frame is drawn
 *  and labelled as before; the canvas takes over at CANVAS_LIMIT, well below). */
export const THIN_LIMIT = 5000;

export interface Thinned {
  /** the frames kept, in the order they came */
  keep: number[];
  /** how many frames each kept one stands for (itself included) */
  stands: number[];
}

export interface ThinBins {
  /** how many slots there are: hops times kinds */
  slots: number;
  /** the frame's slot, 0..slots-1: its hop and its kind */
  slotOf(i: number): number;
  /** the pixel row the frame leaves at (never less than the previous frame's) */
  rowOf(i: number): number;
  /** a frame that is kept on its own whatever its bin (the selected one) */
  always(i: number): boolean;
}

/** Keeps, of `visible` (frames in order of sending), the first of each bin (slot, pixel row)
 *  and counts the rest into it. Rows never go back in sending order, so a bin's frames come
 *  one after the other within their slot: one array lookup per frame, no map. */
export function thinByRow(visible: ArrayLike<number>, bins: ThinBins): Thinned {
  const lastRow = new Float64Array(bins.slots).fill(NaN);
  const at = new Int32Array(bins.slots);
  const keep: number[] = [];
  const stands: number[] = [];
  for (let k = 0; k < visible.length; k++) {
    const i = visible[k]!;
    const slot = bins.slotOf(i);
    const row = bins.rowOf(i);
    if (lastRow[slot] === row && !bins.always(i)) {
      stands[at[slot]!]!++;
      continue;
    }
    lastRow[slot] = row;
    at[slot] = keep.length;
    keep.push(i);
    stands.push(1);
  }
  return { keep, stands };
}

/** A linear scale as a plain function doing d3's own arithmetic (normalise into the domain,
 *  then a*(1-t)+b*t over the range), so the numbers are the same to the last bit and a call
 *  per frame or timer run costs no scale machinery. Anything but an increasing two-number
 *  domain goes to the scale itself. */
export function linearPx(scale: { (t: number): number; domain(): number[]; range(): number[] }): (t: number) => number {
  const [d0, d1] = scale.domain() as [number, number];
  const [r0, r1] = scale.range() as [number, number];
  const span = d1 - d0;
  if (scale.domain().length !== 2 || !(span > 0)) return (t) => scale(t);
  return (t) => {
    const f = (t - d0) / span;
    return r0 * (1 - f) + r1 * f;
  };
}
