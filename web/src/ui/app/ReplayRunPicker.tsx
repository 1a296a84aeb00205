// Which of a replay's runs the views show (the packet list, the ladder, the graphs): any run
// the rows name, and for a run that repeats (the mean over tick placements) any one of its
// repetitions, so a row's spread can be looked at run by run. The choice is the store's
// replayRun ("name", or "name.k" for the k-th repetition) and the URL's run=.
import { repetitionsOf, runNames } from '../../core/replay/replay.ts';
import type { Scenario } from '../../core/scenarios/types.ts';
import { chooseReplayRun, useApp } from '../common/store.ts';

export function ReplayRunPicker(props: { replay: Scenario }) {
  const { replay } = props;
  const replayRun = useApp((s) => s.replayRun);
  // The scenario as written first: it is what the views show until a run is picked.
  const runs = ['', ...runNames(replay).filter((r) => r !== '')];
  if (runs.length < 2) return null;
  const [name = '', rep = '1'] = (replayRun ?? '').split('.');
  const reps = name === '' ? 1 : repetitionsOf(replay, name);
  return (
    <label>
      Run in the views{' '}
      <select aria-label="Run in the views" value={name} onChange={(e) => chooseReplayRun(e.target.value || null)}>
        {runs.map((r) => (
          <option key={r} value={r}>
            {r || 'the scenario as written'}
            {r && repetitionsOf(replay, r) > 1 ? ` (${repetitionsOf(replay, r)} repetitions)` : ''}
          </option>
        ))}
      </select>
      {reps > 1 && (
        <select aria-label="Repetition in the views" value={rep} onChange={(e) => chooseReplayRun(`${name}.${e.target.value}`)}>
          {Array.from({ length: reps }, (_, i) => (
            <option key={i} value={String(i + 1)}>
              repetition {i + 1} of {reps}
            </option>
          ))}
        </select>
      )}
    </label>
  );
}
