// Where every text of the ladder's plot goes, so that no two overlap at any zoom, pane size
// or text size (the header and the time axis have areas of their own: ladder_frame_text.ts).
// One greedy pass places them in order of what matters to the story:
//   1. the selected frame; 2. timers still running at the horizon (hiding the future, the
//   class predicts from them); 3. the label of each burst far too dense to label frame by
//   frame (the overview); 4. drop reasons and retransmission causes, the first of each kind
//   before the second of any; 5. timers that expired; 6. ordinary frames in time order, a
//   run along one hop that cannot label each of its frames folded into a group
//   (ladder_groups.ts); 7. the other timers.
// Each text has candidate positions (above its arrow's main hop at the middle, shifted along
// it, below, a little further off, on the frame's other hops) and shorter forms. It takes
// the first free one (1 to 4 may move texts placed before them out of the way: Placer in
// ladder_text.ts) and is left out when none is free: the tooltip tells everything. Arrows
// never move.
import { findRuns, groupWording, type GroupMark } from './ladder_groups.ts';
import type { ArrowMark, Scene, TimerMark } from './ladder_scene.ts';
import {
  boxHeight,
  boxWidth,
  fitText,
  fitWords,
  inside,
  intersects,
  moveBox,
  Placer,
  textBox,
  type Occupancy,
  type Placeable,
  type Rect,
  type TextBox,
  type TextKind,
} from './ladder_text.ts';
import type { DrawingText } from './text_size.ts';
import { formatDuration } from '../../core/run/time_format.ts';

/** Brackets of groups stand this far outside the lifeline their frames leave from (clear of
 *  the timer bars beside it), their ends this long. */
const BRACKET_OFF = 20;
export const BRACKET_END = 6;
/** How far along the horizon a running timer's label may go (steps of two characters). */
const RUNNING_STEPS = 12;
/** Above this many frames a group's label sums up its first and last frames only. */
const SUMMARY_LIMIT = 2000;
/** A drop reason where room is short: about this many characters, then fewer still. */
const REASON_CHARS = [20, 14];

export interface LabelContext {
  text: DrawingText;
  /** where the plot's texts may go: right of the axis, below the header, above the horizon */
  plot: Rect;
  laneX: readonly number[];
  /** Wireshark's short form of the arrow's frame */
  label(a: ArrowMark): string;
  horizonUs: number | null;
}

/** Places the plot's texts (arrow labels, drop reasons, timer labels) in the marks and
 *  returns the groups the bursts were folded into. */
export function layoutLabels(arrows: ArrowMark[], timers: TimerMark[], ctx: LabelContext): GroupMark[] {
  const placer = new Placer(ctx.plot);
  // A label must not hide a cross: that is where the story happens.
  for (const a of arrows) if (a.cross) placer.occ.add({ x: a.cross.x - 5, y: a.cross.y - 5, w: 10, h: 10 });
  const rowPx = boxHeight(ctx.text.px);
  const runs = findRuns(
    arrows.map((a) => member(a, ctx.laneX)),
    rowPx,
  );
  const dense = new Set(runs.filter((r) => isDense(r, rowPx)));
  const groups: GroupMark[] = [];
  const label = (a: ArrowMark): Placeable => ({ candidates: () => labelCandidates(a, ctx), set: (b) => (a.label = b) });
  const reason = (drops: readonly ArrowMark[]): Placeable => ({
    candidates: () => reasonCandidates(drops, ctx),
    set: (b) => drops.forEach((a) => (a.reason = b)),
  });
  const timer = (t: TimerMark): Placeable => ({ candidates: () => timerCandidates(t, ctx), set: (b) => (t.label = b) });
  const tell = (t: Telling) => placer.place(t.drops ? reason(t.drops) : label(t.a), true);
  const story = storyOrder(arrows, rowPx);
  for (const t of story) if (t.a.selected) tell(t);
  for (const a of arrows) if (a.selected && !a.label) placer.place(label(a), true);
  // Hiding the future, the timers running at the horizon are what the class predicts from.
  for (const t of timers) if (t.running && t.runs === 1) placer.place(timer(t), true);
  // A burst far too dense to label frame by frame is told as a whole first: the overview.
  for (const r of dense) groups.push(groupOf(marks(r), placer, ctx));
  for (const t of story) if (!t.a.selected) tell(t);
  const expiring = (t: TimerMark) => t.runs === 1 && t.bar.end === 'expire';
  for (const t of timers) if (expiring(t)) placer.place(timer(t));
  for (const r of runs) {
    if (dense.has(r)) continue;
    const run = marks(r);
    const a = run[0]!;
    if (run.length === 1) {
      if (!a.label && !a.retx) placer.place(label(a));
    } else if (!labelEach(run, placer.occ, ctx)) {
      groups.push(groupOf(run, placer, ctx));
    }
  }
  for (const t of timers) if (t.runs === 1 && !t.running && !expiring(t)) placer.place(timer(t));
  return groups;
}

