// The avr8js USART bug and its fix, register by register: a byte received and not yet read,
// then the writes Arduino's HardwareSerial makes when it sends (UCSR0A to clear TXC, UCSR0B
// to enable the data-register-empty interrupt).
import { AVRUSART, CPU, usart0Config } from 'avr8js';
import { describe, expect, it } from 'vitest';
import { doubleBufferTransmitter, fixUsartFlags } from './usart_fix.ts';

const { UCSRA, UCSRB, UDR, rxCompleteInterrupt, dataRegisterEmptyInterrupt } = usart0Config;
const UDRE = 0x20;
const RXC = 0x80;
const TXC = 0x40;
const RXCIE = 0x80;
const UDRIE = 0x20;
const RXEN = 0x10;
const TXEN = 0x08;

function byteWaiting(fixed: boolean): CPU {
  const cpu = new CPU(new Uint16Array(0x4000));
  const usart = new AVRUSART(cpu, usart0Config, 16_000_000);
  if (fixed) fixUsartFlags(cpu, usart, usart0Config);
  cpu.writeData(UCSRB, RXCIE | RXEN | TXEN);
  usart.writeByte(0x41, true);
  expect(cpu.data[UCSRA]! & RXC).toBe(RXC);
  // what HardwareSerial::write does while the byte waits
  cpu.writeData(UCSRA, (cpu.data[UCSRA]! & ~TXC) | TXC);
  cpu.writeData(UCSRB, RXCIE | RXEN | TXEN | UDRIE);
  return cpu;
}

describe('avr8js USART flags', () => {
  it('as shipped, the writes lose the waiting byte: RXC cleared, its interrupt gone', () => {
    const cpu = byteWaiting(false);
    expect(cpu.data[UCSRA]! & RXC).toBe(0);
    expect(cpu.nextInterrupt).not.toBe(rxCompleteInterrupt);
  });

  it('fixed, the byte still waits and its interrupt comes first', () => {
    const cpu = byteWaiting(true);
    expect(cpu.data[UCSRA]! & RXC).toBe(RXC);
    expect(cpu.nextInterrupt).toBe(rxCompleteInterrupt);
  });
});

describe('avr8js data-register-empty interrupt', () => {
  /** A USART whose transmitter is on and UDRIE set, with interrupts enabled. */
  function waitingSender(fixed: boolean): CPU {
    const cpu = new CPU(new Uint16Array(0x4000));
    const usart = new AVRUSART(cpu, usart0Config, 16_000_000);
    if (fixed) fixUsartFlags(cpu, usart, usart0Config);
    cpu.writeData(UCSRB, TXEN | UDRIE);
    cpu.data[95] = 0x80; // SREG: I
    expect(cpu.nextInterrupt).toBe(dataRegisterEmptyInterrupt);
    cpu.tick(); // the CPU takes it
    return cpu;
  }

  it('as shipped, taking the interrupt clears UDRE', () => {
    expect(waitingSender(false).data[UCSRA]! & UDRE).toBe(0);
  });

  it('fixed, UDRE stays set until UDR is written', () => {
    const cpu = waitingSender(true);
    expect(cpu.data[UCSRA]! & UDRE).toBe(UDRE);
    cpu.writeData(UDR, 0x41);
    expect(cpu.data[UCSRA]! & UDRE).toBe(0);
  });
});

describe('the transmitter', () => {
  /** Writes three bytes, each the first cycle UDRE is set again; the instants each stop bit
   * ends, the cycles UDRE was set, and when TXC came. */
  function sendThree(fixed: boolean): { ends: number[]; udre: number[]; txc: number; perChar: number } {
    const cpu = new CPU(new Uint16Array(0x4000));
    const usart = new AVRUSART(cpu, usart0Config, 16_000_000);
    fixUsartFlags(cpu, usart, usart0Config);
    const perChar = (usart as unknown as { cyclesPerChar: number }).cyclesPerChar;
    const ends: number[] = [];
    if (fixed) doubleBufferTransmitter(cpu, usart, usart0Config, (_b, end) => ends.push(end));
    // as avr8js reports a byte: once it is written, a character time from then
    else usart.onByteTransmit = () => ends.push(cpu.cycles + perChar);
    cpu.writeData(UCSRB, TXEN);
    const udre: number[] = [];
    let txc = -1;
    for (let i = 0; i < 3; i++) {
      while (!(cpu.data[UCSRA]! & UDRE)) {
        cpu.cycles++;
        cpu.tick();
      }
      udre.push(cpu.cycles);
      cpu.writeData(UDR, 0x41 + i);
    }
    while (txc < 0 && cpu.cycles < 10 * perChar) {
      cpu.cycles++;
      cpu.tick();
      if (cpu.data[UCSRA]! & TXC) txc = cpu.cycles;
    }
    return { ends, udre, txc, perChar };
  }

  it('as shipped, UDR stays full for a character: the second byte cannot follow the first at once', () => {
    const { udre, perChar } = sendThree(false);
    expect(udre[1]! - udre[0]!).toBeGreaterThanOrEqual(perChar);
  });

  it('double-buffered, UDR is free at once and the bytes leave back to back, TXC after the last', () => {
    const { ends, udre, txc, perChar } = sendThree(true);
    // the second byte is taken while the first is still on the line...
    expect(udre[1]! - udre[0]!).toBeLessThan(perChar / 10);
    // ...and each stop bit ends exactly one character after the one before
    expect(ends[1]! - ends[0]!).toBe(perChar);
    expect(ends[2]! - ends[1]!).toBe(perChar);
    // the third waits in UDR until the shift register takes it, when the first has left
    expect(udre[2]!).toBe(ends[0]!);
    expect(txc).toBe(ends[2]!);
  });
});
