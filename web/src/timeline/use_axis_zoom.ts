// d3-zoom along one axis of an element: wheel and drag zoom and pan, buttons call zoomBy /
// fit / reveal. The transform lives in React state so the drawing follows it; only its
// scale and its translation along the axis are used (a sideways drag changes nothing).
import * as d3 from 'd3';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

export interface AxisZoom {
  transform: d3.ZoomTransform;
  zoomBy(factor: number): void;
  fit(): void;
  /** Pans (keeping the scale) so that base-scale position `p` sits at `at` (0..1 of the
   *  range) when it is outside [lo, hi] of the current view. */
  reveal(p: number, lo: number, hi: number, at?: number): void;
}

export function useAxisZoom<E extends Element>(
  ref: RefObject<E | null>,
  axis: 'x' | 'y',
  size: { width: number; height: number },
  maxScale: number,
  /** how far panning may go along the axis, in unzoomed pixels */
  bounds: [number, number],
): AxisZoom {
  const [transform, setTransform] = useState(d3.zoomIdentity);
  const zoomRef = useRef<d3.ZoomBehavior<E, unknown> | null>(null);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const z = d3.zoom<E, unknown>().on('zoom', (e: d3.D3ZoomEvent<E, unknown>) => setTransform(e.transform));
    const sel = d3.select(el);
    sel.call(z).on('dblclick.zoom', null);
    zoomRef.current = z;
    return () => {
      sel.on('.zoom', null);
      zoomRef.current = null;
    };
  }, [ref]);

  // Extents follow the size: never zoom out past half the run, never in past `maxScale`,
  // never pan past the bounds.
  const [lo, hi] = bounds;
  useEffect(() => {
    const z = zoomRef.current;
    if (!z || !size.width || !size.height) return;
    z.extent([[0, 0], [size.width, size.height]]).scaleExtent([0.5, Math.max(2, maxScale)]);
    z.translateExtent(axis === 'y' ? [[-Infinity, lo], [Infinity, hi]] : [[lo, -Infinity], [hi, Infinity]]);
  }, [size.width, size.height, maxScale, axis, lo, hi]);

  const zoomBy = useCallback(
    (factor: number) => {
      const el = ref.current;
      if (el && zoomRef.current) zoomRef.current.scaleBy(d3.select(el).transition().duration(150), factor);
    },
    [ref],
  );
  const fit = useCallback(() => {
    const el = ref.current;
    if (el && zoomRef.current) zoomRef.current.transform(d3.select(el).transition().duration(150), d3.zoomIdentity);
  }, [ref]);
  const reveal = useCallback(
    (p: number, lo: number, hi: number, at = 0.3) => {
      const el = ref.current;
      const z = zoomRef.current;
      if (!el || !z) return;
      const t = d3.zoomTransform(el);
      const pos = axis === 'y' ? t.applyY(p) : t.applyX(p);
      if (pos >= lo && pos <= hi) return;
      const target = lo + (hi - lo) * at;
      const next = axis === 'y' ? d3.zoomIdentity.translate(t.x, target - t.k * p).scale(t.k) : d3.zoomIdentity.translate(target - t.k * p, t.y).scale(t.k);
      z.transform(d3.select(el), next);
    },
    [ref, axis],
  );
  return { transform, zoomBy, fit, reveal };
}
