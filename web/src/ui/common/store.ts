// The page's state and what changes it: one store, read with useApp(selector), so the packet
// list, the details, the ladder and the graphs share one cursor and one selection.
import { useSyncExternalStore } from 'react';
import { EngineClient, RunError, RunStopped, type Progress } from '../../core/engine/client.ts';
import { askedCapturePoint, defaultCapturePoint } from '../../core/engine/capture_point.ts';
import { formatErrors } from '../../core/scenarios/errors.ts';
import { applySet } from '../../core/scenarios/set_path.ts';
import type { Scenario } from '../../core/scenarios/types.ts';
import { buildRunModel, frameSentAt, GrowingRun, stepInstant, type RunModel } from '../../core/run/run_model.ts';
import { SO_FAR_READ_MS, soFarPacer } from './run_so_far.ts';
import { SHIPPED, shippedByName } from './shipped.ts';
import { withRules, type WhatIfRule } from '../../core/run/what_if.ts';
import type { Compare } from '../../core/lessons/types.ts';

export interface AppState {
  /** a scenario simulated in the worker, or the live session with a board (web/src/ui/serial) */
  mode: 'scenario' | 'live';
  scenarioName: string;
  /** the scenario as shipped (or as loaded) */
  base: Scenario;
  /** changed parameters, as `--set` assignments ("links.serial.baud=9600") */
  sets: string[];
  rules: WhatIfRule[];
  status: 'idle' | 'running' | 'ready';
  /** how far the run going on has gone (null before its first slice) */
  progress: Progress | null;
  /** the last run was cancelled (Cancel): the run before it, if any, is still shown */
  cancelled: boolean;
  /** the last problem (a bad parameter, a refused scenario); the last good run stays */
  error: string | null;
  /** what was wrong with the URL the page was opened with (those parts were left out) */
  urlProblems: string | null;
  run: RunModel | null;
  /** the scenario that `run` ran (base + sets + rules), validated */
  ran: Scenario | null;
  /** a replay's run shown in the views (its name in reference.runs, "name.k" for its k-th
   *  repetition, web/src/core/replay/replay.ts viewRunScenario), or null: the scenario as
   *  written */
  replayRun: string | null;
  /** the capture point: index of the link whose packets are listed (a new scenario opens on
   *  core/engine/capture_point.ts defaultCapturePoint) */
  link: number;
  /** the capture point a URL asked for (a number; 'default' when it named none), applied
   *  when the run going on ends, since only the run tells the scenario's links; then null */
  askedLink: number | 'default' | null;
  cursorUs: number;
  playing: boolean;
  /** playback speed, times real time */
  speed: number;
  /** selected frame id */
  selected: number | null;
  theme: 'light' | 'dark';
  presenter: boolean;
  /** draw nothing after the cursor (list, ladder, graphs): the class predicts before it sees */
  hideFuture: boolean;
  /** the pane shown alone over the whole window (Escape restores), or null */
  maximised: PaneId | null;
  /** the lesson being taught (web/src/core/lessons), or null */
  lesson: LessonState | null;
  /** show the run without the what-if rules beside the run with them */
  compare: boolean;
  /** a lesson step's change to show beside the lesson's run ("Reno"), or null */
  stepChange: Compare | null;
  /** the two runs shown side by side (the ladder pane), or null */
  sideBySide: SideBySide | null;
  /** a time span the ladder should zoom onto (a lesson's step); `n` tells requests apart */
  focus: { t0: number; t1: number; n: number } | null;
}

/** Two runs of one scenario on one time axis: `left` as it is, `right` with a change. */
export interface SideBySide {
  left: RunModel;
  right: RunModel;
  /** what each is: "without the what-if rules" / "with them", "NewReno" / "Reno" */
  labels: [string, string];
}

export interface LessonState {
  /** the shipped lesson's name */
  name: string;
  /** 0-based step shown */
  step: number;
  /** the choice the class picked for the step's question, or null */
  picked: number | null;
  /** whether the step's answer has been revealed (the run played on to it) */
  revealed: boolean;
}

