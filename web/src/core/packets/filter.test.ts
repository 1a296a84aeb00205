import { describe, expect, it } from 'vitest';
import { analyze } from './packet_list.ts';
import * as B from './testing/build.ts';
import { CaptureBuilder, TcpConn } from './testing/capture_builder.ts';
import { ethernetForms } from './testing/captures.ts';
import { compileFilter, filterRows } from './filter.ts';
import { FIELD_NAMES } from './filter_fields.ts';

// A small capture: a TCP connection on port 7 with a retransmission, a ping, a UDP datagram.
function capture() {
  const cap = new CaptureBuilder();
  const c = new TcpConn(cap, { client: '10.0.7.1', server: '10.0.7.2', cport: 49153, sport: 7 });
  c.handshake(); // 1 SYN, 2 SYN/ACK, 3 ACK
  c.c({ seq: 1, ack: 1, f: 'PA', len: 100 }); // 4
  c.c({ seq: 1, ack: 1, f: 'PA', len: 100, dt: 300_000 }); // 5 retransmission
  c.s({ seq: 1, ack: 101, f: 'A' }); // 6
  cap.add(B.echo('10.0.7.1', '10.0.7.2', false, 1, 1)); // 7
  cap.add(B.echo('10.0.7.2', '10.0.7.1', true, 1, 1)); // 8
  cap.add(B.udp({ src: '10.0.8.5', dst: '10.0.7.1', sport: 5353, dport: 53, payload: 20 })); // 9
  return analyze(cap.frames);
}
const a = capture();

/** Frame numbers the filter keeps. */
function nos(expr: string): number[] {
  const f = compileFilter(expr);
  if (!f.ok) throw new Error(`${expr}: ${f.message}`);
  return [...filterRows(a, f.test)].map((i) => i + 1);
}

describe('display filter on an Ethernet link', () => {
  const e = analyze(ethernetForms());
  const keep = (expr: string): number[] => {
    const f = compileFilter(expr);
    if (!f.ok) throw new Error(`${expr}: ${f.message}`);
    return [...filterRows(e, f.test)].map((i) => i + 1);
  };
  it('eth, arp and its opcode; the IPv4 fields read after the 14-byte header', () => {
    const rows = e.rows;
    const arp = rows.filter((r) => r.protocol === 'ARP').map((r) => r.no);
    expect(arp.length).toBeGreaterThan(3);
    expect(keep('arp')).toEqual(arp);
    expect(keep('arp.opcode == 2')).toEqual(rows.filter((r) => r.protocol === 'ARP' && / is at |\(Reply\)/.test(r.info)).map((r) => r.no));
    expect(keep('eth')).toHaveLength(rows.length);
    expect(keep('tcp.port == 7891')).toEqual(rows.filter((r) => r.protocol === 'TCP').map((r) => r.no));
    expect(keep('ip.src == 10.0.0.2 && tcp')).toEqual(rows.filter((r) => r.protocol === 'TCP' && r.source === '10.0.0.2').map((r) => r.no));
  });
});