/** A retransmission's label (with its cause), or the reason of drops (one, or a few alike
 *  close together: "module busy… ×2") to place. */
interface Telling {
  a: ArrowMark;
  drops?: ArrowMark[];
}

/** Drops and retransmissions in the order their texts are placed: the first of each reason
 *  and each cause, then the second of each, and so on (twelve "random loss" must not crowd
 *  out the one "fast retransmit"); the cause on a bridge's copy of a retransmission (the
 *  same segment on the next link) after every other. */
function storyOrder(arrows: readonly ArrowMark[], rowPx: number): Telling[] {
  const seen = new Map<string, number>();
  const items: { t: Telling; rank: number; order: number }[] = [];
  const add = (t: Telling, key: string) => {
    const rank = seen.get(key) ?? 0;
    seen.set(key, rank + 1);
    items.push({ t, rank: rank + (t.a.forwarded && !t.drops ? arrows.length : 0), order: items.length });
  };
  const clusters = dropClusters(arrows, rowPx);
  for (const a of arrows) {
    const drops = clusters.get(a);
    if (drops) add({ a, drops }, `drop:${a.drop}`);
    if (a.retx) add({ a }, `retx:${a.retx}`);
  }
  return items.sort((x, y) => x.rank - y.rank || x.order - y.order).map((i) => i.t);
}

/** Drops for the same reason at the same column within two rows of the first of them share
 *  one reason; keyed by that first one. */
function dropClusters(arrows: readonly ArrowMark[], rowPx: number): Map<ArrowMark, ArrowMark[]> {
  const open = new Map<string, ArrowMark[]>();
  const out = new Map<ArrowMark, ArrowMark[]>();
  for (const a of arrows) {
    if (!a.drop || !a.cross) continue;
    const key = `${a.drop}@${Math.round(a.cross.x)}`;
    const c = open.get(key);
    if (c && Math.abs(a.cross.y - c[0]!.cross!.y) <= 2 * rowPx) {
      c.push(a);
      continue;
    }
    const fresh = [a];
    open.set(key, fresh);
    out.set(a, fresh);
  }
  return out;
}

interface Member {
  a: ArrowMark;
  hop: string;
  y: number;
}

function mainSegment(a: ArrowMark) {
  return a.segments[a.main]!;
}

/** The frame as part of a run: the lifeline its label's hop leaves from and its direction
 *  (a frame that died half-way still goes along its hop), and its label's y. */
function member(a: ArrowMark, laneX: readonly number[]): Member {
  const s = mainSegment(a);
  let from = 0;
  laneX.forEach((x, i) => {
    if (Math.abs(x - s.x1) < Math.abs(laneX[from]! - s.x1)) from = i;
  });
  return { a, hop: `${from}${s.x2 >= s.x1 ? '>' : '<'}`, y: (s.y1 + s.y2) / 2 };
}

function marks(run: readonly Member[]): ArrowMark[] {
  return run.map((m) => m.a);
}

/** More frames than rows to label them in, even with labels above and below. */
function isDense(run: readonly Member[], rowPx: number): boolean {
  const span = run[run.length - 1]!.y - run[0]!.y;
  return run.length > 2 * (span / rowPx + 1);
}

/** A drop is told by its reason, a retransmission by its label (with the cause). */
function told(a: ArrowMark): boolean {
  return (!a.retx || !!a.label) && (!a.drop || !!a.reason);
}

/** Labels every frame of the run, or none (false) when one of them finds no room (or a
 *  drop or a retransmission in it could not be told). */
function labelEach(run: readonly ArrowMark[], occ: Occupancy, ctx: LabelContext): boolean {
  if (!run.every(told)) return false;
  const todo = run.filter((a) => !a.label);
  const boxes: TextBox[] = [];
  for (const a of todo) {
    const b = firstFree(labelCandidates(a, ctx), occ, boxes);
    if (!b) return false;
    boxes.push(b);
  }
  todo.forEach((a, k) => {
    occ.add(boxes[k]!);
    a.label = boxes[k]!;
  });
  return true;
}

