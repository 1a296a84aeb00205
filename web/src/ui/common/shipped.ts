// The scenarios shipped with the page (web/src/core/scenarios/shipped), the replays of the
// seeds' experiments (web/src/core/scenarios/replays, docs/replays.md) and the lessons
// (web/src/core/lessons/shipped, docs/lessons.md), bundled by Vite.
import type { Scenario } from '../../core/scenarios/types.ts';
import { validateLesson, type Lesson } from '../../core/lessons/index.ts';

const files = import.meta.glob<Scenario>('../../core/scenarios/shipped/*.json', { eager: true, import: 'default' });
const replayFiles = import.meta.glob<Scenario>('../../core/scenarios/replays/*.json', { eager: true, import: 'default' });
const lessonFiles = import.meta.glob<unknown>('../../core/lessons/shipped/*.json', { eager: true, import: 'default' });

const sorted = (f: Record<string, Scenario>) =>
  Object.keys(f)
    .sort()
    .map((k) => f[k]!);

export const SHIPPED: Scenario[] = sorted(files);
/** Scenarios with a `reference` block: the page shows their rows beside the seed's figures. */
export const REPLAYS: Scenario[] = sorted(replayFiles);

export function shippedByName(name: string): Scenario | undefined {
  return SHIPPED.find((s) => s.name === name) ?? REPLAYS.find((s) => s.name === name);
}

/** The shipped lessons, in file order (their numbers). A lesson that does not validate is a
 *  bug of the project (its tests check every one), so it fails loudly here too. */
export const LESSONS: Lesson[] = Object.keys(lessonFiles)
  .sort()
  .map((k) => {
    const r = validateLesson(lessonFiles[k]);
    if (!r.ok) throw new Error(`${k}: ${r.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
    return r.lesson;
  });

export function lessonByName(name: string): Lesson | undefined {
  return LESSONS.find((l) => l.name === name);
}
