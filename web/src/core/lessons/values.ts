// The named values at an anchor, for captions ("{rto}") and answers: the stack's own state at
// that instant (sender_state.ts: cwnd, ssthresh, RTO, srtt, rttvar, state), what the anchor's
// event says (the RTO that ran out, the dup ACK count), and the frame's packet-list values
// (No., relative Seq, length). Everything comes from the run.

import { NONE, traceField, type TraceEvent, type TraceFrame } from '../engine/trace_types.ts';
import { eventBySeq } from '../run/stack_says.ts';
import { NO_RETX, type Hit } from './hit.ts';
import type { LessonRun } from './lesson_run.ts';

export type RawValue = number | string | boolean;

export interface Value {
  raw: RawValue;
  text: string;
}

export type Values = Map<string, Value>;

const INFINITE = 0xffffffff;
// wasm/stack/trace.h: an event not about a connection
const NO_CONN = 0xff;

interface Conn {
  host: number;
  lport: number;
  rport: number;
}

/** Every value the anchor has; `prev`: the previous step's hit, for {since}. */
export function anchorValues(run: LessonRun, hit: Hit, prev?: Hit): Values {
  const out: Values = new Map();
  const put: Put = (name, raw, text = String) => {
    if (raw !== undefined) out.set(name, { raw, text: text(raw) });
  };
  put('time', hit.time / 1e6, asSeconds);
  if (prev) put('since', (hit.time - prev.time) / 1e6, asSeconds);
  const conn = connectionOf(run, hit);
  if (conn) addState(run, hit, conn, put);
  if (hit.event) addEvent(run, hit.event, put);
  if (hit.frame) addFrame(run, hit.frame, hit, put);
  put('expired', us(expiredRto(run, hit)), asSeconds);
  return out;
}

type Put = (name: string, raw: RawValue | undefined, text?: (v: RawValue) => string) => void;

function addState(run: LessonRun, hit: Hit, c: Conn, put: Put): void {
  const now = run.state.at(c.host, c.lport, c.rport, hit.time);
  const before = run.state.at(c.host, c.lport, c.rport, hit.time - 1);
  put('host', run.world.hosts[c.host]!.name);
  put('state', now?.state);
  put('cwnd', now?.cwnd);
  put('ssthresh', now?.ssthresh, asBytes);
  put('cwnd_before', before?.cwnd);
  put('ssthresh_before', before?.ssthresh, asBytes);
  put('rto', us(now?.rtoUs), asSeconds);
  put('srtt', us(now?.srttUs), asSeconds);
  put('rttvar', us(now?.rttvarUs), asSeconds);
  put('timer', us(timerAt(run, hit, c)), asSeconds);
}

function addEvent(run: LessonRun, e: TraceEvent, put: Put): void {
  const kind = run.world.trace_kinds[e.kind];
  if (kind === 'tcp.rto.expire') put('backoff', traceField(e, kind, 'backoff'));
  if (kind === 'tcp.dupack') put('dupacks', traceField(e, kind, 'dupacks'));
  if (kind === 'tcp.delack.arm' || kind === 'tcp.persist.arm') put('delay', traceField(e, kind, 'delay_us') / 1e6, asSeconds);
  if (kind === 'tcp.retransmit') {
    const cause = traceField(e, kind, 'cause');
    put('cause', run.world.retx_causes[cause]);
    if (run.world.retx_cause_names[cause] === 'fast') put('dupacks', traceField(e, kind, 'timer_or_dupacks'));
  }
}

function addFrame(run: LessonRun, f: TraceFrame, hit: Hit, put: Put): void {
  const view = run.model.link(f.link);
  put('link', view.name);
  put('no', view.rowOf.get(f.id)! + 1);
  put('retransmission', f.retx !== NO_RETX, (r) => (r ? 'a retransmission' : 'not a retransmission'));
  if (f.retx !== NO_RETX) put('cause', run.world.retx_causes[f.retx]);
  const tcp = hit.row?.tcp;
  if (!tcp) return;
  put('seq', tcp.seqRel);
  put('ack', tcp.ackRel);
  put('len', tcp.len);
  if (tcp.dupAckNum !== undefined) put('dupacks', tcp.dupAckNum);
  if (tcp.len > 0) put('segment', segmentNumber(run, f, tcp.stream, tcp.seqRel));
}

