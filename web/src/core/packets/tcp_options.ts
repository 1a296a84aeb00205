// TCP options (RFC 9293 3.2, RFC 7323 for window scale and timestamps, RFC 2018 for SACK),
// walked the way Wireshark's tcp_dissect_options() walks them: a bad length stops the walk,
// a wrong length for a known kind skips that option with a note, and each option adds its
// words to Info in order ("MSS=1460 WS=128 SACK_PERM TSval=.. TSecr=..").
// Options cut short by the end of the data (fewer bytes than the header length says) end
// the walk the way Wireshark's exceptions do: a missing kind or length byte is read from
// the segment ("[Malformed Packet]"), a missing part of an option from the option's own
// view ("length of contained item exceeds length of containing item"), after the fields
// read so far were shown.
import { u32, u8, u16 } from './bytes.ts';
import type { ExpertInfo } from './types.ts';

export const TCPOPT_EOL = 0;
export const TCPOPT_NOP = 1;
export const TCPOPT_MSS = 2; // RFC 9293 3.2, length 4
export const TCPOPT_WINDOW = 3; // RFC 7323 2.2, length 3
export const TCPOPT_SACK_PERM = 4; // RFC 2018 2, length 2
export const TCPOPT_SACK = 5; // RFC 2018 3, length 2 + 8n
export const TCPOPT_ECHO = 6; // RFC 1072 (obsolete), length 6
export const TCPOPT_TIMESTAMP = 8; // RFC 7323 3.2, length 10
export const TCPOPT_MPTCP = 30; // RFC 8684

export const TCPOLEN_MSS = 4;
export const TCPOLEN_WINDOW = 3;
export const TCPOLEN_SACK_PERM = 2;
export const TCPOLEN_ECHO = 6;
export const TCPOLEN_TIMESTAMP = 10;
/** RFC 7323 2.3: a shift count above 14 is used as 14. */
export const TCP_MAX_WINSHIFT = 14;
/** Wireshark keeps at most this many SACK blocks per segment for bytes-in-flight. */
export const TCP_MAX_SACK_RANGES_STORED = 3;

/** One option as found, for the tree. `len` is 1 for EOL/NOP. */
export interface TcpOption {
  kind: number;
  off: number;
  len: number;
  /** set when the option's length is wrong for its kind (Wireshark: "option length should be N") */
  badLength?: number;
  /** bytes of it present, when fewer than `len` (the data ended inside it) */
  have?: number;
}

/** How the data ran out inside the options: reading a kind or length byte, or inside an
 *  option (Wireshark's ReportedBoundsError and ContainedBoundsError). */
export type OptionsCut = 'reported' | 'contained';

/** What the analysis and Info need from the options: scalars only, so parsing a header
 *  costs one object (the list of options is built only for the tree, listTcpOptions). */
export interface TcpOptions {
  /** the option bytes walked: the header's options area, and how much of it is present */
  off: number;
  len: number;
  cap: number;
  mss?: number;
  /** the shift as used (capped at 14) and as sent */
  wsShift?: number;
  wsRaw?: number;
  sackPerm: boolean;
  /** the SACK blocks of the last SACK option: offset of the first block and how many */
  sackOff: number;
  sackCount: number;
  tsval?: number;
  tsecr?: number;
  echo?: number;
  /** an MPTCP option was dissected (it names the protocol "MPTCP") */
  mptcp: boolean;
  /** the walk stopped at a malformed length */
  error?: ExpertInfo & { off: number; len: number };
  /** the data ended inside the options, or an option's dissector read past its end */
  cut?: OptionsCut;
  /** the offset of the SACK option whose D-SACK check read past its end */
  throwAt?: number;
}

/** The text Wireshark gives the exception for a cut option ("[Malformed Packet: TCP: ...]"). */
export const CONTAINED_BOUNDS = 'length of contained item exceeds length of containing item';

export const KIND_NAMES: Record<number, [string, string]> = {
  // [option name (protocol short name), kind value name]
  0: ['End of Option List (EOL)', 'End of Option List'],
  1: ['No-Operation (NOP)', 'No-Operation'],
  2: ['Maximum segment size', 'Maximum Segment Size'],
  3: ['Window scale', 'Window Scale'],
  4: ['SACK permitted', 'SACK Permitted'],
  5: ['SACK', 'SACK'],
  6: ['Echo', 'Echo'],
  7: ['Echo reply', 'Echo Reply'],
  8: ['Timestamps', 'Time Stamp Option'],
  30: ['MPTCP', 'Multipath TCP'],
};

export function optionName(kind: number): string {
  return KIND_NAMES[kind]?.[0] ?? `Unknown (0x${kind.toString(16).padStart(2, '0')})`;
}

