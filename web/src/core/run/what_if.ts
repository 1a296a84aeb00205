// "What if this frame were dropped (or delayed)?": a targeted fault rule that hits exactly
// that frame when the scenario runs again. Runs are deterministic, so everything before the
// frame happens again the same way; the rules go first in the link's faults so they count
// every frame of their direction (the other rules still draw their random numbers for every
// frame, so the rest of the run's chance is unchanged).
import type { RunModel } from './run_model.ts';
import type { TraceFrame } from '../engine/trace_types.ts';
import { FAULT_DUPLICATE } from '../engine/trace_types.ts';
import type { Fault } from '../scenarios/types.ts';
import { formatDuration } from './time_format.ts';
import { directionName, frameNo } from './frame_name.ts';

export interface WhatIfRule {
  action: 'drop' | 'delay';
  link: string;
  dir: 'ab' | 'ba';
  /** 1-based among the frames handed to the link in that direction (extra copies of
   *  duplicated frames, which no rule sees, not counted) */
  nth: number;
  delayUs?: number;
}

/** The delay of a rule that names none (an old permalink's, a fault entry's first value). */
export const DEFAULT_DELAY_US = 200_000;

/** The amounts the menu offers for "Delay this frame": a slot, an RTT, past an RTO, two. */
export const DELAY_CHOICES_US = [50_000, 200_000, 500_000, 1_000_000, 2_000_000] as const;

/** The extra copy a duplicate fault made: the fault hands it to the link itself, no rule
 *  ever sees it, so no rule can name it. */
export function isExtraCopy(f: TraceFrame): boolean {
  return (f.faults & FAULT_DUPLICATE) !== 0;
}

/** The rule that hits exactly `frame` (`frames`: its link's frames, in the order sent), or
 *  null when no rule can: an extra copy, or a frame not among `frames`. */
export function ruleForFrame(
  frames: readonly TraceFrame[],
  frame: TraceFrame,
  linkName: string,
  action: 'drop' | 'delay',
  delayUs = DEFAULT_DELAY_US,
): WhatIfRule | null {
  if (isExtraCopy(frame)) return null;
  let nth = 0;
  for (const f of frames) {
    if (f.link !== frame.link || f.dir !== frame.dir || isExtraCopy(f)) continue;
    nth++;
    if (f.id !== frame.id) continue;
    const rule: WhatIfRule = { action, link: linkName, dir: frame.dir === 0 ? 'ab' : 'ba', nth };
    if (action === 'delay') rule.delayUs = delayUs;
    return rule;
  }
  return null;
}

/** The frame a rule hits in a run (the inverse of ruleForFrame), if the run has it. Counted
 *  in the run the rule is part of, or in the run before it was added: both are the same up
 *  to that frame. */
export function frameOfRule(run: RunModel, r: WhatIfRule): TraceFrame | undefined {
  const index = run.result.world.links.findIndex((l) => l.name === r.link);
  if (index < 0) return undefined;
  const dir = r.dir === 'ab' ? 0 : 1;
  let nth = 0;
  for (const f of run.link(index).frames) {
    if (f.dir !== dir || isExtraCopy(f)) continue;
    if (++nth === r.nth) return f;
  }
  return undefined;
}

export function ruleFault(r: WhatIfRule): Fault {
  return r.action === 'drop'
    ? { action: 'drop', nth: r.nth, dir: r.dir }
    : { action: 'delay', nth: r.nth, dir: r.dir, delay_us: r.delayUs ?? DEFAULT_DELAY_US };
}

/** The rule in the packet list's words, "drop No. 10 (nfc, appliance → ptx)", from the run
 *  (the frame the rule hit); in the rule's own terms when the run has no such frame. */
export function describeRule(r: WhatIfRule, run: RunModel | null): string {
  const what = r.action === 'drop' ? 'drop' : 'delay';
  const by = r.action === 'delay' ? ` by ${formatDuration(r.delayUs ?? DEFAULT_DELAY_US)}` : '';
  const f = run ? frameOfRule(run, r) : undefined;
  if (run && f) return `${what} No. ${frameNo(run, f)}${by} (${r.link}, ${directionName(run.result.world, f.link, f.dir)})`;
  return `${what} frame ${r.nth} ${r.dir === 'ab' ? 'a→b' : 'b→a'} on ${r.link}${by} (not in this run)`;
}

/** The scenario document with the rules put first in their links' faults.
 *  A rule after a drop rule does not count the frame that one dropped (the engine stops at
 *  the first drop), so the rules go in decreasing `nth`: each one that comes earlier hits a
 *  frame after every frame the later ones count, and every rule counts as it was made. */
export function withRules(doc: { links: { name: string; faults?: Fault[] }[] }, rules: readonly WhatIfRule[]): typeof doc {
  const copy = structuredClone(doc);
  for (const r of [...rules].sort((x, y) => x.nth - y.nth)) {
    const link = copy.links.find((l) => l.name === r.link);
    if (link) link.faults = [ruleFault(r), ...(link.faults ?? [])];
  }
  return copy;
}
