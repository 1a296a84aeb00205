// The scenario format (docs/scenario-format.md): its schema, its types, the validator the
// page, the `stackscope` command and the tests share, defaults and `--set` overrides.
//
//   const r = parseScenario(text);            // or validateScenario(JSON.parse(text))
//   if (!r.ok) { console.error(formatErrors(r.errors, file)); exit(2); }
//   const s = applyDefaults(r.scenario);      // every field present
//
// With overrides: doc = applySet(doc, "links.serial0.baud=9600") for each, then validate.

export { validateScenario, parseScenario, type ValidationResult } from './validate.ts';
export { formatErrors, type ScenarioError } from './errors.ts';
export { applyDefaults, nfcChunkBytesDefault, scenarioSchema, schemaDefault } from './defaults.ts';
export { applySet, ScenarioSetError } from './set_path.ts';
export { parseAddr, type HostAddr } from './addr.ts';
export type * from './types.ts';
