// A run as the views use it: per link, the frames in capture order, Wireshark's analysis of
// them (packet rows), and the instants worth stepping to. A run going on grows its model
// (GrowingRun): the frames and the packet list's first pass are taken on slice by slice, so
// the run so far can be shown at any time, and at the end only the last slice and the
// second pass are left to do.
import { CaptureAnalysis, type AnalysedCapture } from '../packets/packet_list.ts';
import type { CapturedFrame } from '../packets/types.ts';
import type { RunResult } from '../engine/run.ts';
import type { Trace } from '../engine/trace_reader.ts';
import type { TraceFrame } from '../engine/trace_types.ts';
import { withRoom } from '../util/grown.ts';

export interface LinkView {
  index: number;
  name: string;
  /** the link's frames in the order sent (= capture order, = packet-list order) */
  frames: TraceFrame[];
  analysis: AnalysedCapture;
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

/** The model of a run that has ended (or of a run so far, RunResult.partial). */
export function buildRunModel(result: RunResult): RunModel {
  return new GrowingRun(result.trace).model(result);
}

/** One link's part of a growing run. */
interface LinkGrowth {
  frames: TraceFrame[];
  /** the same frames as the packet list takes them */
  captured: CapturedFrame[];
  /** started when the link is first shown; its first pass then goes on at each grow() */
  analysis: CaptureAnalysis | null;
}

/** The model of a run that grows with it: grow() takes the frames its trace got since, and
 *  model() gives what the views show, of the run so far or of the run ended. */
export class GrowingRun {
  private readonly links = new Map<number, LinkGrowth>();
  /** how many of the trace's frames are in their links */
  private taken = 0;
  /** each frame's row in its own link's frames, by index in the trace */
  private rowInLink = new Int32Array(1024);

  /** `trace`: the run's trace, which may still grow (a run going on) */
  constructor(private readonly trace: Trace) {}

  /** Takes the frames the trace got since the last call into their links; the packet list
   *  of every link already shown goes on over them (its first pass). */
  grow(): void {
    const { columns: c, frames } = this.trace;
    this.rowInLink = withRoom(this.rowInLink, c.length);
    for (let i = this.taken; i < c.length; i++) {
      const g = this.growth(c.link[i]!);
      const f = frames[i]!;
      this.rowInLink[i] = g.frames.push(f) - 1;
      g.captured.push(new CapturedRef(f));
    }
    this.taken = c.length;
    for (const g of this.links.values()) g.analysis?.more();
  }

  /** The model of `result`, a run of this trace: of the run so far, unchanged by what
   *  grows after (result.partial), or of the run ended (whose packet lists then get their
   *  second pass; nothing grows after it). */
  model(result: RunResult): RunModel {
    this.grow();
    // the link's frames in this model: those it has now
    const counts = new Map<number, number>();
    for (const [index, g] of this.links) counts.set(index, g.frames.length);
    const taken = this.taken;
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
      link: (index: number): LinkView => {
        let v = cache.get(index);
        if (!v) {
          v = this.linkView(result, index, counts.get(index) ?? 0, taken);
          cache.set(index, v);
        }
        return v;
      },
    };
  }

  /** Link `index` as a model shows it: its first `count` frames, the trace's first `taken`. */
  private linkView(result: RunResult, index: number, count: number, taken: number): LinkView {
    const g = this.growth(index);
    g.analysis ??= new CaptureAnalysis(g.captured);
    let analysis: AnalysedCapture;
    if (result.partial) {
      g.analysis.more();
      analysis = g.analysis.soFar(count);
    } else analysis = g.analysis.finish();
    const { trace } = this;
    const rowOf = {
      get: (id: number): number | undefined => {
        const i = trace.indexOf(id);
        return i >= 0 && i < taken && trace.columns.link[i] === index ? this.rowInLink[i] : undefined;
      },
    };
    return {
      index,
      name: result.world.links[index]?.name ?? `link ${index}`,
      // a run so far keeps its own (the link's array grows with the run)
      frames: result.partial ? g.frames.slice(0, count) : g.frames,
      analysis,
      rowOf,
    };
  }

  private growth(index: number): LinkGrowth {
    let g = this.links.get(index);
    if (!g) this.links.set(index, (g = { frames: [], captured: [], analysis: null }));
    return g;
  }
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