function firstFree(candidates: Iterable<TextBox>, occ: Occupancy, extra: readonly TextBox[]): TextBox | null {
  for (const c of candidates) if (occ.fits(c, extra)) return c;
  return null;
}

/** Positions along the main hop, best first: middle above, middle below, then shifted; at
 *  the end a little further off the line (clear of a cross on it). [fraction, side, gap px] */
const ALONG: [number, -1 | 1, number][] = [
  [0.5, -1, 1],
  [0.5, 1, 1],
  [0.3, -1, 1],
  [0.7, -1, 1],
  [0.3, 1, 1],
  [0.7, 1, 1],
  [0.15, -1, 1],
  [0.85, -1, 1],
  [0.15, 1, 1],
  [0.85, 1, 1],
  [0.5, -1, 7],
  [0.5, 1, 7],
  [0.3, -1, 7],
  [0.7, -1, 7],
  [0.3, 1, 7],
  [0.7, 1, 7],
];

type Segment = { x1: number; y1: number; x2: number; y2: number };

/** Along the main hop, then (a frame's other hops are the same frame: an NFC frame's UART
 *  hops) at the middle of each other hop; each form of the text in turn, longest first. */
function* alongCandidates(kind: TextKind, texts: readonly string[], main: Segment, others: readonly Segment[], ctx: LabelContext): Generator<TextBox> {
  const { plot, text } = ctx;
  type Spot = [Segment, number, -1 | 1, number];
  const spots: Spot[] = [
    ...ALONG.map(([f, side, gap]): Spot => [main, f, side, gap]),
    ...others.flatMap((s): Spot[] => [
      [s, 0.5, -1, 1],
      [s, 0.5, 1, 1],
    ]),
  ];
  for (const t of texts) {
    const b = textBox(kind, t, text.px, text.charPx, 0, 0);
    for (const [s, f, side, gap] of spots) {
      const px = s.x1 + (s.x2 - s.x1) * f;
      const py = s.y1 + (s.y2 - s.y1) * f;
      const x = Math.max(plot.x, Math.min(plot.x + plot.w - b.w, px - b.w / 2));
      yield moveBox(b, x, side < 0 ? py - b.h - gap : py + gap);
    }
  }
}

function distinct(texts: readonly (string | null)[]): string[] {
  return [...new Set(texts.filter((t): t is string => t !== null))];
}

/** How wide an arrow's label may be: about twice its hop (it may overhang a little, never
 *  leave the drawing), at least a few words. */
function labelRoom(a: ArrowMark, ctx: LabelContext): number {
  const s = mainSegment(a);
  return Math.min(ctx.plot.w, Math.max(2 * Math.abs(s.x2 - s.x1), 16 * ctx.text.charPx));
}

/** The label's forms, longest first, cut after whole words. A retransmission's cause comes
 *  first, as Wireshark puts "[TCP Retransmission]" first: alone it still tells why. */
function labelTexts(a: ArrowMark, ctx: LabelContext): string[] {
  const room = labelRoom(a, ctx);
  const c = ctx.text.charPx;
  const label = ctx.label(a);
  if (a.retx) {
    const cause = `[${a.retx}]`;
    return distinct([label ? fitWords(`${cause} ${label}`, room, c, 3) : null, fitText(cause, room, c, 6)]);
  }
  return label ? distinct([fitWords(label, room, c, 2), fitWords(label, room / 2, c, 2)]) : [];
}

function labelCandidates(a: ArrowMark, ctx: LabelContext): Iterable<TextBox> {
  const others = a.segments.filter((s, k) => k !== a.main && s.kind !== 'hold' && s.x1 !== s.x2);
  return alongCandidates('label', labelTexts(a, ctx), mainSegment(a), others, ctx);
}

/** The drop reason beside the cross (the crosses), up to its first clause ("fault: random
 *  loss"; the tooltip has the rest), shorter where room is short ("nfc: module busy…",
 *  "module busy…"), with the count of drops it tells: beside the cross on the side the frame
 *  was heading, then the other, then below or above it. */
