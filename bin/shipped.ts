// The scenarios that ship with stackscope: web/src/core/scenarios/shipped/*.json, and the
// replays of the seeds' experiments, web/src/core/scenarios/replays/*.json (docs/replays.md).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SHIPPED_DIR = fileURLToPath(new URL('../web/src/core/scenarios/shipped/', import.meta.url));
export const REPLAYS_DIR = fileURLToPath(new URL('../web/src/core/scenarios/replays/', import.meta.url));

export interface ShippedScenario {
  name: string;
  title: string;
  file: string;
}

export function shippedScenarios(): ShippedScenario[] {
  return scenariosIn(SHIPPED_DIR);
}

/** The replays: scenarios with a `reference` block, run by `stackscope replay`. */
export function replayScenarios(): ShippedScenario[] {
  return scenariosIn(REPLAYS_DIR);
}

/** The JSON documents of a folder (scenarios, lessons) by name and title, in file order. */
export function scenariosIn(dir: string): ShippedScenario[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const file = dir + f;
      const doc = JSON.parse(readFileSync(file, 'utf8')) as { name: string; title: string };
      return { name: doc.name, title: doc.title, file };
    });
}
