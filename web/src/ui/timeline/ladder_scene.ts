// What the ladder shows for one view (size, zoom, text size, how much of the run has
// happened): the columns' x, the visible arrows and timer bars in pixels, and where every
// text goes (ladder_labels.ts). Pure, so the SVG and the canvas draw the same thing and
// tests can check it; only what meets the visible time window is built.
import type { ScaleLinear } from '../common/d3.ts';
import { NONE } from '../../core/engine/trace_types.ts';
import { distanceToSegment, pathPixels, type FramePath, type PixelSegment } from './frame_geometry.ts';
import type { GroupMark } from './ladder_groups.ts';
import { headerTexts, tickMarks, TICK_CHARS, TICK_LEN, type Tick } from './ladder_frame_text.ts';
import { layoutLabels, sceneTexts } from './ladder_labels.ts';
import { linearPx, THIN_LIMIT, thinByRow } from './ladder_lod.ts';
import type { LadderModel } from './ladder_model.ts';
import { boxHeight, boxWidth, type TextBox } from './ladder_text.ts';
import type { DrawingText } from './text_size.ts';
import { mergeTimerRuns, timerKey } from './timer_merge.ts';
import type { TimerBar } from './timers.ts';

/** Above this many visible arrows they go on a canvas (SVG keeps the selected one). */
export const CANVAS_LIMIT = 2000;

/** The header holds two lines: the lifeline's name and its detail. */
export function headerHeight(text: DrawingText): number {
  return 2 + boxHeight(text.namePx) + boxHeight(text.px) + 2;
}

/** The y range "Fit" spreads the run over: a row for labels between the header and the
 *  first arrows, a little room at the bottom. */
export function fitRange(text: DrawingText, height: number): [number, number] {
  const top = headerHeight(text) + boxHeight(text.px) + 4;
  return [top, Math.max(top + 10, height - 10)];
}

/** The time axis's gutter: room for a tick label of TICK_CHARS characters and its tick. */
export function axisWidth(text: DrawingText): number {
  return boxWidth(TICK_CHARS, text.charPx) + TICK_LEN + 4;
}

export interface ArrowMark {
  /** position in model.frames */
  i: number;
  id: number;
  segments: PixelSegment[];
  /** the segment the label goes along */
  main: number;
  /** arrowhead triangle (delivered frames) */
  head?: [number, number][];
  cross?: { x: number; y: number };
  /** open: still travelling at the end of the run, or at the horizon */
  end: 'arrive' | 'drop' | 'open';
  retx: string | null;
  /** the drop reason, once the drop has happened */
  drop: string | null;
  /** the label above (or below) the arrow, null when it found no room */
  label: TextBox | null;
  /** the drop reason beside the cross (the same box for drops alike close together) */
  reason: TextBox | null;
  selected: boolean;
  /** how many frames this arrow stands for when the view holds too many to draw one by
   *  one (ladder_lod.ts): the frames of its hop and kind leaving in the same pixel row */
  stands: number;
  /** a bridge's copy of a frame a host sent (the same segment on the next link) */
  forwarded: boolean;
  /** sent, and arrived or died (or the horizon), µs */
  t0: number;
  t1: number;
}

export interface TimerMark {
  bar: TimerBar;
  x: number;
  y0: number;
  y1: number;
  width: number;
  /** still running at the horizon: drawn up to it, its label says the time left */
  running: boolean;
  label: TextBox | null;
  /** how many timer runs this bar stands for (runs closer than a pixel are drawn as one) */
  runs: number;
  /** the run's length in pixels before clipping to the view */
  length: number;
}

export interface Scene {
  width: number;
  height: number;
  text: DrawingText;
  headerH: number;
  axisW: number;
  laneX: number[];
  /** visible time window, µs */
  t0: number;
  t1: number;
  /** the y nothing is drawn below (hide the future), or null */
  horizonY: number | null;
  arrows: ArrowMark[];
  timers: TimerMark[];
  groups: GroupMark[];
  /** lifeline names and details */
  header: TextBox[];
  ticks: Tick[];
  /** every text the drawing holds (sceneTexts), for the cursor's label to keep clear of */
  texts: TextBox[];
  canvas: boolean;
  /** how many frames meet the view (arrows may stand for several each) */
  framesInView: number;
}

