// ICMP, RFC 792 (RFC 1191 for the next-hop MTU, RFC 4884 for the original-datagram
// length), with Wireshark's names for types and codes and its Info layout (packet-icmp.c):
// the type padded to 20 columns, the code in parentheses, then "id=..., seq=.../..., ttl=..".
import { hex16, ipv4String, u16, u32, u8 } from './bytes.ts';
import { dataNode } from './ports.ts';
import { expertNode, field, generated } from './tree.ts';
import type { DetailNode } from './types.ts';

// Field offsets, RFC 792.
export const ICMP_OFF_TYPE = 0;
export const ICMP_OFF_CODE = 1;
export const ICMP_OFF_CHKSUM = 2;
export const ICMP_OFF_ID = 4; // echo, timestamp, information, address mask
export const ICMP_OFF_SEQ = 6;
export const ICMP_OFF_PTR = 4; // parameter problem
export const ICMP_OFF_GW = 4; // redirect
export const ICMP_OFF_ORIG_LEN = 5; // RFC 4884 length of the original datagram, 32-bit words
export const ICMP_OFF_MTU = 6; // RFC 1191, fragmentation needed
export const ICMP_HLEN = 8;

export const ICMP_ECHOREPLY = 0;
export const ICMP_UNREACH = 3;
export const ICMP_SOURCEQUENCH = 4;
export const ICMP_REDIRECT = 5;
export const ICMP_ALTHOST = 6;
export const ICMP_ECHO = 8;
export const ICMP_RTRADVERT = 9;
export const ICMP_TIMXCEED = 11;
export const ICMP_PARAMPROB = 12;
export const ICMP_TSTAMP = 13;
export const ICMP_TSTAMPREPLY = 14;
export const ICMP_IREQ = 15;
export const ICMP_IREQREPLY = 16;
export const ICMP_MASKREQ = 17;
export const ICMP_MASKREPLY = 18;
export const ICMP_FRAG_NEEDED = 4;

const TYPE_STR: Record<number, string> = {
  0: 'Echo (ping) reply',
  1: 'Reserved',
  2: 'Reserved',
  3: 'Destination unreachable',
  4: 'Source quench (flow control)',
  5: 'Redirect',
  6: 'Alternate host address',
  8: 'Echo (ping) request',
  9: 'Router advertisement',
  10: 'Router solicitation',
  11: 'Time-to-live exceeded',
  12: 'Parameter problem',
  13: 'Timestamp request',
  14: 'Timestamp reply',
  15: 'Information request',
  16: 'Information reply',
  17: 'Address mask request',
  18: 'Address mask reply',
  19: 'Reserved (for security)',
  30: 'Traceroute',
  31: 'Datagram Conversion Error',
  32: 'Mobile Host Redirect',
  33: 'IPv6 Where-Are-You',
  34: 'IPv6 I-Am-Here',
  35: 'Mobile Registration Request',
  36: 'Mobile Registration Reply',
  37: 'Domain Name Request',
  38: 'Domain Name Reply',
  39: 'SKIP',
  40: 'Photuris',
  41: 'Experimental mobility protocols',
  42: 'Extended Echo request',
  43: 'Extended Echo reply',
};

const UNREACH: string[] = [
  'Network unreachable',
  'Host unreachable',
  'Protocol unreachable',
  'Port unreachable',
  'Fragmentation needed',
  'Source route failed',
  'Destination network unknown',
  'Destination host unknown',
  'Source host isolated',
  'Network administratively prohibited',
  'Host administratively prohibited',
  'Network unreachable for TOS',
  'Host unreachable for TOS',
  'Communication administratively filtered',
  'Host precedence violation',
  'Precedence cutoff in effect',
];
const CODES: Record<number, Record<number, string>> = {
  [ICMP_UNREACH]: Object.fromEntries(UNREACH.map((s, i) => [i, s])),
  [ICMP_REDIRECT]: { 0: 'Redirect for network', 1: 'Redirect for host', 2: 'Redirect for TOS and network', 3: 'Redirect for TOS and host' },
  [ICMP_ALTHOST]: { 0: 'Alternate address for host' },
  [ICMP_RTRADVERT]: { 0: 'Normal router advertisement', 16: 'Does not route common traffic' },
  [ICMP_TIMXCEED]: { 0: 'Time to live exceeded in transit', 1: 'Fragment reassembly time exceeded' },
  [ICMP_PARAMPROB]: { 0: 'Pointer indicates the error', 1: 'Required option missing', 2: 'Bad length' },
  40: { 0: 'Bad SPI', 1: 'Authentication Failed', 2: 'Decompression Failed', 3: 'Decryption Failed', 4: 'Need Authentication', 5: 'Need Authorization' },
  42: { 0: 'No error' },
  43: { 0: 'No error', 1: 'Malformed Query', 2: 'No Such Interface', 3: 'No Such Table Entry', 4: 'Multiple Interfaces Satisfy Query' },
};

