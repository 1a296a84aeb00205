import { describe, expect, it } from 'vitest';
import { scaleLinear } from '../common/d3.ts';
import { AxisTransform, between, constrained, IDENTITY, type ZoomLimits } from './axis_transform.ts';

const LIMITS: ZoomLimits = { view: [0, 400], scale: [0.5, 64], bounds: [0, 400] };

describe('AxisTransform', () => {
  it('shows p at k·p + shift; a scale rescaled by it shows its domain the same way', () => {
    const t = new AxisTransform(4, -300);
    expect(t.apply(100)).toBe(100);
    expect(t.invert(100)).toBe(100);
    const base = scaleLinear().domain([0, 1000]).range([0, 400]);
    const zoomed = t.rescale(base);
    for (const v of [0, 123, 250, 999]) expect(zoomed(v)).toBeCloseTo(t.apply(base(v)), 9);
  });

  it('scales around a screen position, which stays where it is', () => {
    const t = new AxisTransform(2, -50).scaledBy(3, 120);
    expect(t.k).toBe(6);
    expect(new AxisTransform(2, -50).invert(120)).toBeCloseTo(t.invert(120), 12);
  });
});

describe('constrained', () => {
  it('clamps the scale around the screen position given, then keeps the view inside the bounds', () => {
    const far = constrained(new AxisTransform(1000, 0), LIMITS, 200);
    expect(far.k).toBe(64);
    const near = constrained(new AxisTransform(0.1, 0), LIMITS);
    expect(near.k).toBe(0.5);
    // zoomed out past the bounds: they are centred
    expect(near.invert(0) + near.invert(400)).toBeCloseTo(400, 9);
  });

  it('moves a view past either end back just inside, and leaves one inside alone', () => {
    const past = constrained(new AxisTransform(2, 100), LIMITS); // shows -50 .. 150
    expect(past.invert(0)).toBeCloseTo(0, 9);
    const beyond = constrained(new AxisTransform(2, -700), LIMITS); // shows 350 .. 550
    expect(beyond.invert(400)).toBeCloseTo(400, 9);
    const inside = new AxisTransform(2, -200);
    expect(constrained(inside, LIMITS)).toBe(inside);
  });
});

describe('between', () => {
  it('goes from one transform to the other, keeping still a point both show at one place', () => {
    const a = IDENTITY;
    const b = IDENTITY.scaledBy(8, 300);
    expect(between(a, b, LIMITS.view, 0)).toEqual(a);
    const end = between(a, b, LIMITS.view, 1);
    expect(end.k).toBeCloseTo(8, 9);
    expect(end.shift).toBeCloseTo(b.shift, 9);
    for (const f of [0.1, 0.5, 0.9]) {
      const m = between(a, b, LIMITS.view, f);
      expect(m.apply(300)).toBeCloseTo(300, 9);
      expect(m.k).toBeGreaterThan(1);
      expect(m.k).toBeLessThan(8);
    }
  });
});
