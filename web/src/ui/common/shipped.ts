// The scenarios shipped with the page (web/src/core/scenarios/shipped), the replays of the
// seeds' experiments (web/src/core/scenarios/replays, docs/replays.md) and the lessons
// (web/src/core/lessons/shipped, docs/lessons.md), bundled by Vite. A replay's file is
// mostly the seed's figures, and a lesson needs its validator and the lesson engine: only
// the names and titles of both are in the first download (vite.config.ts, virtual:replay-index
// and virtual:lesson-index), a file (and the code it needs) is fetched when it is chosen.
import replayIndex from 'virtual:replay-index';
import lessonIndex from 'virtual:lesson-index';
import type { Scenario } from '../../core/scenarios/types.ts';
import type { Lesson } from '../../core/lessons/types.ts';

const files = import.meta.glob<Scenario>('../../core/scenarios/shipped/*.json', { eager: true, import: 'default' });
const replayFiles = import.meta.glob<Scenario>('../../core/scenarios/replays/*.json', { import: 'default' });
const lessonFiles = import.meta.glob<unknown>('../../core/lessons/shipped/*.json', { import: 'default' });

const sorted = (f: Record<string, Scenario>) =>
  Object.keys(f)
    .sort()
    .map((k) => f[k]!);

export const SHIPPED: Scenario[] = sorted(files);
/** Scenarios with a `reference` block (the page shows their rows beside the seed's figures),
 *  by name and title until one is loaded. */
export const REPLAYS: readonly { name: string; title: string }[] = replayIndex;
const loadedReplays = new Map<string, Scenario>();

/** A shipped scenario, or a replay already loaded (loadScenario). */
export function shippedByName(name: string): Scenario | undefined {
  return SHIPPED.find((s) => s.name === name) ?? loadedReplays.get(name);
}

/** Makes shippedByName(name) answer: fetches the replay of that name if there is one and it
 *  is not loaded yet. An unknown name is left for shippedByName to refuse. */
export async function loadScenario(name: string): Promise<void> {
  const entry = replayIndex.find((r) => r.name === name);
  if (entry === undefined || loadedReplays.has(name)) return;
  const load = replayFiles[`../../core/scenarios/replays/${entry.file}`];
  if (load) loadedReplays.set(name, await load());
}

/** The shipped lessons, by name and title in file order (their numbers), until one is
 *  loaded (loadLesson). */
export const LESSONS: readonly { name: string; title: string }[] = lessonIndex;
const loadedLessons = new Map<string, Lesson>();

/** Makes lessonByName(name) answer: fetches and validates the shipped lesson of that name if
 *  there is one and it is not loaded yet. A lesson that does not validate is a bug of the
 *  project (its tests check every one), so it fails loudly here too. */
export async function loadLesson(name: string): Promise<void> {
  const entry = lessonIndex.find((l) => l.name === name);
  const load = entry && lessonFiles[`../../core/lessons/shipped/${entry.file}`];
  if (!entry || !load || loadedLessons.has(name)) return;
  const [doc, { validateLesson }] = await Promise.all([load(), import('../../core/lessons/validate.ts')]);
  const r = validateLesson(doc);
  if (!r.ok) throw new Error(`${entry.file}: ${r.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
  loadedLessons.set(name, r.lesson);
}

/** A shipped lesson already loaded (loadLesson). */
export function lessonByName(name: string): Lesson | undefined {
  return loadedLessons.get(name);
}
