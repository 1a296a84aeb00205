// IPv4 options (RFC 791 section 3.1, "Options"), shown as a list with Wireshark's names.
// Only the tree uses them; the stack sends none, but a received one should be readable.
import { u8 } from './bytes.ts';
import { bits, expertNode, field } from './tree.ts';
import type { DetailNode } from './types.ts';

const IPOPT_EOL = 0;
const IPOPT_NOP = 1;

const NAMES: Record<number, string> = {
  0: 'End of Options List (EOL)',
  1: 'No-Operation (NOP)',
  7: 'Record Route',
  68: 'Time Stamp',
  130: 'Security',
  131: 'Loose Source Route',
  136: 'Stream ID',
  137: 'Strict Source Route',
  148: 'Router Alert',
};

const CLASSES = ['Control', 'Reserved for future use', 'Debugging and measurement', 'Reserved for future use'];

/** "Type: 7" with its copy flag, class and number (RFC 791 3.1). */
function typeNode(t: number, off: number): DetailNode {
  return {
    ...field(`Type: ${t}`, off, 1, 'ip.opt.type'),
    children: [
      field(bits(t, 8, 0x80, `Copy on fragmentation: ${t & 0x80 ? 'Yes' : 'No'}`), off, 1, 'ip.opt.type.copy'),
      field(bits(t, 8, 0x60, `Class: ${CLASSES[(t >> 5) & 3]} (${(t >> 5) & 3})`), off, 1, 'ip.opt.type.class'),
      field(bits(t, 8, 0x1f, `Number: ${t === IPOPT_EOL ? 'End of Option List (EOL)' : optName(t)} (${t & 0x1f})`), off, 1, 'ip.opt.type.number'),
    ],
  };
}

function optName(t: number): string {
  return NAMES[t] ?? `Unknown (0x${t.toString(16).padStart(2, '0')})`;
}

export function ipOptionsNode(b: Uint8Array, off: number, len: number): DetailNode {
  const kids: DetailNode[] = [];
  const end = off + len;
  let i = off;
  while (i < end && i < b.length) {
    const t = u8(b, i);
    if (t === IPOPT_EOL || t === IPOPT_NOP) {
      kids.push({ ...field(`IP Option - ${optName(t)}`, i, 1, 'ip.opt.type'), children: [typeNode(t, i)] });
      i++;
      if (t === IPOPT_EOL) break;
      continue;
    }
    const olen = i + 1 < end ? u8(b, i + 1) : 0;
    if (olen < 2 || i + olen > end) {
      kids.push({
        ...field(`IP Option - ${optName(t)}`, i, end - i, 'ip.opt.type'),
        children: [
          expertNode({
            severity: 'warn',
            group: 'protocol',
            message: `${optName(t)} (option length = ${olen} byte${olen === 1 ? '' : 's'} says option goes past end of options)`,
          }),
        ],
      });
      break;
    }
    kids.push({
      ...field(`IP Option - ${optName(t)} (${olen} bytes)`, i, olen, 'ip.opt.type'),
      children: [typeNode(t, i), field(`Length: ${olen}`, i + 1, 1, 'ip.opt.len')],
    });
    i += olen;
  }
  return { ...field(`Options: (${len} bytes)`, off, len, 'ip.options'), children: kids };
}
