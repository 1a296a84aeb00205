import { describe, expect, it } from 'vitest';
import { IP_OFF_SRC, parseIpv4 } from './ipv4.ts';
import * as B from './testing/build.ts';
import type { DetailNode } from './types.ts';

const find = (n: DetailNode, prefix: string): DetailNode | undefined => {
  if (n.label.startsWith(prefix)) return n;
  for (const c of n.children ?? []) {
    const f = find(c, prefix);
    if (f) return f;
  }
  return undefined;
};

describe('IPv4 header (RFC 791 3.1)', () => {
  const dg = B.udp({ src: '10.0.0.1', dst: '192.168.1.20', sport: 1, dport: 2, payload: 12, ip: { id: 0xbeef, ttl: 17, tos: 0xb8, df: true } });

  it('reads every field', () => {
    const r = parseIpv4(dg, 0, false);
    const h = r.header!;
    expect(h.version).toBe(4);
    expect(h.hlen).toBe(20);
    expect(h.tos).toBe(0xb8);
    expect(h.totalLength).toBe(40);
    expect(h.id).toBe(0xbeef);
    expect(h.df).toBe(true);
    expect(h.mf).toBe(false);
    expect(h.fragOffset).toBe(0);
    expect(h.ttl).toBe(17);
    expect(h.proto).toBe(17);
    expect(h.checksumOk).toBe(true);
    expect(h.src).toBe('10.0.0.1');
    expect(h.dst).toBe('192.168.1.20');
    expect(h.srcNum).toBe(0x0a000001);
    expect(h.end).toBe(40);
    expect(r.source).toBe('10.0.0.1');
    expect(r.destination).toBe('192.168.1.20');
  });

  it('finds a bad header checksum', () => {
    const bad = B.udp({ src: '10.0.0.1', dst: '10.0.0.2', sport: 1, dport: 2, ip: { badChecksum: true } });
    expect(parseIpv4(bad, 0, false).header!.checksumOk).toBe(false);
  });

  it('reads fragment fields: MF and the offset in bytes', () => {
    const f = B.ipv4({ src: '10.0.0.1', dst: '10.0.0.2', proto: 17, payload: new Uint8Array(16), mf: true, fragOffset: 1480 });
    const h = parseIpv4(f, 0, false).header!;
    expect(h.mf).toBe(true);
    expect(h.fragOffset).toBe(1480);
  });

  it('labels the tree in Wireshark words with byte ranges', () => {
    const n = parseIpv4(dg, 0, true).node!;
    expect(n.label).toBe('Internet Protocol Version 4, Src: 10.0.0.1, Dst: 192.168.1.20');
    expect(n.range).toEqual([0, 20]);
    expect(find(n, '0100 ....')!.label).toBe('0100 .... = Version: 4');
    expect(find(n, '.... 0101')!.label).toBe('.... 0101 = Header Length: 20 bytes (5)');
    expect(find(n, 'Differentiated')!.label).toBe('Differentiated Services Field: 0xb8 (DSCP: EF PHB, ECN: Not-ECT)');
    expect(find(n, 'Identification')!.label).toBe('Identification: 0xbeef (48879)');
    expect(find(n, '010. ....')!.label).toBe("010. .... = Flags: 0x2, Don't fragment");
    expect(find(n, 'Time to Live')!.label).toBe('Time to Live: 17');
    expect(find(n, 'Protocol')!.label).toBe('Protocol: UDP (17)');
    const src = find(n, 'Source Address')!;
    expect(src.range).toEqual([IP_OFF_SRC, 4]);
    expect(src.field).toBe('ip.src');
  });

  it('says so, as Wireshark does, when the header length is below 20', () => {
    const b = dg.slice();
    b[0] = 0x44;
    const r = parseIpv4(b, 0, false);
    expect(r.header).toBeNull();
    expect(r.info).toBe('Bogus IP header length (16, must be at least 20)');
    expect(r.malformed).toBe(false);
  });

  it('says so when the total length is below the header length', () => {
    const b = B.udp({ src: '10.0.0.1', dst: '10.0.0.2', sport: 1, dport: 2, ip: { totalLength: 12 } });
    expect(parseIpv4(b, 0, false).info).toBe('Bogus IP length (12, less than header length 20)');
  });

  it('believes a total length past the frame only up to the frame (TSO support)', () => {
    const b = B.udp({ src: '10.0.0.1', dst: '10.0.0.2', sport: 1, dport: 2, payload: 4, ip: { totalLength: 100 } });
    const h = parseIpv4(b, 0, false).header!;
    expect(h.lengthExceeds).toBe(true);
    expect(h.end).toBe(b.length);
  });

  it('marks a header cut short as malformed, with the source once its bytes are there', () => {
    expect(parseIpv4(dg.subarray(0, 10), 0, false)).toMatchObject({ header: null, malformed: true, source: 'N/A', destination: 'N/A' });
    expect(parseIpv4(dg.subarray(0, 17), 0, false)).toMatchObject({ header: null, malformed: true, source: '10.0.0.1', destination: 'N/A' });
  });

  it('lists options', () => {
    const o = B.udp({ src: '10.0.0.1', dst: '10.0.0.2', sport: 1, dport: 2, ip: { options: new Uint8Array([1, 7, 7, 4, 0, 0, 0, 0]) } });
    const n = parseIpv4(o, 0, true).node!;
    const opts = find(n, 'Options')!;
    expect(opts.label).toBe('Options: (8 bytes)');
    expect(opts.children!.map((c) => c.label)).toEqual(['IP Option - No-Operation (NOP)', 'IP Option - Record Route (7 bytes)']);
  });
});
