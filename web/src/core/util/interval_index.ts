// Which marks lie in the visible time window, without looking at every mark: the views draw
// only what is on screen (DESIGN.md: "draw only what is on screen"). Items are kept sorted
// by start; a running maximum of the ends is monotone, so both bounds of the window are
// binary searches and only the items between them are looked at.

export function lowerBound(a: ArrayLike<number>, v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function upperBound(a: ArrayLike<number>, v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class IntervalIndex {
  /** item indices in order of start */
  private readonly order: Uint32Array;
  private readonly starts: Float64Array;
  private readonly ends: Float64Array;
  /** maxEnd[i] = the largest end among the first i + 1 items in start order */
  private readonly maxEnd: Float64Array;

  constructor(n: number, start: (i: number) => number, end: (i: number) => number) {
    const order = Array.from({ length: n }, (_, i) => i);
    // Frames come in send order already; the sort keeps that order and costs little then.
    order.sort((a, b) => start(a) - start(b) || a - b);
    this.order = Uint32Array.from(order);
    this.starts = Float64Array.from(order, start);
    this.ends = Float64Array.from(order, (i) => Math.max(start(i), end(i)));
    this.maxEnd = new Float64Array(n);
    let m = -Infinity;
    for (let i = 0; i < n; i++) this.maxEnd[i] = m = Math.max(m, this.ends[i]!);
  }

  get size(): number {
    return this.order.length;
  }

  /** Indices of the items whose [start, end] meets [t0, t1], in order of start. */
  query(t0: number, t1: number): number[] {
    const first = lowerBound(this.maxEnd, t0);
    const last = upperBound(this.starts, t1);
    const out: number[] = [];
    for (let i = first; i < last; i++) if (this.ends[i]! >= t0) out.push(this.order[i]!);
    return out;
  }

  /** How many items query(t0, t1) would return at most (cheap: no filtering). */
  bound(t0: number, t1: number): number {
    return Math.max(0, upperBound(this.starts, t1) - lowerBound(this.maxEnd, t0));
  }
}
