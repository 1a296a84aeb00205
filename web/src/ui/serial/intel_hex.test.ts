import { describe, expect, it } from 'vitest';
import { IntelHexError, parseIntelHex } from './intel_hex.ts';
import { FIRMWARE_HEX } from './firmware_hex.ts';

describe('parseIntelHex', () => {
  it('places data records at their addresses, the rest stays erased', () => {
    const img = parseIntelHex(':0400100001020304E2\n:00000001FF\n', 32);
    expect([...img.subarray(0x10, 0x14)]).toEqual([1, 2, 3, 4]);
    expect(img[0]).toBe(0xff);
  });

  it('names the line and the fault', () => {
    expect(() => parseIntelHex(':0400100001020304E3\n:00000001FF\n', 32)).toThrow(new IntelHexError(1, 'checksum does not match'));
    expect(() => parseIntelHex(':0400100001020304E2\n', 32)).toThrow(/no end-of-file record/);
    expect(() => parseIntelHex('0400100001020304E2\n', 32)).toThrow(/hex line 1: does not start with ":"/);
    expect(() => parseIntelHex(':0400100001020304E2\n:00000001FF\n', 16)).toThrow(/beyond the 16-byte flash/);
  });

  it('reads the firmware build: its reset vector is a jump', () => {
    const img = parseIntelHex(FIRMWARE_HEX, 32 * 1024);
    // JMP k is 1001 010k kkkk 110k: 0x940C for a target below 128 KB
    expect(img[0]! | (img[1]! << 8)).toBe(0x940c);
  });
});
