// Compares our details tree with tshark -V's, line by line, from "Raw packet data" or
// "Ethernet II" on (the Frame section describes the capture file, which we do not have). Left out on both sides:
// checksum lines (Wireshark does not verify checksums by default; we do), tshark's
// rendering of an expert info as a subtree (its message, severity and group lines), the
// hex dump of a data item, and blank lines.
import type { DetailNode } from '../types.ts';

const SKIP = [/Checksum/i, /^\s*[0-9a-f]{4} {2}/, /^\s*$/];

function keep(line: string): boolean {
  return !SKIP.some((r) => r.test(line));
}

/** Where the link layer's lines start: "Raw packet data" or "Ethernet II, ...". */
function firstLayer(lines: readonly string[]): number {
  const start = lines.findIndex((l) => l === 'Raw packet data' || l.startsWith('Ethernet II, '));
  return start < 0 ? 0 : start;
}

/** Our tree as tshark -V prints one: four spaces per level. */
export function treeLines(tree: readonly DetailNode[]): string[] {
  const lines: string[] = [];
  const walk = (n: DetailNode, depth: number): void => {
    lines.push('    '.repeat(depth) + n.label);
    for (const c of n.children ?? []) walk(c, depth + 1);
  };
  for (const n of tree) walk(n, 0);
  return lines.slice(firstLayer(lines)).filter(keep);
}

/** tshark's text for one frame, in the same form. */
export function tsharkLines(text: string): string[] {
  const out: string[] = [];
  let skipDeeper = -1;
  for (const l of text.split('\n')) {
    const ind = l.length - l.trimStart().length;
    if (skipDeeper >= 0 && ind > skipDeeper) continue;
    skipDeeper = -1;
    if (/^\[Expert Info/.test(l.trim())) skipDeeper = ind;
    out.push(l);
  }
  return out.slice(firstLayer(out)).filter(keep);
}

/** Lines only tshark has ("- ...") and lines only we have ("+ ..."). */
export function diffLines(ours: readonly string[], theirs: readonly string[]): string[] {
  const o = new Set(ours);
  const t = new Set(theirs);
  return [...theirs.filter((l) => !o.has(l)).map((l) => `- ${l}`), ...ours.filter((l) => !t.has(l)).map((l) => `+ ${l}`)];
}
