// A lesson's run: its scenario (written out, or a shipped one by name) with the lesson's
// `set` overrides, validated as `stackscope run --set` validates one. Errors name the lesson's
// field: `scenario.links[0].baud`, `set[1]`.

import { applySet, ScenarioSetError, validateScenario, type Scenario, type ScenarioError } from '../scenarios/index.ts';
import type { LessonError } from './errors.ts';
import type { Lesson } from './types.ts';

export type LessonScenarioResult = { ok: true; scenario: Scenario; json: string } | { ok: false; errors: LessonError[] };

/** `shipped(name)`: a shipped scenario's parsed JSON, or undefined (the caller reads files). */
export function lessonScenario(lesson: Lesson, shipped: (name: string) => unknown): LessonScenarioResult {
  let doc: unknown = lesson.scenario;
  if (typeof doc === 'string') {
    doc = shipped(doc);
    if (doc === undefined) return fail('scenario', `names "${lesson.scenario as string}", which is not a shipped scenario`);
  }
  const sets = lesson.set ?? [];
  for (let i = 0; i < sets.length; i++) {
    try {
      doc = applySet(doc, sets[i]!);
    } catch (e) {
      if (e instanceof ScenarioSetError) return fail(`set[${i}]`, e.message);
      throw e;
    }
  }
  const r = validateScenario(doc);
  if (!r.ok) return { ok: false, errors: r.errors.map((e) => scenarioError(lesson, e)) };
  return { ok: true, scenario: r.scenario, json: JSON.stringify(r.scenario) };
}

// An inline scenario's field is a field of the lesson; a shipped one's is reached through `set`.
function scenarioError(lesson: Lesson, e: ScenarioError): LessonError {
  if (typeof lesson.scenario === 'string') return { path: 'set', message: `${lesson.scenario}: ${e.path}: ${e.message}` };
  return { path: e.path === '' ? 'scenario' : `scenario.${e.path}`, message: e.message };
}

function fail(path: string, message: string): LessonScenarioResult {
  return { ok: false, errors: [{ path, message }] };
}
