// The frames of a trace as columns: one typed array per field, grown by doubling, and the
// frames' bytes left where the engine wrote them (the record batches, never copied). A
// frame as an object (FrameRef) is an index into the columns, about 30 bytes of heap
// instead of the 800 that a frame's own fields, copied bytes and views took at 100 000
// frames (docs/performance.md, "Run and first render at 100 000 frames").
import { Fate, type TraceEvent, type TraceFrame } from './trace_types.ts';
import { grown } from '../util/grown.ts';

type Column = Uint8Array | Uint16Array | Uint32Array | Float64Array;

/** What a TREC_FRAME record says (its bytes as an offset into its batch). */
export interface SentFrame {
  id: number;
  parent: number;
  tSent: number;
  link: number;
  dir: 0 | 1;
  retx: number;
  faults: number;
  node: number;
  orig: number;
  cause: number;
  queue: number;
  rule: number;
  len: number;
  ethernet: boolean;
}

/** What a TREC_FATE record adds. */
export interface FrameFate {
  fate: Fate;
  reason: number;
  tWire: number;
  tWireEnd: number;
  tEnd: number;
  slots: number;
  wireLen: number;
  firstSlot: number;
}

/** The IPv4 datagram an Ethernet II frame carries (a view), or an empty array for ARP and
 *  other EtherTypes. */
export function ethernetDatagram(frame: Uint8Array): Uint8Array {
  const ETH_HLEN = 14;
  const ipv4 = frame.length >= ETH_HLEN && frame[12] === 0x08 && frame[13] === 0x00;
  return ipv4 ? frame.subarray(ETH_HLEN) : frame.subarray(0, 0);
}

export class FrameColumns {
  length = 0;
  id = new Uint32Array(16);
  parent = new Uint32Array(16);
  orig = new Uint32Array(16);
  cause = new Uint32Array(16);
  queue = new Uint32Array(16);
  rule = new Uint32Array(16);
  wireLen = new Uint32Array(16);
  /** index in `batches` of the batch holding the frame's bytes, and their offset there */
  batch = new Uint32Array(16);
  off = new Uint32Array(16);
  tSent = new Float64Array(16);
  tWire = new Float64Array(16);
  tWireEnd = new Float64Array(16);
  tEnd = new Float64Array(16);
  firstSlot = new Float64Array(16);
  link = new Uint16Array(16);
  len = new Uint16Array(16);
  reason = new Uint16Array(16);
  slots = new Uint16Array(16);
  dir = new Uint8Array(16);
  retx = new Uint8Array(16);
  faults = new Uint8Array(16);
  node = new Uint8Array(16);
  fate = new Uint8Array(16);
  ethernet = new Uint8Array(16);
  /** the record batches the frames' bytes are in (kept whole, as the engine wrote them) */
  readonly batches: Uint8Array[] = [];

  /** Adds a sent frame whose bytes are at `off` in `batch`; returns its index. */
  push(s: SentFrame, batch: Uint8Array, off: number): number {
    const i = this.length;
    if (i === this.id.length) this.grow(2 * i);
    if (this.batches[this.batches.length - 1] !== batch) this.batches.push(batch);
    this.id[i] = s.id;
    this.parent[i] = s.parent;
    this.tSent[i] = s.tSent;
    this.link[i] = s.link;
    this.dir[i] = s.dir;
    this.retx[i] = s.retx;
    this.faults[i] = s.faults;
    this.node[i] = s.node;
    this.orig[i] = s.orig;
    this.cause[i] = s.cause;
    this.queue[i] = s.queue;
    this.rule[i] = s.rule;
    this.len[i] = s.len;
    this.ethernet[i] = s.ethernet ? 1 : 0;
    this.batch[i] = this.batches.length - 1;
    this.off[i] = off;
    this.fate[i] = Fate.Pending;
    this.length = i + 1;
    return i;
  }

  setFate(i: number, f: FrameFate): void {
    this.fate[i] = f.fate;
    this.reason[i] = f.reason;
    this.tWire[i] = f.tWire;
    this.tWireEnd[i] = f.tWireEnd;
    this.tEnd[i] = f.tEnd;
    this.slots[i] = f.slots;
    this.wireLen[i] = f.wireLen;
    this.firstSlot[i] = f.firstSlot;
  }

  /** The first `n` frames' columns as they are now: a later push (which may move the
   *  columns to larger arrays) does not change the view's length. Made by the constructor,
   *  then filled: an object of the same shape (one hidden class for V8, whichever the code
   *  that reads columns is given). */
  prefix(n: number): FrameColumns {
    return Object.assign(new FrameColumns(), this, { length: n, batches: this.batches.slice() });
  }

  /** Frame i's bytes, a view into its batch. */
  bytes(i: number): Uint8Array {
    const start = this.off[i]!;
    return this.batches[this.batch[i]!]!.subarray(start, start + this.len[i]!);
  }

  private grow(size: number): void {
    const cols = this as unknown as Record<(typeof COLUMN_NAMES)[number], Column>;
    for (const k of COLUMN_NAMES) cols[k] = grown(cols[k], size);
  }
}

