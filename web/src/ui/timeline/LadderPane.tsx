// The ladder (sequence) diagram: one lifeline per host, bridge and NFC module, time flowing
// down on one scale, every frame an arrow whose slope is its real transit time, timers as
// bars, drops where they happened. Hover tells the sender's state, click selects (the
// packet list follows), right click asks "what if". D3 draws into the <svg> (and a canvas
// when thousands of arrows are in view); React owns the page around it.
import * as d3 from '../common/d3.ts';
import { useCallback, useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import { select, setCursor, useApp } from '../common/store.ts';
import { WhatIfMenuLazy as WhatIfMenu } from '../common/WhatIfMenuLazy.tsx';
import { Tooltip, type TipState } from './Tooltip.tsx';
import { ViewButtons } from './ViewButtons.tsx';
import { MaximiseButton } from '../common/MaximiseButton.tsx';
import { drawArrowsCanvas, themeColours, type CanvasColours } from './ladder_canvas.ts';
import { ladderModel } from './ladder_model.ts';
import { buildScene, fitRange, headerHeight, hitTest, type ArrowMark, type Scene } from './ladder_scene.ts';
import { drawCursor, drawScene, ensureCursorLayers, ensureLayers } from './ladder_svg.ts';
import { textFor } from './text_size.ts';
import { useAxisZoom } from './use_axis_zoom.ts';
import type { AxisTransform } from './axis_transform.ts';
import { useSize } from '../common/use_size.ts';
import { useAfterPaint } from '../common/use_after_paint.ts';
import './timeline.css';

/** Deepest zoom: half a microsecond per pixel. */
const FINEST_US_PER_PX = 0.5;

export function LadderPane() {
  // A new run reaches the ladder one paint after the packet list: its model and scene take
  // hundreds of milliseconds at 100 000 frames and would hold back the list's first rows.
  const run = useAfterPaint(useApp((s) => s.run));
  const selected = useApp((s) => s.selected);
  const cursorUs = useApp((s) => s.cursorUs);
  const playing = useApp((s) => s.playing);
  const theme = useApp((s) => s.theme);
  const presenter = useApp((s) => s.presenter);
  const hideFuture = useApp((s) => s.hideFuture);
  const text = textFor(presenter);
  const headerH = headerHeight(text);
  const name = useApp((s) => s.ran?.name ?? s.scenarioName);
  const bodyRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const cursorRef = useRef<SVGSVGElement>(null);
  const size = useSize(bodyRef);
  const [tip, setTip] = useState<TipState | null>(null);
  const [menu, setMenu] = useState<{ frameId: number; x: number; y: number } | null>(null);

  const model = useMemo(() => (run ? ladderModel(run) : null), [run]);
  const base = useMemo(
    () =>
      d3
        .scaleLinear()
        .domain([0, (model?.lastUs ?? 1) * 1.02])
        .range(fitRange(text, size.height)),
    [model, size.height, text],
  );
  const maxScale = model ? model.lastUs / Math.max(1, size.height) / FINEST_US_PER_PX : 2;
  // Pan from the start of the run to its end (which may lie after the last frame).
  const bottom = Math.max(size.height, base(model?.endUs ?? 0) + 10);
  // Zoom keeps the selected frame still, else the cursor.
  const selIndex = model && selected !== null ? model.indexOf(selected) : -1;
  const anchorUs = selIndex >= 0 ? model!.paths[selIndex]!.t0 : cursorUs;
  // Hide the future: the scene holds nothing after the cursor (then it follows the cursor).
  const horizonUs = hideFuture ? cursorUs : null;
  // What the scene depends on besides the zoom: a new object when any of it changes.
  const inputs = useMemo(() => ({ model, size, selected, text, horizonUs, theme, base }), [model, size, selected, text, horizonUs, theme, base]);

  // The drawing: SVG marks, the canvas (theme colours), the cursor (in an <svg> of its own
  // above the others). Wheel and drag steps draw it straight from the zoom (`live`), with
  // no React render; React state follows once the gesture pauses. `latest` is what is on
  // screen and what it was drawn from: the cursor, the pointer and the exports read it.
  const latest = useRef<{ scene: Scene; y: d3.ScaleLinear<number, number>; t: AxisTransform; inputs: typeof inputs } | null>(null);
  // Reading CSS variables forces a style pass: once per theme, not once per zoom step (the
  // ScenarioBar, earlier in the page, sets the theme before this draws).
  const colours = useRef<{ theme: string; c: CanvasColours } | null>(null);
  const live = (t: AxisTransform) => {
    const el = svgRef.current;
    const c = canvasRef.current;
    if (!el || !c || !bodyRef.current || !model || !(size.width > 0 && size.height > 0)) return;
    const y = t.rescale(base);
    const scene = buildScene(model, { width: size.width, height: size.height, y, selected, text, horizonUs });
    latest.current = { scene, y, t, inputs };
    drawScene(ensureLayers(el), scene, model.lanes.lifelines);
    if (colours.current?.theme !== theme) colours.current = { theme, c: themeColours(bodyRef.current) };
    drawArrowsCanvas(c, scene, colours.current.c);
    if (cursorRef.current) drawCursor(ensureCursorLayers(cursorRef.current), scene, y(cursorUs));
  };
  const zoom = useAxisZoom(svgRef, 'y', size, maxScale, [0, bottom], { at: () => (model ? base(anchorUs) : null), lo: headerH, hi: size.height }, live);
  // React's own changes (run, size, selection, theme, text, horizon) redraw at the
  // transform of this instant; the zoom's state arriving after a gesture redraws nothing
  // when the screen already shows it. The title's count follows what was drawn.
  const liveRef = useRef(live);
  liveRef.current = live;
  const { current, transform } = zoom;
  const [title, setTitle] = useState({ inView: 0, canvas: false });
  useEffect(() => {
    const now = current();
    const l = latest.current;
    if (!l || l.inputs !== inputs || l.t.k !== now.k || l.t.shift !== now.shift) liveRef.current(now);
    const s = latest.current?.scene;
    setTitle(s && inputs.model ? { inView: s.framesInView, canvas: s.canvas } : { inView: 0, canvas: false });
  }, [inputs, current, transform]);
  useEffect(() => {
    const l = latest.current;
    if (l && cursorRef.current) drawCursor(ensureCursorLayers(cursorRef.current), l.scene, l.y(cursorUs));
  }, [cursorUs]);

  // Another scenario starts unzoomed (a re-run of the same one keeps the view).
  const { reveal, fit } = zoom;
  useEffect(() => fit(), [name, fit]);
  // The cursor leads: wherever Play, Step, the scrubber or a click moves it, the ladder
  // follows (at any zoom); a frame selected elsewhere comes into view too.
  useEffect(() => {
    // Playing pages on (the cursor starts near the top again); a step or a scrub moves the
    // view just enough, so the frame the class was looking at stays in it where it can.
    if (model) reveal(base(cursorUs), headerH + 10, size.height - 10, playing ? 0.2 : 'nearest');
  }, [playing, cursorUs, model, base, reveal, size.height, headerH]);
  useEffect(() => {
    if (selIndex >= 0) reveal(base(model!.paths[selIndex]!.t0), headerH + 10, size.height - 20, 0.3);
  }, [selIndex, model, base, reveal, size.height, headerH]);
  // A lesson's step asks for its span: zoom onto it (after the reveals above, which it overrides).
  const focus = useApp((s) => s.focus);
  const { zoomTo } = zoom;
  useEffect(() => {
    if (focus && model) zoomTo(base(focus.t0), base(focus.t1), headerH + 10, size.height - 10);
  }, [focus, model, base, zoomTo, headerH, size.height]);

  const arrowAt = (e: MouseEvent): ArrowMark | null => {
    const scene = latest.current?.scene;
    if (!scene) return null;
    const hit = (e.target as Element).closest?.('[data-frame-id]');
    if (hit) return scene.arrows.find((a) => a.id === Number(hit.getAttribute('data-frame-id'))) ?? null;
    if (!scene.canvas || !svgRef.current) return null;
    const r = svgRef.current.getBoundingClientRect();
    return hitTest(scene, e.clientX - r.left, e.clientY - r.top);
  };
  const local = (e: MouseEvent) => {
    const r = bodyRef.current!.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const onMove = (e: MouseEvent) => {
    const a = arrowAt(e);
    if (!a || !model) return setTip(null);
    const p = local(e);
    setTip({ lines: model.tooltip(a.i), ...p, width: size.width });
    if (svgRef.current) svgRef.current.style.cursor = 'pointer';
  };
  const onLeave = () => {
    setTip(null);
    if (svgRef.current) svgRef.current.style.cursor = '';
  };
  const onClick = (e: MouseEvent) => {
    // A folded burst unfolds: the view zooms onto its frames.
    const g = (e.target as Element).closest?.('[data-group-t0]');
    if (g) return zoom.zoomTo(base(Number(g.getAttribute('data-group-t0'))), base(Number(g.getAttribute('data-group-t1'))) + 1, headerH + 10, size.height - 10);
    const a = arrowAt(e);
    if (a) return select(a.id);
    const p = local(e);
    if (model && latest.current && p.y > headerH) setCursor(Math.round(latest.current.y.invert(p.y)));
  };
  const onContextMenu = (e: MouseEvent) => {
    const a = arrowAt(e);
    if (!a) return;
    e.preventDefault();
    setTip(null);
    setMenu({ frameId: a.id, x: e.clientX, y: e.clientY });
  };
  const closeMenu = useCallback(() => setMenu(null), []);

  /** The SVG to save: the one on screen, or, when arrows are on the canvas, a fresh SVG
   *  with every arrow in view. */
  const exportable = (): SVGSVGElement | null => {
    const scene = latest.current?.scene;
    if (!scene || !model || !svgRef.current) return null;
    if (!scene.canvas) return svgRef.current;
    const el = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    const svg = ensureLayers(el);
    drawScene(svg, scene, model.lanes.lifelines, true);
    return el;
  };
  const exportSvg = () => {
    const el = exportable();
    if (el) void import('./svg_export.ts').then((m) => m.saveSvg(el, `${name}-ladder.svg`));
  };
  const exportPng = () => {
    const el = exportable();
    if (el) void import('./svg_export.ts').then((m) => m.savePng(el, `${name}-ladder.png`));
  };

  const { inView } = title;
  return (
    <>
      <div className="pane-title tl-title">
        <span>Ladder</span>
        {model && (
          <span className="muted">
            {inView} frame{inView === 1 ? '' : 's'} in view{title.canvas ? ' (canvas)' : ''}
          </span>
        )}
        <span className="tl-spacer" />
        <ViewButtons
          enabled={!!model}
          zoomBy={zoom.zoomBy}
          fit={fit}
          fitTitle="Show the whole run"
          exportSvg={exportSvg}
          exportPng={exportPng}
          exportWhat="the ladder"
          mermaid={async () => (model && run ? (await import('./mermaid.ts')).ladderMermaid(model, run.result.world) : null)}
        />
        <MaximiseButton pane="ladder" />
      </div>
      <div className="tl-body" ref={bodyRef}>
        <canvas ref={canvasRef} style={{ width: size.width, height: size.height }} aria-hidden="true" />
        <svg
          ref={svgRef}
          data-testid="ladder-svg"
          aria-label="Ladder diagram: one lifeline per host, time flowing down, one arrow per frame"
          onMouseMove={onMove}
          onMouseLeave={onLeave}
          onClick={onClick}
          onContextMenu={onContextMenu}
        />
        <svg ref={cursorRef} className="tl-cursor" data-testid="ladder-cursor" aria-hidden="true" />
        {!model && <div className="tl-empty muted">The ladder appears when the scenario has run.</div>}
        {tip && <Tooltip tip={tip} />}
        {menu && <WhatIfMenu frameId={menu.frameId} x={menu.x} y={menu.y} onClose={closeMenu} />}
      </div>
    </>
  );
}
