// A replay's rows above the usual views: the seed's figure, what the simulation gives, the
// tolerance and the verdict, each with its reason one click away. The rows follow the
// changed parameters, so exploring shows at once which figures move away from the seed's.
import { useMemo, useState } from 'react';
import { unitOf, type JudgedRow } from '../replay/judge.ts';
import { ReplayFigures } from './ReplayFigures.tsx';
import { useReplayResults } from './replay_results.ts';
import { composeScenario, useApp } from './store.ts';
import './replay.css';

/** Six significant digits: enough for a ±0.002 ms tolerance on a 29.861 ms RTT. */
function num(v: number | null): string {
  return v === null ? '—' : String(+v.toPrecision(6));
}

function verdict(r: JudgedRow): string {
  if (r.pass === null) return 'info';
  return r.pass ? '✓ ok' : '✗ outside';
}

export function ReplayTable() {
  const base = useApp((s) => s.base);
  const sets = useApp((s) => s.sets);
  const replay = useMemo(() => {
    const c = composeScenario({ base, sets, rules: [] });
    return c.ok && c.scenario.reference ? c.scenario : null;
  }, [base, sets]);
  const state = useReplayResults(replay);
  const [open, setOpen] = useState<number | null>(null);
  if (!replay || !state) return null;
  return (
    <section className="replay" aria-label="Replay against the seed">
      <div className="replay-head">
        <strong>Replay:</strong> {replay.reference!.document}
        {sets.length > 0 && <span className="muted"> (with {sets.length} changed parameter{sets.length > 1 ? 's' : ''})</span>}
        <span className="bar-spacer" />
        {state.status === 'running' && <span data-testid="replay-progress">running {state.done} of {state.total} runs…</span>}
        {state.status === 'ready' && (
          <span data-testid="replay-summary">
            {state.result.rows.filter((r) => r.pass).length} ok, {state.result.rows.filter((r) => r.pass === false).length} outside, {state.result.rows.filter((r) => r.pass === null).length} information
          </span>
        )}
      </div>
      {state.status === 'failed' && <p role="alert">{state.message}</p>}
      {state.status === 'ready' && (
        <div className="replay-scroll">
          <table className="replay-table">
            <thead>
              <tr>
                <th>Row</th>
                <th>Metric</th>
                <th>Seed</th>
                <th>Expected</th>
                <th>Simulated</th>
                <th>Tolerance</th>
                <th>Verdict</th>
              </tr>
            </thead>
            <tbody>
              {state.result.rows.map((r, i) => (
                <ReplayRow key={i} row={r} open={open === i} onToggle={() => setOpen(open === i ? null : i)} />
              ))}
            </tbody>
          </table>
          <ReplayFigures figures={state.result.figures} />
        </div>
      )}
    </section>
  );
}

function ReplayRow(props: { row: JudgedRow; open: boolean; onToggle: () => void }) {
  const { row: r, open, onToggle } = props;
  const unit = unitOf(r);
  return (
    <>
      <tr className={r.pass === false ? 'outside' : r.pass === null ? 'info' : 'ok'} onClick={onToggle} title="Why: click">
        <td>{r.label}</td>
        <td>
          {r.over_run === undefined ? r.metric : `${r.metric}: ${r.run || 'as written'} / ${r.over_run}`}{' '}
          {unit !== '?' && <span className="muted">({unit})</span>}
          {r.repeats && (
            <span className="muted">
              , mean of {r.repeats} runs{r.range && `: ${num(r.range[0])} to ${num(r.range[1])}`}
            </span>
          )}
        </td>
        <td>{num(r.seed)}</td>
        <td>{r.expected !== r.seed ? num(r.expected) : ''}</td>
        <td>{r.error ? <span title={r.error}>—</span> : num(r.simulated)}</td>
        <td>{r.tolerance}</td>
        <td>{verdict(r)}</td>
      </tr>
      {open && (
        <tr className="replay-why">
          <td colSpan={7}>{r.error ? `${r.error}. ` : ''}{r.why}</td>
        </tr>
      )}
    </>
  );
}