/** Types whose second word is an identifier and a sequence number. */
export function hasIdSeq(type: number): boolean {
  return type === ICMP_ECHOREPLY || type === ICMP_ECHO || (type >= ICMP_TSTAMP && type <= ICMP_MASKREPLY);
}

/** Types that quote the datagram that caused them (RFC 792). */
export function isError(type: number): boolean {
  return type === ICMP_UNREACH || type === ICMP_TIMXCEED || type === ICMP_PARAMPROB || type === ICMP_SOURCEQUENCH || type === ICMP_REDIRECT;
}

export interface IcmpMessage {
  off: number;
  avail: number;
  type: number;
  code: number;
  typeStr: string;
  /** null for types whose code has no name table (echo, timestamp, ...) */
  codeStr: string | null;
  checksum: number;
  /** null until verified (checksums.ts), and inside an ICMP error where Wireshark does not */
  checksumOk: boolean | null;
  inError: boolean;
  id: number;
  seq: number;
  /** offset of the quoted datagram of an error message */
  quotedOff: number;
  quotedLen: number;
  /** Wireshark ran off the end: before the type's words (< 6 bytes) or in the second word */
  malformed: 'early' | 'late' | null;
}

export function parseIcmp(b: Uint8Array, off: number, avail: number, inError: boolean): IcmpMessage {
  const type = u8(b, off + ICMP_OFF_TYPE);
  const code = u8(b, off + ICMP_OFF_CODE);
  let typeStr = TYPE_STR[type] ?? 'Unknown ICMP (obsolete or malformed?)';
  if (type === ICMP_RTRADVERT && (code === 0 || code === 16)) typeStr = 'Mobile IP Advertisement';
  const table = CODES[type];
  const codeStr = table ? (table[code] ?? `Unknown code: ${code}`) : null;
  const m: IcmpMessage = {
    off,
    avail,
    type,
    code,
    typeStr,
    codeStr,
    checksum: 0,
    checksumOk: null,
    inError,
    id: 0,
    seq: 0,
    quotedOff: off + ICMP_HLEN,
    quotedLen: 0,
    malformed: null,
  };
  if (avail < 6) {
    m.malformed = 'early';
    return m;
  }
  m.checksum = u16(b, off + ICMP_OFF_CHKSUM);
  m.id = u16(b, off + ICMP_OFF_ID);
  if (avail < ICMP_HLEN) {
    m.malformed = 'late';
    return m;
  }
  m.id = u16(b, off + ICMP_OFF_ID);
  m.seq = u16(b, off + ICMP_OFF_SEQ);
  if (isError(type)) m.quotedLen = avail - ICMP_HLEN;
  return m;
}

/** Info without the echo pairing suffix ("(reply in N)" is added by the capture pass). */
export function icmpInfo(m: IcmpMessage, ttl: number): string {
  if (m.malformed === 'early') return '[Malformed Packet]';
  let s = m.typeStr.padEnd(20, ' ');
  if (m.codeStr !== null) s += ` (${m.codeStr})`;
  if (m.malformed === 'late') return s + '[Malformed Packet]';
  if (hasIdSeq(m.type)) {
    // Wireshark prints the sequence number both ways, big- and little-endian.
    s += ` id=${hex16(m.id)}, seq=${m.seq}/${((m.seq & 0xff) << 8) | (m.seq >> 8)}, ttl=${ttl}`;
  }
  return s;
}

