// Every shipped lesson, played on its real run: each anchor is found, and each question's
// answer equals what a check written here finds in the trace on its own (events by kind name,
// frames decoded from their bytes), never through the lesson engine's queries.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../engine/run.ts';
import type { TraceEvent, TraceFrame } from '../engine/trace_types.ts';
import { parseLesson, runLesson, type Lesson, type LessonPlay } from './index.ts';

const DIR = fileURLToPath(new URL('./shipped/', import.meta.url));
const SCENARIOS = fileURLToPath(new URL('../scenarios/shipped/', import.meta.url));

function shippedScenario(name: string): unknown {
  const file = readdirSync(SCENARIOS).find((f) => f === `${name}.json`);
  return file ? JSON.parse(readFileSync(SCENARIOS + file, 'utf8')) : undefined;
}

function loadLesson(file: string): Lesson {
  const r = parseLesson(readFileSync(DIR + file, 'utf8'));
  if (!r.ok) throw new Error(`${file}: ${JSON.stringify(r.errors)}`);
  return r.lesson;
}

// --- the independent reading of a run ---------------------------------------------------

function events(r: RunResult, kind: string, host?: string): TraceEvent[] {
  const k = r.world.trace_kinds.indexOf(kind);
  const h = host === undefined ? -1 : r.world.hosts.findIndex((x) => x.name === host);
  return r.trace.events.filter((e) => e.kind === k && (h < 0 || e.host === h));
}

interface Segment {
  frame: TraceFrame;
  seq: number;
  ack: number;
  flags: number;
  win: number;
  len: number;
}

// RFC 791 / RFC 9293 headers, read straight from the datagram (the frame's, after its
// Ethernet header)
function tcpOf(f: TraceFrame): Segment {
  const b = f.dgram;
  const ihl = (b[0]! & 15) * 4;
  const total = (b[2]! << 8) | b[3]!;
  const seq = ((b[ihl + 4]! << 24) | (b[ihl + 5]! << 16) | (b[ihl + 6]! << 8) | b[ihl + 7]!) >>> 0;
  const ack = ((b[ihl + 8]! << 24) | (b[ihl + 9]! << 16) | (b[ihl + 10]! << 8) | b[ihl + 11]!) >>> 0;
  const doff = (b[ihl + 12]! >> 4) * 4;
  const win = (b[ihl + 14]! << 8) | b[ihl + 15]!; // no window scaling in these runs
  return { frame: f, seq, ack, flags: b[ihl + 13]!, win, len: total - ihl - doff };
}

function sentBy(r: RunResult, host: string): Segment[] {
  const h = r.world.hosts.findIndex((x) => x.name === host);
  return r.trace.frames.filter((f) => f.node === h && f.dgram.length > 0).map(tcpOf);
}

const SYN = 0x02;
const FIN = 0x01;

function questions(p: LessonPlay) {
  return p.steps.flatMap((s) => (s.question ? [{ step: s, q: s.question }] : []));
}

// --- the lessons ---------------------------------------------------------------------------

