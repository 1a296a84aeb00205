// d3-zoom along one axis of an element: wheel and drag zoom and pan, buttons call zoomBy /
// fit / reveal / zoomTo. The transform lives in React state so the drawing follows it; only
// its scale and its translation along the axis are used (a sideways drag changes nothing).
// A view too big to re-render per wheel event passes `live`: it gets every step of the
// zoom and draws it itself (D3 and canvas), and the React state follows once the gesture
// has paused, for what else reads the view.
//
// Zoom keeps the reader's place: "+", "-", the wheel and a trackpad pinch (a wheel event with
// ctrlKey in Chromium) scale around the anchor the pane names (the selected frame, else the
// cursor) rather than around the pointer, so a teacher zooming in on a retransmission never
// loses it. An anchor outside the view is brought to the middle first by the buttons; the
// wheel then falls back to the pointer, where the reader is looking.
import * as d3 from 'd3';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

export interface AxisZoom {
  /** the transform as React state: with `live`, published once the gesture pauses */
  transform: d3.ZoomTransform;
  /** the transform of this instant (what `live` was last given) */
  current(): d3.ZoomTransform;
  zoomBy(factor: number): void;
  fit(): void;
  /** Pans (keeping the scale) so that base-scale position `p` sits at `at` (0..1 of the
   *  range) when it is outside [lo, hi] of the current view; 'nearest' moves it just inside,
   *  at the edge it crossed, so what was in view mostly stays. */
  reveal(p: number, lo: number, hi: number, at?: number | 'nearest'): void;
  /** Zooms so that base-scale positions [p0, p1] fill the view [lo, hi] (screen px). */
  zoomTo(p0: number, p1: number, lo: number, hi: number): void;
}

export interface ZoomAnchor {
  /** the base-scale position zoom keeps still, or null (then the middle, or the pointer) */
  at(): number | null;
  /** the part of the axis where drawing happens (screen px): an anchor outside is not in view */
  lo: number;
  hi: number;
}

/** Minimum zoom: half the whole extent. */
const MIN_SCALE = 0.5;
/** With `live`, how long the zoom must rest before React hears of it: d3-zoom's own pause
 *  that ends a wheel gesture. */
const PUBLISH_MS = 150;

