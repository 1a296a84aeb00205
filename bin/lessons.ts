// The lessons that ship with stackscope: web/src/core/lessons/shipped/*.json (docs/lessons.md),
// and the shipped scenarios a lesson may name instead of writing one out.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { scenariosIn, shippedScenarios, type ShippedScenario } from './shipped.ts';

const LESSONS_DIR = fileURLToPath(new URL('../web/src/core/lessons/shipped/', import.meta.url));

export function shippedLessons(): ShippedScenario[] {
  return scenariosIn(LESSONS_DIR);
}

/** A shipped scenario's parsed JSON by name, or undefined. */
export function shippedScenarioDoc(name: string): unknown {
  const s = shippedScenarios().find((x) => x.name === name);
  return s ? (JSON.parse(readFileSync(s.file, 'utf8')) as unknown) : undefined;
}
