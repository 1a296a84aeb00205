// The scenarios shipped with the page (web/src/scenarios/shipped), bundled by Vite.
import type { Scenario } from '../scenarios/types.ts';

const files = import.meta.glob<Scenario>('../scenarios/shipped/*.json', { eager: true, import: 'default' });

export const SHIPPED: Scenario[] = Object.keys(files)
  .sort()
  .map((k) => files[k]!);

export function shippedByName(name: string): Scenario | undefined {
  return SHIPPED.find((s) => s.name === name);
}
