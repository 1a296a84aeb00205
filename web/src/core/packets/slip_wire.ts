// The serial framings as they put a datagram on the line, re-done in TypeScript for the
// "On the wire" view: the trace keeps the datagram, not the line's bytes. Each follows the
// stack's C encoder exactly (wasm/stack/slip.c slip_encode, wasm/stack/slip6.c
// slip6_put_data / slip6_put_end), byte for byte, so what the page shows is what the
// simulated line carried. Every output byte says what it is and which datagram byte it
// came from, so the view can mark END and the escapes and link them to the hex dump.

export const SLIP_END = 0xc0;
export const SLIP_ESC = 0xdb;
export const SLIP_ESC_END = 0xdc;
export const SLIP_ESC_ESC = 0xdd;
export const SLIP6_END = 0x70; // 'p'
export const SLIP6_BASE = 0x30; // '0': the character of the 6-bit group 0

export type WireByteKind = 'end' | 'esc' | 'data';

export interface WireByte {
  value: number;
  kind: WireByteKind;
  /** the datagram byte it carries (SLIP6: the byte holding the character's first bit);
   *  -1 for END */
  src: number;
}

/** slip_encode(): [END] then each byte, END as ESC ESC_END and ESC as ESC ESC_ESC, then END. */
export function slipEncode(dgram: Uint8Array, leadingEnd: boolean): WireByte[] {
  const out: WireByte[] = [];
  if (leadingEnd) out.push({ value: SLIP_END, kind: 'end', src: -1 });
  for (let i = 0; i < dgram.length; i++) {
    const b = dgram[i]!;
    if (b === SLIP_END) out.push({ value: SLIP_ESC, kind: 'esc', src: i }, { value: SLIP_ESC_END, kind: 'esc', src: i });
    else if (b === SLIP_ESC) out.push({ value: SLIP_ESC, kind: 'esc', src: i }, { value: SLIP_ESC_ESC, kind: 'esc', src: i });
    else out.push({ value: b, kind: 'data', src: i });
  }
  out.push({ value: SLIP_END, kind: 'end', src: -1 });
  return out;
}

/** slip_encoded_len(): without building the frame. */
export function slipEncodedLen(dgram: Uint8Array, leadingEnd: boolean): number {
  let n = dgram.length + 1 + (leadingEnd ? 1 : 0);
  for (const b of dgram) if (b === SLIP_END || b === SLIP_ESC) n++;
  return n;
}

/** Escaped bytes in dgram[from..to): what SLIP adds to that part besides the ENDs. */
export function slipEscapes(dgram: Uint8Array, from = 0, to = dgram.length): number {
  let n = 0;
  for (let i = from; i < to; i++) if (dgram[i] === SLIP_END || dgram[i] === SLIP_ESC) n++;
  return n;
}

/** slip6_encode(): the bit string cut into 6-bit groups, MSB first, each sent as
 *  0x30 + group; the last 2 or 4 bits padded with zeros on the right; 'p' around it. */
export function slip6Encode(dgram: Uint8Array, leadingEnd: boolean): WireByte[] {
  const out: WireByte[] = [];
  if (leadingEnd) out.push({ value: SLIP6_END, kind: 'end', src: -1 });
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < dgram.length; i++) {
    acc = ((acc << 8) | dgram[i]!) & 0xffff;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      // The group's first bit is (8 - bits - 6) bits before this byte's end when bits < 2.
      const src = bits + 6 > 8 ? i - 1 : i;
      out.push({ value: SLIP6_BASE + ((acc >> bits) & 0x3f), kind: 'data', src });
    }
    acc &= (1 << bits) - 1;
  }
  if (bits) out.push({ value: SLIP6_BASE + ((acc << (6 - bits)) & 0x3f), kind: 'data', src: dgram.length - 1 });
  out.push({ value: SLIP6_END, kind: 'end', src: -1 });
  return out;
}

/** slip6_encoded_len(): ceil(8 len / 6) characters plus the ENDs. */
export function slip6EncodedLen(len: number, leadingEnd: boolean): number {
  return Math.floor((len * 8 + 5) / 6) + 1 + (leadingEnd ? 1 : 0);
}

/** Whether the line used a leading END, read from the wire length the trace reports
 *  (the truth for this frame), else the configuration's `fallback`. */
export function inferLeadingEnd(wireLen: number, lenWithout: number, fallback: boolean): boolean {
  if (wireLen === lenWithout + 1) return true;
  if (wireLen === lenWithout) return false;
  return fallback;
}
