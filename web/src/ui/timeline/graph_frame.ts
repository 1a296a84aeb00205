// What both graphs share: the layers of the <svg> (made once), the plot area's clip, the
// axes, the legend, and the cursor line in a layer of its own. The graphs draw their series into `.gr-plot`; the
// placing of text (margins, tick counts, legend rows) is worked out in graph_layout.ts and
// graph_ticks.ts from the text size.
import * as d3 from '../common/d3.ts';
import {
  axisName,
  lineHeight,
  labelRoom,
  plotHeight,
  plotWidth,
  SWATCH_GAP_PX,
  SWATCH_PX,
  textWidth,
  TICK_PX,
  type GraphFrame,
  type LegendLayout,
  type PlacedItem,
} from './graph_layout.ts';
import { graphCss } from './graph_style.ts';
import { fitTicks, type Ticks } from './graph_ticks.ts';
import type { DrawingText } from './text_size.ts';
import { secondsTickFormat } from './time_axis.ts';

export type Svg = d3.Selection<SVGSVGElement, unknown, null, undefined>;

export function ensureGraphLayers(el: SVGSVGElement, clipId: string, text: DrawingText): Svg {
  const svg = d3.select(el);
  if (svg.select('g.gr-root').empty()) {
    svg.append('style');
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
    root.append('g').attr('class', 'gr-notes');
  }
  const css = graphCss(text);
  const style = svg.select('style');
  if (style.text() !== css) style.text(css);
  return svg;
}

export function plot(svg: Svg): d3.Selection<SVGGElement, unknown, null, undefined> {
  return svg.select<SVGGElement>('g.gr-plot');
}

/** A value axis: its scale, its names (longest first: the first that fits is shown) and
 *  the tick format for a tick count. */
export interface ValueAxis {
  scale: d3.ScaleLinear<number, number>;
  names: readonly string[];
  format: (count: number) => (v: d3.NumberValue) => string;
}

/** Size, background, clip and axes. `right` is optional (the state graph's seconds). */
export function drawAxes(svg: Svg, f: GraphFrame, x: d3.ScaleLinear<number, number>, left: ValueAxis, right?: ValueAxis): void {
  const { width: w, height: h, margin: m, text } = f;
  svg.attr('width', w).attr('height', h).attr('viewBox', `0 0 ${w} ${h}`);
  svg.select('rect.gr-bg').attr('width', w).attr('height', h);
  svg.select('clipPath rect').attr('x', m.left).attr('y', m.top).attr('width', plotWidth(f)).attr('height', plotHeight(f));
  // Without labels, the ticks still fall where the graph below labels them.
  const xt = timeTicks(f, x);
  const xFormat = f.timeLabels ? xt.format : () => '';
  const yt = valueTicks(f, left, 'left');
  svg
    .select<SVGGElement>('g.gr-x')
    .attr('transform', `translate(0,${h - m.bottom})`)
    .call(d3.axisBottom(x).tickValues(xt.values).tickFormat(xFormat));
  svg.select<SVGGElement>('g.gr-y').attr('transform', `translate(${m.left},0)`).call(d3.axisLeft(left.scale).tickValues(yt.values).tickFormat(yt.format));
  svg
    .select<SVGGElement>('g.gr-grid')
    .attr('transform', `translate(${m.left},0)`)
    .call(
      d3
        .axisLeft(left.scale)
        .tickValues(yt.values)
        .tickSize(-plotWidth(f))
        .tickFormat(() => ''),
    );
  const y2 = svg.select<SVGGElement>('g.gr-y2').attr('transform', `translate(${w - m.right},0)`);
  if (right) {
    const rt = valueTicks(f, right, 'right');
    y2.attr('display', null).call(d3.axisRight(right.scale).tickValues(rt.values).tickFormat(rt.format));
  } else y2.attr('display', 'none');
  // Axis names turned along the side axes (the legend has the top row), in the margin's
  // outer line; the time unit at the right end of the time labels.
  const mid = (m.top + h - m.bottom) / 2;
  const edge = lineHeight(text) * 0.8;
  const labels = [
    { text: axisName(text, left.names, plotHeight(f)), at: `translate(${edge},${mid}) rotate(-90)`, anchor: 'middle' },
    ...(f.timeLabels ? [{ text: 's', at: `translate(${w - 2},${h - m.bottom + TICK_PX + text.px * 0.71})`, anchor: 'end' }] : []),
    ...(right ? [{ text: axisName(text, right.names, plotHeight(f)), at: `translate(${w - edge},${mid}) rotate(90)`, anchor: 'middle' }] : []),
  ];
  svg
    .select('g.gr-labels')
    .selectAll('text')
    .data(labels)
    .join('text')
    .attr('class', 'gr-axis-label')
    .attr('text-anchor', (d) => d.anchor)
    .attr('transform', (d) => d.at)
    .text((d) => d.text);
}

