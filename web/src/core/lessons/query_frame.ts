// Anchors on frames: `{ "frame": { "link": "eth", "from": "client", "payload": true,
// "retransmitted": true } }`, the first frame with data the client's stack sent again. Rows
// are the link's packet list with Wireshark's analysis (run_model.ts); the stack's own view
// (retransmitted, cause) comes from the trace, not from Wireshark's guess.

import { Fate, type TraceFrame } from '../engine/trace_types.ts';
import type { PacketRow } from '../packets/index.ts';
import { NO_RETX, type Hit } from './hit.ts';
import { nodeName, type LessonRun } from './lesson_run.ts';
import { fail, indexOrFail } from './errors.ts';
import type { FrameQuery } from './types.ts';

// The tcp.analysis.* flags a packet-list row carries (Wireshark's names).
export const ANALYSIS_FLAGS = [
  'retransmission',
  'fast_retransmission',
  'spurious_retransmission',
  'out_of_order',
  'lost_segment',
  'ack_lost_segment',
  'duplicate_ack',
  'keep_alive',
  'keep_alive_ack',
  'zero_window',
  'zero_window_probe',
  'zero_window_probe_ack',
  'window_update',
  'window_full',
  'reused_ports',
];

// RFC 9293 3.1: the header's flag bits
const FLAG_BITS: Record<string, number> = { F: 0x01, S: 0x02, R: 0x04, P: 0x08, A: 0x10, U: 0x20 };

export function frameHits(run: LessonRun, q: FrameQuery, path: string): Hit[] {
  const w = run.world;
  const link =
    q.link === undefined
      ? 0
      : indexOrFail(
          w.links.map((l) => l.name),
          q.link,
          `${path}.link`,
          'link',
        );
  const nodes = [...w.hosts.map((h) => h.name), ...w.bridges.map((b) => b.name)];
  const from = q.from === undefined ? -1 : indexOrFail(nodes, q.from, `${path}.from`, 'host or bridge');
  const cause = q.cause === undefined ? -1 : indexOrFail(w.retx_causes, q.cause, `${path}.cause`, 'retransmission cause');
  if (q.analysis !== undefined && !ANALYSIS_FLAGS.includes(q.analysis))
    fail(`${path}.analysis`, `no analysis flag "${q.analysis}" (${ANALYSIS_FLAGS.join(', ')})`);
  const flags = [...(q.tcp_flags ?? '')].reduce((m, c) => m | FLAG_BITS[c]!, 0);
  const view = run.model.link(link);
  const matches = (f: TraceFrame, row: PacketRow) =>
    (from < 0 || f.node === from) &&
    (flags === 0 || (row.tcp !== undefined && (row.tcp.flags & flags) === flags)) &&
    (q.payload === undefined || (row.tcp !== undefined && row.tcp.len > 0) === q.payload) &&
    (q.analysis === undefined || row.flags.includes(`tcp.analysis.${q.analysis}`)) &&
    (q.retransmitted === undefined || (f.retx !== NO_RETX) === q.retransmitted) &&
    (cause < 0 || f.retx === cause) &&
    (q.fate === undefined || (q.fate === 'dropped' ? f.fate === Fate.Dropped : f.fate === Fate.Delivered));
  const hits: Hit[] = [];
  view.frames.forEach((f, i) => {
    const row = view.analysis.rows[i]!;
    if (matches(f, row)) hits.push({ time: f.tSent, frame: f, row });
  });
  return hits;
}

/** "eth No. 9 (client)": how the packet list names a frame. */
export function frameLabel(run: LessonRun, f: TraceFrame): string {
  const view = run.model.link(f.link);
  return `${view.name} No. ${view.rowOf.get(f.id)! + 1} (${nodeName(run.world, f.node)})`;
}
