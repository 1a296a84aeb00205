// Draws the sender's state over time: cwnd and ssthresh on the bytes axis (left), RTO and
// srtt on the seconds axis (right), the RTO each time the timer was armed (backoff
// included) as dots. An "infinite" ssthresh runs along the top, marked ∞, rather than
// flattening everything else. With the future hidden, what stateInView hands over ends at
// the cursor, and no mark reaches past the cursor's pixel.
import * as d3 from '../common/d3.ts';
import { drawAxes, drawLegend, drawNote, plot, type Svg } from './graph_frame.ts';
import { graphFrame, graphMargin, layoutLegend, textWidth, type GraphSize } from './graph_layout.ts';
import { clampBytes, stateInView, type StateSeries, type StateView } from './state_series.ts';
import type { TV } from './steps.ts';
import type { DrawingText } from './text_size.ts';
import { secondsTickFormat } from './time_axis.ts';
import { INFINITE } from '../../core/run/time_format.ts';

const ARMED_R = 2.2;
/** Above this many timer arms in view, no dots (the RTO line still tells). */
const ARMED_LIMIT = 2000;
const INF_LABEL = 'ssthresh ∞';

/** Where the ∞ label goes: just right of `at` (where its line starts); when that would
 *  run past `hx` (the cursor, with the future hidden), ending at `hx`; when it would then
 *  start left of the plot (`lo`), nowhere yet: the dashed line along the top still shows. */
export function infLabelX(at: number, width: number, hx: number, lo: number): { x: number; anchor: 'start' | 'end' } | null {
  if (at + 3 + width <= hx) return { x: at + 3, anchor: 'start' };
  return hx - width >= lo ? { x: hx, anchor: 'end' } : null;
}

export function drawStateGraph(
  svg: Svg,
  s: StateSeries | null,
  size: GraphSize,
  text: DrawingText,
  x: d3.ScaleLinear<number, number>,
  tEnd: number,
  senderName: string,
  horizon: number,
): void {
  const [t0, t1] = x.domain() as [number, number];
  const v: StateView | null = s ? stateInView(s, t0, t1, tEnd, horizon) : null;
  const side = graphMargin(text);
  const items = layoutLegend(
    [
      { label: `cwnd (${senderName})`, short: 'cwnd', cls: 'gr-cwnd' },
      { label: 'ssthresh', cls: 'gr-ssthresh' },
      { label: 'RTO', cls: 'gr-rto' },
      { label: 'srtt', cls: 'gr-srtt' },
    ],
    text,
    side.left + 6,
    size.width - side.right,
  );
  const f = graphFrame(size, text, items.rows);
  const bTop = v?.bytesTop ?? 1;
  const yb = d3
    .scaleLinear()
    .domain([0, bTop])
    .range([f.height - f.margin.bottom, f.margin.top]);
  const ys = d3
    .scaleLinear()
    .domain([0, v?.timeTop ?? 1e6])
    .range([f.height - f.margin.bottom, f.margin.top]);
  drawAxes(
    svg,
    f,
    x,
    { scale: yb, names: ['bytes'], format: (n) => yb.tickFormat(n, '~s') },
    { scale: ys, names: ['seconds', 'sec'], format: (n) => secondsTickFormat(ys.ticks(n)) },
  );
  drawLegend(svg, f, items);
  drawNote(svg, f, s ? null : `no stack state: ${senderName} is not simulated`);
  const hx = Number.isFinite(horizon) ? x(horizon) : Infinity;
  const p = plot(svg);
  const bytes = d3
    .line<TV>()
    .x((q) => x(q.t))
    .y((q) => yb(clampBytes(q.v, bTop)))
    .curve(d3.curveStepAfter);
  const secs = d3
    .line<TV>()
    .x((q) => x(q.t))
    .y((q) => ys(q.v))
    .curve(d3.curveStepAfter);
  const paths = [
    { cls: 'gr-ssthresh', d: bytes(v?.ssthresh ?? []) ?? '' },
    { cls: 'gr-cwnd', d: bytes(v?.cwnd ?? []) ?? '' },
    { cls: 'gr-rto', d: secs(v?.rto ?? []) ?? '' },
    { cls: 'gr-srtt', d: secs(v?.srtt ?? []) ?? '' },
  ];
  p.selectAll<SVGPathElement, (typeof paths)[number]>('path')
    .data(paths, (d) => d.cls)
    .join('path')
    .attr('class', (d) => d.cls)
    .attr('d', (d) => d.d);
  const armed = v?.armed ?? [];
  p.selectAll<SVGCircleElement, TV>('circle.gr-rto-armed')
    .data(armed.length <= ARMED_LIMIT ? armed : [])
    .join((e) => {
      const c = e.append('circle').attr('class', 'gr-rto-armed').attr('r', ARMED_R);
      c.append('title');
      return c;
    })
    // A dot armed at the cursor's instant sits just left of it rather than across it.
    .attr('cx', (q) => Math.min(x(q.t), hx - ARMED_R))
    .attr('cy', (q) => ys(q.v))
    .select('title')
    .text((q) => `RTO armed with ${(q.v / 1e6).toFixed(3)} s`);
  // ∞ where the infinite ssthresh starts (or where the view starts, if it started before).
  const ss = v?.ssthresh ?? [];
  const infAt = ss.length && ss[0]!.v === INFINITE ? infLabelX(x(Math.max(ss[0]!.t, t0)), textWidth(text, INF_LABEL), hx, f.margin.left) : null;
  const inf = infAt ? [infAt] : [];
  p.selectAll<SVGTextElement, { x: number; anchor: string }>('text.gr-inf')
    .data(inf)
    .join('text')
    .attr('class', 'gr-inf')
    .attr('x', (q) => q.x)
    .attr('text-anchor', (q) => q.anchor)
    .attr('y', f.margin.top + text.px)
    .text(INF_LABEL);
}