/** The key Wireshark pairs echo requests and replies by (packet-icmp.c): the checksum the
 *  reply will carry (the request's with the type difference 0x0800 taken out), id, seq. */
export function echoKey(m: IcmpMessage): string {
  let ck: number;
  if (m.type === ICMP_ECHO) {
    let s = (~m.checksum & 0xffff) + (~0x0800 & 0xffff);
    while (s > 0xffff) s = (s & 0xffff) + (s >>> 16);
    ck = ~s & 0xffff;
  } else {
    ck = m.checksum === 0xffff ? 0 : m.checksum;
  }
  return `${ck}:${m.id}:${m.seq}`;
}

export interface IcmpPairing {
  respIn?: number;
  respTo?: number;
  respTimeMs?: number;
  noResponse?: boolean;
}

/** The ICMP node; `quoted` dissects an error's quoted datagram (IP header and the start
 *  of its payload) into nodes. */
export function icmpNode(
  b: Uint8Array,
  m: IcmpMessage,
  pairing: IcmpPairing | undefined,
  quoted: (off: number, len: number) => DetailNode[],
  frameUs = 0,
): DetailNode {
  const o = m.off;
  const kids: DetailNode[] = [field(`Type: ${m.type} (${m.typeStr})`, o, 1, 'icmp.type')];
  if (m.avail >= 2) kids.push(field(`Code: ${m.code}${m.codeStr !== null ? ` (${m.codeStr})` : ''}`, o + 1, 1, 'icmp.code'));
  if (m.malformed !== 'early') {
    if (m.checksumOk === null) {
      kids.push(field(`Checksum: ${hex16(m.checksum)} [unverified]${m.inError ? ' [in ICMP error packet]' : ''}`, o + 2, 2, 'icmp.checksum'));
    } else {
      const ck = field(`Checksum: ${hex16(m.checksum)} [${m.checksumOk ? 'correct' : 'incorrect'}]`, o + 2, 2, 'icmp.checksum');
      if (!m.checksumOk) ck.children = [expertNode({ severity: 'warn', group: 'checksum', message: 'Bad checksum' })];
      kids.push(ck, generated(`Checksum Status: ${m.checksumOk ? 'Good' : 'Bad'}`, 'icmp.checksum.status'));
    }
  }
  if (m.malformed === null) secondWord(b, m, kids);
  else if (m.malformed === 'late' && hasIdSeq(m.type) && m.avail >= 6) {
    const le = ((m.id & 0xff) << 8) | (m.id >> 8);
    kids.push(
      field(`Identifier (BE): ${m.id} (${hex16(m.id)})`, o + 4, 2, 'icmp.ident'),
      field(`Identifier (LE): ${le} (${hex16(le)})`, o + 4, 2, 'icmp.ident_le'),
    );
  }
  if (pairing?.respIn) kids.push(generated(`Response frame: ${pairing.respIn}`, 'icmp.resp_in'));
  if (pairing?.respTo) {
    kids.push(generated(`Request frame: ${pairing.respTo}`, 'icmp.resp_to'));
    kids.push(generated(`Response time: ${(pairing.respTimeMs ?? 0).toFixed(3)} ms`, 'icmp.resptime'));
  }
  if (pairing?.noResponse) {
    const n = generated('No response seen', 'icmp.no_resp');
    n.children = [expertNode({ severity: 'warn', group: 'sequence', message: 'No response seen to ICMP request' })];
    kids.push(n);
  }
  if (m.quotedLen > 0) kids.push(...quoted(m.quotedOff, m.quotedLen));
  else if (m.malformed === null && m.avail > ICMP_HLEN) {
    const n = m.avail - ICMP_HLEN;
    if (m.type === ICMP_TSTAMP || m.type === ICMP_TSTAMPREPLY) kids.push(...timestampNodes(b, o + ICMP_HLEN, n, Math.floor(frameUs / 1000)));
    else if ((m.type === ICMP_ECHO || m.type === ICMP_ECHOREPLY) && n >= 8) kids.push(...echoDataNodes(b, o + ICMP_HLEN, n, frameUs));
    else kids.push(dataNode(b, o + ICMP_HLEN, n));
  }
  return { ...field('Internet Control Message Protocol', o, m.avail, 'icmp'), children: kids };
}

