// JavaScript engines compile a function for the paths it has run: the first frames the
// emulated firmware handles take avr8js through instruction paths it has not run yet, and
// those first milliseconds of board time cost several times their length in wall time (a
// ping's 40 ms took 40-70 ms the first two times, 14 ms after that, measured in Node). The
// worker therefore runs a scratch board through three pings before the real one starts, so
// the user's first ping is timed like the rest. The scratch board is then thrown away.
import { inetChecksum } from '../../core/packets/bytes.ts';
import { slipEncode } from '../../core/packets/slip_wire.ts';
import { EmulatedBoard } from './emulated_board.ts';

const PINGS = 3;
const PING_US = 40_000;
const BOOT_US = 20_000;

/** A SLIP frame (RFC 1055) of an ICMP echo request from 10.0.7.1 to 10.0.7.2 with 56 bytes of data. */
export function echoRequestFrame(seq: number): Uint8Array {
  const d = new Uint8Array(84);
  d.set([0x45, 0, 0, 84, 0, seq, 0, 0, 64, 1, 0, 0, 10, 0, 7, 1, 10, 0, 7, 2, 8, 0, 0, 0, 0x12, 0x34, 0, seq]);
  for (let i = 28; i < 84; i++) d[i] = i;
  const put = (at: number, sum: number) => {
    d[at] = sum >> 8;
    d[at + 1] = sum & 0xff;
  };
  put(10, inetChecksum(d, 0, 20));
  put(22, inetChecksum(d, 20, 64));
  return Uint8Array.from(slipEncode(d, true), (w) => w.value);
}

/** Runs the firmware through a few pings on a board of its own; returns the replies it sent, in bytes. */
export function warmUp(hexText: string): number {
  const board = new EmulatedBoard(hexText);
  board.runUntilUs(BOOT_US);
  for (let i = 1; i <= PINGS; i++) {
    board.receive(echoRequestFrame(i));
    board.runUntilUs(board.timeUs + PING_US);
  }
  return board.takeTransmitted().length;
}
