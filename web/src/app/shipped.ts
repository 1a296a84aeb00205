// The scenarios shipped with the page (web/src/scenarios/shipped) and the replays of the
// seeds' experiments (web/src/scenarios/replays, docs/replays.md), bundled by Vite.
import type { Scenario } from '../scenarios/types.ts';

const files = import.meta.glob<Scenario>('../scenarios/shipped/*.json', { eager: true, import: 'default' });
const replayFiles = import.meta.glob<Scenario>('../scenarios/replays/*.json', { eager: true, import: 'default' });

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
