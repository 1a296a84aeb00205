// Helpers that build the details tree in Wireshark's style. Dissectors call these only
// when a tree is wanted (tree !== null), so the packet list pays nothing for labels.
import type { DetailNode, ExpertInfo } from './types.ts';

/** A field node covering bytes [off, off+len). */
export function field(label: string, off: number, len: number, name?: string): DetailNode {
  const n: DetailNode = { label, range: [off, len] };
  if (name) n.field = name;
  return n;
}

/** A generated value (Wireshark shows it in brackets and highlights no bytes). */
export function generated(label: string, name?: string): DetailNode {
  const n: DetailNode = { label: `[${label}]`, range: [0, 0], generated: true };
  if (name) n.field = name;
  return n;
}

/** An expert-info node: "[Expert Info (Warning/Malformed): ...]" as Wireshark words it. */
export function expertNode(e: ExpertInfo, off = 0, len = 0): DetailNode {
  const sev = { chat: 'Chat', note: 'Note', warn: 'Warning', error: 'Error' }[e.severity];
  const grp = { malformed: 'Malformed', checksum: 'Checksum', sequence: 'Sequence', protocol: 'Protocol', response: 'Response', comment: 'Comment' }[e.group];
  return {
    label: `[Expert Info (${sev}/${grp}): ${e.message}]`,
    range: [off, len],
    generated: true,
    expert: e,
  };
}

/** Adds children to a node and returns it. */
export function withChildren(n: DetailNode, children: DetailNode[]): DetailNode {
  if (children.length) n.children = (n.children ?? []).concat(children);
  return n;
}

/** Wireshark's bit picture of a masked field: "0100 .... = Version: 4" for mask 0xf0 of an
 *  8-bit field. `width` is the field width in bits (8, 12, 16); `raw` the whole field value. */
export function bits(raw: number, width: number, mask: number, text: string): string {
  let s = '';
  for (let i = width - 1; i >= 0; i--) {
    const bit = 1 << i;
    s += mask & bit ? (raw & bit ? '1' : '0') : '.';
    if (i % 4 === 0 && i > 0) s += ' ';
  }
  return `${s} = ${text}`;
}

/** "Set" / "Not set" as Wireshark words flag bits. */
export function setNotSet(v: boolean): string {
  return v ? 'Set' : 'Not set';
}

/** The "[Malformed Packet: X]" node Wireshark adds when a dissector runs off the end
 *  (`why`: the exception's text when it is not the usual one). */
export function malformedNode(proto: string, off: number, len: number, why?: string): DetailNode {
  return {
    label: `[Malformed Packet: ${proto}${why ? ': ' + why : ''}]`,
    range: [off, len],
    generated: true,
    field: '_ws.malformed',
    children: [expertNode({ severity: 'error', group: 'malformed', message: 'Malformed Packet (Exception occurred)' }, off, len)],
  };
}

/** Hex dump of bytes as Wireshark prints FT_BYTES values (no separators). */
export function hexBytes(b: Uint8Array, off: number, len: number, max = 36): string {
  let s = '';
  const end = Math.min(b.length, off + len, off + max);
  for (let i = off; i < end; i++) s += b[i]!.toString(16).padStart(2, '0');
  if (off + len > end) s += '…';
  return s;
}

export function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}
