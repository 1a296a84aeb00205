// What the ladder writes on and beside an arrow: Wireshark's short form of the packet
// ("[PSH, ACK] Seq=1 Ack=1 Len=1024", relative numbers from the packet list of the frame's
// link), the stack's true cause of a retransmission, the reason of a drop, and for the
// tooltip the sender's state when it sent.
import { NONE, type TraceFrame, type WorldDescription } from '../../core/engine/trace_types.ts';
import type { PacketRow } from '../../core/packets/index.ts';
import { tcpFlagsString } from '../../core/packets/tcp.ts';
import { nodeName } from '../../core/run/lifelines.ts';
import type { SenderState, SenderStateIndex } from '../../core/run/sender_state.ts';
import { formatBytes, formatDuration, formatInstant } from '../../core/run/time_format.ts';

const TH_ACK = 0x10;
const NO_RETX = 255;

/** The label on the arrow. */
export function shortLabel(row: PacketRow | undefined): string {
  if (!row) return '';
  const t = row.tcp;
  if (t && !row.malformed) {
    const ack = t.flags & TH_ACK ? ` Ack=${t.ackRel}` : '';
    return `[${tcpFlagsString(t.flags)}] Seq=${t.seqRel}${ack} Len=${t.len}`;
  }
  const echo = /^Echo \(ping\) (request|reply)\s+id=0x[0-9a-f]+, seq=(\d+)/.exec(row.info);
  if (echo) return `Echo ${echo[1]} seq=${echo[2]}`;
  // Anything else: the protocol and the start of Info, cut before the details.
  const info = row.info
    .replace(/\s{2,}/g, ' ')
    .split(/[,(]/)[0]!
    .trim();
  const s = `${row.protocol} ${info}`;
  return s.length > 48 ? `${s.slice(0, 47)}…` : s;
}

/** The frame a host's stack sent that this frame is a copy of (bridges forward copies). */
export function rootFrame(f: TraceFrame, byId: (id: number) => TraceFrame | undefined): TraceFrame {
  let r = f;
  for (let guard = 0; r.parent !== NONE && guard < 64; guard++) {
    const p = byId(r.parent);
    if (!p) break;
    r = p;
  }
  return r;
}

/** The stack's cause when the frame (or the frame it was forwarded from) re-sent data. */
export function retxCause(f: TraceFrame, world: WorldDescription, byId: (id: number) => TraceFrame | undefined): string | null {
  const r = rootFrame(f, byId);
  return r.retx === NO_RETX ? null : (world.retx_causes[r.retx] ?? `cause ${r.retx}`);
}

export function dropReason(f: TraceFrame, world: WorldDescription): string | null {
  return f.fate === 1 ? (world.drop_reason_texts[f.reason] ?? `reason ${f.reason}`) : null;
}

export function formatState(s: SenderState): string {
  const parts: string[] = [];
  if (s.state) parts.push(s.state);
  if (s.cwnd !== undefined) parts.push(`cwnd=${s.cwnd}`);
  if (s.ssthresh !== undefined) parts.push(`ssthresh=${formatBytes(s.ssthresh)}`);
  if (s.rtoUs !== undefined) parts.push(`RTO=${formatDuration(s.rtoUs)}`);
  if (s.srttUs !== undefined) parts.push(`srtt=${(s.srttUs / 1000).toFixed(3)} ms`);
  if (s.rttvarUs !== undefined) parts.push(`rttvar=${(s.rttvarUs / 1000).toFixed(3)} ms`);
  return parts.join(' ');
}

export interface InfoContext {
  world: WorldDescription;
  byId: (id: number) => TraceFrame | undefined;
  /** the frame's row in its link's packet list, and its 1-based number there */
  rowOf: (f: TraceFrame) => PacketRow | undefined;
  senderState: SenderStateIndex;
}

/** The tooltip's lines for a frame. */
export function frameTooltip(f: TraceFrame, ctx: InfoContext): string[] {
  const { world } = ctx;
  const link = world.links[f.link];
  const row = ctx.rowOf(f);
  const from = nodeName(world, f.dir === 0 ? (link?.a ?? -1) : (link?.b ?? -1));
  const to = link && link.b < 0 && f.dir === 0 ? 'serial port' : nodeName(world, f.dir === 0 ? (link?.b ?? -1) : (link?.a ?? -1));
  const lines = [`No. ${row?.no ?? '?'} on ${link?.name ?? f.link}: ${from} → ${to}`];
  const label = shortLabel(row);
  if (label) lines.push(label);
  const drop = dropReason(f, world);
  if (drop) lines.push(`sent ${formatInstant(f.tSent)}, dropped ${formatInstant(f.tEnd)}: ${drop}`);
  else if (f.fate === 0) lines.push(`sent ${formatInstant(f.tSent)}, delivered ${formatInstant(f.tEnd)} (${formatDuration(f.tEnd - f.tSent)})`);
  else lines.push(`sent ${formatInstant(f.tSent)}, still on its way when the run ended`);
  const cause = retxCause(f, world, ctx.byId);
  if (cause) lines.push(`retransmission: ${cause}`);
  const root = rootFrame(f, ctx.byId);
  if (root !== f) lines.push(`forwarded by ${nodeName(world, f.node)}`);
  // The state of the stack that sent the data (for a bridge's copy: the original sender).
  const rootRow = root === f ? row : ctx.rowOf(root);
  if (rootRow?.tcp && root.node < world.hosts.length) {
    const s = ctx.senderState.at(root.node, rootRow.tcp.srcPort, rootRow.tcp.dstPort, root.tSent);
    if (s) lines.push(`${nodeName(world, root.node)}: ${formatState(s)}`);
  }
  return lines;
}
