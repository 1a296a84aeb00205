// Two faults of avr8js 0.21.1's USART, mended here as the chip behaves (ATmega328P
// datasheet, 20.11.2 and 20.11.3):
// - It loses received bytes (../shared/notes/toolchain.md): its write hooks treat UCSRA's
//   read-only flags as writable, so writing UCSRA clears RXC (and UDRE), and writing UCSRB
//   with the receiver on drops the pending receive interrupt. Arduino's HardwareSerial
//   writes both while a byte may be waiting, and the next byte then overwrites the unread
//   one. On the chip RXC and UDRE change only by reading or writing UDR and by the
//   transmitter; a pending receive complete interrupts as soon as RXCIE allows.
// - Taking the data-register-empty interrupt clears UDRE, so a sender that waits for it
//   (with UDRIE, as HardwareSerial and the echo firmware do) sees the register full
//   forever. On the chip UDRE stays set, and interrupts, until UDR is written.
import type { AVRUSART, CPU, usart0Config } from 'avr8js';

type USARTConfig = typeof usart0Config;

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
