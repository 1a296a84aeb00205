import { describe, expect, it } from 'vitest';
import { verifyChecksums } from './checksums.ts';
import { decodeFrame } from './dissect.ts';
import { echoKey, icmpInfo, parseIcmp } from './icmp.ts';
import { quotedHeaders } from './quoted.ts';
import * as B from './testing/build.ts';
import { parseUdp, udpInfo } from './udp.ts';

const A = '10.0.0.1';
const S = '10.0.0.2';

describe('UDP (RFC 768)', () => {
  it('reads the header and writes Wireshark Info', () => {
    const d = B.udpDatagram({ src: A, dst: S, sport: 49200, dport: 9000, payload: 12 });
    const h = parseUdp(d, 0, d.length, false);
    expect(h).toMatchObject({ sport: 49200, dport: 9000, length: 20, payloadLen: 12, malformed: false });
    expect(udpInfo(h)).toBe('49200 \u2192 9000 Len=12');
  });

  it('flags a length field the datagram does not have', () => {
    const d = B.udpDatagram({ src: A, dst: S, sport: 1, dport: 2, payload: 4 });
    d[5] = 40;
    expect(udpInfo(parseUdp(d, 0, d.length, false))).toBe('1 \u2192 2 [BAD UDP LENGTH 40 > IP PAYLOAD LENGTH] Len=32');
    d[5] = 6;
    expect(udpInfo(parseUdp(d, 0, d.length, false))).toBe('1 \u2192 2 [BAD UDP LENGTH 6 < 8]');
  });

  it('is ECHO on port 7, both ways, only with a payload', () => {
    expect(decodeFrame(B.udp({ src: A, dst: S, sport: 49200, dport: 7, payload: 3 }))).toMatchObject({ protocol: 'ECHO', info: 'Request' });
    expect(decodeFrame(B.udp({ src: S, dst: A, sport: 7, dport: 49200, payload: 3 }))).toMatchObject({ protocol: 'ECHO', info: 'Response' });
    expect(decodeFrame(B.udp({ src: A, dst: S, sport: 49200, dport: 7, payload: 0 }))).toMatchObject({ protocol: 'UDP', info: '49200 \u2192 7 Len=0' });
    expect(decodeFrame(B.udp({ src: A, dst: S, sport: 49200, dport: 9, payload: 3 }))).toMatchObject({ protocol: 'UDP' });
  });

  it('verifies the checksum on demand; zero means none (RFC 768)', () => {
    const good = decodeFrame(B.udp({ src: A, dst: S, sport: 1, dport: 2, payload: 9 }));
    expect(good.udp!.checksumOk).toBeNull();
    verifyChecksums(B.udp({ src: A, dst: S, sport: 1, dport: 2, payload: 9 }), good);
    expect(good.udp!.checksumOk).toBe(true);
    const badBytes = B.udp({ src: A, dst: S, sport: 1, dport: 2, payload: 9, badChecksum: true });
    const bad = decodeFrame(badBytes);
    verifyChecksums(badBytes, bad);
    expect(bad.udp!.checksumOk).toBe(false);
    const noneBytes = B.udp({ src: A, dst: S, sport: 1, dport: 2, payload: 9, zeroChecksum: true });
    const none = decodeFrame(noneBytes);
    verifyChecksums(noneBytes, none);
    expect(none.udp!.checksumOk).toBeNull();
  });
});

describe('ICMP (RFC 792)', () => {
  const msg = (s: B.IcmpSpec) => {
    const m = B.icmpMessage(s);
    return parseIcmp(m, 0, m.length, false);
  };

  it('writes echo Info with the type padded to 20 columns and the sequence both ways', () => {
    expect(icmpInfo(msg({ src: A, dst: S, type: 8, rest: 0x12340102 }), 64)).toBe('Echo (ping) request  id=0x1234, seq=258/513, ttl=64');
    expect(icmpInfo(msg({ src: A, dst: S, type: 0, rest: 0x12340001 }), 255)).toBe('Echo (ping) reply    id=0x1234, seq=1/256, ttl=255');
  });

  it('names the codes of errors', () => {
    expect(icmpInfo(msg({ src: A, dst: S, type: 3, code: 3 }), 64)).toBe('Destination unreachable (Port unreachable)');
    expect(icmpInfo(msg({ src: A, dst: S, type: 3, code: 4 }), 64)).toBe('Destination unreachable (Fragmentation needed)');
    expect(icmpInfo(msg({ src: A, dst: S, type: 11, code: 0 }), 64)).toBe('Time-to-live exceeded (Time to live exceeded in transit)');
    expect(icmpInfo(msg({ src: A, dst: S, type: 3, code: 99 }), 64)).toBe('Destination unreachable (Unknown code: 99)');
    expect(icmpInfo(msg({ src: A, dst: S, type: 77 }), 64)).toBe('Unknown ICMP (obsolete or malformed?)');
  });

  it('keys a request and its reply alike (the reply checksum the request implies)', () => {
    const req = msg({ src: A, dst: S, type: 8, rest: 0x00070003, payload: 32 });
    const rep = msg({ src: S, dst: A, type: 0, rest: 0x00070003, payload: 32 });
    expect(echoKey(req)).toBe(echoKey(rep));
    const other = msg({ src: S, dst: A, type: 0, rest: 0x00070004, payload: 32 });
    expect(echoKey(other)).not.toBe(echoKey(req));
  });

  it('marks a message too short to read', () => {
    const m = new Uint8Array([8, 0, 0]);
    expect(parseIcmp(m, 0, 3, false).malformed).toBe('early');
    expect(icmpInfo(parseIcmp(m, 0, 3, false), 64)).toBe('[Malformed Packet]');
  });

  it('reads the datagram an error quotes', () => {
    const orig = B.tcp({ src: A, dst: S, sport: 49153, dport: 7891, seq: 5, ack: 6, flags: 'PA', payload: 100 });
    const e = B.icmpError(S, A, 11, 0, orig);
    const d = decodeFrame(e);
    const q = quotedHeaders(d.buf, d.icmp!.quotedOff, d.icmp!.quotedLen);
    expect(q.ip!.header!.src).toBe(A);
    expect(q.tcp).toMatchObject({ stage: 'ports', sport: 49153, dport: 7891 }); // 8 bytes of TCP: ports and seq
  });
});
