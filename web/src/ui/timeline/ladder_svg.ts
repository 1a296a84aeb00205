// Draws a ladder scene into an <svg> with D3 joins: the layers are made once, marks are
// keyed by frame id so a zoom step only moves what is there. React owns the element; this
// module owns its contents. Every text is drawn at the box the scene gave it (text-anchor
// start at its tx, baseline at its ty) in the scene's text size, so what the layout kept
// apart stays apart on screen and in an export.
import * as d3 from '../common/d3.ts';
import type { GroupMark } from './ladder_groups.ts';
import { TICK_LEN, type Tick } from './ladder_frame_text.ts';
import { BRACKET_END, cursorLabel } from './ladder_labels.ts';
import type { ArrowMark, Scene, TimerMark } from './ladder_scene.ts';
import { LADDER_CSS } from './ladder_style.ts';
import type { TextBox } from './ladder_text.ts';
import type { Lifeline } from '../../core/run/lifelines.ts';
import { formatInstant } from '../../core/run/time_format.ts';

type Svg = d3.Selection<SVGSVGElement, unknown, null, undefined>;
const LAYERS = ['ld-bg', 'ld-lanes', 'ld-timers', 'ld-arrows', 'ld-tags', 'ld-groups', 'ld-header', 'ld-axis'] as const;

/** Makes the layers once (style sheet first, then back to front). */
export function ensureLayers(el: SVGSVGElement): Svg {
  const svg = d3.select(el);
  if (svg.select('g.ld-root').empty()) {
    svg.append('style').text(LADDER_CSS);
    const root = svg.append('g').attr('class', 'ld-root');
    for (const l of LAYERS) {
      if (l === 'ld-bg') root.append('rect').attr('class', 'ld-bg');
      else root.append('g').attr('class', l);
    }
  }
  return svg;
}

/** The cursor's layers: the veil over what comes after it, then the line and its label.
 *  On the page they are an <svg> of their own above the drawing, so that Play, which moves
 *  only the cursor, repaints that small layer and nothing under it; a side-by-side half
 *  keeps them on top of its own drawing. */
export function ensureCursorLayers(el: SVGSVGElement): Svg {
  const svg = d3.select(el);
  if (svg.select('g.ld-cursor-layer').empty()) {
    svg.append('rect').attr('class', 'ld-fade no-export');
    svg.append('g').attr('class', 'ld-cursor-layer no-export');
  }
  return svg;
}

/** Puts text elements where their boxes say, in their size (a presentation attribute, so an
 *  export keeps it). */
function atBoxes<D>(sel: d3.Selection<SVGTextElement, D, d3.BaseType, unknown>, box: (d: D) => TextBox): void {
  sel
    .attr('x', (d) => box(d).tx)
    .attr('y', (d) => box(d).ty)
    .attr('font-size', (d) => box(d).px)
    .text((d) => box(d).text);
}

/** The whole scene. Arrows on the canvas (Scene.canvas) are left out unless `everyArrow`
 *  (an export draws them all as SVG). */
export function drawScene(svg: Svg, scene: Scene, lifelines: readonly Lifeline[], everyArrow = false): void {
  drawFrame(svg, scene, lifelines);
  drawTimers(svg, scene.timers);
  drawArrows(svg, scene.canvas && !everyArrow ? scene.arrows.filter((a) => a.selected) : scene.arrows);
  drawTags(svg, scene);
  drawGroups(svg, scene.groups);
  svg.select('rect.ld-bg').attr('display', scene.canvas && !everyArrow ? 'none' : null);
}

function drawFrame(svg: Svg, scene: Scene, lifelines: readonly Lifeline[]): void {
  svg.attr('width', scene.width).attr('height', scene.height).attr('viewBox', `0 0 ${scene.width} ${scene.height}`);
  svg.select('rect.ld-bg').attr('width', scene.width).attr('height', scene.height);
  // Lifelines below the header, names in the header (which hides what scrolls under it).
  svg
    .select('g.ld-lanes')
    .selectAll('line')
    .data(lifelines, (d) => (d as Lifeline).key)
    .join('line')
    .attr('class', (d) => `ld-lifeline ${d.kind}`)
    .attr('x1', (_, i) => scene.laneX[i]!)
    .attr('x2', (_, i) => scene.laneX[i]!)
    .attr('y1', scene.headerH)
    .attr('y2', scene.height);
  const header = svg.select('g.ld-header');
  header
    .selectAll('rect')
    .data([0])
    .join('rect')
    .attr('class', 'ld-header-bg')
    .attr('x', -1)
    .attr('y', -1)
    .attr('width', scene.width + 2)
    .attr('height', scene.headerH + 1);
  header
    .selectAll<SVGTextElement, TextBox>('text')
    .data(scene.header)
    .join('text')
    .attr('class', (d) => `ld-${d.kind}`)
    .call(atBoxes, (d) => d);
  drawAxis(svg, scene);
}

