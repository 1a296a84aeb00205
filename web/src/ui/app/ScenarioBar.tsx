// The top bar: scenario picker with the scenario's description under it, topology strip,
// Run (Cancel and a row of progress while a long run goes on), the what-if rules in force
// (in the packet list's words), exports and the display toggles.
import { useEffect } from 'react';
import { describeRule } from '../../core/run/what_if.ts';
import { ScenarioDescription } from './ScenarioDescription.tsx';
import { topologyChain } from './topology.ts';
import { cancelRun, chooseScenario, removeRule, runNow, setCompare, setState, SHIPPED, useApp, withSetsOrBase, type AppState } from '../common/store.ts';
import type { RunModel } from '../../core/run/run_model.ts';
import { LESSONS, loadScenario, REPLAYS } from '../common/shipped.ts';
import { openedLesson } from './opened_lessons.ts';
import { OpenLessonButton } from './OpenLessonButton.tsx';
import { LESSON_PREFIX } from './permalink.ts';
import type { Scenario } from '../../core/scenarios/types.ts';
import { LIVE_SCENARIO_NAME, LIVE_SCENARIO_TITLE } from '../common/live_mode.ts';
import { ExportCapture } from './ExportCapture.tsx';
import { RunProgressLine, useLongRun } from './RunProgressLine.tsx';

function ScenarioOptions(props: { label: string; scenarios: readonly Pick<Scenario, 'name' | 'title'>[] }) {
  return (
    <optgroup label={props.label}>
      {props.scenarios.map((s) => (
        <option key={s.name} value={s.name}>
          {s.title}
        </option>
      ))}
    </optgroup>
  );
}

/** What ran; in presenter type it may be cut short, the whole on hover. */
function runSummary(run: RunModel, mode: AppState['mode']): string {
  const head = `${run.result.trace.frames.length} frames, ${(run.endUs / 1e6).toFixed(3)} s`;
  if (mode === 'live') return `${head} live`;
  // a run cut short has no trace hash: the hash names a whole run
  return run.result.partial ? `${head} simulated, cut short` : `${head} simulated, trace ${run.result.hash}`;
}

export function ScenarioBar() {
  const name = useApp((s) => s.scenarioName);
  const base = useApp((s) => s.base);
  const sets = useApp((s) => s.sets);
  const rules = useApp((s) => s.rules);
  const status = useApp((s) => s.status);
  const longRun = useLongRun(status === 'running');
  const cancelled = useApp((s) => s.cancelled);
  const run = useApp((s) => s.run);
  const theme = useApp((s) => s.theme);
  const presenter = useApp((s) => s.presenter);
  const mode = useApp((s) => s.mode);
  const compare = useApp((s) => s.compare);
  // A lesson opened from a file is in the picker while it is open.
  const lessonName = useApp((s) => s.lesson?.name);
  const openedTitle = lessonName === undefined ? undefined : openedLesson(lessonName)?.title;
  const chain = topologyChain(withSetsOrBase(base, sets));

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    document.documentElement.dataset.presenter = String(presenter);
  }, [theme, presenter]);

  return (
    <header className="scenario-bar">
      <div className="bar-row bar-main">
        <label className="scenario-pick">
          Scenario{' '}
          <select
            aria-label="Scenario"
            className="scenario-select"
            title={base.title}
            value={name}
            onChange={(e) => {
              const v = e.target.value;
              // the live session, its engine and the board load when live mode is first chosen
              if (v === LIVE_SCENARIO_NAME) void import('./live_page.ts').then((p) => p.enterLive());
              else if (v.startsWith(LESSON_PREFIX)) {
                // the player, the lesson engine and the lesson's file load when one is first chosen
                void import('./lesson_player.ts')
                  .then((p) => p.openLesson(v.slice(LESSON_PREFIX.length)))
                  .then((problem) => (problem ? setState({ error: problem }) : runNow()));
              } else
                void loadScenario(v).then(() => {
                  chooseScenario(v);
                  void runNow();
                });
            }}
          >
            <ScenarioOptions label="Simulated" scenarios={SHIPPED} />
            <ScenarioOptions label="Replays of the seeds" scenarios={REPLAYS} />
            <optgroup label="Lessons">
              {LESSONS.map((l, i) => (
                <option key={l.name} value={LESSON_PREFIX + l.name}>
                  {`Lesson ${i + 1}: ${l.title}`}
                </option>
              ))}
              {openedTitle && <option value={name}>{`Opened: ${openedTitle}`}</option>}
            </optgroup>
            <optgroup label="Live">
              <option value={LIVE_SCENARIO_NAME}>{LIVE_SCENARIO_TITLE}</option>
            </optgroup>
          </select>
        </label>
        {mode === 'scenario' && !longRun && (
          <button type="button" onClick={() => void runNow()} disabled={status === 'running'}>
            Run
          </button>
        )}
        {mode === 'scenario' && longRun && (
          <button type="button" onClick={cancelRun} title="Stop this run; the views keep what it ran so far">
            Cancel
          </button>
        )}
        <OpenLessonButton />
        {cancelled && status !== 'running' && (
          <span className="run-cancelled" role="status">
            Run cancelled
          </span>
        )}
        {run && status !== 'running' && (
          <span className="muted run-summary" data-testid="run-summary" title={runSummary(run, mode)}>
            {runSummary(run, mode)}
          </span>
        )}
        <span className="bar-spacer" />
        <ExportCapture />
        <button type="button" onClick={() => void navigator.clipboard?.writeText(location.href)} aria-label="Copy the link to this run">
          Copy link
        </button>
        <label>
          <input type="checkbox" checked={theme === 'dark'} onChange={(e) => setState({ theme: e.target.checked ? 'dark' : 'light' })} /> Dark
        </label>
        <label>
          <input type="checkbox" checked={presenter} onChange={(e) => setState({ presenter: e.target.checked })} /> Presenter
        </label>
      </div>
      {longRun && <RunProgressLine />}
      {mode === 'scenario' && base.description && <ScenarioDescription text={base.description} />}
      {mode === 'scenario' && (
        <div className="bar-row topology" aria-label="Topology">
          {chain.map((it, i) => (
            <span key={i} className={`topo-${it.kind}`} title={it.detail}>
              {it.kind === 'link' ? `—${it.name}: ${it.detail}—` : `${it.name} (${it.detail})`}
            </span>
          ))}
        </div>
      )}
      {rules.length > 0 && (
        <div className="bar-row rules" aria-label="What-if rules">
          What if:{' '}
          {rules.map((r, i) => {
            const words = describeRule(r, run);
            return (
              <span key={i} className="rule">
                {words}{' '}
                <button type="button" aria-label={`Remove rule: ${words}`} onClick={() => removeRule(i)}>
                  ×
                </button>
              </span>
            );
          })}
          <label className="rules-compare" title="Run the scenario without these rules too, and show both ladders on one time axis with their differences">
            <input type="checkbox" checked={compare} onChange={(e) => setCompare(e.target.checked)} /> Side by side
          </label>
        </div>
      )}
    </header>
  );
}
