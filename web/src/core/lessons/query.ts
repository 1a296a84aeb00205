// The anchor query language (docs/lessons.md, "Anchors"): an event or a frame found by what it
// is, never by a number written into the lesson, so a changed parameter moves the anchor with
// the run. `nth` counts the matches, from the run's start or after an earlier step's anchor.

import { isAfter, type Hit } from './hit.ts';
import type { LessonRun } from './lesson_run.ts';
import { fail } from './errors.ts';
import { eventHits } from './query_event.ts';
import { frameHits } from './query_frame.ts';
import type { Anchor } from './types.ts';

/** The hit an anchor names; `byId`: the earlier steps' hits by their ids. Throws a
 *  LessonFileError naming the anchor's field when the run has no such thing. */
export function resolveAnchor(run: LessonRun, a: Anchor, path: string, byId: ReadonlyMap<string, Hit>): Hit {
  const field = a.event ? 'event' : 'frame';
  const q = a.event ?? a.frame!;
  const where = `${path}.${field}`;
  let hits = a.event ? eventHits(run, a.event, where) : frameHits(run, a.frame!, where);
  if (q.after !== undefined) {
    const prev = byId.get(q.after);
    if (!prev) fail(`${where}.after`, `names "${q.after}", whose anchor is not resolved yet`);
    hits = hits.filter((h) => isAfter(h, prev));
  }
  const nth = q.nth ?? 1;
  const hit = hits[nth - 1];
  if (!hit) {
    const after = q.after === undefined ? '' : ` after step "${q.after}"`;
    fail(where, `not found: the run has ${hits.length} such ${field}${hits.length === 1 ? '' : 's'}${after}, the lesson wants number ${nth}`);
  }
  return hit;
}
