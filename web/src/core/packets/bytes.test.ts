import { describe, expect, it } from 'vitest';
import { checksumShouldBe, foldChecksum, hex16, inetChecksum, ipv4String, onesSum, pseudoHeaderSum, u16, u32, u8 } from './bytes.ts';

describe('byte readers', () => {
  const b = new Uint8Array([0x12, 0x34, 0x56, 0x78, 0x9a]);
  it('read big-endian values', () => {
    expect(u8(b, 4)).toBe(0x9a);
    expect(u16(b, 1)).toBe(0x3456);
    expect(u32(b, 1)).toBe(0x3456789a);
  });
  it('return 0 past the end instead of throwing', () => {
    expect(u8(b, 5)).toBe(0);
    expect(u16(b, 4)).toBe(0);
    expect(u32(b, 2)).toBe(0);
  });
  it('keep 32-bit values unsigned', () => {
    expect(u32(new Uint8Array([0xff, 0xff, 0xff, 0xfe]), 0)).toBe(4294967294);
  });
});

describe('Internet checksum (RFC 1071)', () => {
  it('matches the worked example of RFC 1071 section 3', () => {
    // 00 01 f2 03 f4 f5 f6 f7: the sum is 0x2ddf0, folded 0xddf2, complemented 0x220d.
    const data = new Uint8Array([0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7]);
    expect(onesSum(data, 0, 8)).toBe(0x2ddf0);
    expect(inetChecksum(data, 0, 8)).toBe(0x220d);
  });
  it('pads an odd byte with zero on the right', () => {
    expect(inetChecksum(new Uint8Array([0x01]), 0, 1)).toBe(0xfeff);
  });
  it('is 0 over data that carries its own correct checksum', () => {
    const d = new Uint8Array([0x45, 0x00, 0x00, 0x14, 0, 0, 0, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2]);
    const ck = inetChecksum(d, 0, 20);
    d[10] = ck >> 8;
    d[11] = ck & 0xff;
    expect(inetChecksum(d, 0, 20)).toBe(0);
    expect(checksumShouldBe(d, 0, 20, 10)).toBe(ck);
    d[11] ^= 1; // now wrong: what it should be is still the original
    expect(checksumShouldBe(d, 0, 20, 10)).toBe(ck);
  });
  it('folds carries repeatedly', () => {
    expect(foldChecksum(0x1fffe)).toBe(0x0000);
    expect(foldChecksum(0)).toBe(0xffff);
  });
  it('sums the pseudo header of RFC 768 / RFC 9293 3.1', () => {
    const ip = new Uint8Array(20);
    ip.set([10, 0, 0, 1], 12);
    ip.set([10, 0, 0, 2], 16);
    expect(pseudoHeaderSum(ip, 12, 16, 6, 40)).toBe(0x0a00 + 0x0001 + 0x0a00 + 0x0002 + 6 + 40);
  });
});

describe('formatting', () => {
  it('writes dotted quads and Wireshark-style hex', () => {
    expect(ipv4String(new Uint8Array([192, 168, 0, 255]), 0)).toBe('192.168.0.255');
    expect(hex16(0x1a)).toBe('0x001a');
  });
});
