// How the timeline writes durations and instants: short forms for labels on the drawing
// ("RTO 1.0 s", "200 ms"), seconds with microsecond precision where a value is read exactly.

/** A duration for a label: "1.0 s", "200 ms", "350 µs". */
export function formatDuration(us: number): string {
  if (us >= 1_000_000) return `${(us / 1e6).toFixed(1)} s`;
  if (us >= 10_000) return `${Math.round(us / 1000)} ms`;
  if (us >= 1000) return `${(us / 1000).toFixed(1)} ms`;
  return `${Math.round(us)} µs`;
}

/** An instant as the packet list shows Time: seconds with six decimals. */
export function formatInstant(us: number): string {
  return `${(us / 1e6).toFixed(6)} s`;
}

/** Bytes for the state tooltip and axes: "4096", "∞" for the stack's "infinite" ssthresh. */
export const INFINITE = 0xffffffff;
export function formatBytes(v: number): string {
  return v === INFINITE ? '∞' : String(v);
}
