import { describe, expect, it } from 'vitest';
import {
  axisName,
  graphMargin,
  labelRoom,
  layoutLegend,
  legendItemWidth,
  lineHeight,
  ownTimeLabels,
  type LegendItem,
  type LegendLayout,
} from './graph_layout.ts';
import { NORMAL_TEXT, PRESENTER_TEXT, type DrawingText } from './text_size.ts';

const SEQ_LEGEND: LegendItem[] = [
  { label: 'data', cls: 'a' },
  { label: 'retransmission (R)', short: 'retx (R)', cls: 'b' },
  { label: 'ACK', cls: 'c' },
  { label: 'window (above)', short: 'window ↑', cls: 'd' },
];

/** Pairs of items on one row whose swatch and label run into the next one. */
function collisions(l: LegendLayout, text: DrawingText): string[] {
  const out: string[] = [];
  for (const a of l.items) {
    for (const b of l.items) {
      if (a === b || a.row !== b.row || b.x < a.x) continue;
      if (a.x + legendItemWidth(text, a.label) > b.x) out.push(`${a.label} / ${b.label}`);
    }
  }
  return out;
}

describe('graph layout', () => {
  it('margins grow with the text, and the side margins hold five and four label characters', () => {
    const n = graphMargin(NORMAL_TEXT);
    const p = graphMargin(PRESENTER_TEXT);
    for (const side of ['left', 'right', 'top', 'bottom'] as const) expect(p[side], side).toBeGreaterThan(n[side]);
    expect(p.left).toBeGreaterThanOrEqual(5 * PRESENTER_TEXT.charPx + 9 + PRESENTER_TEXT.px);
    expect(p.right).toBeGreaterThanOrEqual(4 * PRESENTER_TEXT.charPx + 9 + PRESENTER_TEXT.px);
    expect(labelRoom(PRESENTER_TEXT).left).toBeCloseTo(5 * 16 * 0.602);
    // the bottom holds the time labels below the 9 px of tick; a second legend row adds a line
    expect(p.bottom).toBeGreaterThanOrEqual(9 + 16);
    expect(graphMargin(PRESENTER_TEXT, 2).top - p.top).toBe(lineHeight(PRESENTER_TEXT));
    expect(graphMargin(PRESENTER_TEXT, 1, false).bottom).toBe(9);
  });

  it('a graph above gives its time labels to the one below only when its plot would be short', () => {
    // 1280x720 with Presenter on: each graph about 112 px tall
    expect(ownTimeLabels({ width: 575, height: 112 }, PRESENTER_TEXT, 1)).toBe(false);
    expect(ownTimeLabels({ width: 575, height: 123 }, NORMAL_TEXT, 1)).toBe(true);
    expect(ownTimeLabels({ width: 575, height: 300 }, PRESENTER_TEXT, 1)).toBe(true);
  });

  it('the legend keeps full labels on one row when they fit', () => {
    const l = layoutLegend(SEQ_LEGEND, NORMAL_TEXT, 64, 520);
    expect(l.rows).toBe(1);
    expect(l.items.map((i) => i.label)).toEqual(['data', 'retransmission (R)', 'ACK', 'window (above)']);
    expect(collisions(l, NORMAL_TEXT)).toEqual([]);
    const last = l.items.at(-1)!;
    expect(last.x + legendItemWidth(NORMAL_TEXT, last.label)).toBeLessThanOrEqual(520);
  });

  it('at presenter size on a projector pane it shortens the labels before it takes a second row', () => {
    // 575 px pane, presenter margins: the plot is about 425 px wide
    const m = graphMargin(PRESENTER_TEXT);
    const l = layoutLegend(SEQ_LEGEND, PRESENTER_TEXT, m.left + 6, 575 - m.right);
    expect(l.rows).toBe(1);
    expect(l.items.map((i) => i.label)).toEqual(['data', 'retx (R)', 'ACK', 'window ↑']);
    expect(collisions(l, PRESENTER_TEXT)).toEqual([]);
    const last = l.items.at(-1)!;
    expect(last.x + legendItemWidth(PRESENTER_TEXT, last.label)).toBeLessThanOrEqual(575 - m.right);
  });

  it('wraps to more rows when even the short labels do not fit, never overlapping', () => {
    const l = layoutLegend(SEQ_LEGEND, PRESENTER_TEXT, 80, 330);
    expect(l.rows).toBe(2);
    expect(l.items.map((i) => i.row)).toEqual([0, 0, 0, 1]);
    expect(collisions(l, PRESENTER_TEXT)).toEqual([]);
    for (const i of l.items) expect(i.x + legendItemWidth(PRESENTER_TEXT, i.label), i.label).toBeLessThanOrEqual(330);
  });

  it('an axis name shortens when the plot is shorter than it', () => {
    expect(axisName(PRESENTER_TEXT, ['seconds', 'sec'], 60)).toBe('sec');
    expect(axisName(NORMAL_TEXT, ['seconds', 'sec'], 60)).toBe('seconds');
    expect(axisName(PRESENTER_TEXT, ['seq (relative)', 'seq'], 10)).toBe('seq');
  });
});
