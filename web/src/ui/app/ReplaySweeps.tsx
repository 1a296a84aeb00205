// The replay's sweeps as figures: ours as lines of dots, the seed's points as hollow squares
// on the same axes (sweep_draw.ts draws; this component owns the <svg> and the legend).
import { useEffect, useRef } from 'react';
import type { Sweep } from '../../core/replay/sweeps.ts';
import { useSize } from '../common/use_size.ts';
import { drawSweep, SWEEP_COLOURS } from './sweep_draw.ts';

const WIDTH = 560;

function SweepFigure(props: { sweep: Sweep }) {
  const { sweep } = props;
  const ref = useRef<SVGSVGElement>(null);
  // The plot takes the height the table's region leaves it (less in presenter type, whose
  // caption is taller); the <svg> is placed over it, so its size does not feed back.
  const box = useRef<HTMLDivElement>(null);
  const { height } = useSize(box);
  useEffect(() => {
    if (ref.current && height > 0) drawSweep(ref.current, sweep, WIDTH, height);
  }, [sweep, height]);
  return (
    <figure className="replay-sweep" aria-label={sweep.label} style={{ width: WIDTH }}>
      <figcaption>
        <strong>{sweep.label}</strong> <span className="muted">({sweep.unit})</span>
        {sweep.series.map((s, i) => (
          <span key={s.name} className="sweep-key">
            <span className="sweep-swatch" style={{ background: SWEEP_COLOURS[i % SWEEP_COLOURS.length] }} />
            {s.name}
          </span>
        ))}
        <span className="sweep-key">
          <span className="sweep-seed-key" /> the paper
        </span>
        {sweep.series.some((s) => s.points.some((p) => p.each)) && <span className="sweep-key muted">small dots: each seed</span>}
      </figcaption>
      {sweep.note && (
        <p className="sweep-note muted" title={sweep.note}>
          {sweep.note}
        </p>
      )}
      <div className="sweep-plot" ref={box}>
        <svg ref={ref} role="img" aria-label={`${sweep.label}: ours as lines of dots, the paper's points as squares`} />
      </div>
    </figure>
  );
}

export function ReplaySweeps(props: { sweeps: readonly Sweep[] }) {
  return (
    <div className="replay-sweeps">
      {props.sweeps.map((s) => (
        <SweepFigure key={s.label} sweep={s} />
      ))}
    </div>
  );
}
