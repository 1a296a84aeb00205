// Real runs of the shipped scenarios for the timeline's tests (the wasm engine in Node),
// each run once per test file.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildRunModel, type RunModel } from '../run_model.ts';
import { runScenario } from '../../engine/run.ts';

const runs = new Map<string, Promise<RunModel>>();

export function shippedText(name: string): string {
  return readFileSync(fileURLToPath(new URL(`../../scenarios/shipped/${name}.json`, import.meta.url)), 'utf8');
}

export function shippedRun(name: 'arduino-slip' | 'nfc-bridge-1080' | 'ethernet-bulk-lossy'): Promise<RunModel> {
  let r = runs.get(name);
  if (!r) runs.set(name, (r = runScenario(shippedText(name)).then(buildRunModel)));
  return r;
}
