import { describe, expect, it } from 'vitest';
import { FIRMWARE_HEX } from './firmware_hex.ts';
import { warmUp } from './warm_up.ts';

describe('the worker warm-up', () => {
  it('really takes the firmware through its ping path: three replies of 86 bytes come back', () => {
    expect(warmUp(FIRMWARE_HEX)).toBe(3 * 86);
  });
});
