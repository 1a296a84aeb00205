// "What if this frame were dropped?" answered in numbers: two runs of one scenario, without
// and with the change, side by side. When each application was done (its report; servers
// report only when the run ends, so they are left out), how
// many segments the hosts' stacks sent again and why (their tcp.retransmit events, by
// cause), and how many of those were spurious (an earlier copy had reached the peer: the
// replays' metric, the simulator's truth rather than Wireshark's guess).
import type { RunResult } from '../engine/run.ts';
import { AppRecordKind, traceField } from '../engine/trace_types.ts';
import { measure } from '../replay/metrics.ts';

export interface RunFigures {
  /** by app index, the apps that were done before the run ended (not the servers, which
   *  report as it ends, nor a client that never finished): when (µs), or null when that is
   *  after the horizon */
  doneUs: Map<number, number | null>;
  /** retransmissions by the stack's cause, in the world's wording */
  byCause: Map<string, number>;
  retransmissions: number;
  /** null under a horizon: whether a copy had reached the peer may be learnt only later */
  spurious: number | null;
}

/** The run's figures, or (hiding the future) only what had happened by `horizonUs`. */
export function runFigures(r: RunResult, horizonUs: number | null = null): RunFigures {
  const by = (t: number) => horizonUs === null || t <= horizonUs;
  const { world, trace } = r;
  const doneUs = new Map<number, number | null>();
  for (const a of trace.apps) if (a.kind === AppRecordKind.Report && a.done && a.time < r.virtualUs) doneUs.set(a.app, by(a.time) ? a.time : null);
  const retransmit = world.trace_kinds.indexOf('tcp.retransmit');
  const byCause = new Map<string, number>();
  for (const e of trace.events) {
    if (e.kind !== retransmit || !by(e.time)) continue;
    const c = traceField(e, 'tcp.retransmit', 'cause');
    const cause = world.retx_causes[c] ?? `cause ${c}`;
    byCause.set(cause, (byCause.get(cause) ?? 0) + 1);
  }
  let spurious: number | null = null;
  if (horizonUs === null) {
    spurious = 0;
    for (const h of world.hosts) spurious += measure({ metric: 'spurious_retransmissions', host: h.name }, r);
  }
  return { doneUs, byCause, retransmissions: [...byCause.values()].reduce((a, b) => a + b, 0), spurious };
}

export interface DiffLine {
  what: string;
  without: string;
  with: string;
  /** "+2.71 s", "+3", "same" */
  change: string;
}

/** The differences a class reads: the end, retransmissions (each cause), spurious ones. */
export function diffLines(without: RunFigures, withChange: RunFigures): DiffLine[] {
  const s = (us: number) => `${(us / 1e6).toFixed(3)} s`;
  const delta = (a: number, b: number, unit: (x: number) => string) => (a === b ? 'same' : `${b > a ? '+' : '−'}${unit(Math.abs(b - a))}`);
  const count = (x: number) => String(x);
  const done = (x: number | null | undefined) => (x === undefined ? 'not done' : x === null ? 'not yet' : s(x));
  const lines: DiffLine[] = [];
  for (const app of [...new Set([...without.doneUs.keys(), ...withChange.doneUs.keys()])].sort((x, y) => x - y)) {
    const a = without.doneUs.get(app);
    const b = withChange.doneUs.get(app);
    const change = a === b ? 'same' : a === undefined || b === undefined || a === null || b === null ? 'changed' : delta(a, b, s);
    lines.push({ what: `app ${app} done at`, without: done(a), with: done(b), change });
  }
  lines.push({
    what: 'retransmissions',
    without: count(without.retransmissions),
    with: count(withChange.retransmissions),
    change: delta(without.retransmissions, withChange.retransmissions, count),
  });
  const causes = [...new Set([...without.byCause.keys(), ...withChange.byCause.keys()])].sort();
  for (const c of causes) {
    const a = without.byCause.get(c) ?? 0;
    const b = withChange.byCause.get(c) ?? 0;
    lines.push({ what: `  ${c}`, without: count(a), with: count(b), change: delta(a, b, count) });
  }
  const a = without.spurious;
  const b = withChange.spurious;
  if (a !== null && b !== null) lines.push({ what: 'spurious retransmissions', without: count(a), with: count(b), change: delta(a, b, count) });
  return lines;
}