/** Time labels that fit between the graph's left edge and the unit "s" at its right. */
function timeTicks(f: GraphFrame, x: d3.ScaleLinear<number, number>): Ticks {
  const { text } = f;
  const gap = text.charPx * 1.5;
  const most = plotWidth(f) / (4 * text.charPx + gap);
  return fitTicks(
    x,
    most,
    (n) => secondsTickFormat(x.ticks(n)),
    (l) => ({ along: textWidth(text, l), across: text.px }),
    {
      lo: 0,
      hi: f.width - 2 - textWidth(text, 's') - gap,
      gap,
      across: Infinity,
    },
  );
}

/** Value labels one line apart at least, as wide as the side margin holds. */
function valueTicks(f: GraphFrame, axis: ValueAxis, side: 'left' | 'right'): Ticks {
  const { text } = f;
  const gap = text.px * 0.25;
  const most = plotHeight(f) / (text.px + gap) + 1;
  return fitTicks(axis.scale, most, axis.format, (l) => ({ along: text.px, across: textWidth(text, l) }), {
    lo: 0,
    hi: f.height,
    gap,
    across: labelRoom(text)[side],
  });
}

export function drawLegend(svg: Svg, f: GraphFrame, layout: LegendLayout): void {
  const line = lineHeight(f.text);
  // The first baseline sits so the row's capitals clear the top edge by 2 px.
  const baseline = (row: number) => 2 + f.text.px * 0.8 + row * line;
  const g = svg
    .select('g.gr-legend')
    .selectAll<SVGGElement, PlacedItem>('g')
    .data(layout.items, (d) => d.cls)
    .join((e) => {
      const n = e.append('g');
      n.append('line');
      n.append('text');
      return n;
    });
  g.attr('transform', (d) => `translate(${d.x},${baseline(d.row)})`);
  g.select('line')
    .attr('class', (d) => d.cls)
    .attr('x1', 0)
    .attr('x2', SWATCH_PX)
    .attr('y1', -f.text.px * 0.3)
    .attr('y2', -f.text.px * 0.3);
  g.select('text')
    .attr('x', SWATCH_PX + SWATCH_GAP_PX)
    .attr('y', 0)
    .text((d) => d.label);
}

/** The cursor line across the plot area of `graph` (its clip's rectangle), or none outside
 *  it (or none at all: px null), drawn into `layer`: an <svg> of its own over the graph, so
 *  that Play, which moves only the cursor, repaints none of the plot under it. */
export function drawGraphCursor(graph: SVGSVGElement, layer: SVGSVGElement, px: number | null): void {
  // the plot's clip: none yet (or any more) when the graph has nothing to draw
  const r = graph.querySelector('clipPath rect');
  const [x, y, w, h] = ['x', 'y', 'width', 'height'].map((a) => Number(r?.getAttribute(a)));
  const inside = r !== null && px !== null && px >= x! && px <= x! + w!;
  d3.select(layer)
    .selectAll('line')
    .data(inside ? [px] : [])
    .join('line')
    .attr('class', 'gr-cursor')
    .attr('x1', (d) => d)
    .attr('x2', (d) => d)
    .attr('y1', y!)
    .attr('y2', y! + h!);
}

/** A note in the middle of the plot ("no state: the sender is a real device"). Not in
 *  `.gr-plot`: it is no data, and hiding the future does not cut it. */
export function drawNote(svg: Svg, f: GraphFrame, note: string | null): void {
  svg
    .select('g.gr-notes')
    .selectAll('text.gr-note')
    .data(note ? [note] : [])
    .join('text')
    .attr('class', 'gr-note')
    .attr('x', (f.margin.left + f.width - f.margin.right) / 2)
    .attr('y', (f.margin.top + f.height - f.margin.bottom) / 2)
    .attr('text-anchor', 'middle')
    .text((d) => d);
}
