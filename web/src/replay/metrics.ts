// The figures a replay compares with a seed's (docs/replays.md), each measured on one
// finished run: from the applications' output and reports, the stack's trace events and
// the frames' fates. Pure functions over the trace: the page and `stackscope replay` share
// them.

import { AppRecordKind, Fate, type TraceAppRecord, type TraceEvent, type TraceFrame, type WorldDescription } from '../engine/trace_types.ts';
import type { MetricName, ReferenceRow } from '../scenarios/reference.ts';

/** What a metric reads of a run (RunResult has it all). */
export interface RunView {
  world: WorldDescription;
  trace: { frames: readonly TraceFrame[]; events: readonly TraceEvent[]; apps: readonly TraceAppRecord[] };
}

/** A metric that cannot be read from this run (no ping replies, an unfinished transfer). */
export class MetricError extends Error {
  override name = 'MetricError';
}

/** Units for the table's header, and what each metric is. */
export const METRICS: Record<MetricName, { unit: string; what: string }> = {
  ping_rtt_avg_ms: { unit: 'ms', what: "ping's rtt avg (its statistics line)" },
  ping_rtt_min_ms: { unit: 'ms', what: "ping's rtt min" },
  ping_rtt_max_ms: { unit: 'ms', what: "ping's rtt max" },
  app_kbps: { unit: 'kbit/s', what: "the app's report: bytes x 8 / elapsed" },
  app_mbps: { unit: 'Mbit/s', what: "the app's report: bytes x 8 / elapsed" },
  app_elapsed_s: { unit: 's', what: "the app's report: elapsed time" },
  apps_total_kbps: { unit: 'kbit/s', what: "every finished app's bytes x 8, over the time from the first one's start to the last one's end" },
  retransmissions: { unit: 'segments', what: "TCP retransmissions by the host's stack (any cause)" },
  dup_acks: { unit: 'ACKs', what: 'duplicate ACKs the host received (its stack counted them)' },
  frames_dropped: { unit: 'frames', what: 'frames dropped on the links (queue, fault rules, busy modules)' },
};

/** The metric of `row` measured on `run`. Throws MetricError when the run does not have it. */
export function measure(row: Pick<ReferenceRow, 'metric' | 'app' | 'host'>, run: RunView): number {
  switch (row.metric) {
    case 'ping_rtt_min_ms':
      return pingRtt(run, appIndex(row))[0];
    case 'ping_rtt_avg_ms':
      return pingRtt(run, appIndex(row))[1];
    case 'ping_rtt_max_ms':
      return pingRtt(run, appIndex(row))[2];
    case 'app_kbps': {
      const r = finishedReport(run, appIndex(row));
      return (r.bytes * 8 * 1000) / r.elapsedUs;
    }
    case 'app_mbps': {
      const r = finishedReport(run, appIndex(row));
      return (r.bytes * 8) / r.elapsedUs;
    }
    case 'app_elapsed_s':
      return finishedReport(run, appIndex(row)).elapsedUs / 1e6;
    case 'apps_total_kbps':
      return totalKbps(run);
    case 'retransmissions':
      return countEvents(run, 'tcp.retransmit', hostIndex(row, run));
    case 'dup_acks':
      return countEvents(run, 'tcp.dupack', hostIndex(row, run));
    case 'frames_dropped':
      return run.trace.frames.filter((f) => f.fate === Fate.Dropped).length;
  }
}

function appIndex(row: { app?: number }): number {
  if (row.app === undefined) throw new MetricError('names no app');
  return row.app;
}

function hostIndex(row: { host?: string }, run: RunView): number {
  const i = run.world.hosts.findIndex((h) => h.name === row.host);
  if (i < 0) throw new MetricError(`no host "${row.host ?? ''}" in the run`);
  return i;
}

// iputils' last line: "rtt min/avg/max/mdev = 31.862/31.862/31.862/0.000 ms".
const RTT_LINE = /rtt min\/avg\/max\/mdev = ([\d.]+)\/([\d.]+)\/([\d.]+)\/([\d.]+) ms/;

function pingRtt(run: RunView, app: number): [number, number, number] {
  for (const rec of run.trace.apps) {
    if (rec.app !== app || rec.kind === AppRecordKind.Data) continue;
    const m = RTT_LINE.exec(rec.text);
    if (m) return [Number(m[1]), Number(m[2]), Number(m[3])];
  }
  throw new MetricError(`app ${app}: ping printed no rtt statistics (no reply, or it did not finish)`);
}

function finishedReport(run: RunView, app: number): TraceAppRecord {
  const r = run.trace.apps.find((a) => a.app === app && a.kind === AppRecordKind.Report);
  if (!r) throw new MetricError(`app ${app}: no report (it did not finish within duration_ms)`);
  if (r.error !== 0) throw new MetricError(`app ${app}: ended with error ${r.error}`);
  if (!r.done || r.elapsedUs <= 0) throw new MetricError(`app ${app}: did not finish within duration_ms`);
  return r;
}

function totalKbps(run: RunView): number {
  const done = run.trace.apps.filter((a) => a.kind === AppRecordKind.Report && a.done && a.error === 0 && a.elapsedUs > 0);
  if (done.length === 0) throw new MetricError('no app finished within duration_ms');
  const start = Math.min(...done.map((a) => a.time - a.elapsedUs));
  const end = Math.max(...done.map((a) => a.time));
  return (done.reduce((n, a) => n + a.bytes, 0) * 8 * 1000) / (end - start);
}

function countEvents(run: RunView, kindName: string, host: number): number {
  const kind = run.world.trace_kinds.indexOf(kindName);
  if (kind < 0) throw new MetricError(`the engine has no trace kind "${kindName}"`);
  return run.trace.events.filter((e) => e.kind === kind && e.host === host).length;
}
