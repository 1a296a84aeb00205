// Everything the ladder needs from a run, computed once per run: the lifelines, every
// frame's path, the timer bars, indexes for the visible window, and (lazily, since only
// visible arrows are labelled) labels and tooltips.
import type { RunModel } from '../../core/run/run_model.ts';
import type { TraceFrame } from '../../core/engine/trace_types.ts';
import type { PacketRow } from '../../core/packets/index.ts';
import { dropReason, frameTooltip, retxCause, shortLabel, type InfoContext } from './frame_info.ts';
import { framePath, type FramePath } from './frame_geometry.ts';
import { IntervalIndex } from '../../core/util/interval_index.ts';
import { buildLanes, type Lanes } from '../../core/run/lifelines.ts';
import { SenderStateIndex } from '../../core/run/sender_state.ts';
import { timerBars, type TimerBar } from './timers.ts';

export interface LadderModel {
  lanes: Lanes;
  frames: readonly TraceFrame[];
  paths: FramePath[];
  frameIndex: IntervalIndex;
  timers: TimerBar[];
  timerIndex: IntervalIndex;
  /** how many links the world has (frames name theirs by index) */
  linkCount: number;
  /** lane of each host (by host index) */
  hostLane: number[];
  endUs: number;
  /** the end of the last frame (or the last event, without frames): what "Fit" shows */
  lastUs: number;
  label(i: number): string;
  /** "RTO expired" for a retransmission, else null */
  retx(i: number): string | null;
  drop(i: number): string | null;
  tooltip(i: number): string[];
  /** the frame's hop (link, direction) and kind (0 plain, 1 resent, 2 dropped) as one
   *  number below linkCount * 6: what the level of detail bins by (ladder_lod.ts) */
  hopKind(i: number): number;
  /** position in `frames` of a frame id */
  indexOf(id: number): number;
}

const cache = new WeakMap<RunModel, LadderModel>();

export function ladderModel(run: RunModel): LadderModel {
  let m = cache.get(run);
  if (!m) cache.set(run, (m = buildLadderModel(run)));
  return m;
}

export function buildLadderModel(run: RunModel): LadderModel {
  const { world, trace } = run.result;
  const frames = trace.frames;
  const endUs = run.endUs;
  const lanes = buildLanes(world);
  const ctx = { world, lanes, endUs };
  const paths = frames.map((f) => framePath(f, ctx));
  const frameIndex = new IntervalIndex(
    frames.length,
    (i) => paths[i]!.t0,
    (i) => paths[i]!.t1,
  );
  const timers = timerBars(trace.events, world.trace_kinds, world.tcp_states, endUs);
  const timerIndex = new IntervalIndex(
    timers.length,
    (i) => timers[i]!.t0,
    (i) => timers[i]!.t1,
  );
  const byPos = new Map<number, number>();
  frames.forEach((f, i) => byPos.set(f.id, i));
  const byId = (id: number) => trace.frame(id);
  const rowOf = (f: TraceFrame): PacketRow | undefined => {
    const v = run.link(f.link);
    const r = v.rowOf.get(f.id);
    return r === undefined ? undefined : v.analysis.rows[r];
  };
  const info: InfoContext = { world, byId, rowOf, senderState: new SenderStateIndex(trace.events, world.trace_kinds, world.tcp_states) };
  const labels = new Map<number, string>();
  // Made on the first zoom out that needs it, then read per frame on every zoom step.
  let hopKinds: Int32Array | null = null;
  const makeHopKinds = () => Int32Array.from(frames, (f, i) => (f.link * 2 + f.dir) * 3 + (paths[i]!.end === 'drop' ? 2 : retxCause(f, world, byId) ? 1 : 0));
  // "Fit" shows the frames: events long after the last frame (TIME_WAIT running out a
  // minute later) would squeeze the whole exchange into a few pixels.
  let last = 0;
  for (const p of paths) last = Math.max(last, p.t1);
  if (last === 0 && run.instants.length) last = run.instants[run.instants.length - 1]!;
  return {
    lanes,
    frames,
    paths,
    frameIndex,
    timers,
    timerIndex,
    linkCount: world.links.length,
    hostLane: world.hosts.map((_, h) => lanes.ofNode(h)),
    endUs,
    lastUs: Math.max(1, Math.min(endUs || last, last)),
    label(i) {
      let s = labels.get(i);
      if (s === undefined) labels.set(i, (s = shortLabel(rowOf(frames[i]!))));
      return s;
    },
    retx: (i) => retxCause(frames[i]!, world, byId),
    drop: (i) => dropReason(frames[i]!, world),
    tooltip: (i) => frameTooltip(frames[i]!, info),
    hopKind: (i) => (hopKinds ??= makeHopKinds())[i]!,
    indexOf: (id) => byPos.get(id) ?? -1,
  };
}
