// The graphs of one TCP connection, on one time axis: tcptrace's time-sequence graph of the
// data direction, and the sender's cwnd / ssthresh / RTO / srtt from its own trace. Wheel
// and drag zoom and pan time on both at once; clicking a segment selects its frame, clicking
// elsewhere moves the cursor.
import * as d3 from '../common/d3.ts';
import { useEffect, useId, useMemo, useRef, useState, type MouseEvent } from 'react';
import { select, setCursor, useApp } from '../common/store.ts';
import { drawGraphCursor, ensureGraphLayers } from './graph_frame.ts';
import { graphMargin } from './graph_layout.ts';
import { graphModel } from './graph_model.ts';
import { segmentTip, stateTip } from './graph_tips.ts';
import { Tooltip, type TipState } from './Tooltip.tsx';
import { ViewButtons } from './ViewButtons.tsx';
import { MaximiseButton } from '../common/MaximiseButton.tsx';
import { drawSeqGraph, segmentAt } from './seq_graph_draw.ts';
import { drawStateGraph } from './state_graph_draw.ts';
import { textFor } from './text_size.ts';
import { useAxisZoom } from './use_axis_zoom.ts';
import { useSize } from '../common/use_size.ts';
import { useAfterPaint } from '../common/use_after_paint.ts';
import { useStreamChoice } from './use_stream_choice.ts';
import './timeline.css';

const SVG_NS = 'http://www.w3.org/2000/svg';
/** Deepest zoom: one microsecond per pixel. */
const FINEST_US_PER_PX = 1;

