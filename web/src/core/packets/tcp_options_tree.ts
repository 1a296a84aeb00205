// The TCP "Options" node in Wireshark's words: one node per option with its fields, the
// option names in the summary, and what packet-tcp.c's option dissectors add when an
// option is cut short or malformed (RFC 2018 SACK, RFC 2883 D-SACK).
import { u16, u32, u8 } from './bytes.ts';
import {
  isDsack,
  KIND_NAMES,
  listTcpOptions,
  optionName,
  TCP_MAX_WINSHIFT,
  TCPOPT_ECHO,
  TCPOPT_MSS,
  TCPOPT_SACK,
  TCPOPT_TIMESTAMP,
  TCPOPT_WINDOW,
  type TcpOption,
  type TcpOptions,
} from './tcp_options.ts';
import { expertNode, field, generated } from './tree.ts';
import type { DetailNode } from './types.ts';

/** The "Options: (N bytes), ..." node. */
/** `shownAck`: the ACK as the header shows it (for the D-SACK check). */
export function optionsNode(b: Uint8Array, off: number, len: number, o: TcpOptions, sackBase: number, isSyn: boolean, shownAck: number): DetailNode {
  const kids: DetailNode[] = [];
  const names: string[] = [];
  const list = listTcpOptions(b, o);
  for (const opt of list) {
    // A cut option's name is not added to the summary (that comes after its fields).
    if (opt.have === undefined && opt.off !== o.throwAt) names.push(optionName(opt.kind));
    kids.push(opt.have === undefined ? optionNode(b, opt, sackBase, isSyn, shownAck) : cutOptionNode(b, opt, sackBase, isSyn));
  }
  if (o.error) {
    // packet-tcp.c adds the message as an item carrying the expert info.
    const e = o.error;
    kids.push({
      ...field(e.message, e.off, e.len),
      children: [expertNode(e.message === 'Non-zero header padding' ? e : { ...e, severity: 'note', group: 'sequence' })],
    });
  } else if (isSyn && !o.cut && !list.some((x) => x.kind === TCPOPT_MSS)) {
    kids.push(expertNode({ severity: 'note', group: 'protocol', message: 'The SYN packet does not contain a MSS option' }));
  }
  const label = `Options: (${len} bytes)${names.length ? ', ' + names.join(', ') : ''}`;
  return { ...field(label, off, Math.min(len, b.length - off), 'tcp.options'), children: kids };
}

/** Kind (and, for a non-SYN carrying MSS, the expert packet-tcp.c puts first). */
function firstKids(opt: TcpOption, isSyn: boolean): DetailNode[] {
  const kindName = KIND_NAMES[opt.kind]?.[1] ?? 'Unknown';
  const kids: DetailNode[] = [];
  if (opt.kind === TCPOPT_MSS && !isSyn)
    kids.push(expertNode({ severity: 'warn', group: 'protocol', message: 'The non-SYN packet does contain a MSS option' }));
  kids.push(field(`Kind: ${kindName} (${opt.kind})`, opt.off, 1, 'tcp.option_kind'));
  return kids;
}

function optionNode(b: Uint8Array, opt: TcpOption, sackBase: number, isSyn: boolean, shownAck: number): DetailNode {
  const p = opt.off;
  const kids = firstKids(opt, isSyn);
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
      case TCPOPT_SACK:
        label += sackFields(b, opt, sackBase, kids, isDsack(b, opt.off, opt.len, sackBase, shownAck));
        break;
      case TCPOPT_TIMESTAMP: {
        const v = u32(b, p + 2);
        const e = u32(b, p + 6);
        label += `: TSval ${v}, TSecr ${e}`;
        kids.push(
          field(`Timestamp value: ${v}`, p + 2, 4, 'tcp.options.timestamp.tsval'),
          field(`Timestamp echo reply: ${e}`, p + 6, 4, 'tcp.options.timestamp.tsecr'),
        );
        break;
      }
      case TCPOPT_ECHO: {
        const v = u32(b, p + 2);
        label += `: ${v}`;
        kids.push(field(`TCP Echo Option: ${v}`, p + 2, 4, 'tcp.options.echo_value'));
        break;
      }
    }
  }
  return { ...field(label, p, opt.len, 'tcp.option_kind'), children: kids };
}

/** An option the data ends inside: its kind and length, and for SACK and timestamps the
 *  32-bit fields read before the end (Wireshark adds each as it reads it). */
function cutOptionNode(b: Uint8Array, opt: TcpOption, sackBase: number, isSyn: boolean): DetailNode {
  const p = opt.off;
  const have = opt.have ?? opt.len;
  const kids = firstKids(opt, isSyn);
  kids.push(field(`Length: ${opt.len}`, p + 1, 1, 'tcp.option_len'));
  let label = `TCP Option - ${optionName(opt.kind)}`;
  if (opt.kind === TCPOPT_SACK) label += sackFields(b, opt, sackBase, kids, false);
  else if (opt.kind === TCPOPT_TIMESTAMP && have >= 6) {
    kids.push(field(`Timestamp value: ${u32(b, p + 2)}`, p + 2, 4, 'tcp.options.timestamp.tsval'));
  }
  return { ...field(label, p, have, 'tcp.option_kind'), children: kids };
}

/** A SACK option's fields as dissect_tcpopt_sack() adds them, stopping where it would
 *  throw (the data ends, or a D-SACK check reads past the option); returns the label's
 *  " left-right" ranges. */
function sackFields(b: Uint8Array, opt: TcpOption, sackBase: number, kids: DetailNode[], dsack: boolean): string {
  const p = opt.off;
  const end = p + (opt.have ?? opt.len);
  const rel = (q: number): number => (u32(b, q) - sackBase) >>> 0;
  const subMalformed = (q: number, n: number): DetailNode => {
    const message = 'suboption would go past end of option';
    return { ...field(message, q, n), children: [expertNode({ severity: 'error', group: 'malformed', message })] };
  };
  let label = '';
  let optlen = opt.len - 2;
  let q = p + 2;
  let n = 0;
  while (optlen > 0) {
    if (optlen < 4) {
      kids.push(subMalformed(q, optlen));
      break;
    }
    if (q + 4 > end) return label;
    const l = rel(q);
    kids.push(field(`left edge = ${l} (relative)`, q, 4, 'tcp.options.sack_le'));
    optlen -= 4;
    if (optlen < 4) {
      kids.push(subMalformed(q, optlen));
      break;
    }
    if (q + 8 > end) return label;
    const r = rel(q + 4);
    optlen -= 4;
    kids.push(field(`right edge = ${r} (relative)`, q + 4, 4, 'tcp.options.sack_re'));
    n++;
    label += ` ${l}-${r}`;
    q += 8;
  }
  kids.push(generated(`TCP SACK Count: ${n}`, 'tcp.options.sack.count'));
  if (dsack) {
    // RFC 2883 4: the first block reports duplicate data. Its edges are read again,
    // which throws when the option has no whole block.
    if (opt.len < 6) return label;
    kids.push(generated(`D-SACK Left Edge = ${rel(p + 2)} (relative)`, 'tcp.options.sack.dsack_le'));
    if (opt.len < 10) return label;
    kids.push(generated(`D-SACK Right Edge = ${rel(p + 6)} (relative)`, 'tcp.options.sack.dsack_re'));
    kids.push({ ...field('D-SACK Sequence', p + 2, 8), children: [expertNode({ severity: 'warn', group: 'sequence', message: 'D-SACK Sequence' })] });
  }
  return label;
}
