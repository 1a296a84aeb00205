// Where a frame's arrow goes on the ladder, in columns and microseconds (the drawing maps
// them to pixels). The arrow's slope is the real transit time: it leaves the sender when
// the frame was handed to the link (tSent) and reaches the receiver when it was delivered
// (tEnd). An NFC frame goes the way the NFC link model says it goes: over the UART into the
// sender's module, waits there for its slot, over the air to the other module from its
// first slot to the end of its last, and from that module to the receiver. A dropped frame
// stops where it died, at the instant it died.
import { Fate, type TraceFrame, type WorldDescription } from '../../core/engine/trace_types.ts';
import type { Lanes } from '../../core/run/lifelines.ts';

export type HopKind = 'wire' | 'uart' | 'hold' | 'air';

export interface Hop {
  /** columns, fractional for a hop that ends between two lifelines */
  from: number;
  to: number;
  t0: number;
  t1: number;
  kind: HopKind;
}

export interface FramePath {
  hops: Hop[];
  /** arrive: delivered (arrowhead); drop: died (cross); open: still travelling at the end */
  end: 'arrive' | 'drop' | 'open';
  /** where a dropped frame died */
  death?: { lane: number; t: number };
  /** the hop the label sits on */
  main: number;
  /** the time span the arrow covers, for the visible-window selection */
  t0: number;
  t1: number;
}

/** Per NFC packet: the link model's UART overhead (UI protocol 8 + packet handling 8) and
 *  bits per character (8N1); see wasm/sim/link_nfc.h. */
const NFC_PKT_OVERHEAD = 16;
const UART_BITS_PER_CHAR = 10;

/** The NFC link's UART baud rate, read from the engine's link description ("UART 115200
 *  baud"); the trace records do not carry it. */
export function nfcUartBaud(description: string): number {
  const m = /UART (\d+) baud/.exec(description);
  return m ? Number(m[1]) : 115200;
}

/** A frame that never reached the line (queue full, fault rule at hand-over) dies close to
 *  its sender; one that was on the line dies half-way. */
const DIED_AT_HANDOVER = 0.25;
const DIED_ON_THE_WAY = 0.5;

export interface GeometryContext {
  world: WorldDescription;
  lanes: Lanes;
  /** end of the run: where arrows of frames still in flight stop */
  endUs: number;
}

function endpointLane(ctx: GeometryContext, node: number, link: number): number {
  const lane = ctx.lanes.ofNode(node);
  return lane >= 0 ? lane : ctx.lanes.ofDevice(link);
}

function between(a: number, b: number, f: number): number {
  return a + (b - a) * f;
}