/** The four linked views of a simulated run. */
export type PaneId = 'list' | 'ladder' | 'details' | 'graphs';

type Listener = () => void;

const first = SHIPPED[0]!;
let state: AppState = {
  mode: 'scenario',
  scenarioName: first.name,
  base: first,
  sets: [],
  rules: [],
  status: 'idle',
  progress: null,
  cancelled: false,
  error: null,
  urlProblems: null,
  run: null,
  ran: null,
  replayRun: null,
  link: 0,
  askedLink: null,
  cursorUs: 0,
  playing: false,
  speed: 1,
  selected: null,
  theme: 'light',
  presenter: false,
  hideFuture: false,
  maximised: null,
  lesson: null,
  compare: false,
  stepChange: null,
  sideBySide: null,
  focus: null,
};
const listeners = new Set<Listener>();
const client = new EngineClient();

export function getState(): AppState {
  return state;
}

export function setState(patch: Partial<AppState>): void {
  state = { ...state, ...patch };
  for (const l of listeners) l();
}

function subscribe(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** Calls `l` after every change (outside React: the URL sync). */
export function subscribeState(l: Listener): () => void {
  return subscribe(l);
}

export function useApp<T>(select: (s: AppState) => T): T {
  return useSyncExternalStore(subscribe, () => select(state));
}

type Composed = { ok: true; scenario: Scenario } | { ok: false; message: string };

/**
 * The scenario with the changed parameters and what-if rules applied and validated, or the
 * problem. The validator (and a replay's run planner) load on first use, not in the first
 * download: a scenario the project ships, unchanged, is not validated here, as its tests
 * validate every one (shipped.test.ts, the replays' tests).
 */
export async function composeScenario(s: Pick<AppState, 'base' | 'sets' | 'rules'> & Partial<Pick<AppState, 'replayRun'>>): Promise<Composed> {
  if (s.sets.length === 0 && s.rules.length === 0 && !s.replayRun && shippedByName(s.base.name) === s.base) return { ok: true, scenario: s.base };
  const [{ validateScenario }, replay] = await Promise.all([
    import('../../core/scenarios/validate.ts'),
    s.replayRun ? import('../../core/replay/replay.ts') : null,
  ]);
  let doc: unknown = s.base;
  try {
    doc = withSets(s.base, s.sets);
    // A replay's run: the scenario with that run's overrides, as the replay runs it.
    if (s.replayRun && replay) doc = replay.viewRunScenario(doc as Scenario, s.replayRun);
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
  doc = withRules(doc as Scenario, s.rules);
  const v = validateScenario(doc);
  return v.ok ? { ok: true, scenario: v.scenario } : { ok: false, message: formatErrors(v.errors, s.base.name) };
}

/** The scenario with the changed parameters applied, not validated: what the views show. A
 *  change is validated before it is kept (setParam, the URL's in url_sync.ts), so the
 *  views need not load the validator; an assignment that does not apply throws. */
export function withSets(base: Scenario, sets: readonly string[]): Scenario {
  let doc: unknown = base;
  for (const a of sets) doc = applySet(doc, a);
  return doc as Scenario;
}

/** withSets(), or `base` when an assignment does not apply. */
export function withSetsOrBase(base: Scenario, sets: readonly string[]): Scenario {
  try {
    return withSets(base, sets);
  } catch {
    return base;
  }
}

/** A speed that makes the whole run last about 20 s of playback. */
export function defaultSpeed(endUs: number): number {
  const x = endUs / 1e6 / 20;
  const steps = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100];
  return steps.find((v) => v >= x) ?? 100;
}

/** Runs the current scenario; on success the cursor and selection are kept where they make sense. */
export async function runNow(): Promise<void> {
  if (state.mode === 'live') return; // the live session is the run (app/live_page.ts)
  // running from the start: the validator may have to load first, and the last run's
  // summary must not pass for this one's meanwhile
  const last = state.run ? 'ready' : 'idle';
  setState({ status: 'running', progress: null, cancelled: false, error: null });
  const c = await composeScenario(state);
  if (!c.ok) {
    setState({ status: last, error: c.message, askedLink: null });
    return;
  }
  // decided before the run: the views may show this run so far meanwhile (showSoFar)
  const sameScenario = state.ran?.name === c.scenario.name;
  const pacer = soFarPacer();
  let shown = false;
  // the run's model, grown slice by slice (its packet list goes on while the run does)
  const model: { growing: GrowingRun | null } = { growing: null };
  try {
    // Side by side, the other run goes first (quickly: its progress is not shown), so both
    // are there when the views draw; the run so far is shown only when alone.
    const other = await sideBySideScenario();
    const otherRun = other ? buildRunModel(await client.run(JSON.stringify(other.scenario), () => {})) : null;
    const result = await client.run(JSON.stringify(c.scenario), (progress, going) => {
      if (other || !pacer.due()) return setState({ progress });
      pacer.show(() => {
        const trace = going.trace(SO_FAR_READ_MS); // the slices that came, or the first of them
        const growing = (model.growing ??= new GrowingRun(trace));
        showSoFar(growing.model(going.soFar()), progress, sameScenario, !shown);
        shown = true;
      });
    });
    const run = model.growing ? model.growing.model(result) : buildRunModel(result);
    const sideBySide =
      other && otherRun ? (other.rulesOff ? { left: otherRun, right: run, labels: other.labels } : { left: run, right: otherRun, labels: other.labels }) : null;
    setState({
      status: 'ready',
      run,
      ran: c.scenario,
      ...runLink(result.world, sameScenario),
      // where the class put them, on the last run or on this one so far
      cursorUs: sameScenario || shown ? Math.min(state.cursorUs, run.endUs) : 0,
      selected: sameScenario || shown ? state.selected : null,
      speed: sameScenario ? state.speed : defaultSpeed(run.endUs),
      playing: false,
      progress: null,
      sideBySide,
    });
  } catch (e) {
    if (e instanceof RunStopped && e.reason === 'superseded') return; // the newer run goes on
    const cancelled = e instanceof RunStopped;
    const error = cancelled ? null : e instanceof Error ? e.message : String(e);
    // A run the views were showing stays on show as far as it went (its frames are not
    // lost; its summary says it was cut short); one stopped sooner leaves the run before.
    const soFar = shown && model.growing && e instanceof RunError ? e.soFar : undefined;
    const kept = soFar && model.growing ? { run: model.growing.model(soFar), ran: c.scenario } : {};
    setState({ status: state.run || soFar ? 'ready' : 'idle', progress: null, cancelled, error, askedLink: null, ...kept });
  }
}

/** The run as far as it has gone, in the views while it goes on. A new scenario opens on
 *  its default capture point (a URL's asked link waits for the end, which says whether the
 *  scenario has it) with the cursor at 0 at its `first` showing; after that, and for the
 *  same scenario, the capture point, cursor and selection stay where the class puts them. */
function showSoFar(run: RunModel, progress: Progress, sameScenario: boolean, first: boolean): void {
  const fresh = first && !sameScenario;
  const link = fresh ? defaultCapturePoint(run.result.world) : Math.min(state.link, run.result.world.links.length - 1);
  setState({ run, progress, link, sideBySide: null, ...(fresh ? { cursorUs: 0, selected: null, playing: false } : {}) });
}

/** The capture point a finished run opens on: the one a URL asked for (a bad one is told
 *  with the URL's problems), else the one in view if the scenario is the same, else the
 *  scenario's default. */
function runLink(world: RunModel['result']['world'], sameScenario: boolean): Pick<AppState, 'link' | 'askedLink' | 'urlProblems'> {
  const asked = state.askedLink;
  if (typeof asked === 'number') {
    const { link, problem } = askedCapturePoint(world, asked);
    const urlProblems = problem ? [state.urlProblems, `URL: ${problem}`].filter((p) => p).join('\n') : state.urlProblems;
    return { link, askedLink: null, urlProblems };
  }
  const link = sameScenario && asked === null ? Math.min(state.link, world.links.length - 1) : defaultCapturePoint(world);
  return { link, askedLink: null, urlProblems: state.urlProblems };
}

/** Stops the run going on (Cancel); the views keep the run before it, if there was one. */
export function cancelRun(): void {
  client.cancel();
}

export function chooseScenario(name: string): void {
  const s = shippedByName(name);
  if (!s) {
    setState({ error: `no scenario called "${name}"` });
    return;
  }
  setState({
    mode: 'scenario',
    scenarioName: name,
    base: s,
    sets: [],
    rules: [],
    selected: null,
    lesson: null,
    stepChange: null,
    focus: null,
    replayRun: null,
    askedLink: null,
  });
}

/** Sets one parameter (a path into the scenario) and re-runs. The control shows the value
 *  at once (the validator may have to load first); a value the scenario refuses is taken
 *  back, with the reason. */
export async function setParam(path: string, value: unknown): Promise<void> {
  const assignment = `${path}=${JSON.stringify(value)}`;
  const before = state.sets;
  const sets = [...before.filter((a) => !a.startsWith(`${path}=`)), assignment];
  // The new value shows at once, and from then on the page is running: while the
  // validator loads, the last run's summary must not pass for this value's run.
  const last = state.status;
  setState({ sets, status: 'running', progress: null, cancelled: false, error: null });
  const c = await composeScenario({ ...state, sets });
  if (state.sets !== sets) return; // changed again meanwhile: that change decides
  if (!c.ok) {
    setState({ sets: before, status: last, error: c.message });
    return;
  }
  void runNow();
}

export function resetParam(path: string): void {
  setState({ sets: state.sets.filter((a) => !a.startsWith(`${path}=`)) });
  void runNow();
}

export function addRule(rule: WhatIfRule): void {
  setState({ rules: [...state.rules, rule] });
  void runNow();
}

/** The scenario to run beside the page's: a lesson step's change, else (with "Side by side"
 *  and rules in force) the scenario without the what-if rules; null for none. */
async function sideBySideScenario(): Promise<{ scenario: Scenario; labels: [string, string]; rulesOff: boolean } | null> {
  if (state.stepChange) {
    const c = await composeScenario({ ...state, sets: [...state.sets, ...state.stepChange.set] });
    return c.ok ? { scenario: c.scenario, labels: ['as the lesson runs', state.stepChange.label], rulesOff: false } : null;
  }
  if (!state.compare || state.rules.length === 0) return null;
  const c = await composeScenario({ ...state, rules: [] });
  return c.ok ? { scenario: c.scenario, labels: ['without the what-if rules', 'with them'], rulesOff: true } : null;
}

/** Shows a replay's run in the views (null: the scenario as written). */
export function chooseReplayRun(name: string | null): void {
  setState({ replayRun: name });
  void runNow();
}

/** Shows (or stops showing) the run without the what-if rules beside the run with them. */
export function setCompare(on: boolean): void {
  setState({ compare: on });
  void runNow();
}

export function removeRule(index: number): void {
  setState({ rules: state.rules.filter((_, i) => i !== index) });
  void runNow();
}

export function select(frameId: number | null, moveCursor = true): void {
  const f = frameId === null ? undefined : state.run?.result.trace.frame(frameId);
  setState({ selected: frameId, ...(f && moveCursor ? { cursorUs: f.tSent } : {}) });
}

export function setCursor(us: number): void {
  const end = state.run?.endUs ?? 0;
  setState({ cursorUs: Math.max(0, Math.min(end, us)) });
}

/** Moves the cursor to the next (or previous) instant something happens; a frame sent at
 *  that instant becomes the selection, so the list, the details and the ladder show the
 *  event the class has just stepped to. */
export function step(dir: 1 | -1): void {
  if (!state.run) return;
  const t = stepInstant(state.run.instants, state.cursorUs, dir);
  const f = frameSentAt(state.run.result.trace.frames, t, state.link);
  setState({ playing: false, cursorUs: t, ...(f ? { selected: f.id } : {}) });
}

export { SHIPPED };
