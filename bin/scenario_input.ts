// From a command-line argument to the scenario JSON the engine gets: the file (or a shipped
// scenario by name), --set overrides, --seed, then the schema's validation. Every failure is
// a ScenarioInputError whose message names the file, the field and the reason.
import { existsSync, readFileSync } from 'node:fs';
import { applySet, formatErrors, parseScenario, ScenarioSetError, validateScenario } from '../web/src/scenarios/index.ts';
import { findDuplicateKeys } from '../web/src/scenarios/json_keys.ts';
import type { Scenario } from '../web/src/scenarios/types.ts';
import { replayScenarios, shippedScenarios } from './shipped.ts';

export class ScenarioInputError extends Error {}

export interface ScenarioInput {
  /** What the user named: a file path, or a shipped scenario's name. */
  source: string;
  scenario: Scenario;
  /** The validated scenario as JSON text, for the engine. */
  json: string;
}

/** The file an argument names (it ends in .json, or exists), read; null when it names no
 *  file (then it is a shipped name). An unreadable file is a ScenarioInputError. */
export function readArgFile(arg: string): { source: string; text: string } | null {
  if (!arg.endsWith('.json') && !existsSync(arg)) return null;
  try {
    return { source: arg, text: readFileSync(arg, 'utf8') };
  } catch (e) {
    throw new ScenarioInputError(`${arg}: cannot read the file (${(e as Error).message})`);
  }
}

function locate(arg: string): { source: string; text: string } {
  const file = readArgFile(arg);
  if (file) return file;
  const shipped = [...shippedScenarios(), ...replayScenarios()].find((s) => s.name === arg);
  if (!shipped) {
    const names = shippedScenarios().map((s) => s.name).join(', ');
    const replays = replayScenarios().map((s) => s.name).join(', ');
    throw new ScenarioInputError(`${arg}: no such scenario (shipped: ${names}; replays: ${replays}) and no such file`);
  }
  return { source: arg, text: readFileSync(shipped.file, 'utf8') };
}

export function readScenarioInput(arg: string, sets: string[], seed: string | undefined): ScenarioInput {
  const { source, text } = locate(arg);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    const r = parseScenario(text); // its message has the line and column
    throw new ScenarioInputError(formatErrors(r.ok ? [] : r.errors, source));
  }
  const duplicates = findDuplicateKeys(text);
  if (duplicates.length > 0) throw new ScenarioInputError(formatErrors(duplicates, source));
  try {
    for (const s of sets) doc = applySet(doc, s);
    if (seed !== undefined) doc = applySet(doc, `seed=${seed}`);
  } catch (e) {
    if (e instanceof ScenarioSetError) throw new ScenarioInputError(`${source}: ${e.message}`);
    throw e;
  }
  const result = validateScenario(doc);
  if (!result.ok) throw new ScenarioInputError(formatErrors(result.errors, source));
  return { source, scenario: result.scenario, json: JSON.stringify(result.scenario) };
}
