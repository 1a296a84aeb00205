// What the ladder shows for one view (size, zoom): the columns' x, the visible arrows and
// timer bars in pixels, which labels fit. Pure, so the SVG and the canvas draw the same
// thing and tests can check it; only what meets the visible time window is built.
import type { ScaleLinear } from 'd3';
import { distanceToSegment, pathPixels, type PixelSegment } from './frame_geometry.ts';
import type { LadderModel } from './ladder_model.ts';
import type { TimerBar } from './timers.ts';
import { formatDuration } from './time_format.ts';

export const HEADER_H = 38;
export const AXIS_W = 64;
/** Above this many visible arrows they go on a canvas (SVG keeps the selected one). */
export const CANVAS_LIMIT = 2000;
/** Above this many, arrows have no labels (the tooltip still tells). */
export const LABEL_LIMIT = 400;
const LABEL_GAP_PX = 12;
/** Width of one character of the 11 px monospace labels (ladder_style.ts). */
export const LABEL_CHAR_PX = 6.6;

/** The text cut to `maxPx` with an ellipsis, or null when not even a few characters fit
 *  (the tooltip always has the whole text). */
export function fitText(text: string, maxPx: number): string | null {
  const n = Math.floor(maxPx / LABEL_CHAR_PX);
  if (text.length <= n) return text;
  return n >= 8 ? `${text.slice(0, n - 1)}…` : null;
}

export interface ArrowMark {
  /** position in model.frames */
  i: number;
  id: number;
  segments: PixelSegment[];
  /** arrowhead triangle (delivered frames) */
  head?: [number, number][];
  cross?: { x: number; y: number };
  end: 'arrive' | 'drop' | 'open';
  retx: string | null;
  drop: string | null;
  /** the label and where it goes (centred, above the main hop), null when it does not fit */
  label: { text: string; x: number; y: number } | null;
  /** the drop reason beside the cross */
  reason: { text: string; x: number; y: number; anchor: 'start' | 'end' } | null;
  selected: boolean;
  /** sent after the playback cursor */
  t0: number;
}

export interface TimerMark {
  bar: TimerBar;
  x: number;
  y0: number;
  y1: number;
  width: number;
  label: { text: string; x: number; y: number; anchor: 'start' | 'end' } | null;
  /** how many timer runs this bar stands for (runs closer than a pixel are drawn as one) */
  runs: number;
  /** the run's length in pixels before clipping to the view */
  length: number;
}

export interface Scene {
  width: number;
  height: number;
  laneX: number[];
  /** visible time window, µs */
  t0: number;
  t1: number;
  arrows: ArrowMark[];
  timers: TimerMark[];
  canvas: boolean;
}

/** The columns' x: spread over the width right of the time axis. */
export function laneXs(n: number, width: number): number[] {
  const left = AXIS_W + 70;
  const right = Math.max(left, width - 70);
  if (n <= 1) return [Math.round((left + right) / 2)];
  const step = (right - left) / (n - 1);
  return Array.from({ length: n }, (_, i) => Math.round(left + i * step));
}

/** The x of a fractional column (a drop half-way between two lifelines). */
export function laneAt(xs: readonly number[], lane: number): number {
  const i = Math.max(0, Math.min(xs.length - 1, Math.floor(lane)));
  const f = lane - i;
  return f === 0 || i + 1 >= xs.length ? xs[i]! : xs[i]! + (xs[i + 1]! - xs[i]!) * f;
}

function arrowHead(s: PixelSegment, size = 7): [number, number][] {
  const dx = s.x2 - s.x1;
  const dy = s.y2 - s.y1;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  const bx = s.x2 - ux * size;
  const by = s.y2 - uy * size;
  return [[s.x2, s.y2], [bx - uy * size * 0.45, by + ux * size * 0.45], [bx + uy * size * 0.45, by - ux * size * 0.45]];
}

export interface SceneOptions {
  width: number;
  height: number;
  /** time (µs) to y (px), zoom applied */
  y: ScaleLinear<number, number>;
  selected: number | null;
  canvasLimit?: number;
  labelLimit?: number;
}

