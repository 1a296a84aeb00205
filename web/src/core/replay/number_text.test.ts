import { describe, expect, it } from 'vitest';
import { percent, sig4 } from './number_text.ts';

describe("the replay tables' numbers", () => {
  it('writes figures with at most four significant digits', () => {
    expect(sig4(29.86123)).toBe('29.86');
    expect(sig4(0.000245)).toBe('0.000245');
    expect(sig4(32901.747)).toBe('32900');
    expect(sig4(7.546)).toBe('7.546');
    expect(sig4(202.0833)).toBe('202.1');
    expect(sig4(2)).toBe('2');
    expect(sig4(-71.64)).toBe('-71.64');
    expect(sig4(null)).toBe('—');
    // never more than four significant digits, whatever the magnitude
    for (const v of [1 / 3, 2 / 3, 123456.789, 98765.4321, 0.00123456, 9.99951, 4.56789e-5]) {
      const digits = sig4(v).replace(/^[-0.]+|\.|0+$/g, '');
      expect(digits.length, `${v} -> ${sig4(v)}`).toBeLessThanOrEqual(4);
    }
  });

  it('writes a deviation as a signed percentage with at most four significant digits', () => {
    expect(percent(0.027)).toBe('+2.7 %');
    expect(percent(-0.716)).toBe('−71.6 %');
    expect(percent(1.525)).toBe('+153 %');
    expect(percent(0.00004)).toBe('0.0 %');
    expect(percent(-0.99996)).toBe('−100 %');
    expect(percent(123.456)).toBe('+12350 %');
    expect(percent(null)).toBe('');
  });
});
