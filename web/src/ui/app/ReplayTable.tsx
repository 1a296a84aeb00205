// A replay's rows above the usual views: the paper's figure, what the simulation gives and
// how far apart they are, what each row is judged against (the paper, or a corrected theory
// and why) and its verdict; information rows say "not judged" and why, and are never counted
// as agreement. The rows follow the changed parameters; a run picker opens any run of the
// replay in the views; the sweeps (rows that form a curve) show as figures, the seed's
// points on ours; the table folds away.
import { useMemo, useState } from 'react';
import { unitOf, type JudgedRow } from '../../core/replay/judge.ts';
import { percent, sig4 } from '../../core/replay/number_text.ts';
import { againstText, judgedAgainst, offPaper, standing, standingCounts, standingSummary, type Standing } from '../../core/replay/standing.ts';
import { ReplayFigures } from './ReplayFigures.tsx';
import { ReplayRunPicker } from './ReplayRunPicker.tsx';
import { ReplaySweeps } from './ReplaySweeps.tsx';
import { useReplayResults } from './replay_results.ts';
import { useApp, withSetsOrBase } from '../common/store.ts';
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
  const replay = useMemo(() => {
    const s = withSetsOrBase(base, sets);
    return s.reference ? s : null;
  }, [base, sets]);
  const state = useReplayResults(replay);
  const [open, setOpen] = useState<number | null>(null);
  const [folded, setFolded] = useState(false);
  const [view, setView] = useState<'rows' | 'figures'>('rows');
  if (!replay || !state) return null;
  const result = state.status === 'ready' ? state.result : null;
  const shown = result && result.sweeps.length > 0 ? view : 'rows';
  return (
    <section className={`replay${folded ? ' folded' : ''}${shown === 'figures' ? ' figures' : ''}`} aria-label="Replay against the seed">
      <div className="replay-head">
        <button
          type="button"
          aria-expanded={!folded}
          aria-label={folded ? 'Show the replay table' : 'Fold the replay table'}
          title={folded ? 'Show the replay table' : 'Fold the replay table'}
          onClick={() => setFolded(!folded)}
        >
          {folded ? '▸' : '▾'}
        </button>
        <strong>Replay:</strong> <span className="replay-document">{replay.reference!.document}</span>
        {sets.length > 0 && (
          <span className="muted">
            {' '}
            (with {sets.length} changed parameter{sets.length > 1 ? 's' : ''})
          </span>
        )}
        <span className="bar-spacer" />
        {result && result.sweeps.length > 0 && !folded && (
          <span className="replay-views" role="group" aria-label="Replay view">
            <button type="button" aria-pressed={shown === 'rows'} onClick={() => setView('rows')}>
              Rows
            </button>
            <button type="button" aria-pressed={shown === 'figures'} onClick={() => setView('figures')}>
              Sweep figure{result.sweeps.length > 1 ? 's' : ''}
            </button>
          </span>
        )}
        <ReplayRunPicker replay={replay} />
        {state.status === 'running' && (
          <span data-testid="replay-progress">
            running {state.done} of {state.total} runs…
          </span>
        )}
        {result && (
          <span data-testid="replay-summary" title="Rows that are not judged are shown with their reason and never counted as agreement">
            {standingSummary(standingCounts(result.rows))}
          </span>
        )}
      </div>
      {state.status === 'failed' && <p role="alert">{state.message}</p>}
      {result && !folded && shown === 'figures' && <ReplaySweeps sweeps={result.sweeps} />}
      {result && !folded && shown === 'rows' && (
        <div className="replay-scroll">
          <table className="replay-table">
            <thead>
              <tr>
                <th>Row</th>
                <th>Metric</th>
                <th>Paper</th>
                <th>Simulated</th>
                <th title="How far the simulated figure is from the paper's own, whatever the row is judged against">Δ paper</th>
                <th>Judged against</th>
                <th>Tolerance</th>
                <th>Verdict</th>
              </tr>
            </thead>
            <tbody>
              {result.rows.map((r, i) => (
                <ReplayRow key={i} row={r} open={open === i} onToggle={() => setOpen(open === i ? null : i)} />
              ))}
            </tbody>
          </table>
          <ReplayFigures figures={result.figures} />
        </div>
      )}
    </section>
  );
}

/** What a row is judged against: the paper's figure, a corrected theory with its reason
 *  (cut short in the cell, whole on hover and in the row's expanded line), or nothing. */
function Against(props: { row: JudgedRow }) {
  const a = judgedAgainst(props.row);
  if (a.kind !== 'theory') return <>{againstText(props.row)}</>;
  return (
    <span className="replay-against" title={`A corrected theory, not the paper's figure: ${a.why}`}>
      {againstText(props.row)}: <span className="replay-theory-why">{a.why}</span>
    </span>
  );
}

/** The expanded line under a row: where it stands and why. */
function whyLine(r: JudgedRow): string {
  const a = judgedAgainst(r);
  const lead =
    a.kind === 'not judged' ? 'Not judged: ' : a.kind === 'theory' ? `Judged against a corrected theory (${sig4(a.value)}), not the paper: ${a.why}. ` : '';
  return `${lead}${r.error ? `${r.error}. ` : ''}${r.why}`;
}

function ReplayRow(props: { row: JudgedRow; open: boolean; onToggle: () => void }) {
  const { row: r, open, onToggle } = props;
  const unit = unitOf(r);
  const st = standing(r);
  return (
    <>
      <tr
        className={`standing-${st.replace(' ', '-')}`}
        onClick={onToggle}
        onKeyDown={(e) => {
          if (e.key !== 'Enter' && e.key !== ' ') return;
          e.preventDefault();
          onToggle();
        }}
        tabIndex={0}
        aria-expanded={open}
        title={st === 'not judged' ? `Not judged: ${r.why}` : 'Click: why'}
      >
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
        <td>
          <Against row={r} />
        </td>
        <td>{r.tolerance}</td>
        <td>{st === 'not judged' ? <span className="replay-not-judged">not judged</span> : VERDICT[st]}</td>
      </tr>
      {open && (
        <tr className="replay-why">
          <td colSpan={8}>{whyLine(r)}</td>
        </tr>
      )}
    </>
  );
}