function secondWord(b: Uint8Array, m: IcmpMessage, kids: DetailNode[]): void {
  const o = m.off;
  const hexWord = (p: number, n: number): string => Array.from(b.subarray(p, p + n), (x) => x.toString(16).padStart(2, '0')).join('');
  if (hasIdSeq(m.type)) {
    const le = (v: number): number => ((v & 0xff) << 8) | (v >> 8);
    kids.push(
      field(`Identifier (BE): ${m.id} (${hex16(m.id)})`, o + 4, 2, 'icmp.ident'),
      field(`Identifier (LE): ${le(m.id)} (${hex16(le(m.id))})`, o + 4, 2, 'icmp.ident_le'),
      field(`Sequence Number (BE): ${m.seq} (${hex16(m.seq)})`, o + 6, 2, 'icmp.seq'),
      field(`Sequence Number (LE): ${le(m.seq)} (${hex16(le(m.seq))})`, o + 6, 2, 'icmp.seq_le'),
    );
    return;
  }
  const origLen = u8(b, o + ICMP_OFF_ORIG_LEN);
  switch (m.type) {
    case ICMP_UNREACH:
    case ICMP_TIMXCEED:
      if (origLen > 0) {
        kids.push(
          field(`Unused: ${hexWord(o + 4, 1)}`, o + 4, 1, 'icmp.unused'),
          field(`Length: ${origLen}`, o + 5, 1, 'icmp.length'),
          generated(`Length of original datagram: ${origLen * 4}`, 'icmp.length.original_datagram'),
        );
        if (m.type === ICMP_UNREACH && m.code === ICMP_FRAG_NEEDED) kids.push(field(`MTU of next hop: ${u16(b, o + ICMP_OFF_MTU)}`, o + 6, 2, 'icmp.mtu'));
        else kids.push(field(`Unused: ${hexWord(o + 6, 2)}`, o + 6, 2, 'icmp.unused'));
      } else if (m.type === ICMP_UNREACH && m.code === ICMP_FRAG_NEEDED) {
        kids.push(field(`Unused: ${hexWord(o + 4, 2)}`, o + 4, 2, 'icmp.unused'), field(`MTU of next hop: ${u16(b, o + ICMP_OFF_MTU)}`, o + 6, 2, 'icmp.mtu'));
      } else {
        kids.push(field(`Unused: ${hexWord(o + 4, 4)}`, o + 4, 4, 'icmp.unused'));
      }
      break;
    case ICMP_PARAMPROB:
      kids.push(field(`Pointer: ${u8(b, o + ICMP_OFF_PTR)}`, o + 4, 1, 'icmp.pointer'), field(`Unused: ${hexWord(o + 5, 3)}`, o + 5, 3, 'icmp.unused'));
      break;
    case ICMP_REDIRECT:
      kids.push(field(`Gateway Address: ${ipv4String(b, o + ICMP_OFF_GW)}`, o + 4, 4, 'icmp.redir_gw'));
      break;
    case ICMP_SOURCEQUENCH:
      kids.push(field(`Unused: ${hexWord(o + 4, 4)}`, o + 4, 4, 'icmp.unused'));
      break;
  }
}

const MS_PER_DAY = 86_400_000;

/** packet-icmp.c get_best_guess_mstimeofday(): RFC 792 timestamps are milliseconds since
 *  midnight UT, but some hosts send them little-endian; pick the reading that fits. */
