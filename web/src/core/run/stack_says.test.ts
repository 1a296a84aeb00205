import { describe, expect, it } from 'vitest';
import { NONE, type RetxCauseName, type TraceEvent, type TraceFrame } from '../engine/trace_types.ts';
import { eventBySeq, stackSays, type StackSaysContext } from './stack_says.ts';

// The names the world describes (a subset, in the engine's order where it matters).
const world = {
  trace_kinds: ['tcp.state', 'tcp.rto.expire', 'tcp.retransmit', 'tcp.rto.value', 'tcp.dupack', 'tcp.rto.spurious'],
  drop_reason_texts: ['none', 'link: transmit queue full (queue length limit)', 'nfc: module busy with another packet, arriving packet discarded'],
  retx_causes: ['RTO expired', 'SYN RTO expired', 'fast retransmit', 'NewReno partial ACK', 'FIN RTO expired'],
  retx_cause_names: ['rto', 'syn_rto', 'fast', 'partial_ack', 'fin_rto'] as RetxCauseName[],
  hosts: [
    { name: 'appliance', addr: '192.168.1.102', prefix: 24, link: 0 },
    { name: 'user', addr: '192.168.1.202', prefix: 24, link: 1 },
  ],
  bridges: [{ name: 'ptx' }],
};
const K = { expire: 1, retransmit: 2, rtoValue: 3, dupack: 4, spurious: 5 };

function frame(p: Partial<TraceFrame>): TraceFrame {
  return {
    id: 0,
    parent: NONE,
    tSent: 0,
    link: 0,
    dir: 0,
    retx: 255,
    faults: 0,
    node: 0,
    orig: NONE,
    cause: NONE,
    queue: 0,
    rule: NONE,
    bytes: new Uint8Array(40),
    ethernet: false,
    dgram: new Uint8Array(40),
    fate: 0,
    reason: 0,
    tWire: 0,
    tWireEnd: 0,
    tEnd: 0,
    slots: 0,
    wireLen: 0,
    firstSlot: 0,
    ...p,
  };
}
function event(seq: number, kind: number, p: Partial<TraceEvent> = {}): TraceEvent {
  return { time: 0, seq, kind, host: 0, conn: 0, lport: 49153, rport: 7891, a: 0, b: 0, c: 0, d: 0, cause: NONE, ...p };
}

function ctx(frames: TraceFrame[], events: TraceEvent[]): StackSaysContext {
  const byId = new Map(frames.map((f) => [f.id, f]));
  return {
    world,
    events,
    frame: (id) => byId.get(id),
    // frames on link 0 are numbered here, others named by link
    frameLabel: (id) => (byId.get(id)?.link === 0 ? String(frames.filter((f) => f.link === 0).findIndex((f) => f.id === id) + 1) : `eth #${id}`),
  };
}

