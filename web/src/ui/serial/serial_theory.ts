// The fastest a serial line can carry an exchange: every byte costs bits_per_char bit times
// (start, 8 data, stop = 10 for 8N1), and SLIP adds an END before and after each datagram
// (RFC 1055). Escaped bytes (0xC0, 0xDB in the data) cost one more each; the figures here
// leave them out, as the seed's do. The seed also leaves out the two END bytes (its 29.2 ms
// for 84 bytes at 57600); with them it is 29.9 ms.

import { slip6EncodedLen } from '../../core/packets/slip_wire.ts';

const SLIP_ENDS = 2;

/** The framings of the live link (docs/scenario-format.md, "type": "external"). */
export type LiveFraming = 'slip' | 'slip6';

/** Characters a datagram of `ipBytes` costs on the line with `framing`, END before and after
 *  as the page sends it, escapes left out: SLIP adds the two ENDs (RFC 1055), SLIP6 sends
 *  every 6 bits as a character (slip_wire.ts). */
export function framedBytes(ipBytes: number, framing: LiveFraming): number {
  return framing === 'slip6' ? slip6EncodedLen(ipBytes, true) : ipBytes + SLIP_ENDS;
}

/** Microseconds one SLIP frame of `ipBytes` spends on a line of `baud`. */
export function slipFrameUs(ipBytes: number, baud: number, bitsPerChar = 10): number {
  return ((ipBytes + SLIP_ENDS) * bitsPerChar * 1e6) / baud;
}

/** The least round-trip time of a ping with `payload` data bytes (IP 20 + ICMP 8 + payload). */
export function pingTheoryMs(payload: number, baud: number, bitsPerChar = 10): number {
  return (2 * slipFrameUs(payload + 28, baud, bitsPerChar)) / 1000;
}

/** A rate of application bytes as a share of what the line carries (baud / bits_per_char bytes a second). */
export function lineShare(bytesPerSecond: number, baud: number, bitsPerChar = 10): number {
  return (bytesPerSecond * bitsPerChar) / baud;
}
