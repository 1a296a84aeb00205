// The seed's throughput test from the page: N echo connections at once, each sending its
// bytes and reading them back; the result is the application data moved each way per
// second, as a share of the line (serial_theory.ts), beside the seed's figures.
import type { TraceAppRecord } from '../../core/engine/trace_types.ts';
import { lineShare } from './serial_theory.ts';

/** The seed's TCP echo throughput (share of 57600 baud) by parallel connections. */
export const SEED_THROUGHPUT: Record<number, number> = { 1: 0.8, 2: 0.8, 5: 0.85, 10: 0.83, 20: 0.82, 30: 0.72, 50: 0.65 };

export interface ThroughputResult {
  connections: number;
  completed: number;
  failed: number;
  bytesEachWay: number;
  seconds: number;
  share: number;
}

/** Sums the final reports of the echo clients: bytes echoed over the time from the first SYN to the last byte back. */
export function summarize(reports: TraceAppRecord[], startedUs: number, baud: number): ThroughputResult {
  const ok = reports.filter((r) => r.done && r.error === 0);
  const bytes = ok.reduce((n, r) => n + r.bytes, 0);
  const endUs = Math.max(startedUs, ...reports.map((r) => r.time));
  const seconds = (endUs - startedUs) / 1e6;
  return {
    connections: reports.length,
    completed: ok.length,
    failed: reports.length - ok.length,
    bytesEachWay: bytes,
    seconds,
    share: seconds > 0 ? lineShare(bytes / seconds, baud) : 0,
  };
}
