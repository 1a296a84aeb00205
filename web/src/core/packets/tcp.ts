// TCP header, RFC 9293 section 3.1 (and RFC 3168 / RFC 9768 for ECE, CWR and AE), read the
// way Wireshark's dissect_tcp() reads it: the fields in order, so a segment cut short
// stops at the same field (and shows the same Info) as in Wireshark.
import { u16, u32 } from './bytes.ts';
import { NO_OPTIONS, parseTcpOptions, type TcpOptions } from './tcp_options.ts';

// Header field offsets, RFC 9293 3.1.
export const TCP_OFF_SRC_PORT = 0;
export const TCP_OFF_DST_PORT = 2;
export const TCP_OFF_SEQ = 4;
export const TCP_OFF_ACK = 8;
export const TCP_OFF_FLAGS = 12; // data offset (4 bits), reserved (3), AE, CWR, ECE, URG, ACK, PSH, RST, SYN, FIN
export const TCP_OFF_WIN = 14;
export const TCP_OFF_CHKSUM = 16;
export const TCP_OFF_URP = 18;
export const TCP_HLEN_MIN = 20;

export const TH_FIN = 0x001;
export const TH_SYN = 0x002;
export const TH_RST = 0x004;
export const TH_PUSH = 0x008;
export const TH_ACK = 0x010;
export const TH_URG = 0x020;
export const TH_ECE = 0x040;
export const TH_CWR = 0x080;
export const TH_AE = 0x100;
export const TH_RES = 0xe00;
export const TH_MASK = 0xfff;

/** How far Wireshark gets through a header before it runs out of bytes. */
export type TcpStage =
  | 'none' // fewer than 4 bytes: not even the ports (IP's Info "[Malformed Packet]")
  | 'ports' // ports only, then "[Malformed Packet]"
  | 'header' // seq, ack, flags and window read; checksum or urgent pointer missing
  | 'full'; // the fixed header is complete

export interface TcpHeader {
  /** offset of the TCP header in the buffer */
  off: number;
  /** bytes from the header to the end of the datagram (Wireshark's reported length) */
  avail: number;
  stage: TcpStage;
  sport: number;
  dport: number;
  seq: number;
  ack: number;
  /** header length in bytes (data offset * 4) */
  hlen: number;
  flags: number;
  win: number;
  checksum: number;
  /** null until verified (checksums.ts): summing every payload costs more than the rest
   *  of the dissection, and Wireshark does not verify TCP checksums by default */
  checksumOk: boolean | null;
  urp: number;
  /** the segment carries a full header so its payload length is known (tcp.len) */
  haveSegLen: boolean;
  payloadOff: number;
  payloadLen: number;
  /** data offset below 5 words: Wireshark gives up after the window ("bogus TCP header length") */
  bogusHlen: boolean;
  /** Wireshark ran off the end somewhere in the header or its options */
  malformed: boolean;
  options: TcpOptions | null;
}

/** Reads the TCP header at `off`, with `avail` bytes up to the end of the datagram.
 *  `inError`: the segment is quoted in an ICMP error (no segment length, no analysis). */
export function parseTcp(b: Uint8Array, off: number, avail: number, inError: boolean): TcpHeader {
  const h: TcpHeader = {
    off,
    avail,
    stage: 'none',
    sport: 0,
    dport: 0,
    seq: 0,
    ack: 0,
    hlen: 0,
    flags: 0,
    win: 0,
    checksum: 0,
    checksumOk: null,
    urp: 0,
    haveSegLen: false,
    payloadOff: off,
    payloadLen: 0,
    bogusHlen: false,
    malformed: true,
    options: null,
  };
  if (avail < 4) return h;
  h.sport = u16(b, off + TCP_OFF_SRC_PORT);
  h.dport = u16(b, off + TCP_OFF_DST_PORT);
  h.stage = 'ports';
  if (avail < 16) return h;
  h.seq = u32(b, off + TCP_OFF_SEQ);
  h.ack = u32(b, off + TCP_OFF_ACK);
  const word = u16(b, off + TCP_OFF_FLAGS);
  h.hlen = (word >> 12) * 4;
  h.flags = word & TH_MASK;
  h.win = u16(b, off + TCP_OFF_WIN);
  h.stage = 'header';
  if (!inError && avail >= h.hlen) {
    h.haveSegLen = true;
    h.payloadOff = off + h.hlen;
    h.payloadLen = avail - h.hlen;
  }
  if (h.hlen < TCP_HLEN_MIN) {
    // "bogus TCP header length": Wireshark returns here, without an exception, after the
    // sequence analysis has already counted the bytes past this length as payload.
    h.bogusHlen = true;
    h.malformed = false;
    return h;
  }
  if (avail < TCP_HLEN_MIN) return h;
  h.checksum = u16(b, off + TCP_OFF_CHKSUM);
  h.urp = u16(b, off + TCP_OFF_URP);
  h.stage = 'full';
  const optEnd = Math.min(h.hlen, avail);
  h.options =
    h.hlen > TCP_HLEN_MIN ? parseTcpOptions(b, off + TCP_HLEN_MIN, h.hlen - TCP_HLEN_MIN, optEnd - TCP_HLEN_MIN, h.ack, (h.flags & TH_ACK) !== 0) : NO_OPTIONS;
  // Options cut short by the end of the data, or an option read past its own end:
  // Wireshark throws while walking them.
  h.malformed = avail < h.hlen || h.options.cut !== undefined;
  return h;
}

const FLAG_NAMES = ['FIN', 'SYN', 'RST', 'PSH', 'ACK', 'URG', 'ECE', 'CWR', 'AE'];

/** "SYN, ACK" as in Info's brackets and the Flags line; "<None>" when no flag is set. */
export function tcpFlagsString(flags: number): string {
  let s = '';
  for (let i = 0; i < FLAG_NAMES.length; i++) {
    if (flags & (1 << i)) s += (s ? ', ' : '') + FLAG_NAMES[i];
  }
  if (flags & TH_RES) s += (s ? ', ' : '') + 'Reserved';
  return s || '<None>';
}

const FLAG_LETTERS = 'RRRACEUAPRSF';

/** Wireshark's tcp.flags.str: one letter per bit from the most significant, "·" if clear. */
export function tcpFlagsLetters(flags: number): string {
  let s = '';
  for (let i = 11; i >= 0; i--) s += flags & (1 << i) ? FLAG_LETTERS[11 - i] : '\u00b7';
  return s;
}
