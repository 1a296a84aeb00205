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
 * bytes, so each side reads the other's index atomically. rx_overruns is for looking in
 * (stackscope-simavr --peek rx_overruns): bytes lost because the ring was full. */
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
    UCSR0C = (uint8_t)(_BV(UCSZ01) | _BV(UCSZ00)); /* 8 data bits, no parity, 1 stop */
    UCSR0B = (uint8_t)(_BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0));
}

uint8_t serial_link_waiting(void)
{
    return (uint8_t)((rx_head - rx_tail) & (ECHO_RX_RING - 1u));
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

/* Waits for the UART: a byte takes 170 us at 58823 baud, 2720 CPU cycles. Meanwhile the
 * receiver decodes what came in (tx->wait); when it has nothing to take, the CPU sleeps in
 * idle mode (as serial_link_idle) until the UART or a received byte wakes it. Interrupts
 * are off between the last check and SLEEP, as there. */
static void put(void *ctx, uint8_t b)
{
    struct serial_link_tx *tx = ctx;
    for (;;) {
        cli();
        if (!tx_started || (UCSR0A & _BV(UDRE0)))
            break;
        if (rx_head != rx_tail) {
            sei();
            if (tx->wait(tx->unsent, tx->left))
                continue;
            cli();
            if (UCSR0A & _BV(UDRE0))
                break;
        }
        UCSR0B |= _BV(UDRIE0);
        set_sleep_mode(SLEEP_MODE_IDLE);
        sleep_enable();
        sei();
        sleep_cpu();
        sleep_disable();
    }
    sei();
    UDR0 = b;
    tx_started = 1;
}

int serial_link_output(void *ctx, uint8_t netif, const uint8_t *dgram, uint16_t len)
{
    struct serial_link_tx *tx = ctx;
    uint16_t i;
    (void)netif;
    /* The leading END ends any line noise as a frame of its own (RFC 1055), at the cost
     * of one byte time. The stack reuses its buffer once this returns: sending from it
     * directly, without a copy, is why this waits for the UART. */
    tx->unsent = dgram;
    tx->left = len;
    slip_put_end(put, tx);
    for (i = 0; i < len; i++) {
        /* dgram[i] is read before its bytes go out: its place is free from now on. */
        tx->unsent = dgram + i + 1;
        tx->left = (uint16_t)(len - i - 1u);
        slip_put_data(dgram + i, 1, put, tx);
    }
    slip_put_end(put, tx);
    return 0;
}
