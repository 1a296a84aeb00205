// The figures a replay compares with a seed's (docs/replays.md), each measured on one
// finished run: from the applications' output and reports, the stack's trace events and
// the frames' fates. Pure functions over the trace: the page and `stackscope replay` share
// them.

import { AppRecordKind, Fate, NONE, traceField, type TraceAppRecord, type TraceEvent, type TraceFrame, type WorldDescription } from '../engine/trace_types.ts';
import { analyzeCapture } from '../packets/index.ts';
import { IP_PROTO_TCP, parseIpv4 } from '../packets/ipv4.ts';
import { parseTcp, TH_FIN, TH_SYN, type TcpHeader } from '../packets/tcp.ts';
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
  dup_acks_sent: { unit: 'ACKs', what: 'segments the host sent that Wireshark calls Dup ACK (a capture beside the host, dropped ones included)' },
  spurious_retransmissions: { unit: 'segments', what: 'segments the host sent again although an earlier copy had reached the peer' },
  rto_first_data_ms: { unit: 'ms', what: 'the RTO the host armed when it first sent data' },
  frames_dropped: { unit: 'frames', what: 'frames dropped on the links (queue, fault rules, busy modules)' },
  capture_span_s: { unit: 's', what: "time from the link's first datagram to its last, as the capture's Time column (ARP frames left out)" },
  rto_expiries: { unit: 'timeouts', what: "times the host's retransmission timer expired (every cause of the RTO)" },
  link_frames: { unit: 'frames', what: 'datagrams the capture of the link holds (ARP frames left out: the rows count TCP segments)' },
};

/** The metric of `row` measured on `run`. Throws MetricError when the run does not have it. */
export function measure(row: Pick<ReferenceRow, 'metric' | 'app' | 'host' | 'link'>, run: RunView): number {
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
    case 'dup_acks_sent':
      return dupAcksSent(run, hostIndex(row, run));
    case 'spurious_retransmissions':
      return spuriousRetransmissions(run, hostIndex(row, run));
    case 'rto_expiries':
      return countEvents(run, 'tcp.rto.expire', hostIndex(row, run));
    case 'rto_first_data_ms':
      return firstDataRto(run, hostIndex(row, run)) / 1000;
    case 'frames_dropped':
      return run.trace.frames.filter((f) => f.fate === Fate.Dropped).length;
    case 'capture_span_s': {
      const frames = linkFrames(row, run);
      if (frames.length === 0) throw new MetricError(`link "${row.link ?? ''}" carried no frame`);
      return (frames[frames.length - 1]!.tSent - frames[0]!.tSent) / 1e6;
    }
    case 'link_frames':
      return linkFrames(row, run).length;
  }
}

/** The frames of the row's link that carry an IPv4 datagram (not ARP's). */
function linkFrames(row: { link?: string }, run: RunView): readonly TraceFrame[] {
  const i = run.world.links.findIndex((l) => l.name === row.link);
  if (i < 0) throw new MetricError(`no link "${row.link ?? ''}" in the run`);
  return run.trace.frames.filter((f) => f.link === i && f.dgram.length > 0);
}

/** Frames the host itself sent (not copies a bridge forwarded), in the order it sent them. */
function sentBy(run: RunView, host: number): TraceFrame[] {
  return run.trace.frames.filter((f) => f.node === host && f.parent === NONE).sort((a, b) => a.tSent - b.tSent);
}

/** Wireshark decides a Dup ACK from the sender's own direction alone (packet-tcp.c: no
 * data, same window, seq and ack as the previous segment), so the host's sent frames are
 * enough; the paper's tables count them per side, as its stack logs did, dropped or not. */
function dupAcksSent(run: RunView, host: number): number {
  const rows = analyzeCapture(sentBy(run, host).map((f) => ({ timeUs: f.tSent, bytes: f.bytes, ethernet: f.ethernet })));
  return rows.filter((r) => r.flags.includes('tcp.analysis.duplicate_ack')).length;
}

const NO_RETX = 255;

/** Whether frame `f` or a copy a bridge forwarded from it was delivered to a host. */
function reachedAHost(run: RunView, f: TraceFrame, children: Map<number, TraceFrame[]>): boolean {
  const link = run.world.links[f.link]!;
  const rx = f.dir === 0 ? link.b : link.a;
  if (f.fate === Fate.Delivered && rx < run.world.hosts.length) return true;
  return (children.get(f.id) ?? []).some((c) => reachedAHost(run, c, children));
}

/** Retransmissions (frames the stack marked as data sent again) of a segment an earlier
 * copy of which, same sequence number and length, reached the peer: sent again although
 * nothing was lost, the truth a capture can only guess at (Wireshark calls a
 * retransmission spurious only once it has seen the ACK of the first copy). */
function spuriousRetransmissions(run: RunView, host: number): number {
  const children = new Map<number, TraceFrame[]>();
  for (const f of run.trace.frames) {
    if (f.parent === NONE) continue;
    const list = children.get(f.parent) ?? [];
    list.push(f);
    children.set(f.parent, list);
  }
  const arrived = new Set<string>();
  let n = 0;
  for (const f of sentBy(run, host)) {
    const key = tcpSegmentKey(f.dgram);
    if (key === null) continue;
    if (f.retx !== NO_RETX && arrived.has(key)) n++;
    if (reachedAHost(run, f, children)) arrived.add(key);
  }
  return n;
}

/** The TCP header of a datagram (the dissector's parse), or null if it carries none. */
function tcpOf(b: Uint8Array): TcpHeader | null {
  const ip = parseIpv4(b, 0, false).header;
  if (!ip || ip.proto !== IP_PROTO_TCP || ip.fragOffset !== 0) return null;
  const tcp = parseTcp(b, ip.hlen, ip.end - ip.hlen, false);
  return tcp.stage === 'none' || tcp.stage === 'ports' ? null : tcp;
}

/** "seq/len/flags" of a TCP segment that occupies sequence space, else null. */
function tcpSegmentKey(b: Uint8Array): string | null {
  const tcp = tcpOf(b);
  const synFin = tcp ? tcp.flags & (TH_SYN | TH_FIN) : 0;
  if (!tcp || (tcp.payloadLen === 0 && !synFin)) return null;
  return `${tcp.seq}/${tcp.payloadLen}/${synFin}`;
}

/** The RTO armed (tcp.rto.arm, µs) at the instant the host first sent a TCP segment with
 * data: what its estimator chose for that segment. */
function firstDataRto(run: RunView, host: number): number {
  const first = sentBy(run, host).find((f) => (tcpOf(f.dgram)?.payloadLen ?? 0) > 0);
  if (!first) throw new MetricError(`host ${run.world.hosts[host]!.name} sent no TCP data`);
  const arm = run.world.trace_kinds.indexOf('tcp.rto.arm');
  const e = run.trace.events.find((ev) => ev.kind === arm && ev.host === host && ev.time === first.tSent);
  if (!e) throw new MetricError(`host ${run.world.hosts[host]!.name} armed no RTO for its first data`);
  return traceField(e, 'tcp.rto.arm', 'rto_us');
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
