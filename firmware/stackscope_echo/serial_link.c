/* UART0 of the ATmega328P as a SLIP link. */
#include "serial_link.h"

#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>

#include "echo_config.h"
#include "src/stack/slip.h"

#if ECHO_RX_RING > 256 || (ECHO_RX_RING & (ECHO_RX_RING - 1)) != 0
#error "ECHO_RX_RING must be a power of two up to 256"
#endif

/* Written by the interrupt (head, overruns) or by the main loop (tail) only; single
 * bytes, so each side reads the other's index atomically. */
static volatile uint8_t rx_ring[ECHO_RX_RING];
static volatile uint8_t rx_head, rx_tail;
static volatile uint16_t rx_overruns;

ISR(USART_RX_vect)
{
    uint8_t b = UDR0;
    uint8_t next = (uint8_t)((rx_head + 1u) & (ECHO_RX_RING - 1u));
    if (next == rx_tail) {
        rx_overruns++; /* the frame it belonged to fails its checksum and is resent */
        return;
    }
    rx_ring[rx_head] = b;
    rx_head = next;
}

void serial_link_init(void)
{
    UBRR0H = (uint8_t)(ECHO_UBRR >> 8);
    UBRR0L = (uint8_t)ECHO_UBRR;
    /* No double speed (a bootloader may have left it on). A plain write of 0, not a
     * read-modify-write: UDRE0 is read-only on the chip, but simavr treats a 1 written
     * there as "clear the flag". */
    UCSR0A = 0;
    UCSR0C = (uint8_t)(_BV(UCSZ01) | _BV(UCSZ00));  /* 8 data bits, no parity, 1 stop */
    UCSR0B = (uint8_t)(_BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0));
}

uint8_t serial_link_read(uint8_t *b)
{
    uint8_t tail = rx_tail;
    if (tail == rx_head)
        return 0;
    *b = rx_ring[tail];
    rx_tail = (uint8_t)((tail + 1u) & (ECHO_RX_RING - 1u));
    return 1;
}

/* Idle mode (ATmega328P datasheet 10.1, 10.5) stops the CPU and keeps the UART and the
 * timers running: nothing is late by more than timer 0's tick, which the stack's timers
 * are no finer than. It draws less current on a board, and lets the emulated board skip
 * the time instead of running the empty loop. Interrupts are off from the check to SLEEP:
 * the instruction after SEI runs before any interrupt, so a byte that arrives between
 * the check and SLEEP wakes the CPU rather than waiting for the next tick. */
void serial_link_idle(void)
{
    cli();
    if (rx_head == rx_tail) {
        set_sleep_mode(SLEEP_MODE_IDLE);
        sleep_enable();
        sei();
        sleep_cpu();
        sleep_disable();
    }
    sei();
}

uint16_t serial_link_overruns(void)
{
    uint16_t n;
    cli();
    n = rx_overruns;
    sei();
    return n;
}

/* Set once the first byte went out. Until then the transmitter is idle and the byte is
 * written without looking at UDRE0: simavr 1.6 clears that flag when the Arduino core's
 * init() writes 0 to UCSR0B, and sets it again only after a byte was sent. */
static uint8_t tx_started;

/* The data register emptied: the sender sleeping in put() wakes (any interrupt wakes it;
 * this one only has to stop itself, or it would fire again at once). */
ISR(USART_UDRE_vect)
{
    UCSR0B &= (uint8_t)~_BV(UDRIE0);
}

/* Waits for the UART asleep (idle mode, as serial_link_idle): a byte takes 170 us at
 * 58823 baud, 2720 CPU cycles that the CPU need not spend polling UDRE0. Interrupts are
 * off between the check and SLEEP, as there. */
static void put(void *ctx, uint8_t b)
{
    (void)ctx;
    cli();
    while (tx_started && !(UCSR0A & _BV(UDRE0))) {
        UCSR0B |= _BV(UDRIE0);
        set_sleep_mode(SLEEP_MODE_IDLE);
        sleep_enable();
        sei();
        sleep_cpu();
        sleep_disable();
        cli(); /* the receive interrupt keeps filling the ring meanwhile */
    }
    sei();
    UDR0 = b;
    tx_started = 1;
}

int serial_link_output(void *ctx, uint8_t netif, const uint8_t *dgram, uint16_t len)
{
    (void)ctx;
    (void)netif;
    /* The leading END ends any line noise as a frame of its own (RFC 1055), at the cost
     * of one byte time. The stack reuses its buffer once this returns: sending from it
     * directly, without a copy, is why this waits for the UART. */
    slip_encode_stream(dgram, len, 1, put, 0);
    return 0;
}
