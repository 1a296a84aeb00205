import * as d3 from '../common/d3.ts';
import { describe, expect, it } from 'vitest';
import { graphFrame } from './graph_layout.ts';
import { beams, seqYScale } from './seq_graph_draw.ts';
import { infLabelX } from './state_graph_draw.ts';
import { PRESENTER_TEXT } from './text_size.ts';

/** Every x coordinate of an absolute M/V/H path. */
function xs(d: string): number[] {
  const out: number[] = [];
  let last = 0;
  for (const [, cmd, args] of d.matchAll(/([MVH])([^MVH]*)/g)) {
    const n = args!.split(',').map(Number);
    if (cmd === 'M') out.push((last = n[0]!));
    else if (cmd === 'H') out.push((last = n[0]!));
    else out.push(last);
  }
  return out;
}

describe('the marks stop at the cursor', () => {
  const seg = (t: number) => ({ t, seq: 1, end: 101, retx: false, frameId: t });
  const x = (t: number) => t;
  const y = (v: number) => 100 - v;

  it("an I-beam at the cursor's instant keeps its bar, its serifs end on the cursor", () => {
    const d = beams([seg(10), seg(50)], x, y, 50);
    expect(Math.max(...xs(d))).toBe(50);
    expect(xs(d)).toContain(48);
    // without a horizon the serifs are whole
    expect(Math.max(...xs(beams([seg(50)], x, y, Infinity)))).toBe(52);
  });

  it('the ∞ label starts after its line, or ends on the cursor when it would cross it, or waits for room', () => {
    expect(infLabelX(100, 96, 400, 80)).toEqual({ x: 103, anchor: 'start' });
    expect(infLabelX(100, 96, 180, 80)).toEqual({ x: 180, anchor: 'end' });
    // no room between the plot's left edge and the cursor: no label rather than half of one
    expect(infLabelX(100, 96, 150, 80)).toBeNull();
  });

  it('the sequence axis keeps room above the highest bar for its "R"', () => {
    const f = graphFrame({ width: 575, height: 112 }, PRESENTER_TEXT, 1);
    const s = seqYScale({ lo: 0, hi: 1000, windowClipped: false }, f);
    expect(s(1000) - f.margin.top).toBeGreaterThanOrEqual(PRESENTER_TEXT.px);
    expect(s(0)).toBeLessThanOrEqual(f.height - f.margin.bottom);
    expect(s.range()).toEqual([f.height - f.margin.bottom, f.margin.top]);
    expect(d3.max(s.domain())).toBeGreaterThan(1000);
  });
});