/** A header without options (shared; never modified). */
export const NO_OPTIONS: TcpOptions = Object.freeze({ off: 0, len: 0, cap: 0, sackPerm: false, sackOff: 0, sackCount: 0, mptcp: false });

/** The length a known option must have, or 0 when any length will do. */
function requiredLength(kind: number): number {
  switch (kind) {
    case TCPOPT_MSS:
      return TCPOLEN_MSS;
    case TCPOPT_WINDOW:
      return TCPOLEN_WINDOW;
    case TCPOPT_SACK_PERM:
      return TCPOLEN_SACK_PERM;
    case TCPOPT_ECHO:
      return TCPOLEN_ECHO;
    case TCPOPT_TIMESTAMP:
      return TCPOLEN_TIMESTAMP;
    default:
      return 0;
  }
}

/** Called for each option; returns true when the option's dissector throws (reading past
 *  the option's own end), which ends the walk like a cut. */
type Visit = (kind: number, p: number, olen: number, bad: number, have: number) => boolean | void;
interface WalkEnd {
  error?: TcpOptions['error'];
  cut?: OptionsCut;
}
const WALK_DONE: WalkEnd = {};
const CUT_REPORTED: WalkEnd = { cut: 'reported' };
const CUT_CONTAINED: WalkEnd = { cut: 'contained' };

/** Walks the options in b[off, off+len) as tcp_dissect_options() does, calling `visit` for
 *  each option it would dissect (kind, offset, length, the length it should have had or
 *  0, and how many of its bytes are among the `cap` bytes present). Returns what stopped
 *  the walk early: a length error, or the end of the data. Never throws. */
function walk(b: Uint8Array, off: number, len: number, cap: number, visit: Visit): WalkEnd {
  const end = off + Math.min(cap, len);
  let i = off;
  let left = len;
  while (left > 0) {
    if (i >= end) return CUT_REPORTED;
    const kind = u8(b, i);
    left--;
    if (kind === TCPOPT_EOL || kind === TCPOPT_NOP) {
      visit(kind, i, 1, 0, 1);
      i++;
      if (kind === TCPOPT_EOL) {
        // The rest is padding: zero bytes show as more EOLs; anything else is an error
        // (Wireshark 4.0: "Non-zero header padding").
        let zero = true;
        for (let q = i; q < end; q++) if (b[q] !== 0) zero = false;
        if (!zero) return { error: { severity: 'error', group: 'protocol', message: 'Non-zero header padding', off: i, len: off + len - i } };
        for (; i < off + len; i++) {
          if (i >= end) return CUT_REPORTED;
          visit(TCPOPT_EOL, i, 1, 0, 1);
        }
        break;
      }
      continue;
    }
    if (left === 0) return { error: { severity: 'warn', group: 'protocol', message: `${optionName(kind)} (length byte past end of options)`, off: i, len: 1 } };
    if (i + 1 >= end) return CUT_REPORTED;
    const olen = u8(b, i + 1);
    left--;
    if (olen < 2) {
      return {
        error: {
          severity: 'warn',
          group: 'protocol',
          message: `${optionName(kind)} (with too-short option length = ${olen} byte${olen === 1 ? '' : 's'})`,
          off: i,
          len: 2,
        },
      };
    }
    if (olen - 2 > left) {
      return {
        error: {
          severity: 'warn',
          group: 'protocol',
          message: `${optionName(kind)} (option length = ${olen} byte${olen === 1 ? '' : 's'} says option goes past end of options)`,
          off: i,
          len: left,
        },
      };
    }
    const want = requiredLength(kind);
    const bad = want && olen !== want ? want : 0;
    const have = Math.min(olen, end - i);
    if (visit(kind, i, olen, bad, have)) return CUT_REPORTED;
    // A wrong length is only noted (the option's dissector is not called, so nothing
    // reads the missing bytes); otherwise the dissector runs off the end.
    if (have < olen && !bad) return CUT_CONTAINED;
    i += olen;
    left -= olen - 2;
  }
  return WALK_DONE;
}

const d32 = (x: number, y: number): number => (x - y) | 0;

/** Whether Wireshark's SACK dissector takes the option at `p` for a D-SACK (RFC 2883 4:
 *  the first block lies at or below the ACK, or inside the second block). It compares
 *  the edges relative to the peer's base (`sackBase`) with the ACK as the header shows it
 *  (relative once analysed, raw otherwise); with no whole block, 0 with that ACK. */
