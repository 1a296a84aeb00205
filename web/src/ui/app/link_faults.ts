// A link's random faults as the Parameters panel shows them: for each action (loss,
// corruption, duplication, delay) and each direction, a probability, and for a delay by how
// much. They are entries of the link's `faults` array (docs/scenario-format.md, "Faults")
// among others the panel does not show: a targeted rule (`nth`) or one that acts only on
// some frames (`match`) is kept as written, in its place. The what-if rules are not in the
// array the panel reads (the store adds them when it runs the scenario).
import type { Fault, FaultAction } from '../../core/scenarios/types.ts';
import { DEFAULT_DELAY_US } from '../../core/run/what_if.ts';

export const FAULT_ACTIONS: readonly FaultAction[] = ['drop', 'corrupt', 'duplicate', 'delay'];
export type Dir = 'ab' | 'ba';
export const DIRS: readonly Dir[] = ['ab', 'ba'];

/** One action in one direction. Values are what was typed (the validator judges them). */
export interface RandomFault {
  p: unknown;
  delayUs?: unknown;
}

type Key = `${FaultAction}:${Dir}`;

export interface LinkFaults {
  cells: Partial<Record<Key, RandomFault>>;
  /** the entries the panel does not show, in their order */
  kept: Fault[];
  /** where among `kept` the panel's entries stand (where the first one stood, else the end) */
  at: number;
}

function isRandomForAll(f: Fault): boolean {
  return f.p !== undefined && f.nth === undefined && Object.keys(f.match ?? {}).length === 0;
}

/** The panel's view of a link's `faults`. Two entries for one action and direction (they
 *  add up) are one too many for one box: the second is kept as written. */
export function readFaults(faults: readonly Fault[] | undefined): LinkFaults {
  const out: LinkFaults = { cells: {}, kept: [], at: -1 };
  for (const f of faults ?? []) {
    const dirs = !f.dir || f.dir === 'both' ? DIRS : [f.dir];
    if (!isRandomForAll(f) || dirs.some((d) => out.cells[`${f.action}:${d}`])) {
      out.kept.push(f);
      continue;
    }
    if (out.at < 0) out.at = out.kept.length;
    for (const d of dirs) out.cells[`${f.action}:${d}`] = f.action === 'delay' ? { p: f.p, delayUs: f.delay_us } : { p: f.p };
  }
  if (out.at < 0) out.at = out.kept.length;
  return out;
}

/** One action and direction; no entry is probability 0. */
export function cellOf(lf: LinkFaults, action: FaultAction, dir: Dir): RandomFault {
  return lf.cells[`${action}:${dir}`] ?? (action === 'delay' ? { p: 0, delayUs: DEFAULT_DELAY_US } : { p: 0 });
}

export function withCell(lf: LinkFaults, action: FaultAction, dir: Dir, change: Partial<RandomFault>): LinkFaults {
  return { ...lf, cells: { ...lf.cells, [`${action}:${dir}`]: { ...cellOf(lf, action, dir), ...change } } };
}

function entry(action: FaultAction, c: RandomFault, dir?: Dir): Record<string, unknown> {
  return { action, p: c.p, ...(dir ? { dir } : {}), ...(action === 'delay' ? { delay_us: c.delayUs ?? DEFAULT_DELAY_US } : {}) };
}

/** The `faults` array again: one entry per action for both directions when they agree,
 *  else one per direction; none at probability 0 (a rule draws its random numbers for every
 *  frame even at 0, which would change what the other rules decide). */
export function writeFaults(lf: LinkFaults): unknown[] {
  const mine = FAULT_ACTIONS.flatMap((action) => {
    const ab = cellOf(lf, action, 'ab');
    const ba = cellOf(lf, action, 'ba');
    if (ab.p === ba.p && ab.delayUs === ba.delayUs) return ab.p === 0 ? [] : [entry(action, ab)];
    return [...(ab.p === 0 ? [] : [entry(action, ab, 'ab')]), ...(ba.p === 0 ? [] : [entry(action, ba, 'ba')])];
  });
  return [...lf.kept.slice(0, lf.at), ...mine, ...lf.kept.slice(lf.at)];
}
