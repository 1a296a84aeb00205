// Draws the tcptrace time-sequence graph: data segments as I-beams from seq to seq + len
// (retransmissions in the Bad TCP colour with an "R"), the ACK stairs and the window stairs.
// The sequence axis fits what is in the time window, so zooming in on time zooms in on
// sequence numbers too, as tcptrace does. Segments go into one path per colour: a long
// transfer's thousands of bars cost two DOM nodes.
import * as d3 from 'd3';
import { drawAxes, drawLegend, MARGIN, plot, type GraphSize, type Svg } from './graph_frame.ts';
import { lowerBound, upperBound } from './interval_index.ts';
import { seqExtent, type SeqSegment, type SeqSeries } from './seq_series.ts';
import { stepsInView } from './steps.ts';

/** Above this many retransmissions in view, no "R" letters (the colour still tells). */
const R_LIMIT = 300;

export function visibleSegments(s: SeqSeries, t0: number, t1: number): SeqSegment[] {
  const times = s.segments.map((g) => g.t);
  return s.segments.slice(lowerBound(times, t0), upperBound(times, t1));
}

export function seqYScale(s: SeqSeries, t0: number, t1: number, size: GraphSize): d3.ScaleLinear<number, number> {
  const { lo, hi } = seqExtent(s, t0, t1);
  const pad = Math.max(1, (hi - lo) * 0.05);
  return d3.scaleLinear().domain([Math.max(0, lo - pad), hi + pad]).range([size.height - MARGIN.bottom, MARGIN.top]);
}

function beams(segs: readonly SeqSegment[], x: (t: number) => number, y: (v: number) => number): string {
  let d = '';
  for (const g of segs) {
    const px = x(g.t);
    const a = y(g.seq);
    const b = y(g.end);
    d += `M${px},${a}V${b}M${px - 2},${a}h4M${px - 2},${b}h4`;
  }
  return d;
}

/** Draws the graph; returns the sequence scale it used (for hit tests). */
export function drawSeqGraph(svg: Svg, s: SeqSeries, size: GraphSize, x: d3.ScaleLinear<number, number>, selected: number | null): d3.ScaleLinear<number, number> {
  const [t0, t1] = x.domain() as [number, number];
  const y = seqYScale(s, t0, t1, size);
  drawAxes(svg, size, x, y, 'seq (relative)');
  drawLegend(svg, [
    { label: 'data', cls: 'gr-seg' },
    { label: 'retransmission (R)', cls: 'gr-seg retx' },
    { label: 'ACK', cls: 'gr-ack' },
    { label: seqExtent(s, t0, t1).windowClipped ? 'window (above)' : 'window', cls: 'gr-win' },
  ]);
  const segs = visibleSegments(s, t0, t1);
  const line = d3.line<{ t: number; v: number }>().x((p) => x(p.t)).y((p) => y(p.v)).curve(d3.curveStepAfter);
  const paths = [
    { cls: 'gr-win', d: line(stepsInView(s.windows, t0, t1, s.t1)) ?? '' },
    { cls: 'gr-ack', d: line(stepsInView(s.acks, t0, t1, s.t1)) ?? '' },
    { cls: 'gr-seg', d: beams(segs.filter((g) => !g.retx), x, y) },
    { cls: 'gr-seg retx', d: beams(segs.filter((g) => g.retx), x, y) },
    { cls: 'gr-seg selected', d: beams(segs.filter((g) => g.frameId === selected), x, y) },
  ];
  const p = plot(svg);
  p.selectAll<SVGPathElement, (typeof paths)[number]>('path')
    .data(paths, (d) => d.cls)
    .join('path')
    .attr('class', (d) => d.cls)
    .attr('d', (d) => d.d);
  const rs = segs.filter((g) => g.retx);
  p.selectAll<SVGTextElement, SeqSegment>('text.gr-r')
    .data(rs.length <= R_LIMIT ? rs : [], (d) => d.frameId)
    .join('text')
    .attr('class', 'gr-r')
    .attr('x', (d) => x(d.t))
    .attr('y', (d) => y(d.end) - 4)
    .text('R');
  return y;
}

/** The segment under the pointer: within `tol` px of its bar. */
export function segmentAt(s: SeqSeries, x: d3.ScaleLinear<number, number>, y: d3.ScaleLinear<number, number>, px: number, py: number, tol = 5): SeqSegment | null {
  const segs = visibleSegments(s, x.invert(px - tol), x.invert(px + tol));
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