describe('stackSays', () => {
  it('a plain delivered frame: nothing to say', () => {
    expect(stackSays(frame({}), ctx([], []))).toBe('');
  });

  it('a timeout retransmission: the RTO that ran out, from the tcp.rto.expire event, and the frame it re-sends', () => {
    const events = [
      event(0, K.rtoValue, { a: 1_000_000 }),
      event(1, K.expire, { a: 2_000_000, b: 3, c: 2 }),
      event(2, K.retransmit, { a: 1000, b: 1024, c: 0, d: 3, cause: 1 }),
    ];
    const frames = [frame({ id: 0 }), frame({ id: 5 }), frame({ id: 7, retx: 0, orig: 5, cause: 2 })];
    expect(stackSays(frames[2]!, ctx(frames, events))).toBe('RTO expired, RTO=2.000 s (re-sends 2)');
  });

  it('a timeout the next ACK proved spurious (Eifel) says so; a verdict on another connection or after a later timeout does not count', () => {
    const base = [event(0, K.expire, { a: 1_000_000, b: 3, c: 1 }), event(1, K.retransmit, { a: 1000, b: 244, c: 0, d: 3, cause: 0 })];
    const frames = [frame({ id: 5 }), frame({ id: 7, retx: 0, orig: 5, cause: 1 })];
    const says = (later: TraceEvent[]) => stackSays(frames[1]!, ctx(frames, [...base, ...later]));
    expect(says([event(2, K.spurious, { a: 484, b: 1933 })])).toBe(
      "RTO expired, RTO=1.000 s, spurious: the next ACK echoed the original's timestamp (Eifel), undone (re-sends 1)",
    );
    expect(says([event(2, K.spurious, { conn: 1 })])).toBe('RTO expired, RTO=1.000 s (re-sends 1)');
    expect(says([event(2, K.expire), event(3, K.spurious)])).toBe('RTO expired, RTO=1.000 s (re-sends 1)');
  });

  it('a timeout retransmission without its expiry event falls back to the last tcp.rto.value of the connection', () => {
    const events = [
      event(0, K.rtoValue, { a: 1_000_000 }),
      event(1, K.rtoValue, { a: 3_000_000, host: 1 }), // another host's connection
      event(2, K.retransmit, { c: 4, d: 5 }),
    ];
    const f = frame({ id: 3, retx: 4, cause: 2 });
    expect(stackSays(f, ctx([f], events))).toBe('FIN RTO expired, RTO=1.000 s');
  });

  it('a fast retransmit: the dup ACK count from the tcp.dupack event', () => {
    const events = [event(0, K.dupack, { a: 5000, b: 3 }), event(1, K.retransmit, { c: 2, d: 3, cause: 0 })];
    const f = frame({ id: 9, retx: 2, cause: 1, orig: 4, link: 0 });
    const orig = frame({ id: 4, link: 1 });
    expect(stackSays(f, ctx([f, orig], events))).toBe('fast retransmit after 3 dup ACKs (re-sends eth #4)');
  });

  it('a NewReno partial ACK says so; a retransmission without events keeps the cause name', () => {
    const events = [event(0, K.dupack, { b: 4 }), event(1, K.retransmit, { c: 3, d: 4, cause: 0 })];
    expect(stackSays(frame({ retx: 3, cause: 1 }), ctx([], events))).toBe('NewReno partial ACK');
    expect(stackSays(frame({ retx: 1 }), ctx([], []))).toBe('SYN RTO expired');
  });

  it('the wording follows the cause, not its text: reworded causes keep their detail', () => {
    const reworded = { ...world, retx_causes: ['timer ran out', 'SYN timer ran out', 'three duplicates', 'partial', 'FIN timer ran out'] };
    const events = [event(0, K.rtoValue, { a: 1_000_000 }), event(1, K.retransmit, { c: 0, d: 2 }), event(2, K.retransmit, { c: 2, d: 3 })];
    const c = { ...ctx([], events), world: reworded };
    expect(stackSays(frame({ retx: 0, cause: 1 }), c)).toBe('timer ran out, RTO=1.000 s');
    expect(stackSays(frame({ retx: 2, cause: 2 }), c)).toBe('three duplicates after 3 dup ACKs');
  });

  it('dropped frames: the drop reason text of the world', () => {
    expect(stackSays(frame({ fate: 1, reason: 2 }), ctx([], []))).toBe('dropped: nfc: module busy with another packet, arriving packet discarded');
    expect(stackSays(frame({ fate: 1, reason: 99 }), ctx([], []))).toBe('dropped: reason 99');
  });

  it('fates at the end of the run and the faults applied', () => {
    expect(stackSays(frame({ fate: 3 }), ctx([], []))).toBe('in flight at the end');
    expect(stackSays(frame({ fate: 2 }), ctx([], []))).toBe('unfinished: the run ended before its END');
    expect(stackSays(frame({ faults: 1 }), ctx([], []))).toBe('corrupted on the way');
    expect(stackSays(frame({ faults: 2 }), ctx([], []))).toBe('duplicate');
    expect(stackSays(frame({ faults: 4 }), ctx([], []))).toBe('delayed');
    expect(stackSays(frame({ faults: 4, fate: 1, reason: 1 }), ctx([], []))).toBe('delayed; dropped: link: transmit queue full (queue length limit)');
  });

  it("a bridge's copy names the bridge and the original sender's reason to re-send", () => {
    const events = [event(0, K.expire, { a: 1_000_000 }), event(1, K.retransmit, { c: 0, cause: 0 })];
    const nfcRetx = frame({ id: 7, link: 0, retx: 0, cause: 1, orig: 5 });
    const nfcOrig = frame({ id: 5, link: 0 });
    const copy = frame({ id: 8, link: 1, parent: 7, node: 2 });
    const plain = frame({ id: 10, link: 1, parent: 5, node: 2 });
    const c = ctx([nfcOrig, nfcRetx, copy, plain], events);
    expect(stackSays(copy, c)).toBe('forwarded by ptx: RTO expired, RTO=1.000 s (re-sends 1)');
    expect(stackSays(plain, c)).toBe('forwarded by ptx');
  });
});

describe('eventBySeq', () => {
  it('finds events by seq even when the array does not start at 0', () => {
    const ev = [event(10, 0), event(11, 0), event(15, 0)];
    expect(eventBySeq(ev, 15)?.seq).toBe(15);
    expect(eventBySeq(ev, 12)).toBeUndefined();
    expect(eventBySeq(ev, NONE)).toBeUndefined();
  });
});
