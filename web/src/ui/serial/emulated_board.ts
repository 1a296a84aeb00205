// An Arduino Uno in software: avr8js runs the echo firmware's machine code on an ATmega328P
// at 16 MHz, with the peripherals the firmware uses (timer 0 for micros(), USART0 for the
// SLIP line). Time is the board's own, in CPU cycles: the caller says how far to run, so the
// same bytes in at the same instants give the same bytes out, in a test or paced to the wall
// clock in the page's worker (board_worker.ts).
//
// The serial line is modelled at the UART's own rate (UBRR 16 = 58 823 baud, 10 bits a
// character): bytes handed to receive() enter the pin back to back, one character time each,
// and each byte the firmware sends is reported with the instant its stop bit ends.
import { AVRTimer, AVRUSART, CPU, avrInstruction, timer0Config, timer1Config, timer2Config, usart0Config } from 'avr8js';
import { parseIntelHex } from './intel_hex.ts';
import { doubleBufferTransmitter, fixUsartFlags } from './usart_fix.ts';

export const UNO_HZ = 16_000_000;
const SLEEP_OPCODE = 0x9588;
const SEI_OPCODE = 0x9478;
const SMCR = 0x53;
const SMCR_SE = 0x01;
const FLASH_BYTES = 32 * 1024;
const SRAM_BYTES = 2048;

export class EmulatedBoard {
  readonly cpu: CPU;
  readonly usart: AVRUSART;
  /** bytes waiting to enter the RX pin */
  private rxQueue: number[] = [];
  private rxHead = 0;
  /** bytes the firmware sent, each with the microsecond its last bit left the pin */
  private txOut: { byte: number; atUs: number }[] = [];
  /** bytes that entered the USART, for the caller's accounting */
  rxDelivered = 0;

  constructor(hexText: string) {
    const flash = parseIntelHex(hexText, FLASH_BYTES);
    this.cpu = new CPU(new Uint16Array(flash.buffer), SRAM_BYTES);
    // The timers count even when the firmware leaves 1 and 2 alone, as on the chip.
    new AVRTimer(this.cpu, timer0Config);
    new AVRTimer(this.cpu, timer1Config);
    new AVRTimer(this.cpu, timer2Config);
    this.usart = new AVRUSART(this.cpu, usart0Config, UNO_HZ);
    fixUsartFlags(this.cpu, this.usart, usart0Config);
    doubleBufferTransmitter(this.cpu, this.usart, usart0Config, (byte, endCycles) => {
      this.txOut.push({ byte, atUs: endCycles / (UNO_HZ / 1e6) });
    });
    // The next byte starts on the pin the moment the previous one is in (back to back).
    this.usart.onRxComplete = () => {
      this.rxDelivered++;
      this.feedRx();
    };
    // Bytes that came before the firmware turned its receiver on go in once it does.
    this.usart.onConfigurationChange = () => this.feedRx();
  }

  /** The board's clock, in microseconds since reset. */
  get timeUs(): number {
    return this.cpu.cycles / (UNO_HZ / 1e6);
  }

  /** The line rate the firmware set up, in bit/s. */
  get baud(): number {
    return this.usart.baudRate;
  }

  /** Bytes arriving on the RX pin from now on, after any still queued. */
  receive(bytes: Uint8Array): void {
    for (const b of bytes) this.rxQueue.push(b);
    this.feedRx();
  }

  /** Bytes queued for the RX pin that have not entered the USART yet. */
  get rxPending(): number {
    return this.rxQueue.length - this.rxHead;
  }

  private feedRx(): void {
    if (this.rxHead >= this.rxQueue.length || this.usart.rxBusy) return;
    // writeByte refuses while the receiver is off (before the firmware's setup): the byte
    // waits, as it would in the USB bridge's buffer.
    if (this.usart.writeByte(this.rxQueue[this.rxHead]!)) this.rxHead++;
    if (this.rxHead === this.rxQueue.length) {
      this.rxQueue = [];
      this.rxHead = 0;
    }
  }

  /** Runs the CPU to the given board time. */
  runUntilUs(us: number): void {
    const target = us * (UNO_HZ / 1e6);
    const cpu = this.cpu;
    while (cpu.cycles < target) {
      let op = cpu.progMem[cpu.pc];
      if (op === SEI_OPCODE) {
        // The instruction after SEI runs before any interrupt (ATmega328P datasheet 7.7),
        // which is what makes "sei; sleep" safe; avr8js would take a pending one first,
        // and the CPU would then sleep through the event it was waiting for.
        avrInstruction(cpu);
        op = cpu.progMem[cpu.pc];
      }
      const sleeps = op === SLEEP_OPCODE && (cpu.data[SMCR]! & SMCR_SE) !== 0;
      avrInstruction(cpu);
      const pc = cpu.pc;
      cpu.tick();
      // An interrupt taken as SLEEP executes wakes the CPU at once: its handler runs now.
      // Sleeping from inside it (interrupts off) would freeze the handler until the
      // target, and the UART's next byte would overwrite the one it was to read.
      if (sleeps && cpu.pc === pc) this.sleep(target);
    }
  }

  /** SLEEP with SE set (avr8js runs it as a no-op): the CPU stops, the clock events (timers,
   * the USART's characters) go on, and the first interrupt wakes it. */
  private sleep(target: number): void {
    const cpu = this.cpu;
    const events = cpu as unknown as { nextClockEvent: { cycles: number } | null };
    while (cpu.cycles < target) {
      if (cpu.interruptsEnabled && cpu.nextInterrupt >= 0) return; // the next tick takes it
      cpu.cycles = Math.min(target, Math.max(cpu.cycles + 1, events.nextClockEvent?.cycles ?? target));
      const pc = cpu.pc;
      cpu.tick();
      if (cpu.pc !== pc) return; // an interrupt was taken: awake, its handler runs now
    }
  }

  /** The bytes sent since the last call, in order, with the instant each was complete. */
  takeTransmitted(): { byte: number; atUs: number }[] {
    const out = this.txOut;
    this.txOut = [];
    return out;
  }
}
