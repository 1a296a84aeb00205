// A replay's rows above the usual views: the paper's figure, what the simulation gives and
// how far apart they are, what each row is judged against (the paper, or a corrected theory
// and why) and its verdict; information rows say "not judged" and why, and are never counted
// as agreement. The rows follow the changed parameters; a run picker opens any run of the
// replay in the views; the table folds away.
import { useMemo, useState } from 'react';
import { unitOf, type JudgedRow } from '../../core/replay/judge.ts';
import { runNames } from '../../core/replay/replay.ts';
import { percent, sig4 } from '../../core/replay/number_text.ts';
import { offPaper, standing, standingCounts, type Standing } from '../../core/replay/standing.ts';
import { ReplayFigures } from './ReplayFigures.tsx';
import { useReplayResults } from './replay_results.ts';
import { chooseReplayRun, composeScenario, useApp } from '../common/store.ts';
import './replay.css';

const VERDICT: Record<Standing, string> = {
  paper: '✓ matches the paper',
  theory: '✓ matches the corrected theory',
  outside: '✗ outside',
  'not judged': 'not judged',
};

export function ReplayTable() {
  const base = useApp((s) => s.base);
  const sets = useApp((s) => s.sets);
  const replayRun = useApp((s) => s.replayRun);
  const replay = useMemo(() => {
    const c = composeScenario({ base, sets, rules: [], replayRun: null });
    return c.ok && c.scenario.reference ? c.scenario : null;
  }, [base, sets]);
  const state = useReplayResults(replay);
  const [open, setOpen] = useState<number | null>(null);
  const [folded, setFolded] = useState(false);
  if (!replay || !state) return null;
  const counts = state.status === 'ready' ? standingCounts(state.result.rows) : null;
  // The scenario as written first: it is what the views show until a run is picked.
  const runs = ['', ...runNames(replay).filter((r) => r !== '')];
  return (
    <section className="replay" aria-label="Replay against the seed">
      <div className="replay-head">
        <button
          type="button"
          aria-expanded={!folded}
          aria-label={folded ? 'Show the replay table' : 'Fold the replay table'}
          onClick={() => setFolded(!folded)}
        >
          {folded ? '▸' : '▾'}
        </button>
        <strong>Replay:</strong> {replay.reference!.document}
        {sets.length > 0 && (
          <span className="muted">
            {' '}
            (with {sets.length} changed parameter{sets.length > 1 ? 's' : ''})
          </span>
        )}
        <span className="bar-spacer" />
        {runs.length > 1 && (
          <label>
            Run in the views{' '}
            <select aria-label="Run in the views" value={replayRun ?? ''} onChange={(e) => chooseReplayRun(e.target.value || null)}>
              {runs.map((r) => (
                <option key={r} value={r}>
                  {r || 'the scenario as written'}
                </option>
              ))}
            </select>
          </label>
        )}
        {state.status === 'running' && (
          <span data-testid="replay-progress">
            running {state.done} of {state.total} runs…
          </span>
        )}
        {counts && (
          <span data-testid="replay-summary" title="Rows that are not judged are shown with their reason and never counted as agreement">
            {counts.paper} match the paper, {counts.theory} match a corrected theory, {counts.outside} outside, {counts['not judged']} differ (shown, not
            judged)
          </span>
        )}
      </div>
      {state.status === 'failed' && <p role="alert">{state.message}</p>}
      {state.status === 'ready' && !folded && (
        <div className="replay-scroll">
          <table className="replay-table">
            <thead>
              <tr>
                <th>Row</th>
                <th>Metric</th>
                <th>Paper</th>
                <th>Simulated</th>
                <th title="How far the simulated figure is from the paper's own">Δ paper</th>
                <th>Judged against</th>
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

/** What a row is judged against: the paper's figure, a corrected value, or nothing. */
function against(r: JudgedRow): string {
  if (r.pass === null) return '—';
  if (r.expected === r.seed) return 'the paper';
  return `theory ${sig4(r.expected)} (${percent(r.deviation)})`;
}

function ReplayRow(props: { row: JudgedRow; open: boolean; onToggle: () => void }) {
  const { row: r, open, onToggle } = props;
  const unit = unitOf(r);
  const st = standing(r);
  return (
    <>
      <tr className={`standing-${st.replace(' ', '-')}`} onClick={onToggle} title={st === 'not judged' ? `Not judged: ${r.why}` : 'Why: click'}>
        <td>{r.label}</td>
        <td>
          {r.over_run === undefined ? r.metric : `${r.metric}: ${r.run || 'as written'} / ${r.over_run}`}{' '}
          {unit !== '?' && <span className="muted">({unit})</span>}
          {r.repeats && (
            <span className="muted">
              , mean of {r.repeats} runs{r.range && `: ${sig4(r.range[0])} to ${sig4(r.range[1])}`}
            </span>
          )}
        </td>
        <td>{sig4(r.seed)}</td>
        <td>{r.error ? <span title={r.error}>—</span> : sig4(r.simulated)}</td>
        <td>{percent(offPaper(r))}</td>
        <td>{against(r)}</td>
        <td>{r.tolerance}</td>
        <td>{VERDICT[st]}</td>
      </tr>
      {open && (
        <tr className="replay-why">
          <td colSpan={8}>
            {st === 'not judged' ? 'Not judged: ' : st === 'theory' ? 'Judged against a corrected theory, not the paper: ' : ''}
            {r.error ? `${r.error}. ` : ''}
            {r.why}
          </td>
        </tr>
      )}
    </>
  );
}
