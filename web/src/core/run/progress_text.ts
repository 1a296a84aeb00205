// How the page words a run that is going on: "Running: 12 340 frames, 4.2 s of 10 s".
import type { RunProgress } from '../engine/run.ts';

/** Thousands apart by a no-break space, so that a count reads at a glance and never wraps. */
function count(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');
}

/** Seconds of virtual time with one decimal; a whole number of seconds without it. */
function seconds(us: number, whole: boolean): string {
  const s = us / 1e6;
  return whole && Number.isInteger(s) ? String(s) : s.toFixed(1);
}

/** The progress line; `null`: the run has started and no slice is done yet. */
export function progressText(p: RunProgress | null): string {
  if (!p) return 'Running: starting';
  const frames = `${count(p.frames)} ${p.frames === 1 ? 'frame' : 'frames'}`;
  return `Running: ${frames}, ${seconds(p.nowUs, false)} s of ${seconds(p.durationUs, true)} s`;
}
