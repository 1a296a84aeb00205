// IPv4 header, RFC 791 section 3.1, read the way Wireshark's packet-ip.c reads it (with its
// default preferences: checksum validation off, TSO support on, defragmentation on): the
// same error texts in Info, and the same point at which a short header becomes a
// "[Malformed Packet]".
import { checksumShouldBe, hex16, inetChecksum, ipv4String, u16, u8 } from './bytes.ts';
import { bits, expertNode, field, generated, setNotSet } from './tree.ts';
import type { DetailNode } from './types.ts';
import { ipOptionsNode } from './ipv4_options.ts';

// Header field offsets, RFC 791 section 3.1.
export const IP_OFF_VHL = 0; // version (4 bits), header length in 32-bit words (4 bits)
export const IP_OFF_TOS = 1; // DSCP (6 bits), ECN (2 bits), RFC 2474 / RFC 3168
export const IP_OFF_LEN = 2; // total length
export const IP_OFF_ID = 4;
export const IP_OFF_FRAG = 6; // flags (3 bits), fragment offset in 8-byte units (13 bits)
export const IP_OFF_TTL = 8;
export const IP_OFF_PROTO = 9;
export const IP_OFF_CHKSUM = 10;
export const IP_OFF_SRC = 12;
export const IP_OFF_DST = 16;
export const IP_HLEN_MIN = 20;

export const IP_FLAG_RF = 0x8000;
export const IP_FLAG_DF = 0x4000;
export const IP_FLAG_MF = 0x2000;
export const IP_OFFSET_MASK = 0x1fff;

export const IP_PROTO_ICMP = 1;
export const IP_PROTO_TCP = 6;
export const IP_PROTO_UDP = 17;

export interface Ipv4Header {
  version: number;
  hlen: number;
  tos: number;
  totalLength: number;
  id: number;
  /** the 16-bit flags + fragment offset field */
  fragField: number;
  df: boolean;
  mf: boolean;
  /** fragment offset in bytes */
  fragOffset: number;
  ttl: number;
  proto: number;
  checksum: number;
  checksumOk: boolean;
  src: string;
  dst: string;
  /** addresses as unsigned 32-bit numbers, for keys */
  srcNum: number;
  dstNum: number;
  /** end of the datagram in the buffer: the total length, cut to what was captured
   *  (Wireshark's TSO support: a total length past the frame is believed only up to it) */
  end: number;
  /** the total length field was larger than the captured bytes */
  lengthExceeds: boolean;
}

export interface Ipv4Result {
  /** null when the header could not be read in full */
  header: Ipv4Header | null;
  /** column values; "N/A" where Wireshark had not read the address yet */
  source: string;
  destination: string;
  /** Info text IP itself writes for a header it rejects */
  info?: string;
  /** the IP dissector ran off the end of the data (Info gets "[Malformed Packet]") */
  malformed: boolean;
  node?: DetailNode;
}

// Wireshark's short and long DSCP names (RFC 2474, 2597, 3246, 5865, 8622).
const DSCP: Record<number, [string, string]> = {
  0: ['CS0', 'Default'],
  1: ['LE', 'Lower Effort'],
  8: ['CS1', 'Class Selector 1'],
  10: ['AF11', 'Assured Forwarding 11'],
  12: ['AF12', 'Assured Forwarding 12'],
  14: ['AF13', 'Assured Forwarding 13'],
  16: ['CS2', 'Class Selector 2'],
  18: ['AF21', 'Assured Forwarding 21'],
  20: ['AF22', 'Assured Forwarding 22'],
  22: ['AF23', 'Assured Forwarding 23'],
  24: ['CS3', 'Class Selector 3'],
  26: ['AF31', 'Assured Forwarding 31'],
  28: ['AF32', 'Assured Forwarding 32'],
  30: ['AF33', 'Assured Forwarding 33'],
  32: ['CS4', 'Class Selector 4'],
  34: ['AF41', 'Assured Forwarding 41'],
  36: ['AF42', 'Assured Forwarding 42'],
  38: ['AF43', 'Assured Forwarding 43'],
  40: ['CS5', 'Class Selector 5'],
  44: ['VA', 'Voice-Admit'],
  46: ['EF PHB', 'Expedited Forwarding'],
  48: ['CS6', 'Class Selector 6'],
  56: ['CS7', 'Class Selector 7'],
};
const ECN: [string, string][] = [
  ['Not-ECT', 'Not ECN-Capable Transport'],
  ['ECT(1)', "ECN-Capable Transport codepoint '01'"],
  ['ECT(0)', "ECN-Capable Transport codepoint '10'"],
  ['CE', 'Congestion Experienced'],
];

