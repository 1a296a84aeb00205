// The scenarios that ship with stackscope: web/src/scenarios/shipped/*.json.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SHIPPED_DIR = fileURLToPath(new URL('../web/src/scenarios/shipped/', import.meta.url));

export interface ShippedScenario {
  name: string;
  title: string;
  file: string;
}

export function shippedScenarios(): ShippedScenario[] {
  return readdirSync(SHIPPED_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const file = SHIPPED_DIR + f;
      const doc = JSON.parse(readFileSync(file, 'utf8')) as { name: string; title: string };
      return { name: doc.name, title: doc.title, file };
    });
}
