// "What if this frame were dropped (or delayed)?": a targeted fault rule that hits exactly
// that frame when the scenario runs again. Runs are deterministic, so everything before the
// frame happens again the same way; the rule goes first in the link's faults so it counts
// every frame of its direction (the other rules still draw their random numbers for every
// frame, so the rest of the run's chance is unchanged).
import type { TraceFrame } from '../engine/trace_types.ts';
import { FAULT_DUPLICATE } from '../engine/trace_types.ts';
import type { Fault } from '../scenarios/types.ts';

export interface WhatIfRule {
  action: 'drop' | 'delay';
  link: string;
  dir: 'ab' | 'ba';
  /** 1-based among the frames handed to the link in that direction (extra copies of
   *  duplicated frames, which no rule sees, not counted) */
  nth: number;
  delayUs?: number;
}

export function ruleForFrame(frames: readonly TraceFrame[], frame: TraceFrame, linkName: string, action: 'drop' | 'delay', delayUs?: number): WhatIfRule {
  let nth = 0;
  for (const f of frames) {
    if (f.link !== frame.link || f.dir !== frame.dir || f.faults & FAULT_DUPLICATE) continue;
    nth++;
    if (f.id === frame.id) break;
  }
  const rule: WhatIfRule = { action, link: linkName, dir: frame.dir === 0 ? 'ab' : 'ba', nth };
  if (action === 'delay') rule.delayUs = delayUs ?? 200_000;
  return rule;
}

export function ruleFault(r: WhatIfRule): Fault {
  return r.action === 'drop'
    ? { action: 'drop', nth: r.nth, dir: r.dir }
    : { action: 'delay', nth: r.nth, dir: r.dir, delay_us: r.delayUs ?? 200_000 };
}

export function describeRule(r: WhatIfRule): string {
  const what = r.action === 'drop' ? 'drop' : `delay by ${((r.delayUs ?? 0) / 1000).toFixed(0)} ms`;
  return `${what} frame ${r.nth} ${r.dir === 'ab' ? 'a→b' : 'b→a'} on ${r.link}`;
}

/** The scenario document with the rules put first in their links' faults. */
export function withRules(doc: { links: { name: string; faults?: Fault[] }[] }, rules: readonly WhatIfRule[]): typeof doc {
  const copy = structuredClone(doc);
  for (const r of [...rules].reverse()) {
    const link = copy.links.find((l) => l.name === r.link);
    if (link) link.faults = [ruleFault(r), ...(link.faults ?? [])];
  }
  return copy;
}
