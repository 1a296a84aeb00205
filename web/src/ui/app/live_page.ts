// The live session as the page's run: in live mode every change of the session (serial/
// live_store.ts says when) becomes the run the packet list, ladder and graphs show.
import { buildRunModel } from '../../core/run/run_model.ts';
import { defaultCapturePoint } from '../../core/engine/capture_point.ts';
import { LIVE_SCENARIO_NAME } from '../common/live_mode.ts';
import { getState, setState } from '../common/store.ts';
import { getLive, onSessionChange } from '../serial/live_store.ts';

/** The page switches to the live session (connected or not). */
export function enterLive(): void {
  setState({ mode: 'live', scenarioName: LIVE_SCENARIO_NAME, sets: [], rules: [], selected: null, error: null, lesson: null, focus: null, hideFuture: false });
  if (getLive().session) showLive();
  else setState({ run: null, ran: null, status: 'idle', cursorUs: 0, playing: false });
}

/** Shows the session as the page's run, now (nothing outside live mode). */
function showLive(): void {
  const s = getLive().session;
  if (!s || getState().mode !== 'live') return;
  const run = buildRunModel(s.snapshot());
  setState({ run, ran: s.scenario, status: 'ready', link: defaultCapturePoint(run.result.world), cursorUs: run.endUs, playing: false, error: null });
}

onSessionChange(showLive);