function* reasonCandidates(drops: readonly ArrowMark[], ctx: LabelContext): Generator<TextBox> {
  const first = drops[0]!;
  const x = first.cross!.x;
  const ys = drops.map((a) => a.cross!.y);
  const top = Math.min(...ys);
  const bottom = Math.max(...ys);
  const { text } = ctx;
  const s = mainSegment(first);
  const heading = s.x2 < s.x1 ? -1 : 1;
  const short = first.drop!.split(/,| \(/)[0]!;
  const c = text.charPx;
  const count = drops.length > 1 ? ` ×${drops.length}` : '';
  const forms = distinct([
    short,
    fitWords(short, boxWidth(REASON_CHARS[0]!, c), c, 2),
    fitWords(short.replace(/^\w+: /, ''), boxWidth(REASON_CHARS[1]!, c), c, 1),
  ]);
  const h = boxHeight(text.px);
  const mid = (top + bottom) / 2 - h / 2;
  // [side: beside the cross on the heading side (1), the other (-1), centred on it (0), y]
  const spots: [number, number][] = [
    [heading, mid],
    [-heading, mid],
    [heading, bottom + 6],
    [heading, top - 6 - h],
    [0, bottom + 6],
    [0, top - 6 - h],
    [-heading, bottom + 6],
    [-heading, top - 6 - h],
  ];
  for (const [side, y] of spots) {
    for (const form of forms) {
      const b = textBox('reason', form + count, text.px, c, 0, 0);
      yield moveBox(b, side > 0 ? x + 8 : side < 0 ? x - 8 - b.w : x - b.w / 2, y);
    }
  }
}

function timerName(t: TimerMark): string {
  return `${t.bar.kind === 'rto' ? 'RTO' : 'delayed ACK'} ${formatDuration(t.bar.valueUs)}`;
}

/** A timer's label beside its bar, within the bar's visible length: at its top, else its
 *  bottom, else its middle. */
function* timerCandidates(t: TimerMark, ctx: LabelContext): Generator<TextBox> {
  if (t.running) return yield* runningCandidates(t, ctx);
  const b = textBox('timer', timerName(t), ctx.text.px, ctx.text.charPx, 0, 0);
  const x = t.bar.kind === 'rto' ? t.x + t.width + 3 : t.x - 3 - b.w;
  const top = Math.max(t.y0, ctx.plot.y);
  const bottom = Math.min(t.y1, ctx.plot.y + ctx.plot.h);
  for (const y of [top + 1, bottom - b.h - 1, (top + bottom - b.h) / 2]) if (y >= top && y + b.h <= bottom) yield moveBox(b, x, y);
}

/** A timer running at the horizon says how long it has left ("RTO 1.0 s · 420 ms left"),
 *  just above the horizon: beside its bar, else further along the horizon (the text names
 *  the timer), else a row higher. */
function* runningCandidates(t: TimerMark, ctx: LabelContext): Generator<TextBox> {
  const { text } = ctx;
  const left = `${formatDuration(Math.max(0, t.bar.t0 + t.bar.valueUs - (ctx.horizonUs ?? t.bar.t1)))} left`;
  const rto = t.bar.kind === 'rto';
  for (const s of [`${timerName(t)} · ${left}`, `${rto ? 'RTO' : 'delayed ACK'} · ${left}`]) {
    const b = textBox('timer', s, text.px, text.charPx, 0, 0);
    const beside = rto ? t.x + t.width + 3 : t.x - 3 - b.w;
    for (const y of [t.y1 - b.h - 1, t.y1 - 2 * b.h - 1]) {
      for (let k = 0; k <= RUNNING_STEPS; k++) yield moveBox(b, beside + (rto ? 1 : -1) * k * 2 * text.charPx, y);
    }
  }
}

/** A folded run: the bracket beside the lifeline its frames leave from, the label at the
 *  run's middle (or a row or two away, within the run), beside the bracket or centred. */
function groupOf(run: readonly ArrowMark[], placer: Placer, ctx: LabelContext): GroupMark {
  const first = mainSegment(run[0]!);
  const dir: 1 | -1 = first.x2 >= first.x1 ? 1 : -1;
  const from = first.x1;
  let [y0, y1, xa, xb, t0, t1] = [Infinity, -Infinity, Infinity, -Infinity, Infinity, -Infinity];
  for (const a of run) {
    const s = mainSegment(a);
    y0 = Math.min(y0, s.y1, s.y2);
    y1 = Math.max(y1, s.y1, s.y2);
    xa = Math.min(xa, s.x1, s.x2);
    xb = Math.max(xb, s.x1, s.x2);
    t0 = Math.min(t0, a.t0);
    t1 = Math.max(t1, a.t1);
  }
  // A thinned view's arrow stands for the frames of its hop, kind and pixel row: count them.
  const count = (pick: (a: ArrowMark) => boolean) => run.reduce((n, a) => n + (pick(a) ? a.stands : 0), 0);
  const total = count(() => true);
  const resent = count((a) => !!a.retx);
  const lost = count((a) => !!a.drop);
  // A label is made from the packet list's row: a run of a hundred thousand frames at Fit
  // is summed up from its first few frames and its last rather than made to build every
  // row (a few: on an Ethernet link the run opens with an ARP frame, whose label has none
  // of the fields the summary ranges over).
  const labelled = run.length > SUMMARY_LIMIT ? [...run.slice(0, 3), run[run.length - 1]!] : run;
  const { head, whole } = groupWording(total, resent, lost, labelled.map(ctx.label));
  const room = Math.min(ctx.plot.w, Math.max(xb - xa, 24 * ctx.text.charPx));
  const texts = distinct([fitWords(whole, room, ctx.text.charPx, 2), head]);
  const g: GroupMark = {
    t0,
    t1,
    count: total,
    resent,
    lost,
    ids: run.map((a) => a.id),
    x: from - dir * BRACKET_OFF,
    // a burst within a pixel still gets a bracket one can see (and click)
    y0: Math.min(y0, y1 - BRACKET_END),
    y1,
    dir,
    label: null,
  };
  placer.place({ candidates: () => groupCandidates(texts, { dir, from, xa, xb, y0, y1 }, ctx), set: (b) => (g.label = b) }, true);
  return g;
}

function* groupCandidates(
  texts: readonly string[],
  g: { dir: 1 | -1; from: number; xa: number; xb: number; y0: number; y1: number },
  ctx: LabelContext,
): Generator<TextBox> {
  const { text, plot } = ctx;
  const h = boxHeight(text.px);
  const mid = (g.y0 + g.y1) / 2 - h / 2;
  // The middle row, a row above and below it, then further off within the run, by half
  // rows (a long run's label looks for a gap between the crosses on its arrows).
  const rows = [mid, mid - h, mid + h];
  const step = h / 2;
  for (let k = 1; mid - k * step >= g.y0 - h / 2 || mid + k * step <= g.y1 - h / 2; k++) {
    if (mid - k * step >= g.y0 - h / 2) rows.push(mid - k * step);
    if (mid + k * step <= g.y1 - h / 2) rows.push(mid + k * step);
  }
  for (const t of texts) {
    const b = textBox('group', t, text.px, text.charPx, 0, 0);
    const beside = g.dir > 0 ? g.from + BRACKET_END : g.from - BRACKET_END - b.w;
    const far = g.dir > 0 ? g.xb - BRACKET_END - b.w : g.xa + BRACKET_END;
    const xs = [beside, (g.xa + g.xb) / 2 - b.w / 2, far].map((x) => Math.max(plot.x, Math.min(plot.x + plot.w - b.w, x)));
    for (const y of rows) for (const x of xs) yield moveBox(b, x, y);
  }
}

/** Every text the SVG draws for the scene (the cursor's label aside). */
export function sceneTexts(s: Pick<Scene, 'header' | 'ticks' | 'arrows' | 'timers' | 'groups'>): TextBox[] {
  const out = [...s.header, ...s.ticks.map((t) => t.label)];
  // drops alike close together share one reason
  const reasons = new Set<TextBox>();
  for (const a of s.arrows) {
    if (a.label) out.push(a.label);
    if (a.reason && !reasons.has(a.reason)) out.push(a.reason);
    if (a.reason) reasons.add(a.reason);
  }
  for (const t of s.timers) if (t.label) out.push(t.label);
  for (const g of s.groups) if (g.label) out.push(g.label);
  return out;
}

/** The cursor line's label, drawn often during playback: at the right end above the line,
 *  else below it, else at the left end; null when every spot would cover another text. */
export function cursorLabel(scene: Scene, y: number): TextBox | null {
  const { text } = scene;
  const b = textBox('cursor', 'cursor', text.px, text.charPx, 0, 0);
  const plot = { x: scene.axisW, y: scene.headerH, w: scene.width - scene.axisW, h: scene.height - scene.headerH };
  const xs = [plot.x + plot.w - b.w - 2, plot.x + 2];
  for (const x of xs) {
    for (const top of [y - b.h - 1, y + 1]) {
      const c = moveBox(b, x, top);
      if (inside(c, plot) && !scene.texts.some((o) => intersects(c, o))) return c;
    }
  }
  return null;
}