describe('display filter: protocols and fields', () => {
  it('protocol names', () => {
    expect(nos('tcp')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(nos('icmp')).toEqual([7, 8]);
    expect(nos('udp')).toEqual([9]);
    expect(nos('ip')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(nos('')).toEqual(nos('frame'));
  });
  it('addresses, with ip.addr either way and CIDR prefixes', () => {
    expect(nos('ip.src==10.0.7.1')).toEqual([1, 3, 4, 5, 7]);
    expect(nos('ip.dst == 10.0.7.1')).toEqual([2, 6, 8, 9]);
    expect(nos('ip.addr==10.0.8.5')).toEqual([9]);
    expect(nos('ip.addr==10.0.8.0/24')).toEqual([9]);
    expect(nos('ip.src eq 10.0.0.0/8 && !tcp')).toEqual([7, 8, 9]);
  });
  it('ports: either end with tcp.port, one end with srcport/dstport; udp likewise', () => {
    expect(nos('tcp.port==7')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(nos('tcp.srcport==7')).toEqual([2, 6]);
    expect(nos('tcp.dstport==7')).toEqual([1, 3, 4, 5]);
    expect(nos('udp.port==53')).toEqual([9]);
    expect(nos('tcp.port in {7 80}')).toEqual([1, 2, 3, 4, 5, 6]);
  });
  it('lengths and streams', () => {
    expect(nos('tcp.len>0')).toEqual([4, 5]);
    expect(nos('tcp.stream==0')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(nos('tcp.stream==1')).toEqual([]);
    expect(nos('frame.len>=100')).toEqual([4, 5]);
    expect(nos('frame.len < 41')).toEqual([1, 2, 3, 6]);
    expect(nos('frame.number <= 2 or frame.number >= 0x9')).toEqual([1, 2, 9]);
  });
  it('flag fields by presence and by value', () => {
    expect(nos('tcp.analysis.retransmission')).toEqual([5]);
    expect(nos('tcp.analysis.flags')).toEqual([5]);
    expect(nos('tcp.flags.syn==1')).toEqual([1, 2]);
    expect(nos('tcp.flags.syn == true && tcp.flags.ack==0')).toEqual([1]);
    expect(nos('tcp.flags.syn')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(nos('tcp.flags == 0x12')).toEqual([2]);
  });
  it('&&, ||, !, and/or/not, parentheses, precedence (and binds tighter)', () => {
    expect(nos('icmp || udp')).toEqual([7, 8, 9]);
    expect(nos('not tcp and not icmp')).toEqual([9]);
    expect(nos('!(tcp || icmp)')).toEqual([9]);
    expect(nos('udp or tcp and tcp.len > 0')).toEqual([4, 5, 9]);
    expect(nos('(udp or tcp) and frame.len > 40')).toEqual([4, 5, 9]);
    expect(nos('!!udp')).toEqual([9]);
  });
  it('a comparison with an absent field is false, != included', () => {
    expect(nos('tcp.port != 7')).toEqual([]);
    expect(nos('tcp.port != 80')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(nos('!(tcp.port == 80)')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(nos('ip.addr != 10.0.7.2')).toEqual([9]);
  });
  it('names are case-insensitive; every listed field compiles', () => {
    expect(nos('TCP.LEN > 0 AND ip.src == 10.0.7.1')).toEqual([4, 5]);
    for (const n of FIELD_NAMES) expect(compileFilter(n).ok).toBe(true);
  });
});

describe('display filter: bad expressions', () => {
  const bad = (expr: string) => {
    const f = compileFilter(expr);
    if (f.ok) throw new Error(`${expr} compiled`);
    return f;
  };
  it('says what is wrong and where, never throws', () => {
    expect(bad('tcpp')).toMatchObject({ message: '"tcpp" is neither a field nor a protocol name.', at: 0 });
    expect(bad('ip.src==10.0.7.x')).toMatchObject({ message: '"10.0.7.x" is not a valid hostname or IPv4 address.', at: 8 });
    expect(bad('tcp.port==http').message).toBe('"http" is not a valid number.');
    expect(bad('tcp &&').message).toBe('Unexpected end of filter string.');
    expect(bad('(tcp').message).toMatch(/\)/);
    expect(bad('tcp udp').message).toBe('"udp" was unexpected in this context.');
    expect(bad('tcp == 1').message).toMatch(/protocol/);
    expect(bad('tcp.port ==').message).toBe('Unexpected end of filter string.');
    expect(bad('frame.len > 10 $').message).toBe('"$" was unexpected in this context.');
    expect(bad('ip.addr > 10.0.0.0/8').message).toMatch(/cannot be ordered/);
    expect(bad('tcp.flags.syn > 0').message).toMatch(/cannot be ordered/);
    expect(bad('tcp.port in {}').message).toMatch(/empty/);
    for (const junk of ['((((', ')', '!', '==', '{', 'tcp in 7', 'ip.src == 300.1.1.1', 'ip.addr==1.2.3.4/40', '"x"']) {
      expect(() => compileFilter(junk)).not.toThrow();
      expect(compileFilter(junk).ok).toBe(false);
    }
  });
});

// The filter's speed is a figure of web/src/core/packets/testing/bench.ts, not a test.
describe('display filter: a large capture', () => {
  it('filters 100 000 rows, the second pass on the facts the first one read', () => {
    const rows = [];
    const frames = [];
    const records = [];
    for (let i = 0; i < 100_000; i++) {
      rows.push(a.rows[i % a.rows.length]!);
      frames.push(a.frames[i % a.frames.length]!);
      records.push(a.records[i % a.records.length]!);
    }
    const big = { rows, frames, records };
    const f = compileFilter('(tcp.port == 7 && tcp.len > 0) || ip.addr == 10.0.8.0/24 || tcp.analysis.flags');
    if (!f.ok) throw new Error(f.message);
    const first = filterRows(big, f.test); // reads the facts once
    const kept = filterRows(big, f.test);
    expect(kept.length).toBe(Math.floor(100_000 / 9) * 3); // frames 4, 5 and 9 of every 9
    expect([...kept]).toEqual([...first]);
  });
});

describe('display filter: layers as the dissectors see them', () => {
  it('a fragment that completes nothing has no transport; short headers are absent', () => {
    const cap = new CaptureBuilder();
    const seg = B.tcpSegment({ src: '10.0.0.1', dst: '10.0.0.2', sport: 1, dport: 2, seq: 0, ack: 0, flags: 'S' });
    cap.add(B.ipv4({ src: '10.0.0.1', dst: '10.0.0.2', proto: 6, payload: seg.subarray(0, 16), mf: true, id: 9 }));
    cap.add(B.ipv4({ src: '10.0.0.1', dst: '10.0.0.2', proto: 17, payload: Uint8Array.of(0, 53, 0) }));
    cap.add(B.ipv4({ src: '10.0.0.1', dst: '10.0.0.2', proto: 1, payload: Uint8Array.of(8, 0, 0, 0, 0) }));
    cap.add(Uint8Array.of(0x45, 0, 0)); // not even an IP header
    const x = analyze(cap.frames);
    const keep = (e: string): number[] => {
      const f = compileFilter(e);
      if (!f.ok) throw new Error(f.message);
      return [...filterRows(x, f.test)].map((i) => i + 1);
    };
    expect(keep('ip')).toEqual([1, 2, 3]);
    expect(keep('tcp || udp || icmp')).toEqual([]);
    expect(keep('ip.flags.mf == 1 && ip.proto == 6')).toEqual([1]);
    expect(keep('frame')).toEqual([1, 2, 3, 4]);
  });
});
