// Draws the tcptrace time-sequence graph: data segments as I-beams from seq to seq + len
// (retransmissions in the Bad TCP colour with an "R"), the ACK stairs and the window stairs.
// The sequence axis fits what is in the time window, so zooming in on time zooms in on
// sequence numbers too, as tcptrace does. Segments go into one path per colour: a long
// transfer's thousands of bars cost two DOM nodes. With the future hidden, what seqInView
// hands over ends at the cursor, and no mark reaches past the cursor's pixel.
import * as d3 from '../common/d3.ts';
import { drawAxes, drawLegend, plot, type Svg } from './graph_frame.ts';
import { beamsPerColumn, stairPerColumn } from './graph_lod.ts';
import { graphFrame, graphMargin, layoutLegend, ownTimeLabels, type GraphFrame, type GraphSize, type LegendItem } from './graph_layout.ts';
import { seqInView, type SeqExtent, type SeqSegment, type SeqSeries } from './seq_series.ts';
import { pointsIn } from './steps.ts';
import type { DrawingText } from './text_size.ts';

/** Above this many retransmissions in view, no "R" letters (the colour still tells). */
const R_LIMIT = 300;
/** Half the width of an I-beam's serifs. */
const SERIF_PX = 2;

/** The sequence scale: the extent with room above for an "R" over the highest bar. */
export function seqYScale(e: SeqExtent, f: GraphFrame): d3.ScaleLinear<number, number> {
  const top = f.margin.top + f.text.px + 2;
  const bottom = f.height - f.margin.bottom - 3;
  const span = Math.max(1, e.hi - e.lo);
  const perPx = span / Math.max(1, bottom - top);
  return d3
    .scaleLinear()
    .domain([Math.max(0, e.lo - perPx * 3), e.hi + perPx * (top - f.margin.top)])
    .range([f.height - f.margin.bottom, f.margin.top]);
}

/** I-beams; a serif never reaches right of `hx` (the cursor, with the future hidden). */
export function beams(segs: readonly SeqSegment[], x: (t: number) => number, y: (v: number) => number, hx: number): string {
  let d = '';
  for (const g of segs) {
    const px = x(g.t);
    const a = y(g.seq);
    const b = y(g.end);
    const right = Math.min(px + SERIF_PX, hx);
    d += `M${px},${a}V${b}M${px - SERIF_PX},${a}H${right}M${px - SERIF_PX},${b}H${right}`;
  }
  return d;
}

function legend(e: SeqExtent): LegendItem[] {
  return [
    { label: 'data', cls: 'gr-seg' },
    { label: 'retransmission (R)', short: 'retx (R)', cls: 'gr-seg retx' },
    { label: 'ACK', cls: 'gr-ack' },
    e.windowClipped ? { label: 'window (above)', short: 'window ↑', cls: 'gr-win' } : { label: 'window', cls: 'gr-win' },
  ];
}

/** Draws the graph of what is at or before `horizon` (Infinity: everything); returns the
 *  sequence scale it used (for hit tests). */
export function drawSeqGraph(
  svg: Svg,
  s: SeqSeries,
  size: GraphSize,
  text: DrawingText,
  x: d3.ScaleLinear<number, number>,
  selected: number | null,
  horizon: number,
): d3.ScaleLinear<number, number> {
  const [t0, t1] = x.domain() as [number, number];
  const view = seqInView(s, t0, t1, horizon);
  const side = graphMargin(text);
  const items = layoutLegend(legend(view.extent), text, side.left + 6, size.width - side.right);
  const f = graphFrame(size, text, items.rows, ownTimeLabels(size, text, items.rows));
  const y = seqYScale(view.extent, f);
  drawAxes(svg, f, x, { scale: y, names: ['seq (relative)', 'seq'], format: (n) => y.tickFormat(n, '~s') });
  drawLegend(svg, f, items);
  const hx = Number.isFinite(horizon) ? x(horizon) : Infinity;
  const segs = view.segments;
  const line = d3
    .line<{ t: number; v: number }>()
    .x((p) => x(p.t))
    .y((p) => y(p.v))
    .curve(d3.curveStepAfter);
  const paths = [
    // too many marks for their pixels are drawn per pixel column (graph_lod.ts)
    { cls: 'gr-win', d: line(stairPerColumn(view.windows, x)) ?? '' },
    { cls: 'gr-ack', d: line(stairPerColumn(view.acks, x)) ?? '' },
    {
      cls: 'gr-seg',
      d: beams(
        beamsPerColumn(
          segs.filter((g) => !g.retx),
          x,
        ),
        x,
        y,
        hx,
      ),
    },
    {
      cls: 'gr-seg retx',
      d: beams(
        beamsPerColumn(
          segs.filter((g) => g.retx),
          x,
        ),
        x,
        y,
        hx,
      ),
    },
    {
      cls: 'gr-seg selected',
      d: beams(
        segs.filter((g) => g.frameId === selected),
        x,
        y,
        hx,
      ),
    },
  ];
  const p = plot(svg);
  p.selectAll<SVGPathElement, (typeof paths)[number]>('path')
    .data(paths, (d) => d.cls)
    .join('path')
    .attr('class', (d) => d.cls)
    .attr('d', (d) => d.d);
  const rs = segs.filter((g) => g.retx);
  // Right-aligned, so that its right edge (centred on the bar for a monospace "R") can be
  // held at the cursor whatever the font's exact width.
  p.selectAll<SVGTextElement, SeqSegment>('text.gr-r')
    .data(rs.length <= R_LIMIT ? rs : [], (d) => d.frameId)
    .join('text')
    .attr('class', 'gr-r')
    .attr('text-anchor', 'end')
    .attr('x', (d) => Math.min(x(d.t) + text.charPx / 2, hx))
    .attr('y', (d) => y(d.end) - 3)
    .text('R');
  return y;
}

/** The segment under the pointer: within `tol` px of its bar, at or before `horizon`. */
export function segmentAt(
  s: SeqSeries,
  x: d3.ScaleLinear<number, number>,
  y: d3.ScaleLinear<number, number>,
  px: number,
  py: number,
  horizon: number,
  tol = 5,
): SeqSegment | null {
  const segs = pointsIn(s.segments, x.invert(px - tol), Math.min(x.invert(px + tol), horizon));
  let best: SeqSegment | null = null;
  let bestD = tol;
  for (const g of segs) {
    const top = Math.min(y(g.seq), y(g.end)) - tol;
    const bottom = Math.max(y(g.seq), y(g.end)) + tol;
    const d = Math.abs(x(g.t) - px);
    if (py >= top && py <= bottom && d <= bestD) {
      best = g;
      bestD = d;
    }
  }
  return best;
}
