// Draws a ladder scene into an <svg> with D3 joins: the layers are made once, marks are
// keyed by frame id so a zoom step only moves what is there. React owns the element; this
// module owns its contents.
import * as d3 from 'd3';
import type { Lifeline } from './lifelines.ts';
import { AXIS_W, HEADER_H, LABEL_CHAR_PX, type ArrowMark, type Scene, type TimerMark } from './ladder_scene.ts';
import { LADDER_CSS } from './ladder_style.ts';
import { secondsTickFormat } from './time_axis.ts';

type Svg = d3.Selection<SVGSVGElement, unknown, null, undefined>;
const LAYERS = ['ld-bg', 'ld-lanes', 'ld-timers', 'ld-arrows', 'ld-tags', 'ld-fade', 'ld-cursor-layer', 'ld-header', 'ld-axis'] as const;

/** Makes the layers once (style sheet first, then back to front). */
export function ensureLayers(el: SVGSVGElement): Svg {
  const svg = d3.select(el);
  if (svg.select('g.ld-root').empty()) {
    svg.append('style').text(LADDER_CSS);
    const root = svg.append('g').attr('class', 'ld-root');
    for (const l of LAYERS) {
      if (l === 'ld-bg') root.append('rect').attr('class', 'ld-bg');
      else if (l === 'ld-fade') root.append('rect').attr('class', 'ld-fade no-export');
      else root.append('g').attr('class', l);
    }
  }
  return svg;
}

export function drawFrame(svg: Svg, scene: Scene, lifelines: readonly Lifeline[], y: d3.ScaleLinear<number, number>): void {
  svg.attr('width', scene.width).attr('height', scene.height).attr('viewBox', `0 0 ${scene.width} ${scene.height}`);
  svg.select('rect.ld-bg').attr('width', scene.width).attr('height', scene.height);
  // Lifelines below the header, names in the header (which hides what scrolls under it).
  svg.select('g.ld-lanes')
    .selectAll('line')
    .data(lifelines, (d) => (d as Lifeline).key)
    .join('line')
    .attr('class', (d) => `ld-lifeline ${d.kind}`)
    .attr('x1', (_, i) => scene.laneX[i]!)
    .attr('x2', (_, i) => scene.laneX[i]!)
    .attr('y1', HEADER_H)
    .attr('y2', scene.height);
  const header = svg.select('g.ld-header');
  header.selectAll('rect').data([0]).join('rect').attr('class', 'ld-header-bg').attr('x', -1).attr('y', -1).attr('width', scene.width + 2).attr('height', HEADER_H);
  header
    .selectAll('text.ld-name')
    .data(lifelines, (d) => (d as Lifeline).key)
    .join('text')
    .attr('class', 'ld-name')
    .attr('x', (_, i) => scene.laneX[i]!)
    .attr('y', 15)
    .text((d) => d.label);
  header
    .selectAll('text.ld-detail')
    .data(lifelines, (d) => (d as Lifeline).key)
    .join('text')
    .attr('class', 'ld-detail')
    .attr('x', (_, i) => scene.laneX[i]!)
    .attr('y', 30)
    .text((d) => d.detail);
  const ticks = Math.max(2, Math.floor((scene.height - HEADER_H) / 50));
  const axis = d3.axisLeft(y).ticks(ticks).tickFormat(secondsTickFormat(y.ticks(ticks)));
  const g = svg.select<SVGGElement>('g.ld-axis').attr('transform', `translate(${AXIS_W},0)`);
  g.call(axis);
  // The axis must not draw over the header.
  g.selectAll<SVGGElement, number>('.tick').attr('display', (t) => (y(t) < HEADER_H + 4 ? 'none' : null));
}

export function drawTimers(svg: Svg, timers: readonly TimerMark[]): void {
  const key = (d: TimerMark) => `${d.bar.host}:${d.bar.armSeq}:${d.bar.kind}`;
  const g = svg
    .select('g.ld-timers')
    .selectAll<SVGGElement, TimerMark>('g.ld-timer-g')
    .data(timers, key)
    .join((enter) => {
      const e = enter.append('g').attr('class', 'ld-timer-g');
      e.append('rect');
      e.append('line');
      e.append('text').attr('class', 'ld-timer-label');
      e.append('title');
      return e;
    });
  g.attr('data-timer', (d) => d.bar.kind);
  g.select('rect')
    .attr('class', (d) => `ld-timer ${d.bar.kind}`)
    .attr('x', (d) => d.x)
    .attr('y', (d) => d.y0)
    .attr('width', (d) => d.width)
    .attr('height', (d) => Math.max(1, d.y1 - d.y0));
  g.select('line')
    .attr('class', (d) => `ld-timer-end ${d.bar.end}`)
    .attr('x1', (d) => d.x - 2)
    .attr('x2', (d) => d.x + d.width + 2)
    .attr('y1', (d) => d.y1)
    .attr('y2', (d) => d.y1);
  g.select<SVGTextElement>('text')
    .attr('x', (d) => d.label?.x ?? 0)
    .attr('y', (d) => d.label?.y ?? 0)
    .attr('text-anchor', (d) => d.label?.anchor ?? 'start')
    .text((d) => d.label?.text ?? '');
  g.select('title').text((d) =>
    d.runs > 1 ? `${d.bar.kind === 'rto' ? 'RTO' : 'delayed ACK'} timer, armed ${d.runs} times (zoom in to see each)` : `${d.bar.kind === 'rto' ? 'RTO' : 'delayed ACK'} timer, ${d.bar.valueUs / 1000} ms: ${d.bar.end}`,
  );
}