const COLUMN_NAMES = [
  'id',
  'parent',
  'orig',
  'cause',
  'queue',
  'rule',
  'wireLen',
  'batch',
  'off',
  'tSent',
  'tWire',
  'tWireEnd',
  'tEnd',
  'firstSlot',
  'link',
  'len',
  'reason',
  'slots',
  'dir',
  'retx',
  'faults',
  'node',
  'fate',
  'ethernet',
] as const;

/** Frame `i` of the columns as a TraceFrame: its fields are read from the columns when
 *  asked, its bytes are a view made when asked. Also a CapturedFrame (timeUs, bytes,
 *  ethernet), so the packet list takes the frames as they are. */
export class FrameRef implements TraceFrame {
  constructor(
    private readonly c: FrameColumns,
    readonly index: number,
  ) {}
  get id(): number {
    return this.c.id[this.index]!;
  }
  get parent(): number {
    return this.c.parent[this.index]!;
  }
  get tSent(): number {
    return this.c.tSent[this.index]!;
  }
  get timeUs(): number {
    return this.c.tSent[this.index]!;
  }
  get link(): number {
    return this.c.link[this.index]!;
  }
  get dir(): 0 | 1 {
    return this.c.dir[this.index] as 0 | 1;
  }
  get retx(): number {
    return this.c.retx[this.index]!;
  }
  get faults(): number {
    return this.c.faults[this.index]!;
  }
  get node(): number {
    return this.c.node[this.index]!;
  }
  get orig(): number {
    return this.c.orig[this.index]!;
  }
  get cause(): number {
    return this.c.cause[this.index]!;
  }
  get queue(): number {
    return this.c.queue[this.index]!;
  }
  get rule(): number {
    return this.c.rule[this.index]!;
  }
  get bytes(): Uint8Array {
    return this.c.bytes(this.index);
  }
  get ethernet(): boolean {
    return this.c.ethernet[this.index] === 1;
  }
  get dgram(): Uint8Array {
    const b = this.c.bytes(this.index);
    return this.ethernet ? ethernetDatagram(b) : b;
  }
  get fate(): Fate {
    return this.c.fate[this.index] as Fate;
  }
  get reason(): number {
    return this.c.reason[this.index]!;
  }
  get tWire(): number {
    return this.c.tWire[this.index]!;
  }
  get tWireEnd(): number {
    return this.c.tWireEnd[this.index]!;
  }
  get tEnd(): number {
    return this.c.tEnd[this.index]!;
  }
  get slots(): number {
    return this.c.slots[this.index]!;
  }
  get wireLen(): number {
    return this.c.wireLen[this.index]!;
  }
  get firstSlot(): number {
    return this.c.firstSlot[this.index]!;
  }
}

const EVENT_COLUMNS = ['time', 'seq', 'kind', 'host', 'conn', 'lport', 'rport', 'a', 'b', 'c', 'd', 'cause'] as const;

/** The stack's events as columns (trace_rec.h TREC_EVENT), as many as the frames and more:
 *  137 000 objects of 12 fields took 28 MB of heap at 100 000 frames. */
export class EventColumns {
  length = 0;
  time = new Float64Array(16);
  seq = new Uint32Array(16);
  kind = new Uint16Array(16);
  host = new Uint8Array(16);
  conn = new Uint8Array(16);
  lport = new Uint16Array(16);
  rport = new Uint16Array(16);
  a = new Uint32Array(16);
  b = new Uint32Array(16);
  c = new Uint32Array(16);
  d = new Uint32Array(16);
  cause = new Uint32Array(16);

  /** Adds an event; returns its index. */
  /** The first `n` events' columns as they are now (see FrameColumns.prefix). */
  prefix(n: number): EventColumns {
    return Object.assign(new EventColumns(), this, { length: n });
  }

  push(e: TraceEvent): number {
    const i = this.length;
    if (i === this.time.length) {
      const cols = this as unknown as Record<(typeof EVENT_COLUMNS)[number], Column>;
      for (const k of EVENT_COLUMNS) cols[k] = grown(cols[k], 2 * i);
    }
    for (const k of EVENT_COLUMNS) this[k][i] = e[k];
    this.length = i + 1;
    return i;
  }
}

/** Event `i` of the columns as a TraceEvent, its fields read when asked. */
export class EventRef implements TraceEvent {
  constructor(
    private readonly cols: EventColumns,
    readonly index: number,
  ) {}
  get time(): number {
    return this.cols.time[this.index]!;
  }
  get seq(): number {
    return this.cols.seq[this.index]!;
  }
  get kind(): number {
    return this.cols.kind[this.index]!;
  }
  get host(): number {
    return this.cols.host[this.index]!;
  }
  get conn(): number {
    return this.cols.conn[this.index]!;
  }
  get lport(): number {
    return this.cols.lport[this.index]!;
  }
  get rport(): number {
    return this.cols.rport[this.index]!;
  }
  get a(): number {
    return this.cols.a[this.index]!;
  }
  get b(): number {
    return this.cols.b[this.index]!;
  }
  get c(): number {
    return this.cols.c[this.index]!;
  }
  get d(): number {
    return this.cols.d[this.index]!;
  }
  get cause(): number {
    return this.cols.cause[this.index]!;
  }
}
