// What both graphs share: the layers of the <svg> (made once), the plot area's clip, the
// axes, the legend and the cursor line. The graphs draw their series into `.gr-plot`.
import * as d3 from 'd3';
import { GRAPH_CSS } from './graph_style.ts';
import { secondsTickFormat } from './time_axis.ts';

export type Svg = d3.Selection<SVGSVGElement, unknown, null, undefined>;

export const MARGIN = { left: 62, right: 58, top: 22, bottom: 22 };

export interface GraphSize {
  width: number;
  height: number;
}

export function ensureGraphLayers(el: SVGSVGElement, clipId: string): Svg {
  const svg = d3.select(el);
  if (svg.select('g.gr-root').empty()) {
    svg.append('style').text(GRAPH_CSS);
    svg.append('defs').append('clipPath').attr('id', clipId).append('rect');
    const root = svg.append('g').attr('class', 'gr-root');
    root.append('rect').attr('class', 'gr-bg');
    root.append('g').attr('class', 'gr-grid');
    root.append('g').attr('class', 'gr-plot').attr('clip-path', `url(#${clipId})`);
    root.append('g').attr('class', 'gr-axis gr-x');
    root.append('g').attr('class', 'gr-axis gr-y');
    root.append('g').attr('class', 'gr-axis gr-y2');
    root.append('g').attr('class', 'gr-labels');
    root.append('g').attr('class', 'gr-legend');
    root.append('g').attr('class', 'gr-cursor-layer no-export');
  }
  return svg;
}

export function plot(svg: Svg): d3.Selection<SVGGElement, unknown, null, undefined> {
  return svg.select<SVGGElement>('g.gr-plot');
}

/** Size, background, clip and axes. `yRight` is optional (the state graph's seconds). */
export function drawAxes(
  svg: Svg,
  size: GraphSize,
  x: d3.ScaleLinear<number, number>,
  yLeft: d3.ScaleLinear<number, number>,
  leftLabel: string,
  yRight?: { scale: d3.ScaleLinear<number, number>; label: string; format: (v: d3.NumberValue) => string },
): void {
  const { width: w, height: h } = size;
  svg.attr('width', w).attr('height', h).attr('viewBox', `0 0 ${w} ${h}`);
  svg.select('rect.gr-bg').attr('width', w).attr('height', h);
  svg.select('clipPath rect').attr('x', MARGIN.left).attr('y', MARGIN.top).attr('width', Math.max(0, w - MARGIN.left - MARGIN.right)).attr('height', Math.max(0, h - MARGIN.top - MARGIN.bottom));
  const xt = Math.max(2, Math.floor((w - MARGIN.left - MARGIN.right) / 90));
  const yt = Math.max(2, Math.floor((h - MARGIN.top - MARGIN.bottom) / 30));
  svg.select<SVGGElement>('g.gr-x').attr('transform', `translate(0,${h - MARGIN.bottom})`).call(d3.axisBottom(x).ticks(xt).tickFormat(secondsTickFormat(x.ticks(xt))));
  svg.select<SVGGElement>('g.gr-y').attr('transform', `translate(${MARGIN.left},0)`).call(d3.axisLeft(yLeft).ticks(yt, '~s'));
  svg.select<SVGGElement>('g.gr-grid').attr('transform', `translate(${MARGIN.left},0)`).call(d3.axisLeft(yLeft).ticks(yt).tickSize(-(w - MARGIN.left - MARGIN.right)).tickFormat(() => ''));
  const y2 = svg.select<SVGGElement>('g.gr-y2').attr('transform', `translate(${w - MARGIN.right},0)`);
  if (yRight) y2.attr('display', null).call(d3.axisRight(yRight.scale).ticks(yt).tickFormat(yRight.format));
  else y2.attr('display', 'none');
  // Axis names along the axes (the legend has the top row), the time unit under the x axis.
  const mid = (MARGIN.top + h - MARGIN.bottom) / 2;
  const labels = [
    { text: leftLabel, at: `translate(12,${mid}) rotate(-90)` },
    { text: 's', at: `translate(${w - MARGIN.right + 10},${h - 6})` },
    ...(yRight ? [{ text: yRight.label, at: `translate(${w - 8},${mid}) rotate(90)` }] : []),
  ];
  svg.select('g.gr-labels')
    .selectAll('text')
    .data(labels)
    .join('text')
    .attr('class', 'gr-axis-label')
    .attr('text-anchor', 'middle')
    .attr('transform', (d) => d.at)
    .text((d) => d.text);
}

export interface LegendItem {
  label: string;
  cls: string;
}

export function drawLegend(svg: Svg, items: readonly LegendItem[]): void {
  let x = MARGIN.left + 6;
  const g = svg
    .select('g.gr-legend')
    .selectAll<SVGGElement, LegendItem>('g')
    .data(items, (d) => d.label)
    .join((e) => {
      const n = e.append('g');
      n.append('line');
      n.append('text');
      return n;
    });
  g.each(function (d) {
    const item = d3.select(this);
    item.attr('transform', `translate(${x},12)`);
    item.select('line').attr('class', d.cls).attr('x1', 0).attr('x2', 14).attr('y1', -3).attr('y2', -3);
    item.select('text').attr('x', 18).attr('y', 0).text(d.label);
    x += 18 + d.label.length * 6.1 + 14;
  });
}

export function drawGraphCursor(svg: Svg, size: GraphSize, px: number): void {
  const inside = px >= MARGIN.left && px <= size.width - MARGIN.right;
  svg.select('g.gr-cursor-layer')
    .selectAll('line')
    .data(inside ? [px] : [])
    .join('line')
    .attr('class', 'gr-cursor')
    .attr('x1', (d) => d)
    .attr('x2', (d) => d)
    .attr('y1', MARGIN.top)
    .attr('y2', size.height - MARGIN.bottom);
}

/** A note in the middle of the plot ("no state: the sender is a real device"). */
export function drawNote(svg: Svg, size: GraphSize, text: string | null): void {
  svg.select('g.gr-plot')
    .selectAll('text.gr-note')
    .data(text ? [text] : [])
    .join('text')
    .attr('class', 'gr-note')
    .attr('x', size.width / 2)
    .attr('y', size.height / 2)
    .attr('text-anchor', 'middle')
    .text((d) => d);
}
