// The ladder as a Mermaid `sequenceDiagram`, for a report or a slide: one participant per
// lifeline (hosts, bridges, NFC modules), one message per frame in the order sent, with the
// ladder's label, a retransmission's cause (the stack's) and a lost frame's reason beside it,
// lost frames as `-x`, and RTO expiries as notes.
//
// One message per frame, from its sender to where it ended, not one per hop: Mermaid draws
// every message flat, one under the other, with no time axis, so the hops of an NFC frame
// (UART, the wait for a slot, the air, UART) would make four messages of one without the
// slopes that make them worth drawing on the ladder. What the hops add that matters, where
// a frame died, stays: a lost frame's `-x` ends at the lifeline where it was lost (the NFC
// module that refused it) or, lost between two, at the one it was heading for.
import { NONE, type TraceFrame, type WorldDescription } from '../../core/engine/trace_types.ts';
import type { LadderModel } from './ladder_model.ts';
import type { Lanes } from '../../core/run/lifelines.ts';
import { formatDuration } from '../../core/run/time_format.ts';

/** Text as Mermaid takes it in a message, a note or a participant's name: `#` and `;` end
 *  the text (and `#` starts an entity code), `<` and `>` may open HTML, a line break ends the
 *  statement. The characters go as entity codes, which Mermaid shows as the characters. */
export function mermaidText(s: string): string {
  return s
    .replace(/[#;<>]/g, (c) => `#${c.charCodeAt(0)};`)
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .trim();
}

const ARROW: Record<string, string> = { arrive: '->>', drop: '-x', open: '-)' };

function endLane(lanes: Lanes, node: number, link: number): number {
  const lane = lanes.ofNode(node);
  return lane >= 0 ? lane : lanes.ofDevice(link);
}

/** The lifelines a frame passes, sender first: its ends and, on an NFC link, the modules. */
function route(f: TraceFrame, world: WorldDescription, lanes: Lanes): number[] {
  const l = world.links[f.link]!;
  const [from, to] = f.dir === 0 ? [l.a, l.b] : [l.b, l.a];
  const [near, far] = f.dir === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
  const modules = l.type === 'nfc' ? [lanes.ofModule(f.link, near), lanes.ofModule(f.link, far)] : [];
  return [endLane(lanes, from, f.link), ...modules, endLane(lanes, to, f.link)];
}

/** Where the message ends: the receiver, or for a lost frame the first lifeline of its
 *  route at or past the point where it died. */
function target(m: LadderModel, i: number, way: number[]): number {
  const death = m.paths[i]!.death;
  const last = way[way.length - 1]!;
  if (!death) return last;
  const forward = last >= way[0]! ? 1 : -1;
  return way.find((lane) => (lane - death.lane) * forward >= -1e-9) ?? last;
}

interface Line {
  t: number;
  /** at one instant, a timer's expiry comes before the frame it makes the stack send */
  order: number;
  text: string;
}

function frameLine(m: LadderModel, world: WorldDescription, i: number): Line {
  const f = m.frames[i]!;
  const way = route(f, world, m.lanes);
  const label = m.label(i) || `frame on ${world.links[f.link]?.name ?? f.link}`;
  const cause = m.retx(i);
  const drop = m.drop(i);
  // The cause is the sending stack's; a bridge's copy of the segment only says what it is.
  const notes = [...(cause ? [f.parent === NONE ? `retransmission: ${cause}` : 'retransmission'] : []), ...(drop ? [`lost: ${drop}`] : [])];
  const text = notes.length ? `${label} (${notes.join(', ')})` : label;
  return { t: f.tSent, order: 1, text: `L${way[0]}${ARROW[m.paths[i]!.end]}L${target(m, i, way)}: ${mermaidText(text)}` };
}

/** The Mermaid text of a whole run's ladder. */
export function ladderMermaid(m: LadderModel, world: WorldDescription): string {
  const participants = m.lanes.lifelines.map((l, i) => `  participant L${i} as ${mermaidText(l.label)}${l.detail ? `<br/>${mermaidText(l.detail)}` : ''}`);
  const lines: Line[] = m.frames.map((_, i) => frameLine(m, world, i));
  // RTO expiries only: a delayed ACK's timer fires all the time, and its ACK is the next message.
  for (const t of m.timers) {
    const lane = m.hostLane[t.host] ?? -1;
    if (t.kind === 'rto' && t.end === 'expire' && lane >= 0)
      lines.push({ t: t.t1, order: 0, text: `Note over L${lane}: ${mermaidText(`RTO expired (${formatDuration(t.valueUs)})`)}` });
  }
  // Frames are in the order sent already; sort() is stable, so equal instants keep it.
  lines.sort((a, b) => a.t - b.t || a.order - b.order);
  return ['sequenceDiagram', ...participants, ...lines.map((l) => `  ${l.text}`)].join('\n') + '\n';
}