export function isDsack(b: Uint8Array, p: number, olen: number, sackBase: number, shownAck: number): boolean {
  const n = (olen - 2) >> 3;
  if (n === 0) return d32(0, shownAck) <= 0;
  const r0 = u32(b, p + 6) - sackBase;
  if (d32(r0, shownAck) <= 0) return true;
  return n > 1 && d32(u32(b, p + 10) - sackBase, r0) < 0 && d32(u32(b, p + 14) - sackBase, r0) >= 0;
}

/** Parses the options in b[off, off+len), of which `cap` bytes are present, for a segment
 *  with this ACK field and ACK flag (for the D-SACK check). Never throws. */
export function parseTcpOptions(b: Uint8Array, off: number, len: number, cap = len, ack = 0, ackFlag = false): TcpOptions {
  const o: TcpOptions = { off, len, cap, sackPerm: false, sackOff: 0, sackCount: 0, mptcp: false };
  const done = walk(b, off, len, cap, (kind, p, olen, bad, have) => {
    if (have < olen && kind !== TCPOPT_SACK) {
      // Cut inside: only the SACK blocks read before the end count (Wireshark stores
      // each block as it reads it); the MPTCP dissector names the protocol first.
      if (kind === TCPOPT_MPTCP) o.mptcp = true;
      return;
    }
    switch (kind) {
      case TCPOPT_MSS:
        if (!bad) o.mss = u16(b, p + 2);
        break;
      case TCPOPT_WINDOW:
        if (!bad) {
          o.wsRaw = u8(b, p + 2);
          o.wsShift = Math.min(o.wsRaw, TCP_MAX_WINSHIFT);
        }
        break;
      case TCPOPT_SACK_PERM:
        o.sackPerm = true; // Wireshark writes SACK_PERM to Info before it checks the length
        break;
      case TCPOPT_SACK:
        o.sackOff = p + 2;
        o.sackCount = (have - 2) >> 3;
        // The D-SACK edges are read again from the first block: past the end of an
        // option without a whole block, an exception. Whether it is taken for a D-SACK
        // then depends on the ACK as shown (the analysis comes later): the relative ACK
        // of an ACK is taken as below 2^31, the raw field otherwise.
        if (have === olen && olen < 10) {
          if (ackFlag || d32(0, ack) <= 0) {
            o.throwAt = p;
            return true;
          }
        }
        break;
      case TCPOPT_ECHO:
        if (!bad) o.echo = u32(b, p + 2);
        break;
      case TCPOPT_TIMESTAMP:
        if (!bad) {
          o.tsval = u32(b, p + 2);
          o.tsecr = u32(b, p + 6);
        }
        break;
      case TCPOPT_MPTCP:
        o.mptcp = true;
        break;
    }
  });
  if (done.error) o.error = done.error;
  if (done.cut) o.cut = done.cut;
  return o;
}

/** The options one by one, for the tree. */
export function listTcpOptions(b: Uint8Array, o: TcpOptions): TcpOption[] {
  const list: TcpOption[] = [];
  walk(b, o.off, o.len, o.cap, (kind, off, len, bad, have) => {
    const opt: TcpOption = { kind, off, len };
    if (bad) opt.badLength = bad;
    if (have < len) opt.have = have;
    list.push(opt);
    return off === o.throwAt;
  });
  return list;
}

/** The options' words in Info, in option order. `sackBase` makes SACK edges relative
 *  (the peer's base sequence number, as with Wireshark's relative sequence numbers). */
export function optionsInfo(b: Uint8Array, o: TcpOptions, sackBase: number): string {
  if (o.len === 0) return '';
  let s = '';
  walk(b, o.off, o.len, o.cap, (kind, p, olen, bad, have) => {
    // A cut option adds no words, except the SACK blocks read before the end.
    if (have < olen && kind !== TCPOPT_SACK) return;
    if (p === o.throwAt) return true;
    switch (kind) {
      case TCPOPT_MSS:
        if (!bad) s += ` MSS=${u16(b, p + 2)}`;
        break;
      case TCPOPT_WINDOW:
        if (!bad) s += ` WS=${2 ** Math.min(u8(b, p + 2), TCP_MAX_WINSHIFT)}`;
        break;
      case TCPOPT_SACK_PERM:
        s += ' SACK_PERM';
        break;
      case TCPOPT_SACK:
        for (let q = p + 2; q + 8 <= p + have; q += 8) {
          s += ` SLE=${(u32(b, q) - sackBase) >>> 0} SRE=${(u32(b, q + 4) - sackBase) >>> 0}`;
        }
        break;
      case TCPOPT_ECHO:
        if (!bad) s += ` ECHO=${u32(b, p + 2)}`;
        break;
      case TCPOPT_TIMESTAMP:
        if (!bad) s += ` TSval=${u32(b, p + 2)} TSecr=${u32(b, p + 6)}`;
        break;
    }
  });
  return s;
}
