// The capture point a run opens on: the link the page's packet list shows first, the link
// "Export pcapng" writes by default, and the link `stackscope run --table` lists. One rule
// for all three, so the file Wireshark opens and the rows the page shows are of one link.
import type { WorldDescription } from './trace_types.ts';

/** The first link of the scenario's `capture` list (the pcapng's interface 0: the author
 *  put it first, e.g. the Ethernet side of the NFC bridge, where the papers' Wireshark
 *  captures were taken); link 0 when no link is captured. */
export function defaultCapturePoint(world: Pick<WorldDescription, 'links'>): number {
  const i = world.links.findIndex((l) => l.capture_interface === 0);
  return i < 0 ? 0 : i;
}
