// A finished run as the views use it: per link, the frames in capture order, Wireshark's
// analysis of them (packet rows), and the instants worth stepping to.
import { analyze, type CaptureAnalysis } from '../packets/packet_list.ts';
import type { CapturedFrame } from '../packets/types.ts';
import type { RunResult } from '../engine/run.ts';
import type { TraceFrame } from '../engine/trace_types.ts';

export interface LinkView {
  index: number;
  name: string;
  /** the link's frames in the order sent (= capture order, = packet-list order) */
  frames: TraceFrame[];
  analysis: CaptureAnalysis;
  /** frame id -> 0-based row in `frames` */
  rowOf: { get(id: number): number | undefined };
}

export interface RunModel {
  result: RunResult;
  /** by link index, built on first use */
  link(index: number): LinkView;
  /** every instant something happens (frames sent and ended, stack events), sorted, unique;
   *  made on first use */
  readonly instants: Float64Array;
  endUs: number;
}

export function buildRunModel(result: RunResult): RunModel {
  const cache = new Map<number, LinkView>();
  // Made when first stepped through, not before the first render: sorting 300 000
  // instants took 120 ms at 100 000 frames.
  let instants: Float64Array | null = null;
  return {
    result,
    get instants() {
      return (instants ??= runInstants(result));
    },
    endUs: result.virtualUs,
    link(index: number): LinkView {
      let v = cache.get(index);
      if (!v) {
        const { trace } = result;
        const c = trace.columns;
        // row by index in the trace, -1 off this link: an array, not a map of 100 000 ids
        const rows = new Int32Array(c.length).fill(-1);
        const frames: TraceFrame[] = [];
        for (let i = 0; i < c.length; i++) if (c.link[i] === index) rows[i] = frames.push(trace.frames[i]!) - 1;
        const rowOf = {
          get(id: number): number | undefined {
            const r = rows[trace.indexOf(id)] ?? -1;
            return r < 0 ? undefined : r;
          },
        };
        v = {
          index,
          name: result.world.links[index]?.name ?? `link ${index}`,
          frames,
          analysis: analyze(frames.map((f) => new CapturedRef(f))),
          rowOf,
        };
        cache.set(index, v);
      }
      return v;
    },
  };
}

/** Every instant something happens, sorted, unique: read from the columns, one array. */
function runInstants(result: RunResult): Float64Array {
  const c = result.trace.columns;
  const events = result.trace.events;
  const times = new Float64Array(2 * c.length + events.length);
  let n = 0;
  for (let i = 0; i < c.length; i++) {
    times[n++] = c.tSent[i]!;
    if (c.tEnd[i]) times[n++] = c.tEnd[i]!;
  }
  for (const e of events) times[n++] = e.time;
  const sorted = times.subarray(0, n).sort();
  let u = 0;
  for (let i = 0; i < n; i++) if (i === 0 || sorted[i] !== sorted[u - 1]) sorted[u++] = sorted[i]!;
  return sorted.slice(0, u);
}

/** A frame as the packet list takes it; its bytes are read (a view) only when dissected. */
class CapturedRef implements CapturedFrame {
  constructor(private readonly f: TraceFrame) {}
  get timeUs(): number {
    return this.f.tSent;
  }
  get bytes(): Uint8Array {
    return this.f.bytes;
  }
  get ethernet(): boolean {
    return this.f.ethernet;
  }
}

/** The first frame sent at instant `t` exactly, preferring one on link `link` (the capture
 *  point in view), or undefined. Frames are in the order sent. */
export function frameSentAt(frames: readonly TraceFrame[], t: number, link: number): TraceFrame | undefined {
  let lo = 0;
  let hi = frames.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (frames[mid]!.tSent < t) lo = mid + 1;
    else hi = mid;
  }
  let first: TraceFrame | undefined;
  for (let i = lo; i < frames.length && frames[i]!.tSent === t; i++) {
    if (frames[i]!.link === link) return frames[i];
    first ??= frames[i];
  }
  return first;
}

/** The next (dir 1) or previous (dir -1) instant after `t`, or t itself at either end. */
export function stepInstant(instants: Float64Array, t: number, dir: 1 | -1): number {
  let lo = 0;
  let hi = instants.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (instants[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  // lo = first index with instants[lo] > t
  if (dir === 1) return lo < instants.length ? instants[lo]! : t;
  let i = lo - 1;
  while (i >= 0 && instants[i]! >= t) i--;
  return i >= 0 ? instants[i]! : t;
}
