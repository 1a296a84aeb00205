// Where the graphs' text goes, derived from the size of that text (text_size.ts): the
// margins around the plot hold the tick labels and the axis names, the legend's row (or
// rows) sits above the plot. Presenter mode's larger text grows the margins, so nothing is
// clipped; all of it is measured with the monospace character width the graphs draw with.
import type { DrawingText } from './text_size.ts';

export interface Margin {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export interface GraphSize {
  width: number;
  height: number;
}

/** A graph's drawing area and the text it is drawn with. */
export interface GraphFrame extends GraphSize {
  margin: Margin;
  text: DrawingText;
  /** false: the time axis has its ticks but no labels (the graph below has them) */
  timeLabels: boolean;
}

/** d3's axes: a 6 px tick and 3 px between it and its label. */
export const TICK_PX = 9;
/** Tick labels the side margins hold: "1.5M", "40k" on the left, "0.25" (s) on the right. */
const LEFT_CHARS = 5;
const RIGHT_CHARS = 4;

export function lineHeight(text: DrawingText): number {
  return Math.ceil(text.px * 1.25);
}

/** The width of a label in the graphs' monospace text. */
export function textWidth(text: DrawingText, label: string): number {
  return label.length * text.charPx;
}

/** The label room of each side margin, in pixels. */
export function labelRoom(text: DrawingText): { left: number; right: number } {
  return { left: LEFT_CHARS * text.charPx, right: RIGHT_CHARS * text.charPx };
}

/** Side margins: tick labels, then an axis name turned along the axis. Both graphs share
 *  them, so their time axes line up. Top: the legend's rows; bottom: the time labels, or
 *  only the ticks when the graph leaves its time labels to the one below. */
export function graphMargin(text: DrawingText, legendRows = 1, timeLabels = true): Margin {
  const line = lineHeight(text);
  const room = labelRoom(text);
  return {
    left: Math.ceil(room.left + TICK_PX + line + 2),
    right: Math.ceil(room.right + TICK_PX + line + 2),
    top: legendRows * line + 4,
    bottom: timeLabels ? Math.ceil(TICK_PX + text.px * 1.1 + 1) : TICK_PX,
  };
}

/** A plot shorter than this many lines of text is hard to read from the back of a room. */
const FEW_LINES = 5;

/** Whether a graph above another (same time axis) keeps its own time labels: only when its
 *  plot stays tall enough with them (presenter text on a projector's short pane gives the
 *  line to the plot; the graph below has the same times). */
export function ownTimeLabels(size: GraphSize, text: DrawingText, legendRows: number): boolean {
  const m = graphMargin(text, legendRows);
  return size.height - m.top - m.bottom >= FEW_LINES * lineHeight(text);
}

export function graphFrame(size: GraphSize, text: DrawingText, legendRows: number, timeLabels = true): GraphFrame {
  return { ...size, margin: graphMargin(text, legendRows, timeLabels), text, timeLabels };
}

export function plotWidth(f: GraphFrame): number {
  return Math.max(0, f.width - f.margin.left - f.margin.right);
}

export function plotHeight(f: GraphFrame): number {
  return Math.max(0, f.height - f.margin.top - f.margin.bottom);
}

/** The first of an axis' names ("seq (relative)", "seq") that fits along the plot. */
export function axisName(text: DrawingText, names: readonly string[], room: number): string {
  return names.find((n) => textWidth(text, n) <= room) ?? names[names.length - 1] ?? '';
}

export interface LegendItem {
  label: string;
  /** what the legend says when the full labels do not fit on one row */
  short?: string;
  cls: string;
}

export interface PlacedItem {
  label: string;
  cls: string;
  /** left end of the swatch, and the row (0 at the top) */
  x: number;
  row: number;
}

export interface LegendLayout {
  items: PlacedItem[];
  rows: number;
}

/** The colour swatch before each label, and the space between swatch and label. */
export const SWATCH_PX = 14;
export const SWATCH_GAP_PX = 4;

/** Legend items side by side between x0 and x1: full labels on one row if they fit, else
 *  the short ones, else the short ones over as many rows as they need (each row costs the
 *  plot a line of height, so shortening comes first). */
export function layoutLegend(items: readonly LegendItem[], text: DrawingText, x0: number, x1: number): LegendLayout {
  const full = place(items, (i) => i.label, text, x0, x1);
  if (full.rows === 1) return full;
  return place(items, (i) => i.short ?? i.label, text, x0, x1);
}

function place(items: readonly LegendItem[], label: (i: LegendItem) => string, text: DrawingText, x0: number, x1: number): LegendLayout {
  const gap = text.charPx * 1.5;
  const out: PlacedItem[] = [];
  let x = x0;
  let row = 0;
  for (const item of items) {
    const l = label(item);
    const w = legendItemWidth(text, l);
    if (x > x0 && x + w > x1) {
      row += 1;
      x = x0;
    }
    out.push({ label: l, cls: item.cls, x, row });
    x += w + gap;
  }
  return { items: out, rows: row + 1 };
}

export function legendItemWidth(text: DrawingText, label: string): number {
  return SWATCH_PX + SWATCH_GAP_PX + textWidth(text, label);
}
