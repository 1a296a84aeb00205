// Ethernet II (RFC 894) as Wireshark's packet-eth.c shows it: the header of a frame of an
// Ethernet link (LINKTYPE_ETHERNET), its addresses as Wireshark names them, and the
// padding after a payload shorter than the 46-byte minimum.
import { bits, field, hexBytes } from './tree.ts';
import type { DetailNode } from './types.ts';

export const ETH_HLEN = 14;
export const ETHERTYPE_IPV4 = 0x0800;
export const ETHERTYPE_ARP = 0x0806;

export interface EthHeader {
  /** destination and source as Wireshark's columns show them ("Broadcast", "02:00:...") */
  dstName: string;
  srcName: string;
  type: number;
  /** the destination is a group address (I/G bit): Wireshark's "Broadcast" colouring rule */
  group: boolean;
}

/** "02:00:00:00:00:03": six bytes at off. */
export function macText(b: Uint8Array, off: number): string {
  const parts: string[] = [];
  for (let i = 0; i < 6; i++) parts.push(b[off + i]!.toString(16).padStart(2, '0'));
  return parts.join(':');
}

/** The name Wireshark resolves an address to with its default preferences: "Broadcast" for
 *  all ones; the all-zero address's prefix is in its vendor list as "00:00:00"; the
 *  locally administered addresses the simulator gives (02:...) have no vendor, so their
 *  text. Other vendors' prefixes are not resolved here. */
export function macName(b: Uint8Array, off: number): string {
  const key = ((b[off]! << 8) | b[off + 1]!) * 2 ** 32 + ((b[off + 2]! << 24) >>> 0) + ((b[off + 3]! << 16) | (b[off + 4]! << 8) | b[off + 5]!);
  let t = nameCache.get(key);
  if (t === undefined) {
    t = macText(b, off);
    if (t === 'ff:ff:ff:ff:ff:ff') t = 'Broadcast';
    else if (t === '00:00:00:00:00:00') t = '00:00:00_00:00:00';
    if (nameCache.size > 4096) nameCache.clear();
    nameCache.set(key, t);
  }
  return t;
}

/** Names already made, by address: a capture has few addresses and every row names two
 *  (formatting them took a fifth of the packet list's time at 100 000 frames). */
const nameCache = new Map<number, string>();

/** "Broadcast (ff:ff:ff:ff:ff:ff)". */
export function macLabel(b: Uint8Array, off: number): string {
  return `${macName(b, off)} (${macText(b, off)})`;
}

/** The header of a frame, or null if it is shorter than 14 bytes. */
export function parseEth(b: Uint8Array): EthHeader | null {
  if (b.length < ETH_HLEN) return null;
  return { dstName: macName(b, 0), srcName: macName(b, 6), type: (b[12]! << 8) | b[13]!, group: (b[0]! & 1) === 1 };
}

/** packet-eth.c's names for the EtherTypes the stack sends. */
function typeName(t: number): string {
  const hex = `0x${t.toString(16).padStart(4, '0')}`;
  if (t === ETHERTYPE_IPV4) return `IPv4 (${hex})`;
  if (t === ETHERTYPE_ARP) return `ARP (${hex})`;
  return `Unknown (${hex})`;
}

function addressNode(b: Uint8Array, off: number, what: 'Destination' | 'Source', prefix: 'eth.dst' | 'eth.src'): DetailNode {
  const hi = (b[off]! << 16) | (b[off + 1]! << 8) | b[off + 2]!;
  const lg = (hi & 0x020000) !== 0;
  const ig = (hi & 0x010000) !== 0;
  return {
    ...field(`${what}: ${macLabel(b, off)}`, off, 6, prefix),
    children: [
      field(`Address: ${macLabel(b, off)}`, off, 6, 'eth.addr'),
      field(
        bits(
          hi,
          24,
          0x020000,
          `LG bit: ${lg ? 'Locally administered address (this is NOT the factory default)' : 'Globally unique address (factory default)'}`,
        ),
        off,
        3,
        `${prefix}.lg`,
      ),
      field(bits(hi, 24, 0x010000, `IG bit: ${ig ? 'Group address (multicast/broadcast)' : 'Individual address (unicast)'}`), off, 3, `${prefix}.ig`),
    ],
  };
}

/** The "Ethernet II" node; `used` is how many bytes the payload's dissector took (the IPv4
 *  total length, ARP's 28), the rest of the frame being its padding. */
export function ethNode(b: Uint8Array, used: number): DetailNode {
  const kids: DetailNode[] = [addressNode(b, 0, 'Destination', 'eth.dst'), addressNode(b, 6, 'Source', 'eth.src')];
  const type = (b[12]! << 8) | b[13]!;
  kids.push(field(`Type: ${typeName(type)}`, 12, 2, 'eth.type'));
  const pad = b.length - ETH_HLEN - used;
  if (used > 0 && pad > 0) kids.push(field(`Padding: ${hexBytes(b, ETH_HLEN + used, pad, pad)}`, ETH_HLEN + used, pad, 'eth.padding'));
  return {
    label: `Ethernet II, Src: ${macLabel(b, 6)}, Dst: ${macLabel(b, 0)}`,
    range: [0, ETH_HLEN],
    field: 'eth',
    children: kids,
  };
}
