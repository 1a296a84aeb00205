// The packet list of one link as Wireshark shows it (No., Time, Source, Destination,
// Protocol, Length, Info), each row with Wireshark's TCP analysis flags as computed from the
// capture alone, beside what the stack really did: why a segment was sent again, and what
// became of the frame.
import type { RunResult } from '../web/src/core/engine/run.ts';

/** What the table reads: the world's names and the whole trace (a frame's row names the
 *  frames it re-sends or copies, on this link or another). */
type TableRun = Pick<RunResult, 'world' | 'trace'>;
import { Fate, NONE, type TraceFrame } from '../web/src/core/engine/trace_types.ts';
import { analyzeCapture } from '../web/src/core/packets/index.ts';
import { stackSays } from '../web/src/core/run/stack_says.ts';

export interface TableRow {
  no: number;
  time: number;
  source: string;
  destination: string;
  protocol: string;
  length: number;
  info: string;
  /** Wireshark's tcp.analysis.* flags for this frame. */
  flags: string[];
  /** The stack's own cause when it re-sent data ("RTO expired"), else null. */
  cause: string | null;
  /** The row number of the first transmission of the re-sent data, if on this link. */
  retransmits: number | null;
  fate: 'delivered' | 'dropped' | 'unfinished' | 'in flight';
  drop_reason: string | null;
  /** What the page's "Stack says" shows for the frame (cause with its RTO or dup ACKs, the
   *  frame it re-sends, forwarding, faults, fate); empty for a plain delivered frame. */
  stack_says: string;
}

const FATES: Record<number, TableRow['fate']> = {
  [Fate.Delivered]: 'delivered',
  [Fate.Dropped]: 'dropped',
  [Fate.Unfinished]: 'unfinished',
  [Fate.InFlight]: 'in flight',
};

/** The frame a host sent, for a copy a bridge forwarded (the stack's cause is the sender's). */
function origin(r: TableRun, f: TraceFrame): TraceFrame {
  let src = f;
  for (let p = r.trace.frame(src.parent); p; p = r.trace.frame(src.parent)) src = p;
  return src;
}

/** How this link's table names frame `id`, as the page does: its No. here (a copy of it
 *  counts), else "nfc 4", its No. on the link it crossed. */
function frameLabel(r: TableRun, rowOf: Map<number, number>, id: number): string {
  const here = rowOf.get(id);
  if (here !== undefined) return String(here);
  const f = r.trace.frame(id);
  if (!f) return `#${id}`;
  const no = r.trace.frames.filter((g) => g.link === f.link).findIndex((g) => g.id === id);
  return no < 0 ? `#${id}` : `${r.world.links[f.link]?.name ?? `link ${f.link}`} ${no + 1}`;
}

export function linkRows(r: TableRun, link: number): TableRow[] {
  const frames: TraceFrame[] = r.trace.frames.filter((f) => f.link === link);
  const rowOf = new Map<number, number>();
  frames.forEach((f, i) => {
    const root = origin(r, f).id;
    if (!rowOf.has(root)) rowOf.set(root, i + 1);
  });
  const packets = analyzeCapture(frames.map((f) => ({ timeUs: f.tSent, bytes: f.bytes, ethernet: f.ethernet })));
  const says = {
    world: r.world,
    events: r.trace.events,
    frame: (id: number) => r.trace.frame(id),
    frameLabel: (id: number) => frameLabel(r, rowOf, id),
  };
  return packets.map((p, i) => {
    const f = frames[i]!;
    const src = origin(r, f);
    return {
      no: p.no,
      time: p.timeS,
      source: p.source,
      destination: p.destination,
      protocol: p.protocol,
      length: p.length,
      info: p.info,
      flags: p.flags,
      cause: src.retx === 0xff ? null : (r.world.retx_causes[src.retx] ?? `cause ${src.retx}`),
      retransmits: src.orig === NONE ? null : (rowOf.get(src.orig) ?? null),
      fate: FATES[f.fate] ?? 'in flight',
      drop_reason: f.fate === Fate.Dropped || f.fate === Fate.Unfinished ? (r.world.drop_reason_texts[f.reason] ?? null) : null,
      stack_says: stackSays(f, says),
    };
  });
}

/** tshark's default one-line-per-packet layout, with the stack's view appended, a line at
 *  a time (a long run's table is printed as it is made, never held as one text). */
export function* formatTable(rows: TableRow[]): Generator<string> {
  const w = { no: 3, src: 6, dst: 11, proto: 8 };
  for (const r of rows) {
    w.no = Math.max(w.no, String(r.no).length);
    w.src = Math.max(w.src, r.source.length);
    w.dst = Math.max(w.dst, r.destination.length);
    w.proto = Math.max(w.proto, r.protocol.length);
  }
  yield `${'No.'.padStart(w.no)} ${'Time'.padStart(11)} ${'Source'.padEnd(w.src)} ${'Destination'.padEnd(w.dst)} ${'Protocol'.padEnd(w.proto)} Length Info`;
  for (const r of rows) {
    const stack = r.stack_says ? `   [stack: ${r.stack_says}]` : '';
    yield `${String(r.no).padStart(w.no)} ${r.time.toFixed(6).padStart(11)} ${r.source.padEnd(w.src)} ${r.destination.padEnd(w.dst)} ${r.protocol.padEnd(w.proto)} ${String(r.length).padStart(6)} ${r.info}${stack}`;
  }
}

/** The rows as JSON.stringify(rows, null, 1) writes them, and a newline, in pieces of a
 *  row each: the text of 500 000 rows is more than one JavaScript string can hold. */
export function* tableJson(rows: TableRow[]): Generator<string> {
  if (rows.length === 0) {
    yield '[]\n';
    return;
  }
  yield '[\n';
  for (let i = 0; i < rows.length; i++) yield ` ${JSON.stringify(rows[i], null, 1).replaceAll('\n', '\n ')}${i + 1 < rows.length ? ',' : ''}\n`;
  yield ']\n';
}