export function buildScene(m: LadderModel, o: SceneOptions): Scene {
  const laneX = laneXs(m.lanes.lifelines.length, o.width);
  const t0 = o.y.invert(HEADER_H);
  const t1 = o.y.invert(o.height);
  const visible = m.frameIndex.query(t0, t1);
  const canvas = visible.length > (o.canvasLimit ?? CANVAS_LIMIT);
  const labels = visible.length <= (o.labelLimit ?? LABEL_LIMIT);
  const x = (lane: number) => laneAt(laneX, lane);
  const lastLabelY = new Map<string, number>();
  const arrows = visible.map((i): ArrowMark => {
    const f = m.frames[i]!;
    const p = m.paths[i]!;
    const px = pathPixels(p, x, o.y);
    const main = px.segments[p.main]!;
    let label: ArrowMark['label'] = null;
    if (labels) {
      // Labels of both directions between the same columns compete for the same room.
      const h = p.hops[p.main]!;
      const key = `${Math.min(h.from, h.to)}|${Math.max(h.from, h.to)}`;
      const ly = (main.y1 + main.y2) / 2 - 4;
      const last = lastLabelY.get(key);
      if (last === undefined || Math.abs(ly - last) >= LABEL_GAP_PX || f.id === o.selected) {
        const cause = m.retx(i);
        // A label may overhang its hop a little, never leave the drawing.
        const room = Math.min(Math.abs(main.x2 - main.x1) + 60, o.width - AXIS_W - 8);
        // The cause first, as Wireshark puts "[TCP Retransmission]" first: it survives cutting.
        const text = fitText((cause ? `[${cause}] ` : '') + m.label(i), room);
        if (text) {
          const half = (text.length * LABEL_CHAR_PX) / 2;
          const cx = Math.max(AXIS_W + 4 + half, Math.min(o.width - 4 - half, (main.x1 + main.x2) / 2));
          label = { text, x: cx, y: ly };
          lastLabelY.set(key, ly);
        }
      }
    }
    const drop = m.drop(i);
    const lastSeg = px.segments[px.segments.length - 1]!;
    const leftwards = lastSeg.x2 < px.segments[0]!.x1;
    return {
      i,
      id: f.id,
      segments: px.segments,
      ...(p.end === 'arrive' ? { head: arrowHead(lastSeg) } : {}),
      ...(px.cross ? { cross: px.cross } : {}),
      end: p.end,
      retx: m.retx(i),
      drop,
      label,
      reason: drop && px.cross && labels ? reasonMark(drop, px.cross, leftwards, o.width) : null,
      selected: f.id === o.selected,
      t0: f.tSent,
    };
  });
  const timers = m.timerIndex.query(t0, t1).map((j): TimerMark => {
    const bar = m.timers[j]!;
    const lx = laneX[m.hostLane[bar.host] ?? -1] ?? laneX[0]!;
    const rto = bar.kind === 'rto';
    const xb = rto ? lx + 4 + bar.slot * 9 : lx - 9 - bar.slot * 9;
    const y0 = Math.max(HEADER_H - 2, o.y(bar.t0));
    const y1 = Math.min(o.height + 2, o.y(bar.t1));
    const text = `${rto ? 'RTO' : 'delayed ACK'} ${formatDuration(bar.valueUs)}`;
    const fits = labels && y1 - y0 >= 14;
    return {
      bar, x: xb, y0, y1, width: 5, runs: 1, length: o.y(bar.t1) - o.y(bar.t0),
      label: fits ? { text, x: rto ? xb + 8 : xb - 3, y: y0 + 10, anchor: rto ? 'start' : 'end' } : null,
    };
  });
  return { width: o.width, height: o.height, laneX, t0, t1, arrows, timers: mergeTimerMarks(timers), canvas };
}

/** Zoomed out, a bulk transfer re-arms its RTO on every ACK: thousands of bars touching each
 *  other. Runs of one timer closer than a pixel, one of them too short to see, become one
 *  bar (no label: which value?); runs long enough to read keep their own bars. */
export function mergeTimerMarks(marks: readonly TimerMark[]): TimerMark[] {
  const open = new Map<string, TimerMark>();
  const out: TimerMark[] = [];
  for (const m of marks) {
    const key = `${m.bar.host}:${m.bar.slot}:${m.bar.kind}`;
    const prev = open.get(key);
    const tiny = (t: TimerMark) => t.length < 3;
    if (prev && m.y0 - prev.y1 <= 1 && (tiny(m) || tiny(prev) || prev.runs > 1)) {
      prev.y1 = Math.max(prev.y1, m.y1);
      prev.runs += m.runs;
      prev.length += m.length;
      prev.label = null;
      // the merged bar ends the way its last run ended
      prev.bar = { ...prev.bar, end: m.bar.end, t1: m.bar.t1 };
      continue;
    }
    const copy = { ...m };
    open.set(key, copy);
    out.push(copy);
  }
  return out;
}

/** The drop reason beside the cross, on the side the arrow was heading, cut to fit. */
function reasonMark(text: string, at: { x: number; y: number }, leftwards: boolean, width: number): ArrowMark['reason'] {
  const x = at.x + (leftwards ? -8 : 8);
  const fitted = fitText(text, leftwards ? x - AXIS_W - 4 : width - x - 4);
  return fitted ? { text: fitted, x, y: at.y + 4, anchor: leftwards ? 'end' : 'start' } : null;
}

/** The arrow under the pointer (within `tolerance` px), for the canvas and the tooltip. */
export function hitTest(scene: Scene, px: number, py: number, tolerance = 6): ArrowMark | null {
  let best: ArrowMark | null = null;
  let bestD = tolerance;
  for (const a of scene.arrows) {
    for (const s of a.segments) {
      const d = distanceToSegment(px, py, s);
      if (d <= bestD) {
        bestD = d;
        best = a;
      }
    }
    if (a.cross && Math.hypot(px - a.cross.x, py - a.cross.y) <= bestD) best = a;
  }
  return best;
}