function linePath(a: ArrowMark): string {
  return a.segments.filter((s) => s.kind !== 'hold').map((s) => `M${s.x1},${s.y1}L${s.x2},${s.y2}`).join('');
}

function modifiers(d: ArrowMark): string {
  return `${d.retx ? ' retx' : ''}${d.drop ? ' dropped' : ''}${d.end === 'open' ? ' open' : ''}${d.selected ? ' selected' : ''}`;
}

export function drawArrows(svg: Svg, arrows: readonly ArrowMark[]): void {
  const g = svg
    .select('g.ld-arrows')
    .selectAll<SVGGElement, ArrowMark>('g.ld-arrow')
    .data(arrows, (d) => d.id)
    .join((enter) => {
      const e = enter.append('g');
      for (const c of ['ld-hold', 'ld-line', 'ld-head', 'ld-cross', 'ld-hit']) e.append('path').attr('class', c);
      return e;
    });
  g.attr('class', (d) => `ld-arrow${modifiers(d)}`).attr('data-frame-id', (d) => d.id);
  g.select('.ld-line').attr('d', linePath);
  g.select('.ld-hit').attr('d', (d) => d.segments.map((s) => `M${s.x1},${s.y1}L${s.x2},${s.y2}`).join(''));
  g.select('.ld-hold').attr('d', (d) => d.segments.filter((s) => s.kind === 'hold').map((s) => `M${s.x1},${s.y1}L${s.x2},${s.y2}`).join(''));
  g.select('.ld-head').attr('d', (d) => (d.head ? `M${d.head.map((p) => p.join(',')).join('L')}Z` : ''));
  g.select('.ld-cross').attr('d', (d) => {
    const c = d.cross;
    return c ? `M${c.x - 5},${c.y - 5}L${c.x + 5},${c.y + 5}M${c.x - 5},${c.y + 5}L${c.x + 5},${c.y - 5}` : '';
  });
  // Retransmissions and drops above ordinary arrows where they cross (they are what the
  // reader looks for), the selected arrow above all.
  g.filter((d) => !!(d.retx || d.drop)).raise();
  g.filter((d) => d.selected).raise();
  drawTags(svg, arrows.filter((d) => d.label || d.reason));
}

/** Labels and drop reasons, in a layer of their own above the arrows that lets the pointer
 *  through: a label must not hide the arrow under it from a click. */
function drawTags(svg: Svg, arrows: readonly ArrowMark[]): void {
  const g = svg
    .select('g.ld-tags')
    .selectAll<SVGGElement, ArrowMark>('g.ld-tag')
    .data(arrows, (d) => d.id)
    .join((enter) => {
      const e = enter.append('g');
      e.append('rect').attr('class', 'ld-label-bg');
      e.append('text').attr('class', 'ld-label');
      e.append('text').attr('class', 'ld-reason');
      return e;
    });
  g.attr('class', (d) => `ld-tag${modifiers(d)}`).attr('data-label-for', (d) => d.id);
  // Retransmissions' labels as Wireshark colours their rows: on a dark box (monospace text,
  // so its width is known without measuring).
  g.select('.ld-label-bg')
    .attr('display', (d) => (d.label && d.retx ? null : 'none'))
    .attr('x', (d) => (d.label ? d.label.x - (d.label.text.length * LABEL_CHAR_PX) / 2 - 3 : 0))
    .attr('y', (d) => (d.label ? d.label.y - 10 : 0))
    .attr('width', (d) => (d.label ? d.label.text.length * LABEL_CHAR_PX + 6 : 0))
    .attr('height', 13);
  g.select<SVGTextElement>('.ld-label')
    .attr('x', (d) => d.label?.x ?? 0)
    .attr('y', (d) => d.label?.y ?? 0)
    .text((d) => d.label?.text ?? '');
  g.select<SVGTextElement>('.ld-reason')
    .attr('x', (d) => d.reason?.x ?? 0)
    .attr('y', (d) => d.reason?.y ?? 0)
    .attr('text-anchor', (d) => d.reason?.anchor ?? 'start')
    .text((d) => d.reason?.text ?? '');
  g.filter((d) => !!d.retx).raise();
  g.filter((d) => d.selected).raise();
}

/** The cursor line and the veil over what comes after it. */
export function drawCursor(svg: Svg, scene: Scene, yCursor: number | null): void {
  const visible = yCursor !== null && yCursor <= scene.height;
  const top = Math.max(HEADER_H, yCursor ?? 0);
  svg.select('rect.ld-fade')
    .attr('x', 0)
    .attr('width', scene.width)
    .attr('y', top)
    .attr('height', visible ? Math.max(0, scene.height - top) : 0);
  const data = visible && yCursor! >= HEADER_H ? [yCursor!] : [];
  const c = svg
    .select('g.ld-cursor-layer')
    .selectAll<SVGGElement, number>('g')
    .data(data)
    .join((e) => {
      const g = e.append('g').attr('class', 'no-export');
      g.append('line').attr('class', 'ld-cursor');
      g.append('text').attr('class', 'ld-cursor-label');
      return g;
    });
  c.select('line').attr('x1', AXIS_W).attr('x2', scene.width).attr('y1', (d) => d).attr('y2', (d) => d);
  c.select('text').attr('x', scene.width - 4).attr('y', (d) => d - 3).attr('text-anchor', 'end').text('cursor');
}