const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('shipped lessons', () => {
  it('ship at least the five of the first step, each valid', () => {
    const names = files.map((f) => loadLesson(f).name);
    expect(names).toEqual(
      expect.arrayContaining([
        'retransmission-timer',
        'exponential-backoff',
        'fast-retransmit',
        'delayed-ack',
        'nagle-delayed-ack',
        'zero-window',
        'lost-syn-and-fin',
      ]),
    );
    expect(new Set(names).size).toBe(names.length);
  });

  const plays = new Map<string, LessonPlay>();
  beforeAll(async () => {
    for (const f of files) {
      const lesson = loadLesson(f);
      plays.set(lesson.name, await runLesson(lesson, shippedScenario));
    }
  });

  it('every anchor is found and every question has exactly one right choice', () => {
    for (const f of files) {
      const lesson = loadLesson(f);
      const p = plays.get(lesson.name)!;
      expect(p.steps).toHaveLength(lesson.steps.length);
      expect(questions(p).length).toBeGreaterThanOrEqual(1);
      for (const { q } of questions(p)) {
        expect(q.correct).toBeGreaterThanOrEqual(0);
        expect(q.reveal.time).toBeGreaterThanOrEqual(0);
      }
      for (const s of p.steps) expect(s.caption).not.toMatch(/\{[a-z_]+\}/);
      // a player steps forward through the run
      const times = p.steps.map((s) => s.at.time);
      expect(times).toEqual([...times].sort((a, b) => a - b));
    }
  });

  it('retransmission-timer: the timer fires one RTO after its restart, and the lost segment leaves next', () => {
    const p = plays.get('retransmission-timer')!;
    const r = p.result;
    const restart = events(r, 'tcp.rto.restart', 'client')[0]!;
    const expire = events(r, 'tcp.rto.expire', 'client')[0]!;
    const [when, which] = questions(p).map((x) => x.q);
    expect(when!.answer).toBeCloseTo((expire.time - restart.time) / 1e6, 9);
    expect(when!.answer).toBeCloseTo(restart.a / 1e6, 6);
    expect(when!.choices[when!.correct]!.value).toBe(1);
    // the data segments by first transmission; the retransmitted one's place among them
    const data = sentBy(r, 'client').filter((s) => s.len > 0);
    const firsts = [...new Set(data.map((s) => s.seq))];
    const lost = data.find((s) => s.frame.fate === 1)!;
    const resent = data.find((s) => s.frame.retx !== 255)!;
    expect(resent.seq).toBe(lost.seq);
    expect(which!.answer).toBe(firsts.indexOf(resent.seq) + 1);
    expect(which!.choices[which!.correct]!.value).toBe(2);
  });

  it('exponential-backoff: each timeout is twice the one before', () => {
    const p = plays.get('exponential-backoff')!;
    const expires = events(p.result, 'tcp.rto.expire', 'client');
    expect(expires.map((e) => e.a / 1e6)).toEqual([1, 2, 4, 8]);
    const [next, third] = questions(p).map((x) => x.q);
    expect(next!.answer).toBeCloseTo((expires[1]!.time - expires[0]!.time) / 1e6, 9);
    expect(third!.answer).toBe(expires[2]!.a / 1e6);
  });

  it('fast-retransmit: a fast retransmit after three duplicates, cwnd deflated at the end of recovery', () => {
    const p = plays.get('fast-retransmit')!;
    const r = p.result;
    const [cause, dupacks, cwnd] = questions(p).map((x) => x.q);
    const resent = r.trace.frames.find((f) => f.node === 0 && f.retx !== 255)!;
    expect(cause!.answer).toBe(r.world.retx_causes[resent.retx]);
    expect(cause!.answer).toBe('fast retransmit');
    const retx = events(r, 'tcp.retransmit', 'client')[0]!;
    expect(dupacks!.answer).toBe(retx.d);
    expect(dupacks!.answer).toBe(3);
    expect(cwnd!.answer).toBe(events(r, 'tcp.recovery.exit', 'client')[0]!.b);
  });

  it('delayed-ack: the lone segment is ACKed one delayed-ACK timeout later; the client resends first', () => {
    const p = plays.get('delayed-ack')!;
    const r = p.result;
    const [delay, resend] = questions(p).map((x) => x.q);
    const fire = events(r, 'tcp.delack.fire', 'server')[0]!;
    const arm = events(r, 'tcp.delack.arm', 'server')
      .filter((e) => e.time <= fire.time)
      .at(-1)!;
    expect(delay!.answer).toBeCloseTo((fire.time - arm.time) / 1e6, 9);
    expect(delay!.answer).toBeCloseTo(arm.a / 1e6, 9);
    const restart = events(r, 'tcp.rto.restart', 'client')[0]!;
    const next = sentBy(r, 'client').find((s) => s.frame.tSent >= restart.time)!;
    expect(resend!.answer).toBe(next.frame.retx !== 255);
    expect(resend!.answer).toBe(true);
    // the resend leaves before the delayed ACK reaches the client
    const ack = r.trace.frames.find((f) => f.node === 1 && f.tSent === fire.time)!;
    expect(next.frame.tSent).toBeLessThan(ack.tEnd);
  });

  it('lost-syn-and-fin: the SYN again after the initial RTO, the FIN by its timer, TIME_WAIT on the closer', () => {
    const p = plays.get('lost-syn-and-fin')!;
    const r = p.result;
    const [syn, who, fin, howLong] = questions(p).map((x) => x.q);
    const syns = sentBy(r, 'client').filter((s) => s.flags & SYN);
    expect(syns[0]!.frame.fate).toBe(1);
    expect(syn!.answer).toBeCloseTo((syns[1]!.frame.tSent - syns[0]!.frame.tSent) / 1e6, 9);
    const tw = r.world.tcp_states.indexOf('TIME_WAIT');
    const closed = r.world.tcp_states.indexOf('CLOSED');
    const enter = events(r, 'tcp.state').find((e) => e.b === tw)!;
    expect(who!.answer).toBe(r.world.hosts[enter.host]!.name);
    const fins = sentBy(r, 'client').filter((s) => s.flags & FIN);
    expect(fin!.answer).toBe(r.world.retx_causes[fins.find((s) => s.frame.retx !== 255)!.frame.retx]);
    const leave = events(r, 'tcp.state').find((e) => e.host === enter.host && e.b === closed && e.time > enter.time)!;
    expect(howLong!.answer).toBeCloseTo((leave.time - enter.time) / 1e6, 9);
  });

  it('reno-newreno: the second hole goes on the partial ACK, one round trip after recovery starts', () => {
    const p = plays.get('reno-newreno')!;
    const r = p.result;
    const [wait, cause] = questions(p).map((x) => x.q);
    const enter = events(r, 'tcp.recovery.enter', 'client')[0]!;
    const resent = r.trace.frames.filter((f) => f.node === 0 && f.retx !== 255);
    expect(wait!.answer).toBeCloseTo((resent[1]!.tSent - enter.time) / 1e6, 9);
    expect(cause!.answer).toBe(r.world.retx_causes[resent[1]!.retx]);
    expect(cause!.answer).toBe('NewReno partial ACK');
  });

  it('sack: two duplicates start recovery, and the second hole goes at once by SACK loss recovery', () => {
    const p = plays.get('sack')!;
    const r = p.result;
    const [dupacks, cause] = questions(p).map((x) => x.q);
    const retx = events(r, 'tcp.retransmit', 'client');
    const dups = events(r, 'tcp.dupack', 'client').filter((e) => e.time <= retx[0]!.time);
    expect(dupacks!.answer).toBe(dups.at(-1)!.b);
    expect(dupacks!.answer).toBe(retx[0]!.d);
    expect(cause!.answer).toBe(r.world.retx_causes[retx[1]!.c]);
    expect(cause!.answer).toBe('SACK loss recovery');
  });

  it('eifel: after the spurious timeout the client sends new data, with ssthresh restored', () => {
    const p = plays.get('eifel')!;
    const r = p.result;
    const [next, ssthresh] = questions(p).map((x) => x.q);
    const expire = events(r, 'tcp.rto.expire', 'client')[0]!;
    const data = sentBy(r, 'client').filter((s) => s.len > 0);
    const after = data.filter((s) => s.frame.tSent >= expire.time);
    expect(next!.answer).toBe(after[1]!.frame.retx !== 255);
    expect(data.filter((s) => s.seq === after[1]!.seq)).toHaveLength(1); // sent once: new data
    const spurious = events(r, 'tcp.rto.spurious', 'client')[0]!;
    expect(ssthresh!.answer).toBe(spurious.d);
  });

  it('karn: the ACK of the retransmission gives no RTT sample and the backed-off timer stays', () => {
    const p = plays.get('karn')!;
    const r = p.result;
    const [timer] = questions(p).map((x) => x.q);
    const retx = events(r, 'tcp.retransmit', 'client')[0]!;
    const ackArrives = r.trace.frames.find((f) => f.node === 1 && f.tSent > retx.time)!.tEnd;
    const arm = events(r, 'tcp.rto.arm', 'client').find((e) => e.time >= ackArrives)!;
    expect(timer!.answer).toBe(arm.a / 1e6);
    expect(events(r, 'tcp.rtt.sample', 'client').filter((e) => e.time === ackArrives)).toHaveLength(0);
  });

  it("nagle-delayed-ack: the body waits for the header's ACK, which the server sends when its delayed-ACK timer fires", () => {
    const p = plays.get('nagle-delayed-ack')!;
    const r = p.result;
    const [body, next] = questions(p).map((x) => x.q);
    const data = sentBy(r, 'client').filter((s) => s.len > 0);
    expect(data.map((s) => s.len)).toEqual([100, 200]); // the two writes, each its own segment
    expect(body!.answer).toBeCloseTo((data[1]!.frame.tSent - data[0]!.frame.tSent) / 1e6, 9);
    // the server holds its ACK of the header for its delayed-ACK time; the body leaves the
    // moment that ACK (of exactly the header) reaches the client
    const arm = events(r, 'tcp.delack.arm', 'server')[0]!;
    const fire = events(r, 'tcp.delack.fire', 'server')[0]!;
    expect(fire.time - arm.time).toBe(arm.a);
    expect(arm.a).toBe(200000);
    const ack = sentBy(r, 'server').find((s) => s.frame.tSent >= arm.time)!;
    expect(ack.frame.tSent).toBe(fire.time);
    expect(ack.len).toBe(0);
    expect(ack.ack).toBe(data[0]!.seq + 100);
    expect(data[1]!.frame.tSent).toBe(ack.frame.tEnd);
    expect(body!.choices[body!.correct]!.value).toBe(0.22);
    expect(next!.answer).toBe(ack.len);
  });

  it('zero-window: a one-byte probe when the persist timer fires, the next one a doubled timer later', () => {
    const p = plays.get('zero-window')!;
    const r = p.result;
    const [what, when] = questions(p).map((x) => x.q);
    const server = sentBy(r, 'server');
    const zero = server.find((s) => !(s.flags & SYN) && s.win === 0)!;
    const arm = events(r, 'tcp.persist.arm', 'client');
    expect(arm[0]!.time).toBe(zero.frame.tEnd); // armed as the zero window arrives
    const client = sentBy(r, 'client');
    const probe = client.find((s) => s.frame.tSent > arm[0]!.time)!;
    expect(probe.frame.tSent).toBe(arm[0]!.time + arm[0]!.a);
    expect(probe.seq).toBe(zero.ack); // the first byte beyond what the window allowed
    expect(what!.answer).toBe(probe.len);
    expect(what!.answer).toBe(1);
    const zwp = events(r, 'tcp.zwp', 'client');
    expect(zwp[0]!.time).toBe(probe.frame.tSent);
    expect(when!.answer).toBeCloseTo((zwp[1]!.time - zwp[0]!.time) / 1e6, 9);
    expect(arm[1]!.a).toBe(2 * arm[0]!.a); // RFC 1122 4.2.2.17: exponential backoff
    expect(when!.choices[when!.correct]!.value).toBe(2);
    // until the window update only probes leave; then full segments resume at once
    const update = server.find((s) => s.frame.tSent > zwp[1]!.time && s.win > 0)!;
    const between = client.filter((s) => s.len > 0 && s.frame.tSent > zero.frame.tEnd && s.frame.tSent < update.frame.tEnd);
    expect(between.map((s) => s.len)).toEqual([1, 1]);
    const resumed = client.find((s) => s.len > 0 && s.frame.tSent >= update.frame.tEnd)!;
    expect(resumed.frame.tSent).toBe(update.frame.tEnd);
    expect(resumed.len).toBe(1460);
  });

  it('rto-estimators: linux waits its floor; of the 1 s timers the ticking one fires first', () => {
    const p = plays.get('rto-estimators')!;
    const r = p.result;
    const [linux, first] = questions(p).map((x) => x.q);
    const restart = events(r, 'tcp.rto.restart', 'linux')[0]!;
    const expire = events(r, 'tcp.rto.expire', 'linux')[0]!;
    expect(linux!.answer).toBeCloseTo((expire.time - restart.time) / 1e6, 9);
    const others = events(r, 'tcp.retransmit').filter((e) => r.world.hosts[e.host]!.name !== 'linux');
    expect(first!.answer).toBe(r.world.hosts[others[0]!.host]!.name);
  });
});

