// Wireshark's default colouring rules (the "colorfilters" file of Wireshark 4.0), in its
// order, limited to what can match the stack's frames (raw IPv4, or Ethernet II with IPv4
// or ARP): the first rule whose filter matches colours the row. Colours are the file's
// 16-bit channels taken to 8 bits (>> 8), as Wireshark's Qt UI does; in the file each rule
// gives the background first.
//
// Rules left out cannot match this traffic: HSRP, STP, OSPF, SCTP, SMB/NetBIOS, DCERPC,
// routing protocols, system events. "Checksum Errors" only
// matches when checksums are validated, which Wireshark does not do by default.
import type { RowColour } from './types.ts';

/** What the rules test, gathered from a frame (outer headers and, for an ICMP error, the
 *  quoted ones: Wireshark's filters match any occurrence of a field). */
export interface ColourFacts {
  /** tcp.analysis.flags present, without window_update, keep_alive, keep_alive_ack */
  badTcp: boolean;
  /** a TCP header is present (also inside an ICMP error) */
  tcp: boolean;
  tcpSynOrFin: boolean;
  tcpRst: boolean;
  tcpPort80: boolean;
  udp: boolean;
  icmp: boolean;
  /** an ICMP type in 3..5 or 11 */
  icmpError: boolean;
  /** destination address and TTL of the (outer) IPv4 header, -1 when absent */
  ipDst: number;
  ipTtl: number;
  /** a checksum was found bad and checksum validation is on */
  badChecksum: boolean;
  /** an Ethernet frame of EtherType ARP */
  arp: boolean;
  /** an Ethernet frame to a group address (eth[0] & 1) */
  ethGroup: boolean;
}

export function noFacts(): ColourFacts {
  return {
    badTcp: false,
    tcp: false,
    tcpSynOrFin: false,
    tcpRst: false,
    tcpPort80: false,
    udp: false,
    icmp: false,
    icmpError: false,
    ipDst: -1,
    ipTtl: -1,
    badChecksum: false,
    arp: false,
    ethGroup: false,
  };
}

interface Rule {
  name: string;
  bg: [number, number, number];
  fg: [number, number, number];
  match: (f: ColourFacts) => boolean;
}

const RULES: Rule[] = [
  // tcp.analysis.flags && !tcp.analysis.window_update && !tcp.analysis.keep_alive && !tcp.analysis.keep_alive_ack
  { name: 'Bad TCP', bg: [4718, 10030, 11796], fg: [63479, 34695, 34695], match: (f) => f.badTcp },
  // icmp.type in { 3..5, 11 } || icmpv6.type in { 1..4 }
  { name: 'ICMP errors', bg: [4718, 10030, 11796], fg: [47031, 63479, 29812], match: (f) => f.icmpError },
  { name: 'ARP', bg: [64250, 61680, 55255], fg: [4718, 10030, 11796], match: (f) => f.arp },
  { name: 'ICMP', bg: [64764, 57568, 65535], fg: [4718, 10030, 11796], match: (f) => f.icmp },
  { name: 'TCP RST', bg: [42148, 0, 0], fg: [65535, 64764, 40092], match: (f) => f.tcpRst },
  {
    // (ip.dst != 224.0.0.0/4 && ip.ttl < 5 && !pim && !ospf) ||
    // (ip.dst == 224.0.0.0/24 && ip.dst != 224.0.0.251 && ip.ttl != 1 && !(vrrp || carp))
    name: 'TTL low or unexpected',
    bg: [42148, 0, 0],
    fg: [60652, 61680, 60395],
    match: (f) => {
      if (f.ipDst < 0 || f.ipTtl < 0) return false;
      const mcast = f.ipDst >>> 28 === 0xe;
      const local = f.ipDst >>> 8 === 0xe00000;
      return (!mcast && f.ipTtl < 5) || (local && f.ipDst !== 0xe00000fb && f.ipTtl !== 1);
    },
  },
  { name: 'Checksum Errors', bg: [4718, 10030, 11796], fg: [63479, 34695, 34695], match: (f) => f.badChecksum },
  // http || tcp.port == 80 || http2
  { name: 'HTTP', bg: [58596, 65535, 51143], fg: [4718, 10030, 11796], match: (f) => f.tcpPort80 },
  // tcp.flags & 0x02 || tcp.flags.fin == 1
  { name: 'TCP SYN/FIN', bg: [41026, 41026, 41026], fg: [4718, 10030, 11796], match: (f) => f.tcpSynOrFin },
  { name: 'TCP', bg: [59345, 58980, 65535], fg: [4718, 10030, 11796], match: (f) => f.tcp },
  { name: 'UDP', bg: [56026, 61166, 65535], fg: [4718, 10030, 11796], match: (f) => f.udp },
  // eth[0] & 1
  { name: 'Broadcast', bg: [65535, 65535, 65535], fg: [47802, 48573, 46774], match: (f) => f.ethGroup },
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
