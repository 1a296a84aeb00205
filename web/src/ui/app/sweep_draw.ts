// One replay sweep drawn with D3 into an <svg> React owns: the swept value on x (log when
// the sweep says so), the rows' figure on y from 0; per series our values as a line of
// dots and the seed's values as hollow squares of the same colour, so the paper's points
// are told from ours by shape as well as by legend; where a point is the mean of several
// runs (a size-mix sweep's seeds), each run's value as a small dot beside it, and the y axis
// goes below 0 when a value does. Each mark's title gives its figures.
import * as d3 from '../common/d3.ts';
import { sig4 } from '../../core/replay/number_text.ts';
import type { Sweep } from '../../core/replay/sweeps.ts';

/** Series colours, readable on the light and the dark background. */
export const SWEEP_COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#e377c2', '#8c564b', '#17becf', '#bcbd22'];

const MARGIN = { top: 8, right: 22, bottom: 32, left: 46 };

type Mark = { series: number; x: number; y: number; title: string };

function marks(sw: Sweep, side: 'seed' | 'simulated'): Mark[] {
  return sw.series.flatMap((s, i) =>
    s.points.flatMap((p) => {
      const y = p[side];
      if (y === null) return [];
      const whose = side === 'seed' ? 'paper' : 'ours';
      return [{ series: i, x: p.x, y, title: `${p.row}: ${whose} ${sig4(y)} ${sw.unit} (paper ${sig4(p.seed)}, ours ${sig4(p.simulated)}; ${p.standing})` }];
    }),
  );
}

/** Every value a point is the mean of (a size-mix sweep's seeds), as small dots. */
function eachMarks(sw: Sweep): Mark[] {
  return sw.series.flatMap((s, i) =>
    s.points.flatMap((p) =>
      (p.each ?? []).map((v, k) => ({ series: i, x: p.x, y: v, title: `${p.row}, sequence ${k + 1} of ${p.each!.length}: ${sig4(v)} ${sw.unit}` })),
    ),
  );
}

export function drawSweep(el: SVGSVGElement, sw: Sweep, width: number, height: number): void {
  const svg = d3.select(el).attr('width', width).attr('height', height).attr('viewBox', `0 0 ${width} ${height}`);
  svg.selectAll('*').remove();
  const ours = marks(sw, 'simulated');
  const seed = marks(sw, 'seed');
  const xs = sw.series.flatMap((s) => s.points.map((p) => p.x));
  const [x0, x1] = d3.extent(xs) as [number, number];
  const x = (sw.x_log ? d3.scaleLog() : d3.scaleLinear()).domain([x0, x1]).range([MARGIN.left, width - MARGIN.right]);
  const spread = eachMarks(sw);
  const all = [...ours, ...seed, ...spread];
  const yMax = d3.max(all, (m) => m.y) ?? 1;
  // From 0, or below it where a value is negative (a gain that is a loss).
  const yMin = Math.min(0, d3.min(all, (m) => m.y) ?? 0);
  const y = d3
    .scaleLinear()
    .domain([yMin * 1.08, yMax * 1.08])
    .nice()
    .range([height - MARGIN.bottom, MARGIN.top]);
  const tickValues = [...new Set(xs)].sort((a, b) => a - b);
  svg
    .append('g')
    .attr('class', 'sweep-axis')
    .attr('transform', `translate(0,${height - MARGIN.bottom})`)
    .call(
      d3
        .axisBottom(x)
        .tickValues(tickValues)
        .tickFormat((v) => sig4(+v)),
    );
  svg.append('g').attr('class', 'sweep-axis').attr('transform', `translate(${MARGIN.left},0)`).call(d3.axisLeft(y).ticks(5));
  svg
    .append('text')
    .attr('class', 'sweep-axis-name')
    .attr('x', (MARGIN.left + width - MARGIN.right) / 2)
    .attr('y', height - 4)
    .attr('text-anchor', 'middle')
    .text(sw.x_label);
  const line = d3
    .line<Mark>()
    .x((m) => x(m.x))
    .y((m) => y(m.y));
  sw.series.forEach((_, i) => {
    const pts = ours.filter((m) => m.series === i).sort((a, b) => a.x - b.x);
    svg
      .append('path')
      .attr('class', 'sweep-line')
      .attr('d', line(pts))
      .attr('stroke', SWEEP_COLOURS[i % SWEEP_COLOURS.length]!);
  });
  svg
    .append('g')
    .selectAll('circle')
    .data(spread)
    .join('circle')
    .attr('class', 'sweep-each')
    .attr('cx', (m) => x(m.x))
    .attr('cy', (m) => y(m.y))
    .attr('r', 2)
    .attr('fill', (m) => SWEEP_COLOURS[m.series % SWEEP_COLOURS.length]!)
    .append('title')
    .text((m) => m.title);
  svg
    .append('g')
    .selectAll('circle')
    .data(ours)
    .join('circle')
    .attr('class', 'sweep-ours')
    .attr('cx', (m) => x(m.x))
    .attr('cy', (m) => y(m.y))
    .attr('r', 3.5)
    .attr('fill', (m) => SWEEP_COLOURS[m.series % SWEEP_COLOURS.length]!)
    .append('title')
    .text((m) => m.title);
  svg
    .append('g')
    .selectAll('rect')
    .data(seed)
    .join('rect')
    .attr('class', 'sweep-seed')
    .attr('x', (m) => x(m.x) - 4.5)
    .attr('y', (m) => y(m.y) - 4.5)
    .attr('width', 9)
    .attr('height', 9)
    .attr('stroke', (m) => SWEEP_COLOURS[m.series % SWEEP_COLOURS.length]!)
    .append('title')
    .text((m) => m.title);
}
