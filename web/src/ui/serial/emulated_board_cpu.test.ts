// The emulated board's departures from plain avr8js, instruction by instruction: SLEEP stops
// the CPU until an interrupt, and the instruction after SEI runs before any interrupt.
import { usart0Config } from 'avr8js';
import { describe, expect, it } from 'vitest';
import { EmulatedBoard } from './emulated_board.ts';

const SEI = 0x9478;
const SLEEP = 0x9588;
const NOP = 0x0000;
const RJMP_SELF = 0xcfff;
const SMCR = 0x53;

/** An Intel HEX image of `words` at address 0, and `isr` at USART0's receive vector. */
function hexOf(words: number[], isr: number[]): string {
  const image = new Uint8Array(0x100);
  const put = (at: number, ws: number[]) => ws.forEach((w, i) => image.set([w & 0xff, w >> 8], 2 * (at + i)));
  put(0, words);
  put(usart0Config.rxCompleteInterrupt, isr);
  const lines: string[] = [];
  for (let a = 0; a < image.length; a += 16) {
    const rec = [16, a >> 8, a & 0xff, 0, ...image.subarray(a, a + 16)];
    const sum = (0x100 - (rec.reduce((s, b) => s + b, 0) & 0xff)) & 0xff;
    lines.push(`:${[...rec, sum].map((b) => b.toString(16).padStart(2, '0')).join('')}`);
  }
  return `${lines.join('\n')}\n:00000001FF\n`;
}

/** A board running `words`, a received byte waiting with its interrupt enabled, SE set. */
function boardWithByteWaiting(words: number[]): EmulatedBoard {
  const b = new EmulatedBoard(hexOf(words, [RJMP_SELF]));
  b.cpu.writeData(usart0Config.UCSRB, 0x90); // RXEN, RXCIE
  b.cpu.data[SMCR] = 0x01;
  b.usart.writeByte(0x41, true);
  return b;
}

function returnAddress(b: EmulatedBoard): number {
  const sp = b.cpu.SP;
  return (b.cpu.data[sp + 1]! << 8) | b.cpu.data[sp + 2]!;
}

describe('the emulated ATmega328P', () => {
  it('runs the instruction after SEI before taking a pending interrupt', () => {
    const b = boardWithByteWaiting([SEI, SLEEP, NOP, NOP]);
    b.runUntilUs(2);
    // the interrupt came after SLEEP (word 1): it returns to word 2, as on the chip
    expect(returnAddress(b)).toBe(2);
    expect(b.cpu.pc).toBe(usart0Config.rxCompleteInterrupt);
  });

  it('an interrupt taken as SLEEP executes wakes the CPU: its handler runs at once', () => {
    // handler: LDI r16, 0x42; STS 0x0100, r16; RJMP .-2
    const LDI_R16_42 = 0xe402;
    const STS_R16 = 0x9300;
    const b = new EmulatedBoard(hexOf([SEI, SLEEP, NOP, NOP], [LDI_R16_42, STS_R16, 0x0100, RJMP_SELF]));
    b.cpu.writeData(usart0Config.UCSRB, 0x90); // RXEN, RXCIE
    b.cpu.data[SMCR] = 0x01;
    b.usart.writeByte(0x41, true);
    b.runUntilUs(10);
    expect(returnAddress(b)).toBe(2);
    expect(b.cpu.data[0x0100]).toBe(0x42);
  });

  it('sleeps until an interrupt: the board time passes without instructions', () => {
    const b = new EmulatedBoard(hexOf([SEI, SLEEP, RJMP_SELF], [RJMP_SELF]));
    b.cpu.data[SMCR] = 0x01;
    b.runUntilUs(1000);
    expect(b.timeUs).toBeGreaterThanOrEqual(1000);
    expect(b.cpu.pc).toBe(2); // woken by nothing: still at the instruction after SLEEP
  });
});
