import * as d3 from '../common/d3.ts';
import { describe, expect, it } from 'vitest';
import { fitTicks, type Ticks } from './graph_ticks.ts';
import { NORMAL_TEXT, PRESENTER_TEXT, type DrawingText } from './text_size.ts';
import { secondsTickFormat } from './time_axis.ts';

/** A time axis as the graphs draw it: labels side by side, one character and a half apart. */
function timeTicks(x: d3.ScaleLinear<number, number>, text: DrawingText, hi: number): Ticks {
  const gap = text.charPx * 1.5;
  return fitTicks(
    x,
    20,
    (n) => secondsTickFormat(x.ticks(n)),
    (l) => ({ along: l.length * text.charPx, across: text.px }),
    { lo: 0, hi, gap, across: Infinity },
  );
}

/** Space between neighbouring labels, in px (negative: they overlap). */
function spaces(x: d3.ScaleLinear<number, number>, t: Ticks, width: (l: string) => number): number[] {
  const s = t.values.map((v) => ({ p: x(v), w: width(t.format(v)) })).sort((a, b) => a.p - b.p);
  return s.slice(1).map((b, i) => b.p - b.w / 2 - (s[i]!.p + s[i]!.w / 2));
}

describe('ticks that fit their labels', () => {
  // The graphs at 1280x720: the plot from 80 to 505 px, 1.93 s of transfer in it.
  const x = d3.scaleLinear().domain([-0.04e6, 1.97e6]).range([80, 505]);

  it('presenter-size time labels never touch, and stay left of the unit at the right end', () => {
    const t = timeTicks(x, PRESENTER_TEXT, 560);
    expect(t.values.length).toBeGreaterThanOrEqual(3);
    expect(Math.min(...spaces(x, t, (l) => l.length * PRESENTER_TEXT.charPx))).toBeGreaterThanOrEqual(PRESENTER_TEXT.charPx * 1.5);
    for (const v of t.values) expect(x(v) + (t.format(v).length * PRESENTER_TEXT.charPx) / 2).toBeLessThanOrEqual(560);
  });

  it('larger text gets fewer ticks than d3 would give for the length alone', () => {
    const big = timeTicks(x, PRESENTER_TEXT, 560);
    const small = timeTicks(x, NORMAL_TEXT, 560);
    expect(big.values.length).toBeLessThan(small.values.length);
    // asking d3 for the count the old code asked (a tick per 90 px) collides at 16 px
    const naive = x.ticks(Math.floor(425 / 90) * 2);
    const f = secondsTickFormat(naive);
    const naiveSpaces = spaces(x, { values: naive, format: f }, (l) => l.length * PRESENTER_TEXT.charPx);
    expect(Math.min(...naiveSpaces)).toBeLessThan(PRESENTER_TEXT.charPx * 1.5);
  });

  it('a label that would stick out of the room is left out, not clipped', () => {
    const t = timeTicks(x, PRESENTER_TEXT, 490);
    for (const v of t.values) expect(x(v) + (t.format(v).length * PRESENTER_TEXT.charPx) / 2).toBeLessThanOrEqual(490);
  });

  it('value labels a line apart on a 60 px plot, no wider than the margin', () => {
    const y = d3.scaleLinear().domain([0, 1.08e6]).range([84, 24]);
    const text = PRESENTER_TEXT;
    const t = fitTicks(
      y,
      10,
      (n) => y.tickFormat(n, '~s'),
      (l) => ({ along: text.px, across: l.length * text.charPx }),
      { lo: 0, hi: 112, gap: 4, across: 5 * text.charPx },
    );
    expect(t.values.length).toBeGreaterThanOrEqual(2);
    const ps = t.values.map((v) => y(v)).sort((a, b) => a - b);
    for (let i = 1; i < ps.length; i++) expect(ps[i]! - ps[i - 1]!).toBeGreaterThanOrEqual(text.px + 4);
    for (const v of t.values) expect(t.format(v).length * text.charPx).toBeLessThanOrEqual(5 * text.charPx);
  });
});