/** Short protocol names as Wireshark's ipproto table gives them. */
export function ipProtoName(p: number): string {
  switch (p) {
    case 1:
      return 'ICMP';
    case 2:
      return 'IGMP';
    case 4:
      return 'IPIP';
    case 6:
      return 'TCP';
    case 17:
      return 'UDP';
    case 41:
      return 'IPv6';
    case 47:
      return 'GRE';
    case 50:
      return 'ESP';
    case 51:
      return 'AH';
    case 58:
      return 'ICMPv6';
    case 89:
      return 'OSPF';
    case 132:
      return 'SCTP';
    default:
      return ipProtoLongName(p);
  }
}

/** Wireshark's long names, for protocols it has no short name for. */
export function ipProtoLongName(p: number): string {
  const names: Record<number, string> = {
    0: 'IPv6 Hop-by-Hop Option',
    3: 'Gateway-to-Gateway',
    5: 'Stream',
    8: 'Exterior Gateway Protocol',
    9: 'any private interior gateway (used by Cisco for their IGRP)',
    99: 'any private encryption scheme',
    253: 'Use for experimentation and testing',
    254: 'Use for experimentation and testing',
    255: 'Reserved',
  };
  return names[p] ?? 'Unknown';
}

/** Reads the IPv4 header at `off`. `buildTree` adds the details node; `inError`: the
 *  header is quoted in an ICMP error (no length or TTL complaints). Never throws. */
export function parseIpv4(b: Uint8Array, off: number, buildTree: boolean, inError = false): Ipv4Result {
  const avail = b.length - off;
  const res: Ipv4Result = { header: null, source: 'N/A', destination: 'N/A', malformed: false };
  if (avail < 1) return { ...res, malformed: true };
  const vhl = u8(b, off + IP_OFF_VHL);
  const version = vhl >> 4;
  const hlen = (vhl & 0x0f) * 4;
  const kids: DetailNode[] | null = buildTree ? [] : null;
  kids?.push(field(bits(vhl, 8, 0xf0, `Version: ${version}`), off, 1, 'ip.version'));
  const finish = (summary: string): Ipv4Result => {
    if (kids) res.node = { label: summary, range: [off, Math.min(avail, Math.max(hlen, 1))], field: 'ip', children: kids };
    return res;
  };
  if (hlen < IP_HLEN_MIN) {
    // packet-ip.c: "Bogus IP header length", then it gives up without an exception.
    res.info = `Bogus IP header length (${hlen}, must be at least ${IP_HLEN_MIN})`;
    kids?.push(withExpert(field(bits(vhl, 8, 0x0f, `Header Length: ${hlen} bytes (${hlen >> 2})`), off, 1, 'ip.hdr_len'), 'error', res.info));
    return finish('Internet Protocol Version 4');
  }
  kids?.push(field(bits(vhl, 8, 0x0f, `Header Length: ${hlen} bytes (${hlen >> 2})`), off, 1, 'ip.hdr_len'));
  // (The TOS byte is shown if it is there, before the total length is read.)
  const tos = avail >= 2 ? u8(b, off + IP_OFF_TOS) : 0;
  if (avail >= 2) kids?.push(tosNode(tos, off));
  if (avail < 4) {
    res.malformed = true;
    return finish('Internet Protocol Version 4');
  }
  const totalLength = u16(b, off + IP_OFF_LEN);
  if (totalLength < hlen) {
    res.info = `Bogus IP length (${totalLength}, less than header length ${hlen})`;
    kids?.push(
      withExpert(
        field(`Total Length: ${totalLength} bytes (bogus, less than header length ${hlen})`, off + IP_OFF_LEN, 2, 'ip.len'),
        'error',
        'Bogus IP length',
      ),
    );
    return finish('Internet Protocol Version 4');
  }
  const lenNode = field(`Total Length: ${totalLength}`, off + IP_OFF_LEN, 2, 'ip.len');
  kids?.push(lenNode);
  const lengthExceeds = totalLength > avail;
  if (lengthExceeds && !inError) {
    lenNode.children = [expertNode({ severity: 'error', group: 'protocol', message: `IPv4 total length exceeds packet length (${avail} bytes)` })];
  }
  // From here on Wireshark reads fields one by one; a header cut short throws at the
  // first missing byte, after the source column was set if the source was there.
  if (avail >= IP_OFF_SRC + 4) res.source = ipv4String(b, off + IP_OFF_SRC);
  if (avail < IP_HLEN_MIN || avail < hlen) {
    res.malformed = true;
    if (kids) partialFields(kids, b, off, avail);
    return finish(res.source !== 'N/A' ? `Internet Protocol Version 4, Src: ${res.source}` : 'Internet Protocol Version 4');
  }
  res.destination = ipv4String(b, off + IP_OFF_DST);
  const id = u16(b, off + IP_OFF_ID);
  const fragField = u16(b, off + IP_OFF_FRAG);
  const h: Ipv4Header = {
    version,
    hlen,
    tos,
    totalLength,
    id,
    fragField,
    df: (fragField & IP_FLAG_DF) !== 0,
    mf: (fragField & IP_FLAG_MF) !== 0,
    fragOffset: (fragField & IP_OFFSET_MASK) * 8,
    ttl: u8(b, off + IP_OFF_TTL),
    proto: u8(b, off + IP_OFF_PROTO),
    checksum: u16(b, off + IP_OFF_CHKSUM),
    checksumOk: inetChecksum(b, off, hlen) === 0,
    src: res.source,
    dst: res.destination,
    srcNum: (u16(b, off + IP_OFF_SRC) * 0x10000 + u16(b, off + IP_OFF_SRC + 2)) >>> 0,
    dstNum: (u16(b, off + IP_OFF_DST) * 0x10000 + u16(b, off + IP_OFF_DST + 2)) >>> 0,
    end: off + Math.min(totalLength, avail),
    lengthExceeds,
  };
  res.header = h;
  if (kids) addHeaderFields(kids, b, off, h, inError);
  return finish(`Internet Protocol Version 4, Src: ${h.src}, Dst: ${h.dst}`);
}

