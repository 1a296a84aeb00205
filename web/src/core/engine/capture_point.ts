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

/** The capture point a link (a permalink's `link=N`) asks for, once the run tells the
 *  scenario's links: link N if there is one, else the default and what was wrong. */
export function askedCapturePoint(world: Pick<WorldDescription, 'links'>, asked: number): { link: number; problem: string | null } {
  const n = world.links.length;
  if (Number.isInteger(asked) && asked >= 0 && asked < n) return { link: asked, problem: null };
  const d = defaultCapturePoint(world);
  return { link: d, problem: `link ${asked} is not a link of the scenario (it has ${n}: 0 to ${n - 1}); showing link ${d}` };
}
