// Keeps the URL and the store in step: the URL is read once at start (a broken part is
// reported and left out), then rewritten whenever the run's definition changes. Reading it
// may fetch the replay or the lesson it names (shipped.ts) and the validator, hence async.
import { openedLessonText } from './opened_lessons.ts';
import { decodePermalink, encodePermalink, LESSON_PREFIX } from './permalink.ts';
import { composeScenario, getState, setState } from '../common/store.ts';
import { loadScenario, shippedByName } from '../common/shipped.ts';
import { LIVE_SCENARIO_NAME } from '../common/live_mode.ts';
import { defaultCapturePoint } from '../../core/engine/capture_point.ts';

export async function stateFromUrl(): Promise<void> {
  const { link, problems } = decodePermalink(location.hash);
  if (link.scenario !== undefined) await loadScenario(link.scenario);
  const patch: Parameters<typeof setState>[0] = {};
  if (link.scenario === LIVE_SCENARIO_NAME) {
    Object.assign(patch, { mode: 'live', scenarioName: LIVE_SCENARIO_NAME, lesson: null, focus: null });
  } else if (link.scenario?.startsWith(LESSON_PREFIX)) {
    const step = link.step ?? 0;
    const player = await import('./lesson_player.ts'); // loaded when first used
    const problem =
      link.lessonText !== undefined
        ? player.openLessonText(link.lessonText, "the link's lesson", step)
        : await player.openLesson(link.scenario.slice(LESSON_PREFIX.length), step);
    if (problem) problems.push(`URL: ${problem}`);
  } else if (link.scenario !== undefined) {
    const s = shippedByName(link.scenario);
    if (s) Object.assign(patch, { mode: 'scenario', scenarioName: s.name, base: s, lesson: null, focus: null });
    else problems.push(`URL: there is no scenario called "${link.scenario}"`);
  }
  Object.assign(patch, { sets: link.sets ?? [], rules: link.rules ?? [], askedLink: link.link ?? 'default', replayRun: link.replayRun ?? null });
  // the URL's changes are checked before the views see them (they show them unchecked, withSets)
  const c = await composeScenario({ ...getState(), ...patch });
  if (!c.ok) {
    problems.push(`URL: ${c.message}; running the scenario without the URL's changes`);
    Object.assign(patch, { sets: [], rules: [], replayRun: null });
  }
  setState({ ...patch, urlProblems: problems.length ? problems.join('\n') : null });
}

export function urlFromState(): void {
  const s = getState();
  const lessonText = s.lesson ? openedLessonText(s.lesson.name) : undefined;
  const lesson = s.lesson ? { step: s.lesson.step, ...(lessonText !== undefined ? { lessonText } : {}) } : {};
  const hash = encodePermalink({
    scenario: s.scenarioName,
    sets: s.sets,
    rules: s.rules,
    ...linkInView(s),
    ...lesson,
    ...(s.replayRun ? { replayRun: s.replayRun } : {}),
  });
  if (hash !== location.hash) history.replaceState(null, '', hash);
}

/** The capture point the URL names: the one asked for while its run goes on, then the one
 *  in view unless it is the scenario's default (link 0 is not always the default). */
function linkInView(s: ReturnType<typeof getState>): { link?: number } {
  if (typeof s.askedLink === 'number') return { link: s.askedLink };
  if (s.askedLink === 'default' || !s.run || s.link === defaultCapturePoint(s.run.result.world)) return {};
  return { link: s.link };
}