function withExpert(n: DetailNode, severity: 'error' | 'warn', message: string): DetailNode {
  n.children = [expertNode({ severity, group: 'protocol', message })];
  return n;
}

function tosNode(tos: number, off: number): DetailNode {
  const dscp = tos >> 2;
  const ecn = tos & 3;
  const [dShort, dLong] = DSCP[dscp] ?? [`Unknown (${dscp})`, 'Unknown'];
  const [eShort, eLong] = ECN[ecn]!;
  return {
    ...field(`Differentiated Services Field: 0x${tos.toString(16).padStart(2, '0')} (DSCP: ${dShort}, ECN: ${eShort})`, off + IP_OFF_TOS, 1, 'ip.dsfield'),
    children: [
      field(bits(tos, 8, 0xfc, `Differentiated Services Codepoint: ${dLong} (${dscp})`), off + IP_OFF_TOS, 1, 'ip.dsfield.dscp'),
      field(bits(tos, 8, 0x03, `Explicit Congestion Notification: ${eLong} (${ecn})`), off + IP_OFF_TOS, 1, 'ip.dsfield.ecn'),
    ],
  };
}

function flagsNode(frag: number, off: number): DetailNode {
  const fb = frag >> 8;
  const rf = (frag & IP_FLAG_RF) !== 0;
  const df = (frag & IP_FLAG_DF) !== 0;
  const mf = (frag & IP_FLAG_MF) !== 0;
  const names = [rf ? 'Reserved bit' : '', df ? "Don't fragment" : '', mf ? 'More fragments' : ''].filter(Boolean).join(', ');
  return {
    ...field(bits(fb, 8, 0xe0, `Flags: 0x${(fb >> 5).toString(16)}${names ? ', ' + names : ''}`), off + IP_OFF_FRAG, 1, 'ip.flags'),
    children: [
      field(bits(fb, 8, 0x80, `Reserved bit: ${setNotSet(rf)}`), off + IP_OFF_FRAG, 1, 'ip.flags.rb'),
      field(bits(fb, 8, 0x40, `Don't fragment: ${setNotSet(df)}`), off + IP_OFF_FRAG, 1, 'ip.flags.df'),
      field(bits(fb, 8, 0x20, `More fragments: ${setNotSet(mf)}`), off + IP_OFF_FRAG, 1, 'ip.flags.mf'),
    ],
  };
}

