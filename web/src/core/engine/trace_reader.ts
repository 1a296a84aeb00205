// Reads batches of trace records (wasm/sim/trace_rec.h) into a growing Trace. Frames come
// as two records, TREC_FRAME when sent and TREC_FATE when their fate is known; the reader
// joins them by id. Offsets below are the C header's, named the same way.
import { EventColumns, EventRef, FrameColumns, FrameRef, type SentFrame } from './trace_columns.ts';
import { AppRecordKind, Fate, type TraceAppRecord, type TraceEvent, type TraceFrame, type TraceLinkEvent } from './trace_types.ts';

const TREC_FRAME = 1;
const TREC_EVENT = 2;
const TREC_LINK = 3;
const TREC_APP = 4;
const TREC_FATE = 5;
const TREC_HDR = 8;

export const FRAME_OFF = {
  id: 8,
  parent: 12,
  tSent: 16,
  link: 24,
  dir: 26,
  retx: 27,
  len: 28,
  faults: 30,
  node: 31,
  orig: 32,
  cause: 36,
  queue: 40,
  rule: 44,
  fixed: 48,
} as const;
export const FATE_OFF = {
  id: 8,
  link: 12,
  dir: 14,
  fate: 15,
  tWire: 16,
  tWireEnd: 24,
  tEnd: 32,
  reason: 40,
  slots: 42,
  wireLen: 44,
  firstSlot: 48,
} as const;
export const EVENT_OFF = {
  time: 8,
  seq: 16,
  kind: 20,
  host: 22,
  conn: 23,
  lport: 24,
  rport: 26,
  a: 28,
  cause: 44,
} as const;
const LINK_OFF = { time: 8, link: 16, dir: 18, kind: 19, value: 20, frame: 24 } as const;
export const APP_OFF = {
  time: 8,
  host: 16,
  app: 17,
  kind: 18,
  done: 19,
  error: 20,
  bytes: 24,
  elapsed: 32,
  textLen: 36,
  fixed: 40,
} as const;

/** Thrown for a record stream that does not follow the format: nothing is guessed. */
export class TraceFormatError extends Error {}

/** The record types of trace_rec.h (enum trec_type). */
export const RecordType = { Frame: TREC_FRAME, Event: TREC_EVENT, Link: TREC_LINK, App: TREC_APP, Fate: TREC_FATE } as const;

/** Calls `visit` with each record of a batch (its type, a view of the batch and the
 *  record's offset), checking each record's size; throws TraceFormatError at the first that
 *  does not follow the format. */
export function forEachRecord(batch: Uint8Array, visit: (type: number, view: DataView, off: number) => void): void {
  const view = new DataView(batch.buffer, batch.byteOffset, batch.byteLength);
  let off = 0;
  while (off < batch.length) {
    if (off + TREC_HDR > batch.length) throw new TraceFormatError(`truncated record at byte ${off}`);
    const type = view.getUint16(off, true);
    const size = view.getUint32(off + 4, true);
    if (size < TREC_HDR || size % 8 !== 0 || off + size > batch.length) throw new TraceFormatError(`record at byte ${off} has a bad size ${size}`);
    visit(type, view, off);
    off += size;
  }
}

export { ethernetDatagram } from './trace_columns.ts';

export class Trace {
  /** `links`: the world's links (its description), which tell the frames of an Ethernet
   *  link from the raw IPv4 ones; without them every frame is raw IPv4. */
  constructor(private readonly links: readonly { type: string }[] = []) {}

  /** The frames in the order sent: objects over `columns`, for the code that takes them
   *  one by one; a view that needs every frame reads the columns. */
  readonly frames: TraceFrame[] = [];
  readonly columns = new FrameColumns();
  readonly events: TraceEvent[] = [];
  readonly eventColumns = new EventColumns();
  readonly linkEvents: TraceLinkEvent[] = [];
  readonly apps: TraceAppRecord[] = [];
  /** frame id -> index in `columns` */
  private readonly byId = new Map<number, number>();
  private readonly decoder = new TextDecoder();

  frame(id: number): TraceFrame | undefined {
    const i = this.byId.get(id);
    return i === undefined ? undefined : this.frames[i];
  }

  /** The index of frame `id` in `frames` and `columns`, or -1. */
  indexOf(id: number): number {
    const i = this.byId.get(id) ?? -1;
    return i < this.frames.length ? i : -1;
  }

  /** The trace as it is now, unchanged by later appends: what a run going on shows so far.
   *  Its frames, events and bytes are shared, not copied (only the arrays of them are); a
   *  fate that comes later may show in it. */
  prefix(): Trace {
    // made by the constructor, then filled: the same shape as the trace (FrameColumns.prefix)
    return Object.assign(new Trace(this.links), this, {
      frames: this.frames.slice(),
      columns: this.columns.prefix(this.columns.length),
      events: this.events.slice(),
      eventColumns: this.eventColumns.prefix(this.eventColumns.length),
      linkEvents: this.linkEvents.slice(),
      apps: this.apps.slice(),
    });
  }