/** The columns' x: spread over the width right of the time axis, with half a column's
 *  room (at most 70 px) outside the first and the last. */
export function laneXs(n: number, width: number, axisW: number): number[] {
  const span = Math.max(0, width - axisW);
  if (n <= 1) return [Math.round(axisW + span / 2)];
  const margin = Math.min(70, span / (2 * n));
  const step = (span - 2 * margin) / (n - 1);
  return Array.from({ length: n }, (_, i) => Math.round(axisW + margin + i * step));
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
  return [
    [s.x2, s.y2],
    [bx - uy * size * 0.45, by + ux * size * 0.45],
    [bx + uy * size * 0.45, by - ux * size * 0.45],
  ];
}

/** The path as far as it got by `h`: hops after it left out, the one under way cut where it
 *  was, no end (the frame has not arrived, nor died, yet). */
export function clipPath(p: FramePath, h: number): FramePath {
  if (p.t1 <= h) return p;
  const hops = [];
  for (const hop of p.hops) {
    if (hop.t0 > h) break;
    if (hop.t1 <= h) {
      hops.push(hop);
      continue;
    }
    const f = (h - hop.t0) / (hop.t1 - hop.t0);
    hops.push({ ...hop, to: hop.from + (hop.to - hop.from) * f, t1: h });
    break;
  }
  return { hops, end: 'open', main: Math.min(p.main, hops.length - 1), t0: p.t0, t1: h };
}

export interface SceneOptions {
  width: number;
  height: number;
  /** time (µs) to y (px), zoom applied */
  y: ScaleLinear<number, number>;
  selected: number | null;
  text: DrawingText;
  /** hide the future: the scene holds nothing after this instant (µs); null shows all */
  horizonUs: number | null;
  canvasLimit?: number;
  /** above this many frames in view, one arrow per hop, kind and pixel row (ladder_lod.ts) */
  thinLimit?: number;
}

export function buildScene(m: LadderModel, o: SceneOptions): Scene {
  const headerH = headerHeight(o.text);
  const axisW = axisWidth(o.text);
  const laneX = laneXs(m.lanes.lifelines.length, o.width, axisW);
  const t0 = o.y.invert(headerH);
  const t1 = o.y.invert(o.height);
  const h = o.horizonUs;
  const visible = m.frameIndex.query(t0, h === null ? t1 : Math.min(t1, h));
  const x = (lane: number) => laneAt(laneX, lane);
  const { keep, stands } = visible.length > (o.thinLimit ?? THIN_LIMIT) ? thinned(m, visible, o) : { keep: visible, stands: null };
  const arrows = keep.map((i, k) => arrowMark(m, i, stands?.[k] ?? 1, h, x, o));
  const timers = timerMarks(m, m.timerIndex.query(t0, h === null ? t1 : Math.min(t1, h)), laneX, headerH, o);
  const horizonY = h === null ? null : o.y(h);
  const bottom = Math.min(o.height, horizonY ?? o.height);
  const plot = { x: axisW, y: headerH, w: o.width - axisW, h: Math.max(0, bottom - headerH) };
  const groups = layoutLabels(arrows, timers, { text: o.text, plot, label: (a) => m.label(a.i), horizonUs: h, laneX });
  const header = headerTexts(m.lanes.lifelines, laneX, o.text, o.width);
  const ticks = tickMarks(t0, t1, o.y, o.text, headerH, o.height, axisW);
  const scene: Scene = {
    width: o.width,
    height: o.height,
    text: o.text,
    headerH,
    axisW,
    laneX,
    t0,
    t1,
    horizonY,
    arrows,
    timers,
    groups,
    header,
    ticks,
    texts: [],
    canvas: visible.length > (o.canvasLimit ?? CANVAS_LIMIT),
    framesInView: visible.length,
  };
  scene.texts = sceneTexts(scene);
  return scene;
}

/** The frames in view thinned to one per hop (link and direction), kind (plain, resent,
 *  dropped) and pixel row of sending; the selected frame keeps its own arrow. */
