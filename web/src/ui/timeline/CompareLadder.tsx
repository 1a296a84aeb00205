// "What if this frame were dropped?" made visible: two runs of one scenario (without and
// with the what-if rules, or a lesson's run and the same with a change), two ladders side by
// side on one time axis (one zoom, one cursor), and the differences in numbers above them
// (when each application was done, retransmissions by cause, spurious ones). Each ladder is
// the same scene the single ladder draws.
import * as d3 from '../common/d3.ts';
import { useEffect, useMemo, useRef } from 'react';
import { MaximiseButton } from '../common/MaximiseButton.tsx';
import { diffLines, runFigures } from '../../core/run/run_diff.ts';
import { setCursor, useApp, type SideBySide } from '../common/store.ts';
import { ladderModel } from './ladder_model.ts';
import { buildScene, fitRange, headerHeight, type Scene } from './ladder_scene.ts';
import { drawCursor, drawScene, ensureCursorLayers, ensureLayers } from './ladder_svg.ts';
import type { LadderModel } from './ladder_model.ts';
import { textFor } from './text_size.ts';
import { useAxisZoom } from './use_axis_zoom.ts';
import { useSize } from '../common/use_size.ts';
import './timeline.css';

/** Deepest zoom: half a microsecond per pixel (as the single ladder). */
const FINEST_US_PER_PX = 0.5;
/** Between the two ladders. */
const GAP_PX = 8;

export function CompareLadder({ pair }: { pair: SideBySide }) {
  const { left, right, labels } = pair;
  const cursorUs = useApp((s) => s.cursorUs);
  const text = textFor(useApp((s) => s.presenter));
  const horizonUs = useApp((s) => (s.hideFuture ? s.cursorUs : null));
  const headerH = headerHeight(text);
  const bodyRef = useRef<HTMLDivElement>(null);
  const size = useSize(bodyRef);
  const models = useMemo(() => [ladderModel(left), ladderModel(right)] as const, [left, right]);
  const lastUs = Math.max(models[0].lastUs, models[1].lastUs);
  const endUs = Math.max(models[0].endUs, models[1].endUs);
  const base = useMemo(
    () =>
      d3
        .scaleLinear()
        .domain([0, lastUs * 1.02])
        .range(fitRange(text, size.height)),
    [lastUs, text, size.height],
  );
  const bottom = Math.max(size.height, base(endUs) + 10);
  const zoom = useAxisZoom(bodyRef, 'y', size, lastUs / Math.max(1, size.height) / FINEST_US_PER_PX, [0, bottom], {
    at: () => base(cursorUs),
    lo: headerH,
    hi: size.height,
  });
  const y = useMemo(() => zoom.transform.rescale(base), [zoom.transform, base]);
  const half = Math.max(0, Math.floor((size.width - GAP_PX) / 2));
  const scenes = useMemo(
    () => (half > 0 && size.height > 0 ? models.map((m) => buildScene(m, { width: half, height: size.height, y, selected: null, text, horizonUs })) : null),
    [models, half, size.height, y, text, horizonUs],
  );
  // Hiding the future, the figures are those at the cursor: the table must not tell the end.
  const diff = useMemo(() => diffLines(runFigures(left.result, horizonUs), runFigures(right.result, horizonUs)), [left, right, horizonUs]);

  return (
    <>
      <div className="pane-title tl-title">
        <span>Side by side</span>
        <span className="muted">
          {labels[0]} · {labels[1]}
        </span>
        <span className="tl-spacer" />
        <button type="button" aria-label="Fit" title="Show both runs whole" onClick={zoom.fit}>
          Fit
        </button>
        <MaximiseButton pane="ladder" />
      </div>
      <table className="compare-diff" aria-label="Differences">
        <thead>
          <tr>
            <th scope="col" />
            <th scope="col">{labels[0]}</th>
            <th scope="col">{labels[1]}</th>
            <th scope="col">change</th>
          </tr>
        </thead>
        <tbody>
          {diff.map((d) => (
            <tr key={d.what} className={d.change === 'same' ? 'same' : 'changed'}>
              <th scope="row">{d.what}</th>
              <td>{d.without}</td>
              <td>{d.with}</td>
              <td>{d.change}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div
        className="tl-body compare-body"
        ref={bodyRef}
        onClick={(e) => {
          const r = bodyRef.current!.getBoundingClientRect();
          if (e.clientY - r.top > headerH) setCursor(Math.round(y.invert(e.clientY - r.top)));
        }}
      >
        {scenes &&
          scenes.map((scene, i) => (
            <LadderHalf key={i} scene={scene} model={models[i]!} yCursor={y(cursorUs)} left={i * (half + GAP_PX)} label={`Ladder: ${labels[i]}`} />
          ))}
      </div>
    </>
  );
}

function LadderHalf({ scene, model, yCursor, left, label }: { scene: Scene; model: LadderModel; yCursor: number; left: number; label: string }) {
  const ref = useRef<SVGSVGElement>(null);
  useEffect(() => {
    if (ref.current) drawScene(ensureLayers(ref.current), scene, model.lanes.lifelines, true);
  }, [scene, model]);
  useEffect(() => {
    if (ref.current) drawCursor(ensureCursorLayers(ensureLayers(ref.current).node()!), scene, yCursor);
  }, [scene, yCursor]);
  return <svg ref={ref} className="compare-ladder" data-testid="compare-ladder" aria-label={label} style={{ left, width: scene.width }} />;
}