  /** Adds one batch (what Engine.takeTrace() returned). The frames' bytes stay in it: the
   *  caller must not change it afterwards. */
  append(batch: Uint8Array): void {
    forEachRecord(batch, (type, view, off) => {
      if (type === TREC_FRAME) this.readFrame(view, batch, off);
      else if (type === TREC_FATE) this.readFate(view, off);
      else if (type === TREC_EVENT) this.events.push(new EventRef(this.eventColumns, this.eventColumns.push(readEvent(view, off))));
      else if (type === TREC_LINK) this.linkEvents.push(readLink(view, off));
      else if (type === TREC_APP) this.apps.push(readApp(view, batch, off, this.decoder));
    });
  }

  private readFrame(v: DataView, b: Uint8Array, o: number): void {
    const link = v.getUint16(o + FRAME_OFF.link, true);
    const sent: SentFrame = {
      id: v.getUint32(o + FRAME_OFF.id, true),
      parent: v.getUint32(o + FRAME_OFF.parent, true),
      tSent: u64(v, o + FRAME_OFF.tSent),
      link,
      dir: v.getUint8(o + FRAME_OFF.dir) as 0 | 1,
      retx: v.getUint8(o + FRAME_OFF.retx),
      faults: v.getUint8(o + FRAME_OFF.faults),
      node: v.getUint8(o + FRAME_OFF.node),
      orig: v.getUint32(o + FRAME_OFF.orig, true),
      cause: v.getUint32(o + FRAME_OFF.cause, true),
      queue: v.getUint32(o + FRAME_OFF.queue, true),
      rule: v.getUint32(o + FRAME_OFF.rule, true),
      len: v.getUint16(o + FRAME_OFF.len, true),
      ethernet: this.links[link]?.type === 'ethernet',
    };
    const i = this.columns.push(sent, b, o + FRAME_OFF.fixed);
    this.frames.push(new FrameRef(this.columns, i));
    this.byId.set(sent.id, i);
  }

  private readFate(v: DataView, o: number): void {
    const id = v.getUint32(o + FATE_OFF.id, true);
    const i = this.byId.get(id);
    if (i === undefined) throw new TraceFormatError(`fate of frame ${id}, which was never sent`);
    this.columns.setFate(i, {
      fate: v.getUint8(o + FATE_OFF.fate) as Fate,
      tWire: u64(v, o + FATE_OFF.tWire),
      tWireEnd: u64(v, o + FATE_OFF.tWireEnd),
      tEnd: u64(v, o + FATE_OFF.tEnd),
      reason: v.getUint16(o + FATE_OFF.reason, true),
      slots: v.getUint16(o + FATE_OFF.slots, true),
      wireLen: v.getUint32(o + FATE_OFF.wireLen, true),
      firstSlot: u64(v, o + FATE_OFF.firstSlot),
    });
  }
}

/** An application's record; `decoder` reads its text. */
export function readApp(v: DataView, b: Uint8Array, o: number, decoder: TextDecoder): TraceAppRecord {
  const n = v.getUint32(o + APP_OFF.textLen, true);
  const start = o + APP_OFF.fixed;
  const kind = v.getUint8(o + APP_OFF.kind) as AppRecordKind;
  const rec: TraceAppRecord = {
    time: u64(v, o + APP_OFF.time),
    host: v.getUint8(o + APP_OFF.host),
    app: v.getUint8(o + APP_OFF.app),
    kind,
    done: v.getUint8(o + APP_OFF.done) === 1,
    error: v.getInt32(o + APP_OFF.error, true),
    bytes: u64(v, o + APP_OFF.bytes),
    elapsedUs: v.getUint32(o + APP_OFF.elapsed, true),
    text: decoder.decode(b.subarray(start, start + n)),
  };
  // Received bytes are kept as they came (a copy: the batch is reused by the caller).
  if (kind === AppRecordKind.Data) rec.data = b.slice(start, start + n);
  return rec;
}
/** Times and byte counts stay far below 2^53: exact as numbers. */
export function u64(v: DataView, o: number): number {
  return v.getUint32(o, true) + v.getUint32(o + 4, true) * 2 ** 32;
}

export function readEvent(v: DataView, o: number): TraceEvent {
  return {
    time: u64(v, o + EVENT_OFF.time),
    seq: v.getUint32(o + EVENT_OFF.seq, true),
    kind: v.getUint16(o + EVENT_OFF.kind, true),
    host: v.getUint8(o + EVENT_OFF.host),
    conn: v.getUint8(o + EVENT_OFF.conn),
    lport: v.getUint16(o + EVENT_OFF.lport, true),
    rport: v.getUint16(o + EVENT_OFF.rport, true),
    a: v.getUint32(o + EVENT_OFF.a, true),
    b: v.getUint32(o + EVENT_OFF.a + 4, true),
    c: v.getUint32(o + EVENT_OFF.a + 8, true),
    d: v.getUint32(o + EVENT_OFF.a + 12, true),
    cause: v.getUint32(o + EVENT_OFF.cause, true),
  };
}

function readLink(v: DataView, o: number): TraceLinkEvent {
  return {
    time: u64(v, o + LINK_OFF.time),
    link: v.getUint16(o + LINK_OFF.link, true),
    dir: v.getUint8(o + LINK_OFF.dir),
    kind: v.getUint8(o + LINK_OFF.kind),
    value: v.getUint32(o + LINK_OFF.value, true),
    frame: v.getUint32(o + LINK_OFF.frame, true),
  };
}