// The data segments the frame's sender put on this link, numbered 1, 2, 3 ... in the order of
// their first transmission: a retransmission has its original's number.
function segmentNumber(run: LessonRun, f: TraceFrame, stream: number, seqRel: number): number {
  const view = run.model.link(f.link);
  const seen: number[] = [];
  view.frames.forEach((g, i) => {
    const t = view.analysis.rows[i]!.tcp;
    if (g.node === f.node && t && t.stream === stream && t.len > 0 && !seen.includes(t.seqRel)) seen.push(t.seqRel);
  });
  return seen.indexOf(seqRel) + 1;
}

// The RTO that ran out and caused this retransmission, by the trace's cause chain (frame ->
// tcp.retransmit -> tcp.rto.expire, docs/trace-format.md), or the expiry's own.
function expiredRto(run: LessonRun, hit: Hit): number | undefined {
  const expire = run.world.trace_kinds.indexOf('tcp.rto.expire');
  let e = hit.event;
  if (!e && hit.frame) e = eventBySeq(run.events, originalFrame(run, hit.frame).cause);
  if (e && e.kind !== expire) e = eventBySeq(run.events, e.cause);
  return e && e.kind === expire ? traceField(e, 'tcp.rto.expire', 'rto_us') : undefined;
}

// A bridge's copy stands for the frame its sender's stack sent.
function originalFrame(run: LessonRun, f: TraceFrame): TraceFrame {
  const frames = run.model.result.trace.frames;
  let g = f;
  while (g.parent !== NONE && frames[g.parent]) g = frames[g.parent]!;
  return g;
}

// The host and connection an anchor is about: the event's, or the stack that first sent the
// frame (through a bridge's copies to the host that sent the original).
function connectionOf(run: LessonRun, hit: Hit): Conn | null {
  const e = hit.event;
  if (e) return e.conn === NO_CONN ? null : { host: e.host, lport: e.lport, rport: e.rport };
  const f = hit.frame && originalFrame(run, hit.frame);
  const tcp = hit.row?.tcp;
  if (!f || !tcp || f.node >= run.world.hosts.length) return null;
  return { host: f.node, lport: tcp.srcPort, rport: tcp.dstPort };
}

// The retransmission timer's duration as last (re)started, backoff included (RFC 6298 5.5):
// the anchor's own if it is a timer event, else the connection's last at or before its instant
// (what the stack did in that microsecond included, as for the state above).
function timerAt(run: LessonRun, hit: Hit, c: Conn): number | undefined {
  const kinds = run.world.trace_kinds;
  const timerKinds = [kinds.indexOf('tcp.rto.arm'), kinds.indexOf('tcp.rto.restart'), kinds.indexOf('tcp.rto.expire')];
  // the three kinds hold the timer's duration in the same field
  const rtoUs = (e: TraceEvent) => traceField(e, kinds[e.kind] as 'tcp.rto.arm' | 'tcp.rto.restart' | 'tcp.rto.expire', 'rto_us');
  if (hit.event && timerKinds.includes(hit.event.kind)) return rtoUs(hit.event);
  const ev = run.events;
  for (let i = ev.length - 1; i >= 0; i--) {
    const e = ev[i]!;
    if (e.time > hit.time) continue;
    if (e.host === c.host && e.lport === c.lport && e.rport === c.rport && timerKinds.includes(e.kind)) return rtoUs(e);
  }
  return undefined;
}

function us(v: number | undefined): number | undefined {
  return v === undefined ? undefined : v / 1e6;
}

/** 1.5 -> "1.500 s", 0.2 -> "200.0 ms" */
export function seconds(s: number): string {
  return Math.abs(s) >= 1 || s === 0 ? `${s.toFixed(3)} s` : `${(s * 1000).toFixed(1)} ms`;
}

function asSeconds(v: RawValue): string {
  return seconds(Number(v));
}

function asBytes(v: RawValue): string {
  return v === INFINITE ? '∞' : String(v);
}
