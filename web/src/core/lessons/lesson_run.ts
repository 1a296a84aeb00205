// A finished run as the lesson engine reads it: the trace, each link's packet list with
// Wireshark's analysis (run_model.ts, as the page builds it), and the senders' state index
// (sender_state.ts, as the ladder reads it). Built once per run, shared by every anchor.

import { buildRunModel, type RunModel } from '../run/run_model.ts';
import type { RunResult } from '../engine/run.ts';
import type { TraceEvent, WorldDescription } from '../engine/trace_types.ts';
import { SenderStateIndex } from '../run/sender_state.ts';

export interface LessonRun {
  world: WorldDescription;
  events: readonly TraceEvent[];
  model: RunModel;
  state: SenderStateIndex;
}

/** `model`: the run's model if the caller has built one already (the page has). */
export function lessonRun(result: RunResult, model: RunModel = buildRunModel(result)): LessonRun {
  const { world } = result;
  return {
    world,
    events: result.trace.events,
    model,
    state: new SenderStateIndex(result.trace.events, world.trace_kinds, world.tcp_states),
  };
}

/** A host's or a bridge's name from a frame's sending node. */
export function nodeName(world: WorldDescription, node: number): string {
  const hosts = world.hosts;
  return node < hosts.length ? hosts[node]!.name : (world.bridges[node - hosts.length]?.name ?? `node ${node}`);
}
