// A zoom along one axis: an unzoomed position p shows at k·p + shift. What d3-zoom's
// transform is along one axis, without d3-zoom, which (with d3-transition, which it brings)
// was about 8 KB of the page's first download for a two-dimensional zoom the views never use.
import type { ScaleLinear } from 'd3-scale';

export class AxisTransform {
  constructor(
    /** the scale factor */
    readonly k: number,
    /** the translation, screen px */
    readonly shift: number,
  ) {}

  /** Where unzoomed position `p` shows. */
  apply(p: number): number {
    return this.k * p + this.shift;
  }

  /** The unzoomed position shown at `s`. */
  invert(s: number): number {
    return (s - this.shift) / this.k;
  }

  /** `scale` as this zoom shows it: its range stays, its domain is what the range shows. */
  rescale(scale: ScaleLinear<number, number>): ScaleLinear<number, number> {
    return scale.copy().domain(scale.range().map((s) => scale.invert(this.invert(s))));
  }

  /** Scaled by `factor` around screen position `s`, which stays where it is. */
  scaledBy(factor: number, s: number): AxisTransform {
    const k = this.k * factor;
    return new AxisTransform(k, s - (s - this.shift) * factor);
  }

  /** Moved by `ds` screen px. */
  movedBy(ds: number): AxisTransform {
    return new AxisTransform(this.k, this.shift + ds);
  }
}

export const IDENTITY = new AxisTransform(1, 0);

/** Limits of a zoom: the view (screen px along the axis), how far out and in it may scale,
 *  and the unzoomed span panning may show. */
export interface ZoomLimits {
  view: [number, number];
  scale: [number, number];
  bounds: [number, number];
}

/** `t` within the limits: the scale clamped (around screen position `s`), then moved the
 *  least that keeps the view inside the bounds; a view larger than the bounds centres them
 *  (what d3-zoom's constrain does). */
export function constrained(t: AxisTransform, limits: ZoomLimits, s = (limits.view[0] + limits.view[1]) / 2): AxisTransform {
  const [kMin, kMax] = limits.scale;
  const k = Math.max(kMin, Math.min(kMax, t.k));
  const c = k === t.k ? t : t.scaledBy(k / t.k, s);
  const [v0, v1] = limits.view;
  const [b0, b1] = limits.bounds;
  const d0 = c.invert(v0) - b0;
  const d1 = c.invert(v1) - b1;
  const d = d1 > d0 ? (d0 + d1) / 2 : Math.min(0, d0) || Math.max(0, d1);
  return d === 0 ? c : c.movedBy(k * d);
}

/** The transform `f` of the way from `a` to `b` (0..1): the unzoomed edges of the view
 *  move in a straight line, so a point both show at the same place stays there all along
 *  (a zoom around an anchor keeps the anchor still). */
export function between(a: AxisTransform, b: AxisTransform, view: [number, number], f: number): AxisTransform {
  const [v0, v1] = view;
  const w0 = a.invert(v0) + (b.invert(v0) - a.invert(v0)) * f;
  const w1 = a.invert(v1) + (b.invert(v1) - a.invert(v1)) * f;
  const k = (v1 - v0) / (w1 - w0);
  return new AxisTransform(k, v0 - k * w0);
}
