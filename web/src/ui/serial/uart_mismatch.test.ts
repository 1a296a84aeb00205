// The receiver model against bytes whose fate at a wrong rate can be worked out by hand.
import { describe, expect, it } from 'vitest';
import { garbleForBaud } from './uart_mismatch.ts';

describe('garbleForBaud', () => {
  const text = Uint8Array.from('\xc0 SLIP frame \xdb\xdc\xc0', (c) => c.charCodeAt(0));

  it('passes bytes unchanged between the Uno (58823) and a 57600 host, both ways', () => {
    expect(garbleForBaud(text, 58823, 57600)).toEqual(text);
    expect(garbleForBaud(text, 57600, 58823)).toEqual(text);
  });

  it('a receiver at twice the rate sees each character as two', () => {
    // 0x00 at 9600 is a 9-bit-long low: at 19200 the receiver samples 0x00 from the
    // first half; its own stop sample falls in the low too (framing error, byte kept),
    // the line then rises for the sender's stop bit and nothing more starts.
    expect([...garbleForBaud(Uint8Array.of(0x00), 9600, 19200)]).toEqual([0x00]);
    // 0xFF at 9600: only the start bit is low; at 19200 that is the start bit and data
    // bit 0, everything after reads high.
    expect([...garbleForBaud(Uint8Array.of(0xff), 9600, 19200)]).toEqual([0xfe]);
  });

  it('a receiver at a much lower rate loses characters', () => {
    const sent = new Uint8Array(40).fill(0x55);
    const got = garbleForBaud(sent, 57600, 9600);
    expect(got.length).toBeLessThan(sent.length / 2);
    expect(got.length).toBeGreaterThan(0);
  });
});
