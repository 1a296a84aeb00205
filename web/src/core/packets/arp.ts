// ARP (RFC 826) for Ethernet and IPv4 as Wireshark's packet-arp.c shows it: the Info
// column ("Who has 192.168.1.202? Tell 192.168.1.102", "192.168.1.202 is at
// 02:12:34:56:78:cd") and the tree.
import { macLabel, macName } from './ethernet.ts';
import { field, generated } from './tree.ts';
import type { DetailNode } from './types.ts';

export const ARP_LEN = 28;
const OP_REQUEST = 1;
const OP_REPLY = 2;

export interface ArpPacket {
  off: number;
  htype: number;
  ptype: number;
  hlen: number;
  plen: number;
  op: number;
  spa: string;
  tpa: string;
  /** the sender's MAC as the Info column names it */
  shaName: string;
  /** the target MAC is all zeros (unknown, as in a request) */
  thaZero: boolean;
}

function ip4(b: Uint8Array, off: number): string {
  return `${b[off]}.${b[off + 1]}.${b[off + 2]}.${b[off + 3]}`;
}

const u16 = (b: Uint8Array, off: number): number => (b[off]! << 8) | b[off + 1]!;

/** An Ethernet/IPv4 ARP packet at off, or null when it is short or of another kind. */
export function parseArp(b: Uint8Array, off: number): ArpPacket | null {
  if (b.length - off < ARP_LEN || u16(b, off) !== 1 || u16(b, off + 2) !== 0x0800 || b[off + 4] !== 6 || b[off + 5] !== 4) return null;
  return {
    off,
    htype: 1,
    ptype: 0x0800,
    hlen: 6,
    plen: 4,
    op: u16(b, off + 6),
    spa: ip4(b, off + 14),
    tpa: ip4(b, off + 24),
    shaName: macName(b, off + 8),
    thaZero: b.subarray(off + 18, off + 24).every((x) => x === 0),
  };
}

/** What packet-arp.c tells apart: a request for the sender's own address with no target
 *  MAC is an announcement (RFC 5227 2.3), one from 0.0.0.0 a probe (RFC 5227 2.1.1);
 *  otherwise a request or reply whose sender and target addresses are equal is gratuitous. */
type ArpKind = 'plain' | 'gratuitous' | 'announcement' | 'probe';

function arpKind(a: ArpPacket): ArpKind {
  if (a.op === OP_REQUEST && a.thaZero && a.spa === a.tpa) return 'announcement';
  if (a.op === OP_REQUEST && a.thaZero && a.spa === '0.0.0.0') return 'probe';
  if ((a.op === OP_REQUEST || a.op === OP_REPLY) && a.spa === a.tpa) return 'gratuitous';
  return 'plain';
}

export function arpInfo(a: ArpPacket): string {
  const kind = arpKind(a);
  if (kind === 'announcement') return `ARP Announcement for ${a.tpa}`;
  if (kind === 'probe') return `Who has ${a.tpa}? (ARP Probe)`;
  if (a.op === OP_REQUEST) return kind === 'gratuitous' ? `Gratuitous ARP for ${a.tpa} (Request)` : `Who has ${a.tpa}? Tell ${a.spa}`;
  if (a.op === OP_REPLY) return kind === 'gratuitous' ? `Gratuitous ARP for ${a.spa} (Reply)` : `${a.spa} is at ${a.shaName}`;
  return `Unknown ARP opcode 0x${a.op.toString(16).padStart(4, '0')}`;
}

function opName(op: number): string {
  return op === OP_REQUEST ? 'request' : op === OP_REPLY ? 'reply' : 'Unknown';
}

/** The title's words and the generated lines after the opcode. */
function kindLines(a: ArpPacket): { title: string; flags: DetailNode[] } {
  switch (arpKind(a)) {
    case 'announcement':
      return {
        title: 'ARP Announcement',
        flags: [generated('Is gratuitous: True', 'arp.isgratuitous'), generated('Is announcement: True', 'arp.isannouncement')],
      };
    case 'probe':
      return { title: 'ARP Probe', flags: [generated('Is probe: True', 'arp.isprobe')] };
    case 'gratuitous':
      return { title: `${opName(a.op)}/gratuitous ARP`, flags: [generated('Is gratuitous: True', 'arp.isgratuitous')] };
    default:
      return { title: opName(a.op), flags: [] };
  }
}

export function arpNode(b: Uint8Array, a: ArpPacket): DetailNode {
  const o = a.off;
  const { title, flags } = kindLines(a);
  return {
    label: `Address Resolution Protocol (${title})`,
    range: [o, ARP_LEN],
    field: 'arp',
    children: [
      field('Hardware type: Ethernet (1)', o, 2, 'arp.hw.type'),
      field('Protocol type: IPv4 (0x0800)', o + 2, 2, 'arp.proto.type'),
      field('Hardware size: 6', o + 4, 1, 'arp.hw.size'),
      field('Protocol size: 4', o + 5, 1, 'arp.proto.size'),
      field(`Opcode: ${opName(a.op)} (${a.op})`, o + 6, 2, 'arp.opcode'),
      ...flags,
      field(`Sender MAC address: ${macLabel(b, o + 8)}`, o + 8, 6, 'arp.src.hw_mac'),
      field(`Sender IP address: ${a.spa}`, o + 14, 4, 'arp.src.proto_ipv4'),
      field(`Target MAC address: ${macLabel(b, o + 18)}`, o + 18, 6, 'arp.dst.hw_mac'),
      field(`Target IP address: ${a.tpa}`, o + 24, 4, 'arp.dst.proto_ipv4'),
    ],
  };
}
