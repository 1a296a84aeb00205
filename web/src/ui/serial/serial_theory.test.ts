import { describe, expect, it } from 'vitest';
import { lineShare, pingTheoryMs, slipFrameUs } from './serial_theory.ts';

describe('serial line theory', () => {
  it("a 56-byte ping at 57600: the seed's 29.2 ms plus two END bytes each way", () => {
    expect(pingTheoryMs(56, 57600)).toBeCloseTo(29.861, 3);
    expect(pingTheoryMs(56, 57600) - (4 * 10 * 1000) / 57600).toBeCloseTo(29.167, 3);
  });

  it('matches the engine: an 84-byte datagram over SLIP at 57600 takes 14931 us', () => {
    expect(Math.round(slipFrameUs(84, 57600))).toBe(14931);
  });

  it('5760 bytes a second fill a 57600-baud line', () => {
    expect(lineShare(5760, 57600)).toBe(1);
  });
});
