// Wireshark's default colouring rules (the "colorfilters" file of Wireshark 4.0), in its
// order, limited to what can match raw IPv4 frames: the first rule whose filter matches
// colours the row. Colours are the file's 16-bit channels taken to 8 bits (>> 8), as
// Wireshark's Qt UI does; in the file each rule gives the background first.
//
// Rules left out cannot match this traffic: HSRP, STP, OSPF, ARP, SCTP, SMB/NetBIOS,
// DCERPC, routing protocols, Ethernet broadcast, system events. "Checksum Errors" only
// matches when checksums are validated, which Wireshark does not do by default.
import type { RowColour } from './types.ts';

export interface ColourFacts {
  /** tcp.analysis.* fields present (see columns.ts analysisFieldNames) */
  analysis: readonly string[];
  /** a TCP header is present (also inside an ICMP error) */
  tcp: boolean;
  /** TCP flags of every TCP header in the frame */
  tcpFlags: readonly number[];
  tcpPorts: readonly number[];
  udp: boolean;
  /** ICMP types of every ICMP header in the frame (also quoted ones) */
  icmpTypes: readonly number[];
  /** destination address and TTL of the (outer) IPv4 header */
  ipDst: number | null;
  ipTtl: number | null;
  /** a checksum was found bad and checksum validation is on */
  badChecksum: boolean;
}

interface Rule {
  name: string;
  bg: [number, number, number];
  fg: [number, number, number];
  match: (f: ColourFacts) => boolean;
}

const has = (f: ColourFacts, name: string): boolean => f.analysis.includes(name);

const RULES: Rule[] = [
  {
    name: 'Bad TCP', bg: [4718, 10030, 11796], fg: [63479, 34695, 34695],
    match: (f) => f.analysis.length > 0 && !has(f, 'tcp.analysis.window_update') && !has(f, 'tcp.analysis.keep_alive') && !has(f, 'tcp.analysis.keep_alive_ack'),
  },
  {
    name: 'ICMP errors', bg: [4718, 10030, 11796], fg: [47031, 63479, 29812],
    match: (f) => f.icmpTypes.some((t) => (t >= 3 && t <= 5) || t === 11),
  },
  { name: 'ICMP', bg: [64764, 57568, 65535], fg: [4718, 10030, 11796], match: (f) => f.icmpTypes.length > 0 },
  { name: 'TCP RST', bg: [42148, 0, 0], fg: [65535, 64764, 40092], match: (f) => f.tcpFlags.some((x) => (x & 0x04) !== 0) },
  {
    // (ip.dst != 224.0.0.0/4 && ip.ttl < 5 && !pim && !ospf) ||
    // (ip.dst == 224.0.0.0/24 && ip.dst != 224.0.0.251 && ip.ttl != 1 && !(vrrp || carp))
    name: 'TTL low or unexpected', bg: [42148, 0, 0], fg: [60652, 61680, 60395],
    match: (f) => {
      if (f.ipDst === null || f.ipTtl === null) return false;
      const mcast = f.ipDst >>> 28 === 0xe;
      const local = f.ipDst >>> 8 === 0xe00000;
      return (!mcast && f.ipTtl < 5) || (local && f.ipDst !== 0xe00000fb && f.ipTtl !== 1);
    },
  },
  { name: 'Checksum Errors', bg: [4718, 10030, 11796], fg: [63479, 34695, 34695], match: (f) => f.badChecksum },
  { name: 'HTTP', bg: [58596, 65535, 51143], fg: [4718, 10030, 11796], match: (f) => f.tcpPorts.includes(80) },
  { name: 'TCP SYN/FIN', bg: [41026, 41026, 41026], fg: [4718, 10030, 11796], match: (f) => f.tcpFlags.some((x) => (x & 0x03) !== 0) },
  { name: 'TCP', bg: [59345, 58980, 65535], fg: [4718, 10030, 11796], match: (f) => f.tcp },
  { name: 'UDP', bg: [56026, 61166, 65535], fg: [4718, 10030, 11796], match: (f) => f.udp },
];

function hex(c: [number, number, number]): string {
  return '#' + c.map((v) => (v >> 8).toString(16).padStart(2, '0')).join('');
}

const COLOURS: RowColour[] = RULES.map((r) => ({ name: r.name, fg: hex(r.fg), bg: hex(r.bg) }));

/** No rule matched: Wireshark's default row colours. */
export const NO_COLOUR: RowColour = Object.freeze({ name: '', fg: '#000000', bg: '#ffffff' });

export function colourFor(f: ColourFacts): RowColour {
  for (let i = 0; i < RULES.length; i++) if (RULES[i]!.match(f)) return COLOURS[i]!;
  return NO_COLOUR;
}

/** The rules as Wireshark lists them, for a legend. */
export function colourRules(): readonly RowColour[] {
  return COLOURS;
}
