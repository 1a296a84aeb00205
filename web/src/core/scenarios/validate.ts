// validateScenario(): the first of the two checks of docs/scenario-format.md. A structural
// pass (schema.json through Ajv, compiled ahead of time into schema_validate.ts by
// scripts/gen-validators.ts) then, only if that passes, a semantic pass (semantic.ts) that
// can rely on every field having its type. Nothing here throws on bad input.

import { scenarioSchema } from './defaults.ts';
import type { ScenarioError } from './errors.ts';
import { locatePath, readJson, readJsonBytes, type JsonDoc } from './json_text.ts';
import { translateAjvErrors } from './schema_errors.ts';
import validate from './schema_validate.ts';
import { checkScenario } from './semantic.ts';
import type { Scenario } from './types.ts';

export type ValidationResult = { ok: true; scenario: Scenario } | { ok: false; errors: ScenarioError[] };

/**
 * Checks a parsed JSON document against the scenario format. On success returns a copy of
 * the scenario as written (no defaults added: see applyDefaults()); on failure one error
 * per problem, each naming the field (`links[0].baud`) and the reason.
 */
export function validateScenario(input: unknown): ValidationResult {
  if (!validate(input)) return { ok: false, errors: translateAjvErrors(validate.errors ?? [], scenarioSchema) };
  const scenario = structuredClone(input) as Scenario;
  const errors = checkScenario(scenario);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, scenario };
}

/** wasm/api/scenario_load.h: the longest scenario file, as written, and the values and keys
 *  it may hold (docs/scenario-format.md, "The file"). */
export const SCENARIO_MAX_BYTES = 1 << 20;
export const SCENARIO_MAX_TOKENS = 32768;

export type ScenarioText = { ok: true; doc: JsonDoc } | { ok: false; errors: ScenarioError[] };

/**
 * A scenario file's bytes (or the page's text) read as the engine reads them: the size as
 * written, the encoding, then the JSON, each refusal with its line and column (and the path
 * of the value being read), before anything is parsed or re-serialised.
 */
export function readScenarioText(input: string | Uint8Array): ScenarioText {
  const size = typeof input === 'string' ? new TextEncoder().encode(input).length : input.length;
  if (size > SCENARIO_MAX_BYTES)
    return { ok: false, errors: [{ path: '', message: `the file is ${size} bytes; a scenario file has at most ${SCENARIO_MAX_BYTES} bytes (1 MiB)` }] };
  const r = typeof input === 'string' ? readJson(input, SCENARIO_MAX_TOKENS) : readJsonBytes(input, SCENARIO_MAX_TOKENS);
  return r.ok ? r : { ok: false, errors: [r.error] };
}

/** The errors with the line and column of their fields in the file (locatePath), except
 *  those `elsewhere` says are not the file's (a field a --set changed). */
export function locateErrors(errors: readonly ScenarioError[], doc: JsonDoc, elsewhere = (_path: string) => false): ScenarioError[] {
  return errors.map((e) => (elsewhere(e.path) ? e : { ...e, ...locatePath(doc, e.path) }));
}

/**
 * Reads a scenario file's text (or bytes) and validates it: every error has its line and
 * column in the text, and the text is held to the engine's reader (a key written twice, a
 * lone surrogate, NaN: what JSON.parse would let through or word differently).
 */
export function parseScenario(input: string | Uint8Array): ValidationResult {
  const read = readScenarioText(input);
  if (!read.ok) return read;
  const r = validateScenario(read.doc.value);
  return r.ok ? r : { ok: false, errors: locateErrors(r.errors, read.doc) };
}

/** A JSON file's text checked by `validate` (a lesson's validator): the text by the
 *  engine's rules, a problem with it as one error at the document, its line and column in
 *  the message. */
export function parseChecked<T>(
  text: string,
  validate: (doc: unknown) => ({ ok: true } & T) | { ok: false; errors: ScenarioError[] },
): ({ ok: true } & T) | { ok: false; errors: ScenarioError[] } {
  const r = readJson(text);
  if (r.ok) return validate(r.doc.value);
  const e = r.error;
  return {
    ok: false,
    errors: [{ path: '', message: `is not valid JSON: ${e.path === '' ? '' : `${e.path}: `}${e.message} (line ${e.line} column ${e.column})` }],
  };
}
