// How the serial line is doing, from the session's trace: frames each way, and the frames
// the page's host threw away as malformed (bad SLIP, cut short, bad checksums), by reason.
// Many bad frames and few good ones is what a wrong baud rate or a board sending garbage
// looks like from here; silence is what a board at another rate, or without the
// firmware, looks like.
import type { Trace } from '../../core/engine/trace_reader.ts';
import { traceField, type WorldDescription } from '../../core/engine/trace_types.ts';
import { LIVE_MTU } from './live_scenario.ts';

/** Drop reasons that mean the bytes on the line were wrong, not that the stack chose to drop. */
const MALFORMED = /^DROP_(SLIP|SLIP6|VJ|IP_(SHORT|VERSION|HDRLEN|CHKSUM|TOTLEN)|ICMP_(SHORT|CHKSUM)|UDP_(SHORT|CHKSUM)|TCP_(SHORT|CHKSUM))/;
const HOST_SENDS = 0; // the page's host is end a of the external link

export interface LineHealth {
  framesOut: number;
  framesIn: number;
  /** malformed frames by the drop reason's text */
  bad: Map<string, number>;
  badTotal: number;
  /** what looks wrong with the line, in words for the user, or null */
  problem: string | null;
}

/** Frames sent with nothing back before the page says so. */
const SILENT_AFTER = 3;
/** More bytes than the longest SLIP frame (every byte escaped, two ENDs) without one frame: garbage. */
const NO_FRAME_AFTER = 2 * LIVE_MTU + 2;

export function lineHealth(trace: Trace, world: WorldDescription, bytesIn: number, baud: number): LineHealth {
  let framesOut = 0;
  let framesIn = 0;
  for (const f of trace.frames) {
    if (f.dir === HOST_SENDS) framesOut++;
    else framesIn++;
  }
  const dropKind = world.trace_kinds.indexOf('drop');
  const bad = new Map<string, number>();
  let badTotal = 0;
  for (const e of trace.events) {
    if (e.kind !== dropKind) continue;
    const reason = traceField(e, 'drop', 'reason');
    if (!MALFORMED.test(world.drop_reasons[reason] ?? '')) continue;
    const text = world.drop_reason_texts[reason] ?? `reason ${reason}`;
    bad.set(text, (bad.get(text) ?? 0) + 1);
    badTotal++;
  }
  let problem: string | null = null;
  if ((badTotal >= 3 && badTotal * 2 >= framesIn) || (framesIn === 0 && bytesIn > NO_FRAME_AFTER))
    problem = `Bytes arrive but most do not make frames: is the board set to ${baud} baud, and running the echo firmware?`;
  else if (bytesIn === 0 && framesOut >= SILENT_AFTER)
    problem = `${framesOut} frames sent and not a byte back: is the board running the echo firmware, at ${baud} baud?`;
  return { framesOut, framesIn, bad, badTotal, problem };
}
