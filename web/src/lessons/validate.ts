// parseLesson(): a lesson file's text to a Lesson, or one error per problem naming the field,
// its line and column. The structure is checked by lesson.schema.json through Ajv, worded as
// scenario errors are (schema_errors.ts); semantic.ts then checks what a schema cannot say.
// The lesson's scenario is checked when it is resolved (scenario.ts), the anchors against the
// run (play.ts).

import Ajv2020 from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';

import { findDuplicateKeys } from '../scenarios/json_keys.ts';
import { translateAjvErrors } from '../scenarios/schema_errors.ts';
import { jsonErrorText } from '../scenarios/validate.ts';
import { withPositions, type LessonError } from './errors.ts';
import schemaJson from './lesson.schema.json';
import { checkLesson } from './semantic.ts';
import type { Lesson } from './types.ts';

export const lessonSchema = schemaJson as unknown as Record<string, unknown>;

export type LessonResult = { ok: true; lesson: Lesson } | { ok: false; errors: LessonError[] };

let compiled: ValidateFunction | null = null;

function validator(): ValidateFunction {
  // the same options as the scenario validator: every problem, the failing schema for the words
  compiled ??= new Ajv2020({ allErrors: true, verbose: true, strict: true }).compile(lessonSchema);
  return compiled;
}

/** Checks a parsed document against the lesson format; the lesson as written on success. */
export function validateLesson(doc: unknown): LessonResult {
  const validate = validator();
  if (!validate(doc)) return { ok: false, errors: translateAjvErrors(validate.errors ?? [], lessonSchema) };
  const lesson = structuredClone(doc) as Lesson;
  const errors = checkLesson(lesson);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, lesson };
}

/** Parses and validates a lesson file's text; every error carries its line and column. */
export function parseLesson(text: string): LessonResult {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { ok: false, errors: [{ path: '', message: `is not valid JSON: ${jsonErrorText(e, text)}` }] };
  }
  const duplicates = findDuplicateKeys(text);
  const r = validateLesson(doc);
  if (duplicates.length === 0 && r.ok) return r;
  return { ok: false, errors: withPositions([...duplicates, ...(r.ok ? [] : r.errors)], text) };
}
