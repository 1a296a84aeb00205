// What an anchor found: a stack event or a frame on one link, with the instant it happened.

import type { PacketRow } from '../packets/index.ts';
import type { TraceEvent, TraceFrame } from '../engine/trace_types.ts';

/** A frame's `retx` when its sender did not re-send data in it (docs/trace-format.md). */
export const NO_RETX = 255;

export interface Hit {
  /** µs of virtual time */
  time: number;
  event?: TraceEvent;
  /** the frame found, or for a tcp.retransmit event the frame it sent */
  frame?: TraceFrame;
  /** that frame's row in its link's packet list */
  row?: PacketRow;
}

/** Does `h` come after `prev`? Events are ordered by their seq and frames by their id; at
 *  one instant an event and a frame are both "after" each other (a stack decides and sends in
 *  the same microsecond, and the peer's decision on a frame comes at its arrival). */
export function isAfter(h: Hit, prev: Hit): boolean {
  if (h.time !== prev.time) return h.time > prev.time;
  if (h.event && prev.event) return h.event.seq > prev.event.seq;
  if (h.frame && prev.frame) return h.frame.id > prev.frame.id;
  return true;
}
