import { describe, expect, it } from 'vitest';
import { Fate, NONE, type TraceFrame, type WorldDescription } from '../../core/engine/trace_types.ts';
import { distanceToSegment, framePath, pathPixels } from './frame_geometry.ts';
import { buildLanes } from '../../core/run/lifelines.ts';
import { shippedRun } from '../../core/run/testing/test_runs.ts';

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
    fate: Fate.Delivered,
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

const serialWorld: WorldDescription = {
  format: 1,
  seed: 1,
  duration_us: 1e6,
  hosts: [
    { name: 'pc', addr: '10.0.7.1', prefix: 24, link: 0 },
    { name: 'arduino', addr: '10.0.7.2', prefix: 24, link: 0 },
  ],
  bridges: [],
  links: [
    {
      name: 'serial',
      type: 'serial',
      a: 0,
      b: 1,
      mtu: 576,
      capture_interface: 0,
      description: 'serial slip',
      config: { framing: 'slip', leading_end: true, baud: 57600, bits_per_char: 10 },
    },
  ],
  trace_kinds: [],
  drop_reasons: [],
  drop_reason_texts: [],
  retx_causes: [],
  retx_cause_names: [],
  tcp_states: [],
};
const ctx = { world: serialWorld, lanes: buildLanes(serialWorld), endUs: 1e6 };
// 100 px per column from x = 50, 1 px per 100 µs from y = 10
const x = (lane: number) => 50 + lane * 100;
const y = (t: number) => 10 + t / 100;

describe('frame geometry', () => {
  it('a delivered frame goes from the sender at tSent to the receiver at tEnd', () => {
    const p = framePath(frame({ tSent: 1000, tWire: 1000, tWireEnd: 15000, tEnd: 16000, wireLen: 86 }), ctx);
    expect(p.end).toBe('arrive');
    const px = pathPixels(p, x, y);
    expect(px.segments).toEqual([{ x1: 50, y1: 20, x2: 150, y2: 170, kind: 'wire' }]);
    expect(px.cross).toBeUndefined();
    expect([p.t0, p.t1]).toEqual([1000, 16000]);
  });

  it('goes right to left for direction b to a', () => {
    const p = framePath(frame({ dir: 1, node: 1, tSent: 0, tEnd: 5000 }), ctx);
    expect(pathPixels(p, x, y).segments[0]).toMatchObject({ x1: 150, x2: 50 });
  });

  it('a frame dropped on the line stops half-way at the instant it died, with a cross', () => {
    const p = framePath(frame({ fate: Fate.Dropped, tSent: 1000, tWire: 1000, wireLen: 86, tEnd: 9000, reason: 3 }), ctx);
    expect(p.end).toBe('drop');
    const px = pathPixels(p, x, y);
    expect(px.cross).toEqual({ x: 100, y: 100 });
    expect(px.segments).toEqual([{ x1: 50, y1: 20, x2: 100, y2: 100, kind: 'wire' }]);
  });

  it('a frame dropped as it was handed over dies close to its sender', () => {
    const p = framePath(frame({ fate: Fate.Dropped, tSent: 2000, tEnd: 2000 }), ctx);
    expect(pathPixels(p, x, y).cross).toEqual({ x: 75, y: 30 });
  });

  it('a frame still in flight at the end stops half-way at the end of the run', () => {
    const p = framePath(frame({ fate: Fate.InFlight, tSent: 990_000 }), ctx);
    expect(p.end).toBe('open');
    expect(p.hops[0]).toMatchObject({ from: 0, to: 0.5, t1: 1e6 });
  });

  it('NFC: UART into the module, held, over the air, UART out (nfc-bridge-1080)', async () => {
    const run = await shippedRun('nfc-bridge-1080');
    const { world, trace } = run.result;
    const c = { world, lanes: buildLanes(world), endUs: run.endUs };
    // Frame 0: the appliance's SYN, 44 bytes: a 60-byte packet on a 115200-baud UART takes
    // 5209 µs, then the module waits for the slot at 110 ms, the air ends with the last slot.
    const syn = trace.frames[0]!;
    expect(syn.bytes.length).toBe(44);
    const p = framePath(syn, c);
    expect(p.hops.map((h) => [h.kind, h.from, h.to, h.t0, h.t1])).toEqual([
      ['uart', 0, 1, 100_000, 105_209],
      ['hold', 1, 1, 105_209, 110_000],
      ['air', 1, 2, 110_000, syn.tWireEnd],
      ['uart', 2, 3, syn.tWireEnd, syn.tEnd],
    ]);
    expect(p.main).toBe(2);
    // The first data segment follows the handshake's ACK and the busy module discards it:
    // the arrow stops on the appliance's module lifeline when its first byte arrives.
    const dropped = trace.frames.find((f) => f.fate === Fate.Dropped)!;
    const d = framePath(dropped, c);
    expect(d.end).toBe('drop');
    expect(d.death).toEqual({ lane: 1, t: dropped.tEnd });
    expect(world.drop_reason_texts[dropped.reason]).toMatch(/module busy/);
    // A frame the bridge forwards over Ethernet goes from ptx (3) to user (4).
    expect(framePath(trace.frames[1]!, c).hops).toEqual([{ from: 3, to: 4, t0: trace.frames[1]!.tSent, t1: trace.frames[1]!.tEnd, kind: 'wire' }]);
  });

  it('measures how far a point is from an arrow', () => {
    const s = { x1: 0, y1: 0, x2: 100, y2: 0, kind: 'wire' as const };
    expect(distanceToSegment(50, 5, s)).toBe(5);
    expect(distanceToSegment(-3, 4, s)).toBe(5);
  });
});
