// parseLesson(): a lesson file's text to a Lesson, or one error per problem naming the field,
// its line and column. The structure is checked by lesson.schema.json through Ajv (compiled
// ahead of time into lesson_validate.ts), worded as scenario errors are (schema_errors.ts);
// semantic.ts then checks what a schema cannot say. The lesson's scenario is checked when it
// is resolved (scenario.ts), the anchors against the run (play.ts).

import { translateAjvErrors } from '../scenarios/schema_errors.ts';
import { parseChecked } from '../scenarios/validate.ts';
import { withPositions, type LessonError } from './errors.ts';
import schemaJson from './lesson.schema.json';
import { checkLesson } from './semantic.ts';
import validate from './lesson_validate.ts';
import type { Lesson } from './types.ts';

export const lessonSchema = schemaJson as unknown as Record<string, unknown>;

export type LessonResult = { ok: true; lesson: Lesson } | { ok: false; errors: LessonError[] };

/** Checks a parsed document against the lesson format; the lesson as written on success. */
export function validateLesson(doc: unknown): LessonResult {
  if (!validate(doc)) return { ok: false, errors: translateAjvErrors(validate.errors ?? [], lessonSchema) };
  const lesson = structuredClone(doc) as Lesson;
  const errors = checkLesson(lesson);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, lesson };
}

/** Parses and validates a lesson file's text; every error carries its line and column (a
 *  JSON syntax error has them in its message already). */
export function parseLesson(text: string): LessonResult {
  const r = parseChecked(text, validateLesson);
  if (r.ok) return r;
  const located = withPositions(
    r.errors.filter((e) => e.path !== ''),
    text,
  );
  return { ok: false, errors: [...r.errors.filter((e) => e.path === ''), ...located] };
}
