/* The Uno's UART as a SLIP link (RFC 1055) for the stack: received bytes go into a ring
 * from the receive interrupt; frames leave byte by byte, the sender waiting on the UART
 * and meanwhile handing what has left of the datagram to the receiver (frame_rx.h).
 * The core's HardwareSerial (Serial) is not used: its two 64-byte buffers would cost
 * RAM the stack needs, and sending needs no buffer here (see serial_link_output). */
#ifndef SERIAL_LINK_H
#define SERIAL_LINK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 8N1 at ECHO_BAUD, receive interrupt on. */
void serial_link_init(void);

/* The next received byte: 1 and *b, or 0 when none is waiting. */
uint8_t serial_link_read(uint8_t *b);

/* Bytes in the receive ring, not read yet. */
uint8_t serial_link_waiting(void);

/* Stops the CPU until the next interrupt when no received byte is waiting (idle mode):
 * a received byte or timer 0's tick (every 1.024 ms) wakes it. */
void serial_link_idle(void);

/* Called while the sender waits for the UART, with the part of the datagram not sent yet
 * (unsent[0 .. left)); returns how many received bytes it took from the ring (0: the
 * sender may sleep until the next interrupt). */
typedef uint16_t (*serial_link_wait_fn)(const uint8_t *unsent, uint16_t left);

struct serial_link_tx {
    serial_link_wait_fn wait;
    const uint8_t *unsent; /* of the datagram being sent: its bytes not sent yet */
    uint16_t left;
};

/* netif_output_fn, with ctx a struct serial_link_tx: sends one datagram as a SLIP frame
 * and returns when its last byte is in the UART. */
int serial_link_output(void *ctx, uint8_t netif, const uint8_t *dgram, uint16_t len);

#ifdef __cplusplus
}
#endif

#endif
