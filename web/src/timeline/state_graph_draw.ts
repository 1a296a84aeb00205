// Draws the sender's state over time: cwnd and ssthresh on the bytes axis (left), RTO and
// srtt on the seconds axis (right), the RTO each time the timer was armed (backoff
// included) as dots. An "infinite" ssthresh runs along the top, marked ∞, rather than
// flattening everything else.
import * as d3 from 'd3';
import { drawAxes, drawLegend, drawNote, MARGIN, plot, type GraphSize, type Svg } from './graph_frame.ts';
import { bytesTop, clampBytes, timeTop, type StateSeries } from './state_series.ts';
import { stepsInView, type TV } from './steps.ts';
import { secondsTickFormat } from './time_axis.ts';
import { INFINITE } from './time_format.ts';

export function drawStateGraph(svg: Svg, s: StateSeries | null, size: GraphSize, x: d3.ScaleLinear<number, number>, tEnd: number, senderName: string): void {
  const [t0, t1] = x.domain() as [number, number];
  const bTop = s ? bytesTop(s) : 1;
  const yb = d3.scaleLinear().domain([0, bTop]).range([size.height - MARGIN.bottom, MARGIN.top]);
  const ys = d3.scaleLinear().domain([0, s ? timeTop(s) : 1e6]).range([size.height - MARGIN.bottom, MARGIN.top]);
  const ticks = Math.max(2, Math.floor((size.height - MARGIN.top - MARGIN.bottom) / 30));
  drawAxes(svg, size, x, yb, 'bytes', { scale: ys, label: 'seconds', format: secondsTickFormat(ys.ticks(ticks)) });
  drawLegend(svg, [
    { label: `cwnd (${senderName})`, cls: 'gr-cwnd' },
    { label: 'ssthresh', cls: 'gr-ssthresh' },
    { label: 'RTO', cls: 'gr-rto' },
    { label: 'srtt', cls: 'gr-srtt' },
  ]);
  drawNote(svg, size, s ? null : `no stack state: ${senderName} is not simulated`);
  const p = plot(svg);
  const bytes = d3.line<TV>().x((q) => x(q.t)).y((q) => yb(clampBytes(q.v, bTop))).curve(d3.curveStepAfter);
  const secs = d3.line<TV>().x((q) => x(q.t)).y((q) => ys(q.v)).curve(d3.curveStepAfter);
  const view = (pts: readonly TV[]) => (s ? stepsInView(pts, t0, t1, tEnd) : []);
  const ss = view(s?.ssthresh ?? []);
  const paths = [
    { cls: 'gr-ssthresh', d: bytes(ss) ?? '' },
    { cls: 'gr-cwnd', d: bytes(view(s?.cwnd ?? [])) ?? '' },
    { cls: 'gr-rto', d: secs(view(s?.rto ?? [])) ?? '' },
    { cls: 'gr-srtt', d: secs(view(s?.srtt ?? [])) ?? '' },
  ];
  p.selectAll<SVGPathElement, (typeof paths)[number]>('path')
    .data(paths, (d) => d.cls)
    .join('path')
    .attr('class', (d) => d.cls)
    .attr('d', (d) => d.d);
  const armed = (s?.rtoArmed ?? []).filter((q) => q.t >= t0 && q.t <= t1);
  p.selectAll<SVGCircleElement, TV>('circle.gr-rto-armed')
    .data(armed.length <= 2000 ? armed : [])
    .join((e) => {
      const c = e.append('circle').attr('class', 'gr-rto-armed').attr('r', 2.2);
      c.append('title');
      return c;
    })
    .attr('cx', (q) => x(q.t))
    .attr('cy', (q) => ys(q.v))
    .select('title')
    .text((q) => `RTO armed with ${(q.v / 1e6).toFixed(3)} s`);
  // ∞ where the infinite ssthresh starts (or where the view starts, if it started before).
  const inf = ss.length && ss[0]!.v === INFINITE ? [{ t: Math.max(ss[0]!.t, t0) }] : [];
  p.selectAll<SVGTextElement, { t: number }>('text.gr-inf')
    .data(inf)
    .join('text')
    .attr('class', 'gr-inf')
    .attr('x', (q) => x(q.t) + 3)
    .attr('y', MARGIN.top + 10)
    .text('ssthresh ∞');
}
