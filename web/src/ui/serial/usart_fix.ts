// Three faults of avr8js 0.21.1's USART, mended here as the chip behaves (ATmega328P
// datasheet, 20.6 and 20.11):
// - It loses received bytes (../shared/notes/toolchain.md): its write hooks treat UCSRA's
//   read-only flags as writable, so writing UCSRA clears RXC (and UDRE), and writing UCSRB
//   with the receiver on drops the pending receive interrupt. Arduino's HardwareSerial
//   writes both while a byte may be waiting, and the next byte then overwrites the unread
//   one. On the chip RXC and UDRE change only by reading or writing UDR and by the
//   transmitter; a pending receive complete interrupts as soon as RXCIE allows.
// - Taking the data-register-empty interrupt clears UDRE, so a sender that waits for it
//   (with UDRIE, as HardwareSerial and the echo firmware do) sees the register full
//   forever. On the chip UDRE stays set, and interrupts, until UDR is written.
// - Its transmitter has no shift register: UDR stays full for a whole character after it
//   is written, so a sender that refills it on UDRE leaves a gap between characters (the
//   time to wake and write, 6 us for the echo firmware: 3.5 % of the line). On the chip
//   (20.6.3) UDR's byte moves into the shift register as soon as that is empty, UDR is
//   free again at once, and a sender that keeps it filled sends back to back.
import type { AVRUSART, CPU, usart0Config } from 'avr8js';

type USARTConfig = typeof usart0Config;
type InterruptConfig = Parameters<CPU['setInterruptFlag']>[0];
/** What avr8js keeps private in its USART and the transmitter needs. */
type UsartInternals = { UDRE: InterruptConfig; TXC: InterruptConfig; cyclesPerChar: number };

const UCSRA_RXC = 0x80;
const UCSRA_UDRE = 0x20;
const UCSRB_RXCIE = 0x80;

/** Call after the AVRUSART is built: it wraps the hooks that one installed. */
export function fixUsartFlags(cpu: CPU, usart: AVRUSART, config: USARTConfig): void {
  // The interrupt's description is the USART's own object, which the CPU consults when it
  // takes the interrupt: a constant one keeps its flag.
  (usart as unknown as { UDRE: { constant?: boolean } }).UDRE.constant = true;
  const rxComplete = {
    address: config.rxCompleteInterrupt,
    flagRegister: config.UCSRA,
    flagMask: UCSRA_RXC,
    enableRegister: config.UCSRB,
    enableMask: UCSRB_RXCIE,
    constant: true,
  };
  const writeA = cpu.writeHooks[config.UCSRA]!;
  cpu.writeHooks[config.UCSRA] = (value, oldValue, addr, mask) => {
    const readOnly = cpu.data[config.UCSRA]! & (UCSRA_RXC | UCSRA_UDRE);
    const handled = writeA(value, oldValue, addr, mask);
    cpu.data[config.UCSRA] = cpu.data[config.UCSRA]! | readOnly;
    return handled;
  };
  const writeB = cpu.writeHooks[config.UCSRB]!;
  cpu.writeHooks[config.UCSRB] = (value, oldValue, addr, mask) => {
    const pending = cpu.data[config.UCSRA]! & UCSRA_RXC;
    const handled = writeB(value, oldValue, addr, mask);
    if (pending) {
      cpu.data[config.UCSRA] = cpu.data[config.UCSRA]! | UCSRA_RXC;
      cpu.updateInterruptEnable(rxComplete, value);
    }
    return handled;
  };
}

/** The chip's double-buffered transmitter (datasheet 20.6.3): a byte written to UDR waits
 * there while the shift register sends the one before, UDRE is set the moment it moves
 * on, TXC when the shift register runs empty. `sent` gets each byte with the cycle its
 * stop bit ends. Replaces avr8js's UDR write hook (and so its onByteTransmit). */
export function doubleBufferTransmitter(cpu: CPU, usart: AVRUSART, config: USARTConfig, sent: (byte: number, endCycles: number) => void): void {
  const internals = usart as unknown as UsartInternals;
  const { UDRE, TXC } = internals;
  let shiftEmptyAt = 0;
  cpu.writeHooks[config.UDR] = (value) => {
    const start = Math.max(cpu.cycles, shiftEmptyAt);
    const end = start + internals.cyclesPerChar;
    shiftEmptyAt = end;
    sent(value, end);
    cpu.clearInterrupt(UDRE);
    cpu.clearInterrupt(TXC);
    // UDR empties as its byte moves into the shift register: now, or when that is free
    cpu.addClockEvent(() => cpu.setInterruptFlag(UDRE), Math.max(1, start - cpu.cycles));
    cpu.addClockEvent(() => {
      if (shiftEmptyAt === end) cpu.setInterruptFlag(TXC); // nothing followed it
    }, end - cpu.cycles);
  };
}
