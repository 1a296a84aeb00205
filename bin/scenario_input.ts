// From a command-line argument to the scenario JSON the engine gets: the file (or a shipped
// scenario by name), --set overrides, --seed, then the schema's validation. Every failure is
// a ScenarioInputError whose message names the file, the line and column, the field and the
// reason, in the engine's words (docs/scenario-format.md).
import { existsSync, readFileSync } from 'node:fs';
import { formatErrors, ScenarioSetError, validateScenario } from '../web/src/core/scenarios/index.ts';
import { applySetAt } from '../web/src/core/scenarios/set_path.ts';
import type { Scenario } from '../web/src/core/scenarios/types.ts';
import { locateErrors, readScenarioText } from '../web/src/core/scenarios/validate.ts';
import { replayScenarios, shippedScenarios } from './shipped.ts';

export class ScenarioInputError extends Error {}

export interface ScenarioInput {
  /** What the user named: a file path, or a shipped scenario's name. */
  source: string;
  scenario: Scenario;
  /** The scenario as JSON text, for the engine: the file's own text when nothing was
   *  overridden, else the validated scenario re-serialised. */
  json: string;
}

/** The file an argument names (it ends in .json, or exists), read; null when it names no
 *  file (then it is a shipped name). An unreadable file is a ScenarioInputError. */
export function readArgFile(arg: string): { source: string; text: string } | null {
  const file = readArgBytes(arg);
  return file && { source: file.source, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(file.bytes) };
}

/** readArgFile(), the bytes as written: the scenario reader judges their encoding. */
function readArgBytes(arg: string): { source: string; bytes: Uint8Array } | null {
  if (!arg.endsWith('.json') && !existsSync(arg)) return null;
  try {
    return { source: arg, bytes: readFileSync(arg) };
  } catch (e) {
    throw new ScenarioInputError(`${arg}: cannot read the file (${(e as Error).message})`);
  }
}

function locate(arg: string): { source: string; bytes: Uint8Array } {
  const file = readArgBytes(arg);
  if (file) return file;
  const shipped = [...shippedScenarios(), ...replayScenarios()].find((s) => s.name === arg);
  if (!shipped) {
    const names = shippedScenarios()
      .map((s) => s.name)
      .join(', ');
    const replays = replayScenarios()
      .map((s) => s.name)
      .join(', ');
    throw new ScenarioInputError(`${arg}: no such scenario (shipped: ${names}; replays: ${replays}) and no such file`);
  }
  return { source: arg, bytes: readFileSync(shipped.file) };
}

/**
 * The scenario an argument names, with the overrides, validated as the engine will read it.
 * The file's bytes are judged as written (size, encoding, JSON) before anything is
 * re-serialised, so every message has the file's own line and column; an error in a field a
 * --set changed names that --set instead. The engine gets the file's text when nothing was
 * overridden, so its positions are the file's too.
 */
export function readScenarioInput(arg: string, sets: string[], seed: string | undefined): ScenarioInput {
  const { source, bytes } = locate(arg);
  const read = readScenarioText(bytes);
  if (!read.ok) throw new ScenarioInputError(formatErrors(read.errors, source));
  const assignments = seed === undefined ? sets : [...sets, `seed=${seed}`];
  let doc = read.doc.value;
  const changed: Array<{ path: string; assignment: string }> = [];
  try {
    for (const a of assignments) {
      const r = applySetAt(doc, a);
      doc = r.doc;
      changed.push({ path: r.path, assignment: a });
    }
  } catch (e) {
    if (e instanceof ScenarioSetError) throw new ScenarioInputError(`${source}: ${e.message}`);
    throw e;
  }
  const result = validateScenario(doc);
  if (!result.ok) {
    const setBy = (path: string): string | undefined =>
      changed.findLast((c) => path === c.path || path.startsWith(`${c.path}.`) || path.startsWith(`${c.path}[`))?.assignment;
    const errors = locateErrors(result.errors, read.doc, (path) => setBy(path) !== undefined).map((e) => {
      const a = setBy(e.path);
      return a === undefined ? e : { ...e, message: `${e.message} (set by --set ${a})` };
    });
    throw new ScenarioInputError(formatErrors(errors, source));
  }
  const json = changed.length === 0 ? read.doc.text : JSON.stringify(result.scenario);
  return { source, scenario: result.scenario, json };
}
