// The lessons that ship with stackscope: web/src/lessons/shipped/*.json (docs/lessons.md),
// and the shipped scenarios a lesson may name instead of writing one out.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { shippedScenarios, type ShippedScenario } from './shipped.ts';

export const LESSONS_DIR = fileURLToPath(new URL('../web/src/lessons/shipped/', import.meta.url));

export function shippedLessons(): ShippedScenario[] {
  return readdirSync(LESSONS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const file = LESSONS_DIR + f;
      const doc = JSON.parse(readFileSync(file, 'utf8')) as { name: string; title: string };
      return { name: doc.name, title: doc.title, file };
    });
}

/** A shipped scenario's parsed JSON by name, or undefined. */
export function shippedScenarioDoc(name: string): unknown {
  const s = shippedScenarios().find((x) => x.name === name);
  return s ? (JSON.parse(readFileSync(s.file, 'utf8')) as unknown) : undefined;
}