export function useAxisZoom<E extends Element>(
  ref: RefObject<E | null>,
  axis: 'x' | 'y',
  size: { width: number; height: number },
  maxScale: number,
  /** how far panning may go along the axis, in unzoomed pixels */
  bounds: [number, number],
  anchor: ZoomAnchor,
  /** draws each step of the zoom itself (then React state follows after PUBLISH_MS) */
  live?: (t: d3.ZoomTransform) => void,
): AxisZoom {
  const [transform, setTransform] = useState(d3.zoomIdentity);
  const zoomRef = useRef<d3.ZoomBehavior<E, unknown> | null>(null);
  // The wheel handler is installed once; it reads the latest anchor and `live` through refs.
  const anchorRef = useRef(anchor);
  anchorRef.current = anchor;
  const liveRef = useRef(live);
  liveRef.current = live;

  /** Screen position of the anchor when it is in view, else null. */
  const anchorOnScreen = useCallback(
    (el: E): number | null => {
      const a = anchorRef.current;
      const p = a.at();
      if (p === null) return null;
      const t = d3.zoomTransform(el);
      const s = axis === 'y' ? t.applyY(p) : t.applyX(p);
      return s >= a.lo && s <= a.hi ? s : null;
    },
    [axis],
  );
  const point = useCallback((s: number): [number, number] => (axis === 'y' ? [0, s] : [s, 0]), [axis]);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let publish: ReturnType<typeof setTimeout> | undefined;
    const z = d3.zoom<E, unknown>().on('zoom', (e: d3.D3ZoomEvent<E, unknown>) => {
      const draw = liveRef.current;
      if (!draw) return setTransform(e.transform);
      draw(e.transform);
      clearTimeout(publish);
      publish = setTimeout(() => setTransform(e.transform), PUBLISH_MS);
    });
    const sel = d3.select(el);
    sel.call(z).on('dblclick.zoom', null);
    // d3's own wheel zoom scales around the pointer: replace it with one around the anchor.
    const onWheel = (ev: Event) => {
      const e = ev as WheelEvent;
      e.preventDefault();
      const factor = 2 ** (-e.deltaY * (e.deltaMode === 1 ? 0.05 : e.deltaMode ? 1 : 0.002) * (e.ctrlKey ? 10 : 1));
      // d3.pointer asks for the screen matrix, which lays the page out again after the last
      // draw: only when there is no anchor to keep still.
      const s = anchorOnScreen(el) ?? d3.pointer(e, el)[axis === 'y' ? 1 : 0];
      z.scaleBy(sel, factor, point(s));
    };
    sel.on('wheel.zoom', onWheel, { passive: false });
    zoomRef.current = z;
    return () => {
      clearTimeout(publish);
      sel.on('.zoom', null);
      zoomRef.current = null;
    };
  }, [ref, axis, anchorOnScreen, point]);

  // Extents follow the size: never zoom out past half the run, never in past `maxScale`,
  // never pan past the bounds.
  const [lo, hi] = bounds;
  useEffect(() => {
    const z = zoomRef.current;
    if (!z || !size.width || !size.height) return;
    z.extent([
      [0, 0],
      [size.width, size.height],
    ]).scaleExtent([MIN_SCALE, Math.max(2, maxScale)]);
    z.translateExtent(
      axis === 'y'
        ? [
            [-Infinity, lo],
            [Infinity, hi],
          ]
        : [
            [lo, -Infinity],
            [hi, Infinity],
          ],
    );
  }, [size.width, size.height, maxScale, axis, lo, hi]);

  const reveal = useCallback(
    (p: number, lo: number, hi: number, at: number | 'nearest' = 0.3) => {
      const el = ref.current;
      const z = zoomRef.current;
      if (!el || !z) return;
      const t = d3.zoomTransform(el);
      const pos = axis === 'y' ? t.applyY(p) : t.applyX(p);
      if (pos >= lo && pos <= hi) return;
      const target = at === 'nearest' ? (pos > hi ? hi : lo) : lo + (hi - lo) * at;
      const next = axis === 'y' ? d3.zoomIdentity.translate(t.x, target - t.k * p).scale(t.k) : d3.zoomIdentity.translate(target - t.k * p, t.y).scale(t.k);
      z.transform(d3.select(el), next);
    },
    [ref, axis],
  );
  const zoomBy = useCallback(
    (factor: number) => {
      const el = ref.current;
      const z = zoomRef.current;
      if (!el || !z) return;
      const a = anchorRef.current;
      const p = a.at();
      // An anchor out of view comes to the middle first, then the zoom keeps it there.
      if (p !== null) reveal(p, a.lo, a.hi, 0.5);
      const s = anchorOnScreen(el) ?? (a.lo + a.hi) / 2;
      z.scaleBy(d3.select(el).transition().duration(150), factor, point(s));
    },
    [ref, reveal, anchorOnScreen, point],
  );
  const fit = useCallback(() => {
    const el = ref.current;
    if (el && zoomRef.current) zoomRef.current.transform(d3.select(el).transition().duration(150), d3.zoomIdentity);
  }, [ref]);
  const zoomTo = useCallback(
    (p0: number, p1: number, lo: number, hi: number) => {
      const el = ref.current;
      const z = zoomRef.current;
      if (!el || !z || !(p1 > p0)) return;
      const k = Math.max(MIN_SCALE, Math.min(Math.max(2, maxScale), (hi - lo) / (p1 - p0)));
      const t = d3.zoomTransform(el);
      const off = lo + (hi - lo - k * (p1 - p0)) / 2 - k * p0;
      const next = axis === 'y' ? d3.zoomIdentity.translate(t.x, off).scale(k) : d3.zoomIdentity.translate(off, t.y).scale(k);
      z.transform(d3.select(el).transition().duration(200), next);
    },
    [ref, axis, maxScale],
  );
  const current = useCallback(() => (ref.current ? d3.zoomTransform(ref.current) : d3.zoomIdentity), [ref]);
  return { transform, current, zoomBy, fit, reveal, zoomTo };
}
