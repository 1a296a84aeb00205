// Zoom and pan along one axis of an element: the wheel (and a trackpad pinch) zooms, a drag
// (mouse, pen or one finger) pans, two fingers pinch; buttons call zoomBy / fit / reveal /
// zoomTo, which glide there in a few frames. The transform lives in React state so the
// drawing follows it. A view too big to re-render per wheel event passes `live`: it gets
// every step of the zoom and draws it itself (D3 and canvas), and the React state follows
// once the gesture has paused, for what else reads the view.
//
// Zoom keeps the reader's place: "+", "-", the wheel and a trackpad pinch (a wheel event with
// ctrlKey in Chromium) scale around the anchor the pane names (the selected frame, else the
// cursor) rather than around the pointer, so a teacher zooming in on a retransmission never
// loses it. An anchor outside the view is brought to the middle first by the buttons; the
// wheel then falls back to the pointer, where the reader is looking.
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { AxisTransform, between, constrained, IDENTITY, type ZoomLimits } from './axis_transform.ts';

export interface AxisZoom {
  /** the transform as React state: with `live`, published once the gesture pauses */
  transform: AxisTransform;
  /** the transform of this instant (what `live` was last given) */
  current(): AxisTransform;
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
/** With `live`, how long the zoom must rest before React hears of it (a wheel gesture's
 *  pause, as d3-zoom had it). */
const PUBLISH_MS = 150;
/** How long the buttons' zooms glide. */
const GLIDE_MS = 150;

export function useAxisZoom<E extends Element>(
  ref: RefObject<E | null>,
  axis: 'x' | 'y',
  size: { width: number; height: number },
  maxScale: number,
  /** how far panning may go along the axis, in unzoomed pixels */
  bounds: [number, number],
  anchor: ZoomAnchor,
  /** draws each step of the zoom itself (then React state follows after PUBLISH_MS) */
  live?: (t: AxisTransform) => void,
): AxisZoom {
  const [transform, setTransform] = useState(IDENTITY);
  // The transform of this instant, the limits, the anchor and `live` are read through refs
  // by the handlers, which are installed once.
  const now = useRef(IDENTITY);
  const limits = useRef<ZoomLimits>({ view: [0, 0], scale: [MIN_SCALE, 2], bounds });
  limits.current = { view: [0, axis === 'y' ? size.height : size.width], scale: [MIN_SCALE, Math.max(2, maxScale)], bounds };
  const anchorRef = useRef(anchor);
  anchorRef.current = anchor;
  const liveRef = useRef(live);
  liveRef.current = live;
  const publish = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const glide = useRef(0);

  /** The zoom becomes `t` (within the limits): drawn now, React told (now, or when it rests). */
  const show = useCallback((t: AxisTransform, s?: number) => {
    const c = constrained(t, limits.current, s);
    now.current = c;
    const draw = liveRef.current;
    if (!draw) return setTransform(c);
    draw(c);
    clearTimeout(publish.current);
    publish.current = setTimeout(() => setTransform(c), PUBLISH_MS);
  }, []);
  /** A gesture or a jump: a glide going on stops. */
  const jump = useCallback(
    (t: AxisTransform, s?: number) => {
      cancelAnimationFrame(glide.current);
      show(t, s);
    },
    [show],
  );
  /** Glides to `target` over GLIDE_MS, one step per animation frame. */
  const glideTo = useCallback(
    (target: AxisTransform) => {
      cancelAnimationFrame(glide.current);
      const from = now.current;
      const to = constrained(target, limits.current);
      const t0 = performance.now();
      const step = (t: number) => {
        const f = Math.min(1, (t - t0) / GLIDE_MS);
        show(f < 1 ? between(from, to, limits.current.view, 1 - (1 - f) ** 2) : to);
        if (f < 1) glide.current = requestAnimationFrame(step);
      };
      glide.current = requestAnimationFrame(step);
    },
    [show],
  );

  /** Screen position of the anchor when it is in view, else null. */
  const anchorOnScreen = useCallback((): number | null => {
    const a = anchorRef.current;
    const p = a.at();
    if (p === null) return null;
    const s = now.current.apply(p);
    return s >= a.lo && s <= a.hi ? s : null;
  }, []);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const along = (e: { clientX: number; clientY: number }) => {
      const r = el.getBoundingClientRect();
      return axis === 'y' ? e.clientY - r.top : e.clientX - r.left;
    };
    const onWheel = (ev: Event) => {
      const e = ev as WheelEvent;
      e.preventDefault();
      const factor = 2 ** (-e.deltaY * (e.deltaMode === 1 ? 0.05 : e.deltaMode ? 1 : 0.002) * (e.ctrlKey ? 10 : 1));
      // the pointer's place asks for the layout: only when there is no anchor to keep still
      const s = anchorOnScreen() ?? along(e);
      jump(now.current.scaledBy(factor, s), s);
    };
    // Pointers down on the element: one pans, two pinch (around their middle).
    const down = new Map<number, number>();
    let moved = false;
    const onDown = (ev: Event) => {
      const e = ev as PointerEvent;
      if (e.pointerType === 'mouse' && e.button !== 0) return;
      down.set(e.pointerId, along(e));
      if (down.size === 1) moved = false;
    };
    const onMove = (ev: Event) => {
      const e = ev as PointerEvent;
      const was = down.get(e.pointerId);
      if (was === undefined) return;
      const s = along(e);
      if (s === was) return;
      // Captured once it moves (not on the press: a click keeps its target, an arrow).
      if (!moved) el.setPointerCapture?.(e.pointerId);
      moved = true;
      down.set(e.pointerId, s);
      const other = [...down].find(([id]) => id !== e.pointerId)?.[1];
      if (other === undefined) return jump(now.current.movedBy(s - was));
      // Two fingers: what was under each stays under it.
      const t = now.current;
      const [u, w] = [t.invert(other), t.invert(was)];
      const k = (s - other) / (w - u);
      if (w !== u && k > 0) jump(new AxisTransform(k, other - k * u), other);
    };
    const onUp = (ev: Event) => {
      down.delete((ev as PointerEvent).pointerId);
    };
    // A drag is not a click: the click that ends it selects nothing.
    const onClick = (e: Event) => {
      if (!moved) return;
      moved = false;
      e.stopPropagation();
      e.preventDefault();
    };
    // The browser's own touch panning and zooming would take the fingers' moves.
    (el as unknown as ElementCSSInlineStyle).style.touchAction = 'none';
    el.addEventListener('wheel', onWheel, { passive: false });
    el.addEventListener('pointerdown', onDown);
    el.addEventListener('pointermove', onMove);
    el.addEventListener('pointerup', onUp);
    el.addEventListener('pointercancel', onUp);
    el.addEventListener('click', onClick, true);
    return () => {
      clearTimeout(publish.current);
      cancelAnimationFrame(glide.current);
      el.removeEventListener('wheel', onWheel);
      el.removeEventListener('pointerdown', onDown);
      el.removeEventListener('pointermove', onMove);
      el.removeEventListener('pointerup', onUp);
      el.removeEventListener('pointercancel', onUp);
      el.removeEventListener('click', onClick, true);
    };
  }, [ref, axis, anchorOnScreen, jump]);

  const reveal = useCallback(
    (p: number, lo: number, hi: number, at: number | 'nearest' = 0.3) => {
      const t = now.current;
      const pos = t.apply(p);
      if (pos >= lo && pos <= hi) return;
      const target = at === 'nearest' ? (pos > hi ? hi : lo) : lo + (hi - lo) * at;
      jump(t.movedBy(target - pos));
    },
    [jump],
  );
  const zoomBy = useCallback(
    (factor: number) => {
      const a = anchorRef.current;
      const p = a.at();
      // An anchor out of view comes to the middle first, then the zoom keeps it there.
      if (p !== null) reveal(p, a.lo, a.hi, 0.5);
      const s = anchorOnScreen() ?? (a.lo + a.hi) / 2;
      glideTo(now.current.scaledBy(factor, s));
    },
    [reveal, anchorOnScreen, glideTo],
  );
  const fit = useCallback(() => glideTo(IDENTITY), [glideTo]);
  const zoomTo = useCallback(
    (p0: number, p1: number, lo: number, hi: number) => {
      if (!(p1 > p0)) return;
      const [kMin, kMax] = limits.current.scale;
      const k = Math.max(kMin, Math.min(kMax, (hi - lo) / (p1 - p0)));
      glideTo(new AxisTransform(k, lo + (hi - lo - k * (p1 - p0)) / 2 - k * p0));
    },
    [glideTo],
  );
  const current = useCallback(() => now.current, []);
  return { transform, current, zoomBy, fit, reveal, zoomTo };
}
