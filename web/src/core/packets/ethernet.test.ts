import { describe, expect, it } from 'vitest';
import { macName } from './ethernet.ts';

describe('Ethernet address names', () => {
  it('names each address by its own six bytes, however many were named before', () => {
    // addresses that differ in one byte only, each position in turn, asked twice: a name
    // remembered under the wrong key would come back for another address
    for (let round = 0; round < 2; round++)
      for (let pos = 0; pos < 6; pos++)
        for (const v of [0x00, 0x01, 0x80, 0xfe]) {
          const b = new Uint8Array([0x02, 0x00, 0x00, 0x00, 0x00, 0x03]);
          b[pos] = v;
          const text = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join(':');
          expect(macName(b, 0)).toBe(text === '00:00:00:00:00:00' ? '00:00:00_00:00:00' : text);
        }
    expect(macName(new Uint8Array([9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), 1)).toBe('Broadcast');
    expect(macName(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xfe]), 0)).toBe('ff:ff:ff:ff:ff:fe');
  });
});
