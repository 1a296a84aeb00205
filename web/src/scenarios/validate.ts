// validateScenario(): the first of the two checks of docs/scenario-format.md. A structural
// pass (schema.json through Ajv) then, only if that passes, a semantic pass (semantic.ts)
// that can rely on every field having its type. Nothing here throws on bad input.

import Ajv2020 from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';

import { scenarioSchema } from './defaults.ts';
import type { ScenarioError } from './errors.ts';
import { findDuplicateKeys } from './json_keys.ts';
import { translateAjvErrors } from './schema_errors.ts';
import { checkScenario } from './semantic.ts';
import type { Scenario } from './types.ts';

export type ValidationResult = { ok: true; scenario: Scenario } | { ok: false; errors: ScenarioError[] };

let compiled: ValidateFunction | null = null;

// Compiled once, on first use: compiling costs tens of milliseconds, validating microseconds.
function validator(): ValidateFunction {
  if (compiled === null) {
    const ajv = new Ajv2020({
      allErrors: true, // every problem in one go, not the first
      verbose: true, // errors carry the failing schema and value: schema_errors.ts words them
      discriminator: true, // links and apps: only the branch named by `type` reports
      strict: true,
      strictRequired: false, // `type` is required in each branch, not beside `discriminator`
    });
    compiled = ajv.compile(scenarioSchema);
  }
  return compiled;
}

/**
 * Checks a parsed JSON document against the scenario format. On success returns a copy of
 * the scenario as written (no defaults added: see applyDefaults()); on failure one error
 * per problem, each naming the field (`links[0].baud`) and the reason.
 */
export function validateScenario(input: unknown): ValidationResult {
  const validate = validator();
  if (!validate(input)) return { ok: false, errors: translateAjvErrors(validate.errors ?? [], scenarioSchema) };
  const scenario = structuredClone(input) as Scenario;
  const errors = checkScenario(scenario);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, scenario };
}

/**
 * Parses JSON text and validates it. A syntax error is reported with its line and column,
 * and a key written twice in one object is an error (as in the engine's reader), which
 * validateScenario() on an already parsed document cannot see.
 */
export function parseScenario(text: string): ValidationResult {
  return parseChecked(text, validateScenario);
}

/** A JSON file's text checked by `validate` (a scenario's, a lesson's validator): a syntax
 *  error with its line and column, and a key written twice (JSON.parse keeps the last one
 *  silently) as an error of its own, beside what `validate` finds. */
export function parseChecked<T>(text: string, validate: (doc: unknown) => ({ ok: true } & T) | { ok: false; errors: ScenarioError[] }): ({ ok: true } & T) | { ok: false; errors: ScenarioError[] } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { ok: false, errors: [{ path: '', message: `is not valid JSON: ${jsonErrorText(e, text)}` }] };
  }
  const duplicates = findDuplicateKeys(text);
  const r = validate(doc);
  if (duplicates.length === 0) return r;
  return { ok: false, errors: [...duplicates, ...(r.ok ? [] : r.errors)] };
}

// V8 says "... at position 42" (and, in newer versions, "(line 3 column 5)"); people count lines.
function jsonErrorText(e: unknown, text: string): string {
  const msg = e instanceof Error ? e.message : String(e);
  const m = /at position (\d+)/.exec(msg);
  if (m === null || /line \d+ column \d+/.test(msg)) return msg;
  const before = text.slice(0, Number(m[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `${msg} (line ${line} column ${column})`;
}
