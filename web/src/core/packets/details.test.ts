import { describe, expect, it } from 'vitest';
import { analyze, dissect, dissectFrame } from './index.ts';
import { ipFragments, lossAndRetransmissions, malformedFrames } from './testing/captures.ts';
import * as B from './testing/build.ts';
import type { DetailNode } from './types.ts';

const find = (nodes: readonly DetailNode[], prefix: string): DetailNode | undefined => {
  for (const n of nodes) {
    if (n.label.startsWith(prefix)) return n;
    const f = find(n.children ?? [], prefix);
    if (f) return f;
  }
  return undefined;
};

describe('details tree', () => {
  const syn = B.tcp({
    src: '10.0.0.1',
    dst: '10.0.0.2',
    sport: 49153,
    dport: 7891,
    seq: 1000,
    ack: 0,
    flags: 'S',
    win: 8192,
    options: B.options(B.opt.mss(1460)),
  });

  it('has the layers Wireshark shows, with its summary lines', () => {
    const d = dissect(syn);
    expect(d.tree.map((n) => n.label)).toEqual([
      'Frame 1: 44 bytes on wire (352 bits), 44 bytes captured (352 bits)',
      'Raw packet data',
      'Internet Protocol Version 4, Src: 10.0.0.1, Dst: 10.0.0.2',
      'Transmission Control Protocol, Src Port: 49153, Dst Port: 7891, Seq: 0, Len: 0',
    ]);
    expect(d.row.info).toBe('49153 \u2192 7891 [SYN] Seq=0 Win=8192 Len=0 MSS=1460');
  });

  it('points each field at its bytes (for the hex view)', () => {
    const t = dissect(syn).tree;
    expect(find(t, 'Source Port')!.range).toEqual([20, 2]);
    expect(find(t, 'Sequence Number: 0')!.range).toEqual([24, 4]);
    expect(find(t, 'Window: 8192')!.range).toEqual([34, 2]);
    expect(find(t, 'TCP Option - Maximum segment size')!.range).toEqual([40, 4]);
    expect(find(t, 'MSS Value')!.range).toEqual([42, 2]);
    expect(find(t, '[Stream index')!.generated).toBe(true);
  });

  it('shows the SEQ/ACK analysis with the expert info of each flag', () => {
    const a = analyze(lossAndRetransmissions());
    const rto = dissectFrame(a, 8).tree;
    expect(find(rto, '[Expert Info (Note/Sequence): This frame is a (suspected) retransmission]')).toBeDefined();
    expect(find(rto, '[The RTO for this segment was: 1.002000000 seconds]')).toBeDefined();
    expect(find(rto, '[RTO based on delta from frame: 5]')).toBeDefined();
    expect(find(rto, 'Retransmitted TCP segment data (500 bytes)')).toBeDefined();
    const dup = dissectFrame(a, 7).tree;
    expect(find(dup, '[Duplicate to the ACK in frame: 6]')).toBeDefined();
  });

  it('shows a reassembled datagram from its own byte source', () => {
    const d = dissectFrame(analyze(ipFragments()), 3);
    expect(d.sources).toEqual([{ name: 'Reassembled IPv4 (308 bytes)', bytes: expect.any(Uint8Array) }]);
    expect(find(d.tree, '[3 IPv4 Fragments (308 bytes): #1(128), #2(128), #3(52)]')).toBeDefined();
    const udp = find(d.tree, 'User Datagram Protocol')!;
    expect(udp.src).toBe(1);
    expect(udp.range).toEqual([0, 8]);
  });

  it('ends a frame that ran out of bytes with [Malformed Packet: X]', () => {
    const a = analyze(malformedFrames());
    expect(dissectFrame(a, 1).tree.at(-1)!.label).toBe('[Malformed Packet: Raw]');
    expect(dissectFrame(a, 10).tree.at(-1)!.label).toBe('[Malformed Packet: TCP]');
    const mal = dissectFrame(a, 10).tree.at(-1)!;
    expect(mal.children![0]!.expert).toEqual({ severity: 'error', group: 'malformed', message: 'Malformed Packet (Exception occurred)' });
  });

  it('rejects a frame number outside the capture', () => {
    expect(() => dissectFrame(analyze([]), 1)).toThrow(RangeError);
  });
});