/** The time axis: its line, and the ticks the scene kept (their labels never touch). */
function drawAxis(svg: Svg, scene: Scene): void {
  const g = svg.select('g.ld-axis');
  g.selectAll('path.domain').data([0]).join('path').attr('class', 'domain').attr('d', `M${scene.axisW},${scene.headerH}V${scene.height}`);
  const ticks = g
    .selectAll<SVGGElement, Tick>('g.tick')
    .data(scene.ticks, (d) => d.t)
    .join((enter) => {
      const e = enter.append('g').attr('class', 'tick');
      e.append('line');
      e.append('text');
      return e;
    });
  ticks
    .select('line')
    .attr('x1', scene.axisW - TICK_LEN)
    .attr('x2', scene.axisW)
    .attr('y1', (d) => d.y)
    .attr('y2', (d) => d.y);
  ticks.select<SVGTextElement>('text').call(atBoxes, (d) => d.label);
}

function timerName(d: TimerMark): string {
  return d.bar.kind === 'rto' ? 'RTO' : 'delayed ACK';
}

function drawTimers(svg: Svg, timers: readonly TimerMark[]): void {
  const key = (d: TimerMark) => `${d.bar.host}:${d.bar.armSeq}:${d.bar.kind}`;
  const g = svg
    .select('g.ld-timers')
    .selectAll<SVGGElement, TimerMark>('g.ld-timer-g')
    .data(timers, key)
    .join((enter) => {
      const e = enter.append('g').attr('class', 'ld-timer-g');
      e.append('rect');
      e.append('line');
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
  g.select('title').text((d) =>
    d.runs > 1
      ? `${timerName(d)} timer, armed ${d.runs} times (zoom in to see each)`
      : `${timerName(d)} timer, ${d.bar.valueUs / 1000} ms: ${d.running ? 'running' : d.bar.end}`,
  );
}

function linePath(a: ArrowMark): string {
  return a.segments
    .filter((s) => s.kind !== 'hold')
    .map((s) => `M${s.x1},${s.y1}L${s.x2},${s.y2}`)
    .join('');
}

function modifiers(d: ArrowMark): string {
  return `${d.retx ? ' retx' : ''}${d.drop ? ' dropped' : ''}${d.end === 'open' ? ' open' : ''}${d.selected ? ' selected' : ''}`;
}

function drawArrows(svg: Svg, arrows: readonly ArrowMark[]): void {
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
  g.select('.ld-hold').attr('d', (d) =>
    d.segments
      .filter((s) => s.kind === 'hold')
      .map((s) => `M${s.x1},${s.y1}L${s.x2},${s.y2}`)
      .join(''),
  );
  g.select('.ld-head').attr('d', (d) => (d.head ? `M${d.head.map((p) => p.join(',')).join('L')}Z` : ''));
  g.select('.ld-cross').attr('d', (d) => {
    const c = d.cross;
    return c ? `M${c.x - 5},${c.y - 5}L${c.x + 5},${c.y + 5}M${c.x - 5},${c.y + 5}L${c.x + 5},${c.y - 5}` : '';
  });
  // Retransmissions and drops above ordinary arrows where they cross (they are what the
  // reader looks for), the selected arrow above all.
  g.filter((d) => !!(d.retx || d.drop)).raise();
  g.filter((d) => d.selected).raise();
}

interface Tag {
  key: string;
  /** the tag's classes: what it is and (for arrows) what the frame is */
  cls: string;
  text: 'ld-label' | 'ld-reason' | 'ld-timer-label';
  box: TextBox;
}

function tags(scene: Scene): Tag[] {
  const out: Tag[] = [];
  const reasons = new Set<TextBox>();
  for (const a of scene.arrows) {
    if (a.label) out.push({ key: `l${a.id}`, cls: `ld-tag${modifiers(a)}`, text: 'ld-label', box: a.label });
    // drops alike close together share one reason: drawn once
    if (a.reason && !reasons.has(a.reason)) out.push({ key: `r${a.id}`, cls: 'ld-tag dropped', text: 'ld-reason', box: a.reason });
    if (a.reason) reasons.add(a.reason);
  }
  for (const t of scene.timers) {
    if (t.label)
      out.push({
        key: `t${t.bar.host}:${t.bar.armSeq}:${t.bar.kind}`,
        cls: `ld-tag timer${t.running ? ' running' : ''}`,
        text: 'ld-timer-label',
        box: t.label,
      });
  }
  return out;
}

/** Labels, drop reasons and timer labels, in a layer of their own above the arrows that
 *  lets the pointer through: a label must not hide the arrow under it from a click. */
function drawTags(svg: Svg, scene: Scene): void {
  const g = svg
    .select('g.ld-tags')
    .selectAll<SVGGElement, Tag>('g.ld-tag')
    .data(tags(scene), (d) => d.key)
    .join((enter) => {
      const e = enter.append('g');
      e.append('rect').attr('class', 'ld-label-bg');
      e.append('text');
      return e;
    });
  g.attr('class', (d) => d.cls).attr('data-label-for', (d) => d.key);
  // Retransmissions' labels as Wireshark colours their rows: on a dark box, the text's box.
  g.select('.ld-label-bg')
    .attr('display', (d) => (d.text === 'ld-label' && d.cls.includes(' retx') ? null : 'none'))
    .attr('x', (d) => d.box.x)
    .attr('y', (d) => d.box.y)
    .attr('width', (d) => d.box.w)
    .attr('height', (d) => d.box.h);
  g.select<SVGTextElement>('text')
    .attr('class', (d) => d.text)
    .call(atBoxes, (d) => d.box);
  g.filter((d) => d.cls.includes(' retx')).raise();
  g.filter((d) => d.cls.includes(' selected')).raise();
}

function bracketPath(d: GroupMark): string {
  const end = d.x + d.dir * BRACKET_END;
  return `M${end},${d.y0}H${d.x}V${d.y1}H${end}`;
}

/** Folded bursts: the bracket and the label; a click on either zooms into the group. */
function drawGroups(svg: Svg, groups: readonly GroupMark[]): void {
  const g = svg
    .select('g.ld-groups')
    .selectAll<SVGGElement, GroupMark>('g.ld-group')
    .data(groups, (d) => `${d.ids[0]}:${d.dir}`)
    .join((enter) => {
      const e = enter.append('g').attr('class', 'ld-group');
      e.append('path').attr('class', 'ld-bracket');
      e.append('path').attr('class', 'ld-group-hit');
      e.append('title');
      return e;
    });
  g.attr('data-group-t0', (d) => d.t0).attr('data-group-t1', (d) => d.t1);
  g.select('.ld-bracket').attr('d', bracketPath);
  g.select('.ld-group-hit').attr('d', bracketPath);
  // The label on a chip of its own: it often sits over the very arrows it sums up.
  g.selectAll<SVGRectElement, TextBox>('rect.ld-group-bg')
    .data((d) => (d.label ? [d.label] : []))
    .join('rect')
    .attr('class', 'ld-group-bg')
    .attr('x', (d) => d.x)
    .attr('y', (d) => d.y)
    .attr('width', (d) => d.w)
    .attr('height', (d) => d.h);
  g.selectAll<SVGTextElement, TextBox>('text')
    .data((d) => (d.label ? [d.label] : []))
    .join('text')
    .attr('class', 'ld-group-label')
    .call(atBoxes, (d) => d);
  g.select('title').text(
    (d) =>
      `${d.count} frames, sent from ${formatInstant(d.t0)} to ${formatInstant(d.t1)}${d.resent ? `, ${d.resent} resent` : ''}${d.lost ? `, ${d.lost} lost` : ''}: click to zoom in`,
  );
}

/** The cursor line, its label where it covers no other text, and the veil over what comes
 *  after it (right of the time axis, whose labels stay readable), into ensureCursorLayers. */
export function drawCursor(svg: Svg, scene: Scene, yCursor: number | null): void {
  const visible = yCursor !== null && yCursor <= scene.height;
  const top = Math.max(scene.headerH, yCursor ?? 0);
  svg
    .select('rect.ld-fade')
    .attr('x', scene.axisW)
    .attr('width', Math.max(0, scene.width - scene.axisW))
    .attr('y', top)
    .attr('height', visible ? Math.max(0, scene.height - top) : 0);
  const data = visible && yCursor! >= scene.headerH ? [yCursor!] : [];
  const c = svg
    .select('g.ld-cursor-layer')
    .selectAll<SVGGElement, number>('g')
    .data(data)
    .join((e) => {
      const g = e.append('g');
      g.append('line').attr('class', 'ld-cursor');
      return g;
    });
  c.select('line')
    .attr('x1', scene.axisW)
    .attr('x2', scene.width)
    .attr('y1', (d) => d)
    .attr('y2', (d) => d);
  c.selectAll<SVGTextElement, TextBox>('text')
    .data((d) => {
      const label = cursorLabel(scene, d);
      return label ? [label] : [];
    })
    .join('text')
    .attr('class', 'ld-cursor-label')
    .call(atBoxes, (d) => d);
}