export function framePath(f: TraceFrame, ctx: GeometryContext): FramePath {
  const link = ctx.world.links[f.link]!;
  const senderNode = f.dir === 0 ? link.a : link.b;
  const receiverNode = f.dir === 0 ? link.b : link.a;
  const s = endpointLane(ctx, senderNode, f.link);
  const r = endpointLane(ctx, receiverNode, f.link);
  const hops: Hop[] = [];
  let end: FramePath['end'] = 'arrive';
  let death: FramePath['death'];
  const open = f.fate === Fate.InFlight || f.fate === Fate.Unfinished || f.fate === Fate.Pending;

  if (open) {
    // Still on its way when the run ended (or its end never came): half-way at the end.
    end = 'open';
    const t1 = Math.max(f.tSent, Math.min(ctx.endUs, f.tEnd >= f.tSent && f.tEnd > 0 ? f.tEnd : ctx.endUs));
    hops.push({ from: s, to: between(s, r, DIED_ON_THE_WAY), t0: f.tSent, t1, kind: 'wire' });
  } else if (link.type === 'nfc') {
    const side = f.dir === 0 ? 'a' : 'b';
    const ms = ctx.lanes.ofModule(f.link, side);
    const mr = ctx.lanes.ofModule(f.link, side === 'a' ? 'b' : 'a');
    if (f.fate === Fate.Dropped) {
      end = 'drop';
      const t = Math.max(f.tSent, f.tEnd);
      if (f.tWire === 0) {
        // Never reached the UART: dropped in the sender's queue or by a rule, on the way
        // to its module.
        death = { lane: between(s, ms, DIED_ON_THE_WAY), t };
      } else if (f.firstSlot === 0) {
        // Reached the module, which refused it (busy with another packet).
        death = { lane: ms, t };
      } else {
        death = { lane: between(ms, mr, DIED_ON_THE_WAY), t };
        hops.push({ from: s, to: ms, t0: f.tSent, t1: uartEnd(f, link.description), kind: 'uart' });
        hops.push({ from: ms, to: death.lane, t0: f.firstSlot, t1: t, kind: 'air' });
      }
      if (hops.length === 0) hops.push({ from: s, to: death.lane, t0: f.tSent, t1: t, kind: 'uart' });
    } else {
      const inModule = uartEnd(f, link.description);
      hops.push({ from: s, to: ms, t0: f.tSent, t1: inModule, kind: 'uart' });
      if (f.firstSlot > inModule) hops.push({ from: ms, to: ms, t0: inModule, t1: f.firstSlot, kind: 'hold' });
      hops.push({ from: ms, to: mr, t0: Math.max(inModule, f.firstSlot), t1: f.tWireEnd, kind: 'air' });
      hops.push({ from: mr, to: r, t0: f.tWireEnd, t1: Math.max(f.tWireEnd, f.tEnd), kind: 'uart' });
    }
  } else if (f.fate === Fate.Dropped) {
    end = 'drop';
    death = { lane: between(s, r, f.tWire === 0 && f.wireLen === 0 ? DIED_AT_HANDOVER : DIED_ON_THE_WAY), t: Math.max(f.tSent, f.tEnd) };
    hops.push({ from: s, to: death.lane, t0: f.tSent, t1: death.t, kind: 'wire' });
  } else {
    hops.push({ from: s, to: r, t0: f.tSent, t1: Math.max(f.tSent, f.tEnd), kind: 'wire' });
  }

  // The label goes on the air hop of an NFC frame (that is the link), else the widest hop.
  let main = hops.findIndex((h) => h.kind === 'air');
  if (main < 0) {
    main = 0;
    hops.forEach((h, i) => {
      if (Math.abs(h.to - h.from) > Math.abs(hops[main]!.to - hops[main]!.from)) main = i;
    });
  }
  let t1 = f.tSent;
  for (const h of hops) t1 = Math.max(t1, h.t1);
  return { hops, end, ...(death ? { death } : {}), main, t0: f.tSent, t1 };
}

/** When the whole packet is in the sender's module: its first byte on the UART plus the
 *  UART time of the packet, never after its first slot (the module sends only what it holds). */
function uartEnd(f: TraceFrame, description: string): number {
  const us = Math.ceil(((f.bytes.length + NFC_PKT_OVERHEAD) * UART_BITS_PER_CHAR * 1e6) / nfcUartBaud(description));
  const start = f.tWire || f.tSent;
  const t = start + us;
  return f.firstSlot > 0 ? Math.min(t, f.firstSlot) : t;
}

export interface PixelSegment {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  kind: HopKind;
}

/** The path in pixels: `x(lane)` for a (fractional) column, `y(t)` for a time. */
export function pathPixels(
  p: FramePath,
  x: (lane: number) => number,
  y: (t: number) => number,
): { segments: PixelSegment[]; cross?: { x: number; y: number } } {
  const segments = p.hops.map((h) => ({ x1: x(h.from), y1: y(h.t0), x2: x(h.to), y2: y(h.t1), kind: h.kind }));
  return p.death ? { segments, cross: { x: x(p.death.lane), y: y(p.death.t) } } : { segments };
}

/** Distance from a point to a segment, for hovering and clicking arrows on the canvas. */
export function distanceToSegment(px: number, py: number, s: PixelSegment): number {
  const dx = s.x2 - s.x1;
  const dy = s.y2 - s.y1;
  const len2 = dx * dx + dy * dy;
  const u = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - s.x1) * dx + (py - s.y1) * dy) / len2));
  return Math.hypot(px - (s.x1 + u * dx), py - (s.y1 + u * dy));
}
