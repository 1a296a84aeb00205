// How the page names a frame to a person: by the packet list's "No." on its link, as
// Wireshark would on that capture point, and by its direction in host names. The engine's
// frame ids and the rules' per-direction counts are for the code, not for the class.
import type { RunModel } from './run_model.ts';
import type { TraceFrame, WorldDescription } from '../engine/trace_types.ts';
import { nodeName } from './lifelines.ts';

/** The frame's "No." in its link's packet list. */
export function frameNo(run: RunModel, f: TraceFrame): number {
  const view = run.link(f.link);
  const r = view.rowOf.get(f.id);
  return r === undefined ? 0 : view.analysis.rows[r]!.no;
}

/** "No. 10" on the capture point in view (`viewLink`), "No. 5 on eth" on another link. */
export function frameTitle(run: RunModel, f: TraceFrame, viewLink: number): string {
  const no = `No. ${frameNo(run, f)}`;
  return f.link === viewLink ? no : `${no} on ${run.link(f.link).name}`;
}

/** "appliance → ptx": the link's ends in the frame's direction (0: a to b). */
export function directionName(world: WorldDescription, link: number, dir: 0 | 1): string {
  const l = world.links[link];
  if (!l) return dir === 0 ? 'a → b' : 'b → a';
  // An external link's b is the device on the serial port, not a node of the scenario.
  const end = (node: number) => (node < 0 ? 'serial port' : nodeName(world, node));
  return dir === 0 ? `${end(l.a)} → ${end(l.b)}` : `${end(l.b)} → ${end(l.a)}`;
}
