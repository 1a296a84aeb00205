// Anchors on stack events: `{ "event": { "kind": "tcp.rto.expire", "host": "client", "nth": 2 } }`,
// the 2nd timeout of the client's stack. Kinds, causes and states are the world's own names
// (trace_kinds, retx_causes, tcp_states), never the C enums.

import { NONE, traceField, type TraceEvent, type TraceFrame } from '../engine/trace_types.ts';
import { fail, indexOrFail } from './errors.ts';
import type { Hit } from './hit.ts';
import type { LessonRun } from './lesson_run.ts';
import type { EventQuery } from './types.ts';

/** The events the query matches, in trace order, as hits. */
export function eventHits(run: LessonRun, q: EventQuery, path: string): Hit[] {
  const w = run.world;
  const kind = indexOrFail(w.trace_kinds, q.kind, `${path}.kind`, 'event kind');
  const host =
    q.host === undefined
      ? -1
      : indexOrFail(
          w.hosts.map((h) => h.name),
          q.host,
          `${path}.host`,
          'host',
        );
  const cause = q.cause === undefined ? -1 : indexOrFail(w.retx_causes, q.cause, `${path}.cause`, 'retransmission cause');
  const state = q.state === undefined ? -1 : indexOrFail(w.tcp_states, q.state, `${path}.state`, 'TCP state');
  if (cause >= 0 && q.kind !== 'tcp.retransmit') fail(`${path}.cause`, 'is for tcp.retransmit events only');
  if (state >= 0 && q.kind !== 'tcp.state') fail(`${path}.state`, 'is for tcp.state events only');
  const matches = (e: TraceEvent) =>
    e.kind === kind &&
    (host < 0 || e.host === host) &&
    (cause < 0 || traceField(e, 'tcp.retransmit', 'cause') === cause) &&
    (state < 0 || traceField(e, 'tcp.state', 'new_state') === state);
  const sent = q.kind === 'tcp.retransmit' ? framesByCause(run) : new Map<number, TraceFrame>();
  return run.events.filter(matches).map((e) => eventHit(run, e, sent.get(e.seq)));
}

function eventHit(run: LessonRun, e: TraceEvent, frame: TraceFrame | undefined): Hit {
  if (!frame) return { time: e.time, event: e };
  const view = run.model.link(frame.link);
  return { time: e.time, event: e, frame, row: view.analysis.rows[view.rowOf.get(frame.id)!] };
}

// tcp.retransmit event seq -> the frame it sent (the first, if a bridge forwarded copies)
function framesByCause(run: LessonRun): Map<number, TraceFrame> {
  const out = new Map<number, TraceFrame>();
  for (const f of run.model.result.trace.frames) if (f.cause !== NONE && !out.has(f.cause)) out.set(f.cause, f);
  return out;
}