export function GraphsPane() {
  // Like the ladder, the graphs take a new run one paint after the packet list.
  const run = useAfterPaint(useApp((s) => s.run));
  const captureLink = useApp((s) => s.link);
  const selected = useApp((s) => s.selected);
  const cursorUs = useApp((s) => s.cursorUs);
  const name = useApp((s) => s.ran?.name ?? s.scenarioName);
  const text = textFor(useApp((s) => s.presenter));
  // With the future hidden nothing after the cursor is drawn, so each cursor move redraws.
  const horizon = useApp((s) => (s.hideFuture ? s.cursorUs : Infinity));
  const margin = graphMargin(text);
  const ids = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const graphsRef = useRef<HTMLDivElement>(null);
  const seqRef = useRef<SVGSVGElement>(null);
  const stateRef = useRef<SVGSVGElement>(null);
  const seqCursorRef = useRef<SVGSVGElement>(null);
  const stateCursorRef = useRef<SVGSVGElement>(null);
  const seqY = useRef<d3.ScaleLinear<number, number> | null>(null);
  const [tip, setTip] = useState<TipState | null>(null);
  const size = useSize(graphsRef);
  const { choice, options, pick, reverse } = useStreamChoice(run, captureLink, selected);
  const key = choice ? `${choice.link}:${choice.stream}:${choice.from}` : '';
  // `key` stands for `choice`: a new selection in the same stream and direction keeps the model.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for `choice`, above
  const model = useMemo(() => (run && choice ? graphModel(run, choice) : null), [run, key]);

  const graph = { width: size.width, height: Math.max(0, Math.floor(size.height / 2) - 1) };
  const spanT0 = model ? model.seq.t0 : 0;
  const spanT1 = model ? Math.max(model.seq.t1, model.seq.t0 + 1000) : 1;
  const span = [spanT0, spanT1];
  const pad = (spanT1 - spanT0) * 0.02;
  const base = useMemo(
    () =>
      d3
        .scaleLinear()
        .domain([spanT0 - pad, spanT1 + pad])
        .range([margin.left, Math.max(margin.left + 1, size.width - margin.right)]),
    [spanT0, spanT1, pad, size.width, margin.left, margin.right],
  );
  const maxScale = (span[1]! - span[0]!) / Math.max(1, size.width) / FINEST_US_PER_PX;
  // Zoom keeps the selected segment still, else the cursor.
  const selT = model?.seq.segments.find((s) => s.frameId === selected)?.t;
  const anchorUs = selT ?? cursorUs;
  const zoom = useAxisZoom(graphsRef, 'x', size, maxScale, [0, size.width], {
    at: () => (model ? base(anchorUs) : null),
    lo: margin.left,
    hi: size.width - margin.right,
  });
  const x = useMemo(() => zoom.transform.rescale(base), [zoom.transform, base]);

  // A different stream starts unzoomed.
  const { fit, reveal } = zoom;
  useEffect(() => fit(), [key, fit]);

  const { width: gw, height: gh } = graph;
  useEffect(() => {
    const el = seqRef.current;
    if (!el) return;
    if (!model || !gw || !gh) return void d3.select(el).selectAll('*').remove();
    seqY.current = drawSeqGraph(ensureGraphLayers(el, `${ids}-seq`, text), model.seq, { width: gw, height: gh }, text, x, selected, horizon);
  }, [model, x, selected, gw, gh, ids, text, horizon]);
  useEffect(() => {
    const el = stateRef.current;
    if (!el) return;
    if (!model || !gw || !gh) return void d3.select(el).selectAll('*').remove();
    drawStateGraph(ensureGraphLayers(el, `${ids}-state`, text), model.state, { width: gw, height: gh }, text, x, model.seq.t1, model.senderName, horizon);
  }, [model, x, gw, gh, ids, text, horizon]);
  // After the draws: the cursor spans the plot they laid out (its top follows the legend).
  useEffect(() => {
    const pairs: [SVGSVGElement | null, SVGSVGElement | null][] = [
      [seqRef.current, seqCursorRef.current],
      [stateRef.current, stateCursorRef.current],
    ];
    const px = model && gw && gh ? x(cursorUs) : null;
    for (const [el, layer] of pairs) if (el && layer) drawGraphCursor(el, layer, px);
  }, [model, x, cursorUs, gw, gh]);

  // The cursor leads (Play, Step, the scrubber) while it is within the connection; outside
  // it (pings before a TCP exchange) the graphs keep showing the connection.
  const cursorInStream = model !== null && cursorUs >= span[0]! && cursorUs <= span[1]!;
  useEffect(() => {
    if (cursorInStream) reveal(base(cursorUs), margin.left, size.width - margin.right, 0.3);
  }, [cursorInStream, cursorUs, base, reveal, size.width, margin.left, margin.right]);
  useEffect(() => {
    if (selT !== undefined) reveal(base(selT), margin.left, size.width - margin.right, 0.5);
  }, [selT, base, reveal, size.width, margin.left, margin.right]);

  const local = (e: MouseEvent) => {
    const r = graphsRef.current!.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const inPlot = (px: number) => px >= margin.left && px <= size.width - margin.right;
  const onSeqMove = (e: MouseEvent) => {
    const p = local(e);
    const g = model && seqY.current ? segmentAt(model.seq, x, seqY.current, p.x, p.y, horizon) : null;
    setTip(g ? { lines: segmentTip(g), ...p, ...size } : null);
  };
  const onStateMove = (e: MouseEvent) => {
    const p = local(e);
    const t = x.invert(p.x);
    // Past the cursor, with the future hidden, the state is not told either.
    if (!model?.state || !inPlot(p.x) || t > horizon) return setTip(null);
    setTip({ lines: stateTip(model.state, t, model.senderName), ...p, ...size });
  };
  const onClick = (e: MouseEvent, seq: boolean) => {
    const p = local(e);
    const g = seq && model && seqY.current ? segmentAt(model.seq, x, seqY.current, p.x, p.y, horizon) : null;
    if (g) select(g.frameId);
    else if (model && inPlot(p.x)) setCursor(Math.round(x.invert(p.x)));
  };

  /** Both graphs in one SVG, the time-sequence graph above the state graph. */
  const combined = (): SVGSVGElement | null => {
    if (!seqRef.current || !stateRef.current || !model) return null;
    const out = document.createElementNS(SVG_NS, 'svg');
    out.setAttribute('width', String(graph.width));
    out.setAttribute('height', String(graph.height * 2));
    out.setAttribute('viewBox', `0 0 ${graph.width} ${graph.height * 2}`);
    const a = seqRef.current.cloneNode(true) as SVGSVGElement;
    const b = stateRef.current.cloneNode(true) as SVGSVGElement;
    b.setAttribute('y', String(graph.height));
    out.append(a, b);
    return out;
  };
  const file = `${name}-${model ? `stream${model.choice.stream}` : 'graphs'}`;
  const exportSvg = () => {
    const el = combined();
    if (el) void import('./svg_export.ts').then((m) => m.saveSvg(el, `${file}.svg`));
  };
  const exportPng = () => {
    const el = combined();
    if (el) void import('./svg_export.ts').then((m) => m.savePng(el, `${file}.png`));
  };

  const value = choice ? `${choice.link}:${choice.stream}` : '';
  return (
    <>
      <div className="pane-title tl-title">
        <span>Graphs</span>
        <select aria-label="TCP stream" value={value} disabled={!options.length} onChange={(e) => pick(e.target.value)}>
          {!options.length && <option value="">no TCP stream</option>}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        <button
          type="button"
          aria-label="Reverse direction"
          title={model ? `Showing the data ${model.senderName} sent; show the other direction` : 'Reverse direction'}
          disabled={!model}
          onClick={reverse}
        >
          ⇄
        </button>
        <span className="tl-spacer" />
        <ViewButtons
          enabled={!!model}
          zoomBy={zoom.zoomBy}
          fit={fit}
          fitTitle="Show the whole connection"
          exportSvg={exportSvg}
          exportPng={exportPng}
          exportWhat="both graphs"
        />
        <MaximiseButton pane="graphs" />
      </div>
      <div className="tl-graphs" ref={graphsRef} onMouseLeave={() => setTip(null)}>
        <div className="tl-body">
          <svg
            ref={seqRef}
            data-testid="seq-graph"
            aria-label={model ? `Time-sequence graph, ${model.title}` : 'Time-sequence graph'}
            onMouseMove={onSeqMove}
            onClick={(e) => onClick(e, true)}
          />
          <svg ref={seqCursorRef} className="tl-cursor" data-testid="seq-cursor" aria-hidden="true" />
        </div>
        <div className="tl-body">
          <svg
            ref={stateRef}
            data-testid="state-graph"
            aria-label={model ? `cwnd, ssthresh, RTO and srtt of ${model.senderName}` : 'Sender state graph'}
            onMouseMove={onStateMove}
            onClick={(e) => onClick(e, false)}
          />
          <svg ref={stateCursorRef} className="tl-cursor" data-testid="state-cursor" aria-hidden="true" />
        </div>
        {!model && <div className="tl-empty tl-overlay muted">{run ? 'No TCP connection in this run.' : 'The graphs appear when the scenario has run.'}</div>}
        {tip && <Tooltip tip={tip} />}
      </div>
    </>
  );
}
