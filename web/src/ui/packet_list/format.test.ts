import { describe, expect, it } from 'vitest';
import { aNum, durationText, secondsText } from './format.ts';

describe('format', () => {
  it('times in seconds with microseconds, as the Time column', () => {
    expect(secondsText(3_517_974)).toBe('3.517974 s');
    expect(secondsText(0)).toBe('0.000000 s');
  });
  it('durations in the unit that reads best', () => {
    expect(durationText(0)).toBe('0 µs');
    expect(durationText(7.5)).toBe('7.50 µs');
    expect(durationText(68)).toBe('68.0 µs');
    expect(durationText(7292)).toBe('7.292 ms');
    expect(durationText(2_000_000)).toBe('2.000 s');
  });
  it('a or an before a number read aloud', () => {
    expect(aNum(44)).toBe('a 44');
    expect(aNum(84)).toBe('an 84');
    expect(aNum(8)).toBe('an 8');
    expect(aNum(11)).toBe('an 11');
    expect(aNum(18)).toBe('an 18');
    expect(aNum(118)).toBe('a 118');
    expect(aNum(1080)).toBe('a 1080');
    expect(aNum(18000)).toBe('an 18000');
  });
});
