// One problem in a lesson: the field's path as scenario errors name it (`steps[2].at.event.host`),
// the reason, and where the field is in the file when the text is known.

import type { PathSegment } from '../scenarios/errors.ts';
import { locateJsonPath, type TextPosition } from './json_locate.ts';

export interface LessonError {
  path: string;
  message: string;
  at?: TextPosition;
}

/** A lesson that cannot be played: invalid, or an anchor or a question the run cannot answer. */
export class LessonFileError extends Error {
  constructor(readonly errors: LessonError[]) {
    super(errors.map((e) => `${e.path}: ${e.message}`).join('\n'));
  }
}

/** "steps[2].at.event.host" -> ['steps', 2, 'at', 'event', 'host'] */
function pathSegments(path: string): PathSegment[] {
  const out: PathSegment[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return out;
}

/** The errors with their line and column in `text`. */
export function withPositions(errors: readonly LessonError[], text: string): LessonError[] {
  return errors.map((e) => {
    const at = locateJsonPath(text, pathSegments(e.path));
    return at ? { ...e, at } : e;
  });
}

/** "lesson.json: steps[2].at.event.host: no host "x" (line 14 column 30)", one line each. */
export function formatLessonErrors(errors: readonly LessonError[], source: string): string {
  return errors
    .map((e) => {
      const where = e.at ? ` (line ${e.at.line} column ${e.at.column})` : '';
      return e.path === '' ? `${source}: ${e.message}${where}` : `${source}: ${e.path}: ${e.message}${where}`;
    })
    .join('\n');
}

/** Throws the one error of a lesson the run cannot play, at `path`. */
export function fail(path: string, message: string): never {
  throw new LessonFileError([{ path, message }]);
}

/** The index of `name` among the run's `names` (hosts, links, event kinds ...), or an error at
 *  `path` listing them. */
export function indexOrFail(names: readonly string[], name: string, path: string, what: string): number {
  const i = names.indexOf(name);
  if (i < 0) fail(path, `no ${what} "${name}" in this run (${names.join(', ')})`);
  return i;
}
