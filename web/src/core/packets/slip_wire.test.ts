import { describe, expect, it } from 'vitest';
import { inferLeadingEnd, slip6Encode, slip6EncodedLen, slipEncode, slipEncodedLen, slipEscapes, type WireByte } from './slip_wire.ts';

const values = (w: WireByte[]): number[] => w.map((b) => b.value);
const text = (w: WireByte[]): string => String.fromCharCode(...values(w));

describe('SLIP encoder (wasm/stack/slip.c)', () => {
  const d = Uint8Array.from([0x45, 0xc0, 0x01, 0xdb, 0x02]);
  it('escapes END and ESC and ends the frame, RFC 1055', () => {
    expect(values(slipEncode(d, true))).toEqual([0xc0, 0x45, 0xdb, 0xdc, 0x01, 0xdb, 0xdd, 0x02, 0xc0]);
    expect(values(slipEncode(d, false))).toEqual([0x45, 0xdb, 0xdc, 0x01, 0xdb, 0xdd, 0x02, 0xc0]);
  });
  it('marks each byte and names the datagram byte it carries', () => {
    const w = slipEncode(d, true);
    expect(w.map((b) => b.kind)).toEqual(['end', 'data', 'esc', 'esc', 'data', 'esc', 'esc', 'data', 'end']);
    expect(w.map((b) => b.src)).toEqual([-1, 0, 1, 1, 2, 3, 3, 4, -1]);
  });
  it('the escape bytes themselves pass through unescaped when alone', () => {
    expect(values(slipEncode(Uint8Array.from([0xdc, 0xdd]), false))).toEqual([0xdc, 0xdd, 0xc0]);
  });
  it('slip_encoded_len agrees with the frame, and with the engine: an 84-byte ping is 86', () => {
    expect(slipEncodedLen(d, true)).toBe(9);
    expect(slipEncodedLen(d, false)).toBe(8);
    expect(slipEncodedLen(new Uint8Array(84), true)).toBe(86);
    expect(slipEscapes(d)).toBe(2);
    expect(slipEscapes(d, 2)).toBe(1);
    expect(slipEncode(new Uint8Array(0), true).length).toBe(2);
  });
});

describe('SLIP6 encoder (wasm/stack/slip6.c)', () => {
  it('the worked example of slip6.h: "Hi!" is pB6TQp', () => {
    expect(text(slip6Encode(new TextEncoder().encode('Hi!'), true))).toBe('pB6TQp');
    expect(text(slip6Encode(new TextEncoder().encode('Hi!'), false))).toBe('B6TQp');
  });
  it('pads the last 2 or 4 bits with zeros on the right', () => {
    // 0xFF = 111111 11|0000 -> 63, 48 -> 'o', '`'
    expect(text(slip6Encode(Uint8Array.from([0xff]), true))).toBe('po`p');
    // 0x00 0x01 = 000000 000000 0001|00 -> 0, 0, 4
    expect(text(slip6Encode(Uint8Array.from([0x00, 0x01]), true))).toBe('p004p');
    // "Hi!" then 0xC0 = 110000 00|0000 -> 48, 0
    expect(text(slip6Encode(Uint8Array.from([0x48, 0x69, 0x21, 0xc0]), false))).toBe('B6TQ`0p');
  });
  it('every character is in the 64-character alphabet; END is p', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const w = slip6Encode(all, true);
    for (const b of w) {
      if (b.kind === 'end') expect(b.value).toBe(0x70);
      else expect(b.value >= 0x30 && b.value < 0x70).toBe(true);
    }
    expect(w.length).toBe(slip6EncodedLen(256, true));
  });
  it("names the byte holding each character's first bit", () => {
    // groups of 3 bytes -> 4 chars starting in bytes 0, 0, 1, 2
    expect(slip6Encode(Uint8Array.from([1, 2, 3, 4]), false).map((b) => b.src)).toEqual([0, 0, 1, 2, 3, 3, -1]);
  });
  it('decodes back to the datagram (the decoder of slip6.c, re-done here)', () => {
    const d = Uint8Array.from({ length: 101 }, (_, i) => (i * 37 + 11) & 255);
    const chars = values(slip6Encode(d, true)).filter((c) => c !== 0x70);
    const out: number[] = [];
    let acc = 0;
    let bits = 0;
    for (const c of chars) {
      acc = (acc << 6) | (c - 0x30);
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        out.push((acc >> bits) & 255);
        acc &= (1 << bits) - 1;
      }
    }
    expect(Uint8Array.from(out)).toEqual(d);
  });
  it('slip6_encoded_len: ceil(8n/6) plus the ENDs', () => {
    expect(slip6EncodedLen(3, true)).toBe(6);
    expect(slip6EncodedLen(1, false)).toBe(3);
    expect(slip6EncodedLen(84, true)).toBe(114);
  });
});

describe('inferLeadingEnd', () => {
  it('reads the leading END from the wire length, else trusts the configuration', () => {
    expect(inferLeadingEnd(86, 85, false)).toBe(true);
    expect(inferLeadingEnd(85, 85, true)).toBe(false);
    expect(inferLeadingEnd(0, 85, true)).toBe(true);
  });
});
