// What a UART hears when the two ends of a line disagree on the baud rate: the sender's
// characters (start bit 0, eight data bits LSB first, stop bit 1, 8N1) are sampled by a
// receiver that times its bits by its own rate. It waits for a falling edge, samples the
// middle of each of its bit times, and hands over the byte whatever the stop bit says (an
// ATmega's USART sets FE and still delivers; so do USB-serial bridges). Close rates (the
// Uno's 58 823 against 57 600, 2.1 %) come through unchanged; a wrong baud setting gives
// the garbage a real board would see. The bytes are taken as sent back to back.

const BITS_PER_CHAR = 10;

/** The bytes a receiver at `rxBaud` makes of `bytes` sent at `txBaud`. */
export function garbleForBaud(bytes: Uint8Array, txBaud: number, rxBaud: number): Uint8Array {
  if (txBaud === rxBaud || bytes.length === 0) return bytes;
  const nbits = bytes.length * BITS_PER_CHAR;
  /** the line's level in the sender's bit k (idle, 1, outside the characters) */
  const bit = (k: number): number => {
    if (k < 0 || k >= nbits) return 1;
    const pos = k % BITS_PER_CHAR;
    if (pos === 0) return 0;
    if (pos === BITS_PER_CHAR - 1) return 1;
    return (bytes[Math.floor(k / BITS_PER_CHAR)]! >> (pos - 1)) & 1;
  };
  const levelAt = (t: number): number => bit(Math.floor(t * txBaud));
  const out: number[] = [];
  let t = 0; // seconds from the first start bit
  for (;;) {
    // the next falling edge at or after t: a sender bit boundary from 1 to 0
    let k = Math.ceil(t * txBaud - 1e-9);
    while (k < nbits && !(bit(k - 1) === 1 && bit(k) === 0)) k++;
    if (k >= nbits) break;
    const edge = k / txBaud;
    const sample = (m: number) => levelAt(edge + (m + 0.5) / rxBaud);
    if (sample(0) !== 0) {
      t = edge + 0.5 / rxBaud; // a glitch, not a start bit
      continue;
    }
    let v = 0;
    for (let m = 1; m <= 8; m++) v |= sample(m) << (m - 1);
    out.push(v);
    t = edge + (BITS_PER_CHAR - 0.5) / rxBaud;
  }
  return Uint8Array.from(out);
}
