// Glue between the run and the packet views: the "Stack says" text of a frame seen from a
// capture point (cached per link, computed only for rows that are drawn), and the links'
// labels and configuration (cached per run).
import type { LinkView, RunModel } from '../../core/run/run_model.ts';
import type { TraceFrame } from '../../core/engine/trace_types.ts';
import { linkInfos, type LinkInfo } from './link_info.ts';
import { stackSays, type StackSaysContext } from '../../core/run/stack_says.ts';

const saysCache = new WeakMap<LinkView, Map<number, string>>();
const infoCache = new WeakMap<RunModel, LinkInfo[]>();

/** How capture point `view` names frame `id`: its No. there, else "<link> <No.>". */
export function frameLabel(run: RunModel, view: LinkView, id: number): string {
  const here = view.rowOf.get(id);
  if (here !== undefined) return String(here + 1);
  const f = run.result.trace.frame(id);
  if (!f) return `#${id}`;
  const there = run.link(f.link);
  const no = there.rowOf.get(id);
  return no === undefined ? `#${id}` : `${there.name} ${no + 1}`;
}

export function stackSaysContext(run: RunModel, view: LinkView): StackSaysContext {
  const trace = run.result.trace;
  return {
    world: run.result.world,
    events: trace.events,
    frame: (id) => trace.frame(id),
    frameLabel: (id) => frameLabel(run, view, id),
  };
}

/** The "Stack says" text of frame `f` on capture point `view` as known at `horizonUs`
 *  ("Hide the future"; null: everything the run knows). Under a horizon it is computed
 *  afresh for the few rows drawn, since it changes with the cursor. */
export function stackSaysAt(run: RunModel, view: LinkView, f: TraceFrame, horizonUs: number | null): string {
  return horizonUs === null ? stackSaysOn(run, view, f) : stackSays(f, { ...stackSaysContext(run, view), horizonUs });
}

/** The "Stack says" text of frame `f` on capture point `view`, computed once. */
export function stackSaysOn(run: RunModel, view: LinkView, f: TraceFrame): string {
  let m = saysCache.get(view);
  if (!m) {
    m = new Map();
    saysCache.set(view, m);
  }
  let s = m.get(f.id);
  if (s === undefined) {
    s = stackSays(f, stackSaysContext(run, view));
    m.set(f.id, s);
  }
  return s;
}

export function linksOf(run: RunModel): LinkInfo[] {
  let infos = infoCache.get(run);
  if (!infos) {
    infos = linkInfos(run.result.world);
    infoCache.set(run, infos);
  }
  return infos;
}