function bestGuessMs(b: Uint8Array, off: number, comp: number): number {
  let be = ((b[off]! << 24) | (b[off + 1]! << 16) | (b[off + 2]! << 8) | b[off + 3]!) & 0x7fffffff;
  let le = ((b[off + 3]! << 24) | (b[off + 2]! << 16) | (b[off + 1]! << 8) | b[off]!) & 0x7fffffff;
  if (be < MS_PER_DAY && le >= MS_PER_DAY) return be;
  if (le < MS_PER_DAY && be >= MS_PER_DAY) return le;
  if (be < MS_PER_DAY && le < MS_PER_DAY) {
    const [sb, sl] = [be, le];
    if (be < comp && be <= MS_PER_DAY / 4 && comp >= MS_PER_DAY - MS_PER_DAY / 4) be += MS_PER_DAY;
    if (le < comp && le <= MS_PER_DAY / 4 && comp >= MS_PER_DAY - MS_PER_DAY / 4) le += MS_PER_DAY;
    return (be - comp) >>> 0 < (le - comp) >>> 0 ? sb : sl;
  }
  return (be - comp) >>> 0 < (le - comp) >>> 0 ? be : le;
}

/** "18 days, 21 hours, 50 minutes, 37.924 seconds" (Wireshark's time_msecs_to_str). */
export function msecsText(ms: number): string {
  const parts: string[] = [];
  const d = Math.floor(ms / MS_PER_DAY);
  const h = Math.floor((ms % MS_PER_DAY) / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  if (d) parts.push(`${d} day${d === 1 ? '' : 's'}`);
  if (h) parts.push(`${h} hour${h === 1 ? '' : 's'}`);
  if (m) parts.push(`${m} minute${m === 1 ? '' : 's'}`);
  parts.push(`${s}.${String(ms % 1000).padStart(3, '0')} second${s === 1 ? '' : 's'}`);
  return parts.join(', ');
}

function timestampNodes(b: Uint8Array, off: number, len: number, frameMs: number): DetailNode[] {
  const out: DetailNode[] = [];
  const names: [string, string][] = [
    ['Originate Timestamp', 'icmp.originate_timestamp'],
    ['Receive Timestamp', 'icmp.receive_timestamp'],
    ['Transmit Timestamp', 'icmp.transmit_timestamp'],
  ];
  const comp = frameMs % MS_PER_DAY;
  names.forEach(([label, name], i) => {
    const p = off + i * 4;
    if (p + 4 > off + len) return;
    const v = u32(b, p);
    out.push(field(`${label}: ${v} (${msecsText(bestGuessMs(b, p, comp))} after midnight UTC)`, p, 4, name));
  });
  return out;
}

/** Echo data that starts with the sender's clock, as ping(8) writes it (seconds and
 *  microseconds, either byte order): packet-icmp.c shows it when it is within a day of
 *  the frame's time, then the rest as data. */
function echoDataNodes(b: Uint8Array, off: number, len: number, frameUs: number): DetailNode[] {
  const frameSecs = Math.floor(frameUs / 1e6);
  const near = (secs: number, usecs: number): boolean => Math.abs((secs - frameSecs) | 0) < 86400 && usecs < 1_000_000;
  let secs = u32(b, off);
  let usecs = u32(b, off + 4);
  if (!near(secs, usecs)) {
    secs = (b[off]! | (b[off + 1]! << 8) | (b[off + 2]! << 16) | (b[off + 3]! << 24)) >>> 0;
    usecs = (b[off + 4]! | (b[off + 5]! << 8) | (b[off + 6]! << 16) | (b[off + 7]! << 24)) >>> 0;
  }
  if (!near(secs, usecs)) return [dataNode(b, off, len)];
  const relUs = frameUs - (secs * 1e6 + usecs);
  const rel = `${relUs < 0 ? '-' : ''}${Math.floor(Math.abs(relUs) / 1e6)}.${String(Math.abs(relUs) % 1e6).padStart(6, '0')}000`;
  const out: DetailNode[] = [
    field(`Timestamp from icmp data: ${utcText(secs, usecs)}`, off, 8, 'icmp.data_time'),
    generated(`Timestamp from icmp data (relative): ${rel} seconds`, 'icmp.data_time_relative'),
  ];
  if (len > 8) out.push(dataNode(b, off + 8, len - 8));
  return out;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Jan  1, 1970 00:00:01.000000000 UTC", Wireshark's absolute time in UTC. */
function utcText(secs: number, usecs: number): string {
  const d = new Date(secs * 1000);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')}, ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}.${String(usecs).padStart(6, '0')}000 UTC`;
}
