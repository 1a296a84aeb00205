import { describe, expect, it } from 'vitest';
import { dissect } from '../../core/packets/index.ts';
import * as B from '../../core/packets/testing/build.ts';
import type { DetailNode } from '../../core/packets/types.ts';
import { ancestorKeys, asciiOf, childKeys, collectExperts, findByKey, hexLines, highlightOf, innermostKeyAt, offsetText, visibleNodes } from './tree_model.ts';

const syn = B.tcp({
  src: '10.0.7.1',
  dst: '10.0.7.2',
  sport: 49153,
  dport: 7,
  seq: 1,
  ack: 0,
  flags: 'S',
  options: B.options(B.opt.mss(536), B.opt.nop(), B.opt.nop(), B.opt.sackPerm()),
});
const tree = dissect(syn).tree;

describe('node keys', () => {
  it('field names, label stems, and a number for siblings that share one', () => {
    const kids: DetailNode[] = [
      { label: 'Kind: No-Operation (1)', range: [0, 1], field: 'tcp.option_kind' },
      { label: 'Kind: No-Operation (1)', range: [1, 1], field: 'tcp.option_kind' },
      { label: '[Timestamps]', range: [0, 0], generated: true },
      { label: 'Src/Dst: 2', range: [0, 0] },
    ];
    expect(childKeys('/tcp', kids)).toEqual(['/tcp/tcp.option_kind', '/tcp/tcp.option_kind#1', '/tcp/Timestamps', '/tcp/Src|Dst']);
  });
  it('findByKey and ancestorKeys walk the same keys visibleNodes gives', () => {
    const all = visibleNodes(tree, new Set(['/ip', '/tcp', '/tcp/tcp.options', '/tcp/tcp.flags']));
    for (const v of all) expect(findByKey(tree, v.key)).toBe(v.node);
    expect(findByKey(tree, '/nope')).toBeUndefined();
    expect(ancestorKeys('/tcp/tcp.options/tcp.option_kind#1/tcp.option_kind')).toEqual(['/tcp', '/tcp/tcp.options', '/tcp/tcp.options/tcp.option_kind#1']);
    expect(ancestorKeys('/tcp')).toEqual([]);
  });
});

describe('visibleNodes', () => {
  it('shows the top level, and the children of open subtrees only', () => {
    const top = visibleNodes(tree, new Set());
    expect(top.map((v) => v.key)).toEqual(['/frame', '/raw', '/ip', '/tcp']);
    expect(top.map((v) => v.hasChildren)).toEqual([true, false, true, true]);
    const open = visibleNodes(tree, new Set(['/ip', '/ip/ip.flags']));
    const flags = open.findIndex((v) => v.key === '/ip/ip.flags');
    expect(open[flags]!.expanded).toBe(true);
    expect(open[flags + 1]).toMatchObject({ key: '/ip/ip.flags/ip.flags.rb', depth: 2 });
    // a closed parent hides an "open" child
    expect(visibleNodes(tree, new Set(['/ip/ip.flags'])).length).toBe(4);
  });
});

describe('bytes <-> tree', () => {
  it('a byte selects the innermost field covering it', () => {
    expect(innermostKeyAt(tree, 0)).toBe('/ip/ip.version'); // the first of the two nibble fields
    expect(innermostKeyAt(tree, 13)).toBe('/ip/ip.src');
    expect(innermostKeyAt(tree, 25)).toBe('/tcp/tcp.seq');
    expect(innermostKeyAt(tree, 42)).toBe('/tcp/tcp.options/tcp.option_kind/tcp.options.mss_val');
    expect(innermostKeyAt(tree, 45)).toBe('/tcp/tcp.options/tcp.option_kind#2/tcp.option_kind');
    expect(innermostKeyAt(tree, 48)).toBeNull();
    expect(innermostKeyAt(tree, 5, 1)).toBeNull();
  });
  it('the selected field highlights its bytes; generated fields highlight none', () => {
    expect(highlightOf(findByKey(tree, '/ip/ip.src'))).toEqual({ src: 0, start: 12, end: 16 });
    expect(highlightOf(findByKey(tree, '/tcp/tcp.stream'))).toBeNull();
    expect(highlightOf(undefined)).toBeNull();
  });
  it('reassembled data: fields of source 1 are found on source 1 only', () => {
    const t: DetailNode[] = [
      { label: 'Frame', range: [0, 60], field: 'frame' },
      { label: 'TCP', range: [0, 20], src: 1, field: 'tcp', children: [{ label: 'Source Port: 1', range: [0, 2], src: 1, field: 'tcp.srcport' }] },
    ];
    expect(innermostKeyAt(t, 1, 1)).toBe('/tcp/tcp.srcport');
    expect(innermostKeyAt(t, 1, 0)).toBe('/frame');
    expect(highlightOf(findByKey(t, '/tcp/tcp.srcport'))).toEqual({ src: 1, start: 0, end: 2 });
  });
  it('every byte of the frame maps to a field whose range covers it', () => {
    for (let i = 0; i < syn.length; i++) {
      const h = highlightOf(findByKey(tree, innermostKeyAt(tree, i)!));
      expect(h && h.start <= i && i < h.end).toBe(true);
    }
  });
});

describe('expert infos and hex lines', () => {
  it('collects expert infos with the keys that reveal them', () => {
    const e = collectExperts(tree);
    expect(e).toHaveLength(1);
    expect(e[0]!.expert.message).toMatch(/Connection establish request/);
    expect(findByKey(tree, e[0]!.key)?.expert).toBe(e[0]!.expert);
  });
  it('16 bytes a line, offsets in hex, dots for the unprintable', () => {
    const lines = hexLines(syn);
    expect(lines.map((l) => l.offset)).toEqual([0, 16, 32]);
    expect(lines[2]!.bytes.length).toBe(16);
    expect(hexLines(new Uint8Array(17)).map((l) => l.bytes.length)).toEqual([16, 1]);
    expect(offsetText(32)).toBe('0020');
    expect([0x41, 0x7e, 0x7f, 0x1f].map(asciiOf).join('')).toBe('A~..');
  });
});