function thinned(m: LadderModel, visible: readonly number[], o: SceneOptions) {
  const sel = o.selected === null ? -1 : m.indexOf(o.selected);
  // y is linear: two numbers instead of a d3 scale call per frame
  const y0 = o.y(0);
  const dy = o.y(1) - y0;
  return thinByRow(visible, {
    slots: m.linkCount * 6,
    slotOf: m.hopKind,
    rowOf: (i) => Math.floor(y0 + dy * m.paths[i]!.t0),
    always: (i) => i === sel,
  });
}

/** How far an arrowhead or a cross reaches below the point it marks, px. */
const END_MARK_PX = 5;

/** Hiding the future: the path as far as it got by `h`; an arrival or a death so close to
 *  the horizon that its arrowhead or cross would reach past it shows a few pixels later. */
function pathBy(p: FramePath, h: number, y: (t: number) => number): FramePath {
  const c = clipPath(p, h);
  if (c !== p || y(p.t1) + END_MARK_PX <= y(h)) return c;
  return { hops: p.hops, end: 'open', main: p.main, t0: p.t0, t1: p.t1 };
}

function arrowMark(m: LadderModel, i: number, stands: number, h: number | null, x: (lane: number) => number, o: SceneOptions): ArrowMark {
  const f = m.frames[i]!;
  const p = h === null ? m.paths[i]! : pathBy(m.paths[i]!, h, o.y);
  const px = pathPixels(p, x, o.y);
  const last = px.segments[px.segments.length - 1]!;
  return {
    i,
    id: f.id,
    segments: px.segments,
    main: p.main,
    ...(p.end === 'arrive' ? { head: arrowHead(last) } : {}),
    ...(px.cross ? { cross: px.cross } : {}),
    end: p.end,
    retx: m.retx(i),
    drop: p.end === 'drop' ? m.drop(i) : null,
    label: null,
    reason: null,
    selected: f.id === o.selected,
    stands,
    forwarded: f.parent !== NONE,
    t0: p.t0,
    t1: p.t1,
  };
}

/** The timer bars meeting the view, runs closer than a pixel merged before any mark is
 *  made: a mark per bar drawn, not per run. */
function timerMarks(m: LadderModel, runs: readonly number[], laneX: readonly number[], headerH: number, o: SceneOptions): TimerMark[] {
  const h = o.horizonUs;
  const y = linearPx(o.y);
  return mergeTimerRuns({
    count: runs.length,
    px(k, r) {
      const bar = m.timers[runs[k]!]!;
      r.running = h !== null && bar.t1 > h;
      const a = y(bar.t0);
      const b = y(r.running ? h! : bar.t1);
      r.key = timerKey(bar);
      r.y0 = Math.max(headerH - 2, a);
      r.y1 = Math.min(o.height + 2, b);
      r.length = b - a;
    },
    mark(k) {
      const bar = m.timers[runs[k]!]!;
      return timerMark(bar, laneX[m.hostLane[bar.host] ?? -1] ?? laneX[0]!, h, headerH, o);
    },
    bar: (k) => m.timers[runs[k]!]!,
  });
}

function timerMark(bar: TimerBar, lx: number, h: number | null, headerH: number, o: SceneOptions): TimerMark {
  const rto = bar.kind === 'rto';
  const xb = rto ? lx + 4 + bar.slot * 9 : lx - 9 - bar.slot * 9;
  const running = h !== null && bar.t1 > h;
  const end = running ? h : bar.t1;
  return {
    bar: running ? { ...bar, t1: h, end: 'open' } : bar,
    x: xb,
    y0: Math.max(headerH - 2, o.y(bar.t0)),
    y1: Math.min(o.height + 2, o.y(end)),
    width: 5,
    running,
    label: null,
    runs: 1,
    length: o.y(end) - o.y(bar.t0),
  };
}

/** Runs of a timer merged as they are drawn (timer_merge.ts), from marks already made:
 *  what a test or another view holding marks asks for. */
export function mergeTimerMarks(marks: readonly TimerMark[]): TimerMark[] {
  return mergeTimerRuns({
    count: marks.length,
    px(k, r) {
      const m = marks[k]!;
      r.key = timerKey(m.bar);
      r.y0 = m.y0;
      r.y1 = m.y1;
      r.length = m.length;
      r.running = m.running;
    },
    mark: (k) => ({ ...marks[k]! }),
    bar: (k) => marks[k]!.bar,
  });
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