describe('a lesson played with a parameter changed follows the run', () => {
  it('reno-newreno under Reno: the second hole waits for the timer, and the right choice moves', async () => {
    const lesson = loadLesson('05-reno-newreno.json');
    const p = await runLesson({ ...lesson, set: ['hosts.client.stack.tcp_cc=reno'] }, shippedScenario);
    const r = p.result;
    const [wait, cause] = questions(p).map((x) => x.q);
    const second = r.trace.frames.filter((f) => f.node === 0 && f.retx !== 255)[1]!;
    expect(cause!.answer).toBe(r.world.retx_causes[second.retx]);
    expect(cause!.answer).toBe('RTO expired');
    const expire = events(r, 'tcp.rto.expire', 'client')[0]!;
    expect(second.tSent).toBe(expire.time);
    expect(wait!.choices[wait!.correct]!.value).toBe(1);
  });

  it('sack without SACK: three duplicates, and the second hole waits for the partial ACK', async () => {
    const lesson = loadLesson('06-sack.json');
    const p = await runLesson({ ...lesson, set: ['hosts.client.stack.tcp_sack=false'] }, shippedScenario);
    const retx = events(p.result, 'tcp.retransmit', 'client');
    const [dupacks, cause] = questions(p).map((x) => x.q);
    expect(dupacks!.answer).toBe(retx[0]!.d);
    expect(dupacks!.answer).toBe(3);
    expect(cause!.answer).toBe(p.result.world.retx_causes[retx[1]!.c]);
  });

  it('nagle-delayed-ack with TCP_NODELAY: the body leaves with the header, the response carries the ACK', async () => {
    const lesson = loadLesson('08-nagle-delayed-ack.json');
    const p = await runLesson({ ...lesson, set: ['hosts.client.stack.tcp_nagle=false'] }, shippedScenario);
    const r = p.result;
    const [body, next] = questions(p).map((x) => x.q);
    const data = sentBy(r, 'client').filter((s) => s.len > 0);
    expect(data.map((s) => s.len)).toEqual([100, 200]);
    expect(body!.answer).toBe((data[1]!.frame.tSent - data[0]!.frame.tSent) / 1e6);
    expect(body!.choices[body!.correct]!.value).toBe(0);
    const arm = events(r, 'tcp.delack.arm', 'server')[0]!;
    const reply = sentBy(r, 'server').find((s) => s.frame.tSent >= arm.time)!;
    expect(reply.ack).toBe(data[1]!.seq + 200);
    expect(next!.answer).toBe(reply.len);
    expect(next!.answer).toBe(1000);
    expect(events(r, 'tcp.delack.fire', 'server').filter((e) => e.time < reply.frame.tSent)).toHaveLength(0);
  });

  it("karn with lwIP's estimator: the ambiguous ACK ends the backoff", async () => {
    const lesson = loadLesson('03-karn.json');
    const p = await runLesson({ ...lesson, set: ['hosts.client.stack.tcp_rto=vj_ticks'] }, shippedScenario);
    const [timer] = questions(p).map((x) => x.q);
    const retx = events(p.result, 'tcp.retransmit', 'client')[0]!;
    const arm = events(p.result, 'tcp.rto.arm', 'client').find((e) => e.time > retx.time)!;
    expect(timer!.answer).toBe(arm.a / 1e6);
    expect(timer!.choices[timer!.correct]!.value).toBe(1);
  });
});

describe('steps shown side by side with a change', () => {
  it('every compare is a change the lesson can run with, and it changes the run', async () => {
    let compared = 0;
    for (const file of readdirSync(DIR).filter((f) => f.endsWith('.json'))) {
      const lesson = loadLesson(file);
      for (const step of lesson.steps) {
        if (!step.compare) continue;
        compared++;
        const plain = await runLesson(lesson, shippedScenario);
        const changed = await runLesson({ ...lesson, set: [...(lesson.set ?? []), ...step.compare.set] }, shippedScenario);
        expect(changed.result.hash, `${file}: ${step.compare.label}`).not.toBe(plain.result.hash);
      }
    }
    expect(compared).toBeGreaterThanOrEqual(3);
  });
});
