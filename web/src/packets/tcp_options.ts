// TCP options (RFC 9293 3.2, RFC 7323 for window scale and timestamps, RFC 2018 for SACK),
// walked the way Wireshark's tcp_dissect_options() walks them: a bad length stops the walk,
// a wrong length for a known kind skips that option with a note, and each option adds its
// words to Info in order ("MSS=1460 WS=128 SACK_PERM TSval=.. TSecr=..").
import { u32, u8, u16 } from './bytes.ts';
import { expertNode, field, generated } from './tree.ts';
import type { DetailNode, ExpertInfo } from './types.ts';

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
}

/** What the analysis and Info need from the options: scalars only, so parsing a header
 *  costs one object (the list of options is built only for the tree, listTcpOptions). */
export interface TcpOptions {
  /** the option bytes walked */
  off: number;
  len: number;
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
}

const KIND_NAMES: Record<number, [string, string]> = {
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
export const NO_OPTIONS: TcpOptions = Object.freeze({ off: 0, len: 0, sackPerm: false, sackOff: 0, sackCount: 0, mptcp: false });

/** The length a known option must have, or 0 when any length will do. */
function requiredLength(kind: number): number {
  switch (kind) {
    case TCPOPT_MSS: return TCPOLEN_MSS;
    case TCPOPT_WINDOW: return TCPOLEN_WINDOW;
    case TCPOPT_SACK_PERM: return TCPOLEN_SACK_PERM;
    case TCPOPT_ECHO: return TCPOLEN_ECHO;
    case TCPOPT_TIMESTAMP: return TCPOLEN_TIMESTAMP;
    default: return 0;
  }
}

/** Walks the options in b[off, off+len) as tcp_dissect_options() does, calling `visit` for
 *  each option it would dissect (kind, offset, length, the length it should have had or
 *  0). Returns the length error that stopped the walk, if any. Never throws. */
function walk(b: Uint8Array, off: number, len: number, visit: (kind: number, p: number, olen: number, bad: number) => void): TcpOptions['error'] {
  let i = off;
  let left = len;
  while (left > 0) {
    const kind = u8(b, i);
    left--;
    if (kind === TCPOPT_EOL || kind === TCPOPT_NOP) {
      visit(kind, i, 1, 0);
      i++;
      if (kind === TCPOPT_EOL) {
        // The rest is padding: zero bytes show as more EOLs; anything else is an error
        // (Wireshark 4.0: "Non-zero header padding").
        let zero = true;
        for (let q = i; q < off + len; q++) if (b[q] !== 0) zero = false;
        if (!zero) return { severity: 'error', group: 'protocol', message: 'Non-zero header padding', off: i, len: off + len - i };
        for (; i < off + len; i++) visit(TCPOPT_EOL, i, 1, 0);
        break;
      }
      continue;
    }
    if (left === 0) return { severity: 'warn', group: 'protocol', message: `${optionName(kind)} (length byte past end of options)`, off: i, len: 1 };
    const olen = u8(b, i + 1);
    left--;
    if (olen < 2) {
      return { severity: 'warn', group: 'protocol', message: `${optionName(kind)} (with too-short option length = ${olen} byte${olen === 1 ? '' : 's'})`, off: i, len: 2 };
    }
    if (olen - 2 > left) {
      return { severity: 'warn', group: 'protocol', message: `${optionName(kind)} (option length = ${olen} byte${olen === 1 ? '' : 's'} says option goes past end of options)`, off: i, len: left };
    }
    const want = requiredLength(kind);
    visit(kind, i, olen, want && olen !== want ? want : 0);
    i += olen;
    left -= olen - 2;
  }
  return undefined;
}

/** Parses the options in b[off, off+len). Never throws. */
export function parseTcpOptions(b: Uint8Array, off: number, len: number): TcpOptions {
  const o: TcpOptions = { off, len, sackPerm: false, sackOff: 0, sackCount: 0, mptcp: false };
  const err = walk(b, off, len, (kind, p, olen, bad) => {
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
        o.sackCount = (olen - 2) >> 3;
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
  if (err) o.error = err;
  return o;
}

/** The options one by one, for the tree. */
export function listTcpOptions(b: Uint8Array, o: TcpOptions): TcpOption[] {
  const list: TcpOption[] = [];
  walk(b, o.off, o.len, (kind, off, len, bad) => {
    const opt: TcpOption = { kind, off, len };
    if (bad) opt.badLength = bad;
    list.push(opt);
  });
  return list;
}

/** The options' words in Info, in option order. `sackBase` makes SACK edges relative
 *  (the peer's base sequence number, as with Wireshark's relative sequence numbers). */
export function optionsInfo(b: Uint8Array, o: TcpOptions, sackBase: number): string {
  if (o.len === 0) return '';
  let s = '';
  walk(b, o.off, o.len, (kind, p, olen, bad) => {
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
        for (let q = p + 2; q + 8 <= p + olen; q += 8) {
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

/** The "Options: (N bytes), ..." node. */
export function optionsNode(b: Uint8Array, off: number, len: number, o: TcpOptions, sackBase: number, isSyn: boolean): DetailNode {
  const kids: DetailNode[] = [];
  const names: string[] = [];
  const list = listTcpOptions(b, o);
  for (const opt of list) {
    names.push(optionName(opt.kind));
    kids.push(optionNode(b, opt, sackBase));
  }
  if (o.error) {
    // packet-tcp.c adds the message as an item carrying the expert info.
    const e = o.error;
    kids.push({ ...field(e.message, e.off, e.len), children: [expertNode(e.message === 'Non-zero header padding' ? e : { ...e, severity: 'note', group: 'sequence' })] });
  } else if (isSyn && !list.some((x) => x.kind === TCPOPT_MSS)) {
    kids.push(expertNode({ severity: 'note', group: 'protocol', message: 'The SYN packet does not contain a MSS option' }));
  }
  const label = `Options: (${len} bytes)${names.length ? ', ' + names.join(', ') : ''}`;
  return { ...field(label, off, Math.min(len, b.length - off), 'tcp.options'), children: kids };
}

function optionNode(b: Uint8Array, opt: TcpOption, sackBase: number): DetailNode {
  const p = opt.off;
  const kindName = KIND_NAMES[opt.kind]?.[1] ?? 'Unknown';
  const kids: DetailNode[] = [field(`Kind: ${kindName} (${opt.kind})`, p, 1, 'tcp.option_kind')];
  let label = `TCP Option - ${optionName(opt.kind)}`;
  if (opt.len > 1) {
    const lenNode = field(`Length: ${opt.len}`, p + 1, 1, 'tcp.option_len');
    if (opt.badLength) lenNode.children = [expertNode({ severity: 'note', group: 'sequence', message: `option length should be ${opt.badLength}` })];
    kids.push(lenNode);
  }
  if (!opt.badLength) {
    switch (opt.kind) {
      case TCPOPT_MSS: {
        const v = u16(b, p + 2);
        label += `: ${v} bytes`;
        kids.push(field(`MSS Value: ${v}`, p + 2, 2, 'tcp.options.mss_val'));
        break;
      }
      case TCPOPT_WINDOW: {
        const raw = u8(b, p + 2);
        const m = 2 ** Math.min(raw, TCP_MAX_WINSHIFT);
        label += `: ${raw} (multiply by ${m})`;
        const sh = field(`Shift count: ${raw}`, p + 2, 1, 'tcp.options.wscale.shift');
        if (raw > TCP_MAX_WINSHIFT) sh.children = [expertNode({ severity: 'warn', group: 'protocol', message: 'Window scale shift exceeds 14' })];
        kids.push(sh, generated(`Multiplier: ${m}`, 'tcp.options.wscale.multiplier'));
        break;
      }
      case TCPOPT_SACK: {
        let n = 0;
        for (let q = p + 2; q + 8 <= p + opt.len; q += 8) {
          const l = (u32(b, q) - sackBase) >>> 0;
          const r = (u32(b, q + 4) - sackBase) >>> 0;
          label += ` ${l}-${r}`;
          kids.push(field(`left edge = ${l} (relative)`, q, 4, 'tcp.options.sack_le'), field(`right edge = ${r} (relative)`, q + 4, 4, 'tcp.options.sack_re'));
          n++;
        }
        kids.push(generated(`TCP SACK Count: ${n}`, 'tcp.options.sack.count'));
        break;
      }
      case TCPOPT_TIMESTAMP: {
        const v = u32(b, p + 2);
        const e = u32(b, p + 6);
        label += `: TSval ${v}, TSecr ${e}`;
        kids.push(field(`Timestamp value: ${v}`, p + 2, 4, 'tcp.options.timestamp.tsval'), field(`Timestamp echo reply: ${e}`, p + 6, 4, 'tcp.options.timestamp.tsecr'));
        break;
      }
      case TCPOPT_ECHO:
        label += `: ${u32(b, p + 2)}`;
        break;
    }
  }
  return { ...field(label, p, opt.len, 'tcp.option_kind'), children: kids };
}
