import { describe, expect, it } from 'vitest';
import { analyze, analyzeCapture, dissect } from './index.ts';
import { CAPTURES, ipFragments } from './testing/captures.ts';
import * as B from './testing/build.ts';
import { CaptureBuilder } from './testing/capture_builder.ts';
import { rng } from '../util/seeded_rng.ts';
import type { CapturedFrame } from './types.ts';

const A = '10.0.0.1';
const S = '10.0.0.2';

describe('packet list columns', () => {
  it('numbers frames from 1 and times them from the first', () => {
    const rows = analyzeCapture([
      { timeUs: 5_000_000, bytes: B.udp({ src: A, dst: S, sport: 1, dport: 2, payload: 3 }) },
      { timeUs: 5_250_000, bytes: B.udp({ src: S, dst: A, sport: 2, dport: 1, payload: 3 }) },
    ]);
    expect(rows.map((r) => [r.no, r.timeS, r.source, r.destination, r.protocol, r.length, r.info])).toEqual([
      [1, 0, A, S, 'UDP', 31, '1 \u2192 2 Len=3'],
      [2, 0.25, S, A, 'UDP', 31, '2 \u2192 1 Len=3'],
    ]);
    expect(analyzeCapture([])).toEqual([]);
  });

  it('pairs echo requests and replies in both directions of the list', () => {
    const cap = new CaptureBuilder();
    cap.add(B.echo(A, S, false, 7, 1));
    cap.add(B.echo(S, A, true, 7, 1), 1500);
    cap.add(B.echo(A, S, false, 7, 2));
    const rows = analyzeCapture(cap.frames);
    expect(rows[0]!.info).toBe('Echo (ping) request  id=0x0007, seq=1/256, ttl=64 (reply in 2)');
    expect(rows[1]!.info).toBe('Echo (ping) reply    id=0x0007, seq=1/256, ttl=64 (request in 1)');
    expect(rows[2]!.info).toBe('Echo (ping) request  id=0x0007, seq=2/512, ttl=64 (no response found!)');
    expect(rows[0]!.icmp).toMatchObject({ respIn: 2 });
    expect(rows[1]!.icmp).toMatchObject({ respTo: 1 });
    expect(rows[2]!.icmp).toMatchObject({ noResponse: true });
  });

  it('reassembles IPv4 fragments in the frame that completes the datagram (RFC 791 3.2)', () => {
    const rows = analyzeCapture(ipFragments());
    expect(rows[0]!).toMatchObject({ protocol: 'IPv4', info: 'Fragmented IP protocol (proto=UDP 17, off=0, ID=0100) [Reassembled in #3]' });
    expect(rows[2]!).toMatchObject({ protocol: 'ECHO', info: 'Request' });
    // the reply's fragments arrive last, first, middle: the middle one completes it
    expect(rows[8]!.info).toBe('Echo (ping) reply    id=0x0077, seq=1/256, ttl=64 (request in 6)');
    expect(rows[6]!.info).toBe('Fragmented IP protocol (proto=ICMP 1, off=256, ID=0102) [Reassembled in #9]');
    // the last datagram never completes
    expect(rows.at(-1)!.info).toBe('Fragmented IP protocol (proto=UDP 17, off=128, ID=0104)');
  });

  it('gives every row a colouring rule as Wireshark would', () => {
    const names = new Set(Object.values(CAPTURES).flatMap((m) => analyzeCapture(m()).map((r) => r.colour.name)));
    expect([...names].sort()).toEqual([
      '',
      'ARP',
      'Bad TCP',
      'Broadcast',
      'ICMP',
      'ICMP errors',
      'TCP',
      'TCP RST',
      'TCP SYN/FIN',
      'TTL low or unexpected',
      'UDP',
    ]);
  });

  it('colours bad checksums only when asked to check them', () => {
    const frames = [{ timeUs: 0, bytes: B.udp({ src: A, dst: S, sport: 1, dport: 2, payload: 4, badChecksum: true }) }];
    expect(analyzeCapture(frames)[0]!.colour.name).toBe('UDP');
    expect(analyzeCapture(frames, { checkChecksums: true })[0]!.colour.name).toBe('Checksum Errors');
  });

  it('keeps what the details tree needs', () => {
    const a = analyze(ipFragments());
    expect(a.record(2).fragments).toEqual([1, 2, 3]);
    expect(a.record(0).reassembledIn).toBe(3);
    expect(a.records).toHaveLength(13);
  });
});

describe('robustness', () => {
  it('never throws on random bytes or on valid frames cut anywhere', () => {
    const r = rng(42);
    const frames: CapturedFrame[] = [];
    const valid = Object.values(CAPTURES).flatMap((m) => m());
    for (let i = 0; i < 3000; i++) {
      const base = valid[Math.floor(r() * valid.length)]!.bytes;
      const b = r() < 0.3 ? Uint8Array.from({ length: Math.floor(r() * 80) }, () => Math.floor(r() * 256)) : base.slice(0, Math.floor(r() * (base.length + 1)));
      if (b.length > 0 && r() < 0.5) b[Math.floor(r() * b.length)] = Math.floor(r() * 256); // and flip a byte
      frames.push({ timeUs: i * 1000, bytes: b });
    }
    const a = analyze(frames);
    expect(a.rows).toHaveLength(3000);
    for (let no = 1; no <= frames.length; no += 7) expect(() => dissect(frames[no - 1]!.bytes)).not.toThrow();
  });
});
