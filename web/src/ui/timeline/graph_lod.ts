// Level of detail for the time-sequence graph: a bulk transfer at Fit puts tens of
// segments and ACKs in each pixel column, and a path of a hundred thousand I-beams costs
// Chromium a raster of all of them whenever anything over the plot moves (the cursor, each
// frame of Play). What lands in one pixel column is drawn as what covers the same pixels.
import type { SeqSegment } from './seq_series.ts';

/** Above this many marks in view a series is thinned per pixel column. */
export const GRAPH_THIN_LIMIT = 4000;

/** Segments (in time order) whose bars fall in one pixel column become one beam from the
 *  lowest seq to the highest end (stacked beams fill that span; the first frame stands for
 *  it). At or below `limit` segments, all are kept. */
export function beamsPerColumn(segs: readonly SeqSegment[], x: (t: number) => number, limit = GRAPH_THIN_LIMIT): readonly SeqSegment[] {
  if (segs.length <= limit) return segs;
  const out: SeqSegment[] = [];
  let col = NaN;
  for (const g of segs) {
    const c = Math.floor(x(g.t));
    const last = out[out.length - 1];
    if (last && c === col) {
      last.seq = Math.min(last.seq, g.seq);
      last.end = Math.max(last.end, g.end);
      continue;
    }
    col = c;
    out.push({ ...g });
  }
  return out;
}

/** Points of a stair (in time order) thinned to the first, the lowest, the highest and the
 *  last of each pixel column, in their order: the stair drawn through them covers the same
 *  pixels. At or below `limit` points, all are kept. */
export function stairPerColumn<P extends { t: number; v: number }>(points: readonly P[], x: (t: number) => number, limit = GRAPH_THIN_LIMIT): readonly P[] {
  if (points.length <= limit) return points;
  const out: P[] = [];
  let k = 0;
  while (k < points.length) {
    const col = Math.floor(x(points[k]!.t));
    let [lo, hi, end] = [k, k, k];
    while (end + 1 < points.length && Math.floor(x(points[end + 1]!.t)) === col) {
      end++;
      if (points[end]!.v < points[lo]!.v) lo = end;
      if (points[end]!.v > points[hi]!.v) hi = end;
    }
    for (const i of [...new Set([k, lo, hi, end])].sort((a, b) => a - b)) out.push(points[i]!);
    k = end + 1;
  }
  return out;
}
