import { describe, expect, it } from 'vitest';
import { boxHeight, fitText, fitWords, intersects, Occupancy, Placer, textBox, type Placeable, type TextBox } from './ladder_text.ts';
import { NORMAL_TEXT, PRESENTER_TEXT } from './text_size.ts';

describe('ladder text boxes', () => {
  it('a box holds its monospace text with a little room, the baseline inside', () => {
    const b = textBox('label', '[ACK] Seq=1', 16, PRESENTER_TEXT.charPx, 100, 50);
    // DejaVu Sans Mono in Chromium: 9.63 px a character at 16 px, 15 px above the baseline, 4 below
    expect(b.w).toBeGreaterThanOrEqual(11 * 9.65);
    expect(b.w).toBeLessThan(11 * 9.65 + 10);
    expect(b.ty - 15).toBeGreaterThanOrEqual(b.y);
    expect(b.ty + 4).toBeLessThanOrEqual(b.y + b.h);
    expect(boxHeight(16)).toBeGreaterThan(boxHeight(11));
  });

  it('cuts to the room, never to a stub; after whole words when asked', () => {
    const c = NORMAL_TEXT.charPx;
    expect(fitText('[ACK] Seq=1 Ack=1 Len=0', 1000, c)).toBe('[ACK] Seq=1 Ack=1 Len=0');
    expect(fitText('[ACK] Seq=1 Ack=1 Len=0', 80, c)).toBe('[ACK] Seq=…');
    expect(fitText('[ACK] Seq=1 Ack=1 Len=0', 30, c)).toBeNull();
    // a bracketed flag list is one word
    expect(fitWords('[RTO expired] [PSH, ACK] Seq=1 Ack=1 Len=1024', 200, c)).toBe('[RTO expired] [PSH, ACK]…');
    expect(fitWords('[RTO expired] [PSH, ACK] Seq=1 Ack=1 Len=1024', 200, c, 3)).toBeNull();
    expect(fitWords('×5 [SYN]…[ACK] Seq=0…202', 120, c)).toBe('×5 [SYN]…[ACK]…');
  });

  it('occupancy: inside its bounds and clear of what was placed', () => {
    const occ = new Occupancy({ x: 0, y: 0, w: 100, h: 100 });
    const a = { x: 10, y: 10, w: 30, h: 10 };
    expect(occ.place([a])).toBe(a);
    expect(occ.fits({ x: 35, y: 15, w: 10, h: 10 })).toBe(false);
    expect(occ.fits({ x: 40, y: 10, w: 10, h: 10 })).toBe(true);
    expect(occ.fits({ x: 95, y: 10, w: 10, h: 10 })).toBe(false);
    expect(occ.overlapping({ x: 0, y: 0, w: 100, h: 100 })).toEqual([a]);
    occ.remove(a);
    expect(occ.fits({ x: 35, y: 15, w: 10, h: 10 })).toBe(true);
    expect(intersects({ x: 0, y: 0, w: 10, h: 10 }, { x: 10, y: 0, w: 10, h: 10 })).toBe(false);
  });

  it('a text that matters moves another out of its only spot', () => {
    const placer = new Placer({ x: 0, y: 0, w: 200, h: 100 });
    const box = (x: number): TextBox => textBox('label', 'x'.repeat(10), 11, NORMAL_TEXT.charPx, x, 10);
    const item = (spots: number[]) => {
      const p: Placeable & { at: TextBox | null } = { at: null, candidates: () => spots.map(box), set: (b) => (p.at = b) };
      return p;
    };
    const first = item([0, 100]);
    const second = item([0]);
    placer.place(first, true);
    expect(first.at?.x).toBe(0);
    expect(placer.place(second, true)?.x).toBe(0);
    expect(first.at?.x).toBe(100);
    // Without a repair, or when the other has nowhere to go, nothing moves.
    const third = item([0, 100]);
    expect(placer.place(third, true)).toBeNull();
    expect([first.at?.x, second.at?.x]).toEqual([100, 0]);
  });
});
