// The details tree as the pane uses it, and its link to the bytes: stable keys for nodes
// (so the expanded subtrees and the selected field stay put while the user moves from
// packet to packet, as in Wireshark), the rows a tree with some subtrees open shows, the
// innermost field covering a byte (clicking the hex dump), and the expert infos.
import type { DetailNode, ExpertInfo } from '../../core/packets/types.ts';

/** A node's key: its parent's key, then its field name (or its label's words before any
 *  value), numbered when siblings share it ("…/tcp.flags#3"). */
export function childKeys(parentKey: string, children: readonly DetailNode[]): string[] {
  const seen = new Map<string, number>();
  return children.map((c) => {
    const stem = (c.field ?? labelStem(c.label)).replace(/\//g, '|');
    const k = seen.get(stem) ?? 0;
    seen.set(stem, k + 1);
    return `${parentKey}/${stem}${k ? `#${k}` : ''}`;
  });
}

/** "Sequence Number: 0 (relative…)" -> "Sequence Number"; "[Timestamps]" -> "Timestamps". */
function labelStem(label: string): string {
  return (
    label
      .replace(/^\[/, '')
      .split(/[:,(]/)[0]!
      .replace(/[\d\]]+/g, '')
      .trim() || label
  );
}

export interface VisibleNode {
  node: DetailNode;
  key: string;
  depth: number;
  hasChildren: boolean;
  expanded: boolean;
}

/** The rows of the tree with the subtrees in `expanded` open, in order. */
export function visibleNodes(tree: readonly DetailNode[], expanded: ReadonlySet<string>): VisibleNode[] {
  const out: VisibleNode[] = [];
  const walk = (nodes: readonly DetailNode[], parentKey: string, depth: number): void => {
    const keys = childKeys(parentKey, nodes);
    nodes.forEach((node, i) => {
      const key = keys[i]!;
      const hasChildren = !!node.children?.length;
      const open = hasChildren && expanded.has(key);
      out.push({ node, key, depth, hasChildren, expanded: open });
      if (open) walk(node.children!, key, depth + 1);
    });
  };
  walk(tree, '', 0);
  return out;
}

/** The node with this key, if the tree has it. */
export function findByKey(tree: readonly DetailNode[], key: string): DetailNode | undefined {
  let nodes: readonly DetailNode[] | undefined = tree;
  let prefix = '';
  let found: DetailNode | undefined;
  // Walk down the key one segment at a time rather than searching the whole tree.
  for (const seg of key.split('/').slice(1)) {
    if (!nodes) return undefined;
    const keys = childKeys(prefix, nodes);
    const want = `${prefix}/${seg}`;
    const i = keys.indexOf(want);
    if (i < 0) return undefined;
    found = nodes[i];
    nodes = found?.children;
    prefix = want;
  }
  return found;
}

/** The keys of the subtrees that must be open for `key` to show: its ancestors. */
export function ancestorKeys(key: string): string[] {
  const segs = key.split('/');
  const out: string[] = [];
  for (let i = 2; i < segs.length; i++) out.push(segs.slice(0, i).join('/'));
  return out;
}

/** The key of the innermost field covering byte `offset` of byte source `src` (0: the
 *  frame), as Wireshark selects a field when a byte is clicked: at each level the smallest
 *  covering child, the first of equals; generated and empty nodes cover nothing. */
export function innermostKeyAt(tree: readonly DetailNode[], offset: number, src = 0): string | null {
  const covers = (n: DetailNode): boolean => !n.generated && n.range[1] > 0 && (n.src ?? 0) === src && offset >= n.range[0] && offset < n.range[0] + n.range[1];
  let best: string | null = null;
  let nodes: readonly DetailNode[] | undefined = tree;
  let prefix = '';
  while (nodes && nodes.length) {
    const keys = childKeys(prefix, nodes);
    let pick = -1;
    nodes.forEach((n, i) => {
      if (covers(n) && (pick < 0 || n.range[1] < nodes![pick]!.range[1])) pick = i;
    });
    if (pick < 0) {
      // A container may cover nothing itself yet hold fields that do (a reassembled
      // layer's subtree, "Raw packet data"): look one level into every child.
      const deeper = nodes.findIndex((n) => n.children?.length && hasCovering(n.children, covers));
      if (deeper < 0) break;
      pick = deeper;
    } else {
      best = keys[pick]!;
    }
    prefix = keys[pick]!;
    nodes = nodes[pick]!.children;
  }
  return best;
}

function hasCovering(nodes: readonly DetailNode[], covers: (n: DetailNode) => boolean): boolean {
  return nodes.some((n) => covers(n) || (n.children ? hasCovering(n.children, covers) : false));
}

/** The bytes a node highlights: [start, end) in source `src`, or null (generated fields). */
export function highlightOf(n: DetailNode | undefined): { src: number; start: number; end: number } | null {
  if (!n || n.generated || n.range[1] <= 0) return null;
  return { src: n.src ?? 0, start: n.range[0], end: n.range[0] + n.range[1] };
}

export interface ExpertEntry {
  key: string;
  expert: ExpertInfo;
}

/** Every expert info in the tree, in tree order (Wireshark's Expert Info summary). */
export function collectExperts(tree: readonly DetailNode[]): ExpertEntry[] {
  const out: ExpertEntry[] = [];
  const walk = (nodes: readonly DetailNode[], parentKey: string): void => {
    const keys = childKeys(parentKey, nodes);
    nodes.forEach((n, i) => {
      if (n.expert) out.push({ key: keys[i]!, expert: n.expert });
      if (n.children) walk(n.children, keys[i]!);
    });
  };
  walk(tree, '');
  return out;
}

export interface HexLine {
  offset: number;
  /** the line's bytes, up to 16 */
  bytes: Uint8Array;
}

/** Lines of 16 bytes, as Wireshark's bytes pane. */
export function hexLines(b: Uint8Array): HexLine[] {
  const out: HexLine[] = [];
  for (let off = 0; off < b.length; off += 16) out.push({ offset: off, bytes: b.subarray(off, off + 16) });
  return out;
}

/** A byte as the ASCII column shows it: printable ASCII, else a dot. */
export function asciiOf(byte: number): string {
  return byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.';
}

export function hex2(byte: number): string {
  return byte.toString(16).padStart(2, '0');
}

export function offsetText(off: number): string {
  return off.toString(16).padStart(4, '0');
}