/** The fields Wireshark shows of a header cut short: those whose bytes are there. */
function partialFields(kids: DetailNode[], b: Uint8Array, off: number, avail: number): void {
  const has = (at: number, n: number): boolean => avail >= at + n;
  if (has(IP_OFF_ID, 2)) kids.push(field(`Identification: ${hex16(u16(b, off + IP_OFF_ID))} (${u16(b, off + IP_OFF_ID)})`, off + IP_OFF_ID, 2, 'ip.id'));
  if (has(IP_OFF_FRAG, 2)) {
    const frag = u16(b, off + IP_OFF_FRAG);
    kids.push(flagsNode(frag, off));
    kids.push(field(bits(frag, 16, IP_OFFSET_MASK, `Fragment Offset: ${(frag & IP_OFFSET_MASK) * 8}`), off + IP_OFF_FRAG, 2, 'ip.frag_offset'));
  }
  if (has(IP_OFF_TTL, 1)) kids.push(field(`Time to Live: ${u8(b, off + IP_OFF_TTL)}`, off + IP_OFF_TTL, 1, 'ip.ttl'));
  if (has(IP_OFF_PROTO, 1))
    kids.push(field(`Protocol: ${ipProtoName(u8(b, off + IP_OFF_PROTO))} (${u8(b, off + IP_OFF_PROTO)})`, off + IP_OFF_PROTO, 1, 'ip.proto'));
  if (has(IP_OFF_SRC, 4)) kids.push(field(`Source Address: ${ipv4String(b, off + IP_OFF_SRC)}`, off + IP_OFF_SRC, 4, 'ip.src'));
}

function addHeaderFields(kids: DetailNode[], b: Uint8Array, off: number, h: Ipv4Header, inError: boolean): void {
  kids.push(field(`Identification: ${hex16(h.id)} (${h.id})`, off + IP_OFF_ID, 2, 'ip.id'));
  kids.push(flagsNode(h.fragField, off));
  kids.push(field(bits(h.fragField, 16, IP_OFFSET_MASK, `Fragment Offset: ${h.fragOffset}`), off + IP_OFF_FRAG, 2, 'ip.frag_offset'));
  const ttl = field(`Time to Live: ${h.ttl}`, off + IP_OFF_TTL, 1, 'ip.ttl');
  // packet-ip.c: a TTL below 5 towards a unicast address, or other than 1 towards the
  // Local Network Control Block (RFC 3171), is worth a note.
  const localControl = h.dstNum >>> 8 === 0xe00000;
  if (!inError && localControl && h.ttl !== 1 && h.dstNum !== 0xe00000fb) {
    ttl.children = [
      expertNode({ severity: 'note', group: 'sequence', message: '"Time To Live" != 1 for a packet sent to the Local Network Control Block (see RFC 3171)' }),
    ];
  } else if (!inError && !localControl && h.dstNum >>> 28 !== 0xe && h.ttl < 5) {
    ttl.children = [expertNode({ severity: 'note', group: 'sequence', message: `"Time To Live" only ${h.ttl}` })];
  }
  kids.push(ttl);
  kids.push(field(`Protocol: ${ipProtoName(h.proto)} (${h.proto})`, off + IP_OFF_PROTO, 1, 'ip.proto'));
  // Wireshark does not validate by default ("[validation disabled]"); we always compute
  // it, because a wrong checksum is worth seeing when a stack is being taught.
  const ck = field(`Header Checksum: ${hex16(h.checksum)} ${h.checksumOk ? '[correct]' : '[incorrect]'}`, off + IP_OFF_CHKSUM, 2, 'ip.checksum');
  if (!h.checksumOk) {
    const should = checksumShouldBe(b, off, h.hlen, off + IP_OFF_CHKSUM);
    ck.children = [expertNode({ severity: 'error', group: 'checksum', message: `Bad checksum [should be ${hex16(should)}]` })];
  }
  kids.push(ck);
  kids.push(generated(`Header checksum status: ${h.checksumOk ? 'Good' : 'Bad'}`, 'ip.checksum.status'));
  kids.push(field(`Source Address: ${h.src}`, off + IP_OFF_SRC, 4, 'ip.src'));
  kids.push(field(`Destination Address: ${h.dst}`, off + IP_OFF_DST, 4, 'ip.dst'));
  if (h.hlen > IP_HLEN_MIN) kids.push(ipOptionsNode(b, off + IP_HLEN_MIN, h.hlen - IP_HLEN_MIN));
}
