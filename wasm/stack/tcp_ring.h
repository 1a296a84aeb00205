/* Byte rings for TCP's send and receive buffers, and the out-of-order range list.
 *
 * The send ring holds every byte from the oldest unacknowledged one onwards (sent but not
 * acknowledged, then not yet sent): segments are cut from it at output time, so a
 * retransmission simply re-reads the ring from snd_una (RFC 9293 3.8.1).
 *
 * The receive ring holds the bytes the application has not read yet, then free space.
 * Out-of-order data (RFC 9293 3.10.7.4: segments in the window but not next) is written
 * straight to its final place in that free space; struct tcp_ooo remembers which sequence
 * ranges past rcv_nxt are filled, and when the gap closes the bytes become readable in one
 * step (tcp_ring_commit), without copying them again.
 */
#ifndef STACK_TCP_RING_H
#define STACK_TCP_RING_H

#include <stdint.h>

#include "stack_opts.h"

struct tcp_ring {
    uint8_t *buf;
    uint32_t size;
    uint32_t head; /* index of the first byte held */
    uint32_t len;  /* bytes held, from head */
};

void tcp_ring_init(struct tcp_ring *r, uint8_t *buf, uint32_t size);

static inline uint32_t tcp_ring_free(const struct tcp_ring *r)
{
    return r->size - r->len;
}

/* Appends up to n bytes; returns how many fitted. */
uint32_t tcp_ring_write(struct tcp_ring *r, const uint8_t *src, uint32_t n);

/* Writes n bytes at `off` bytes past head, in the free space (off >= len and
 * off + n <= size), without making them readable. */
void tcp_ring_put_at(struct tcp_ring *r, uint32_t off, const uint8_t *src, uint32_t n);

/* Makes n more bytes (placed with tcp_ring_put_at) part of what is held. */
void tcp_ring_commit(struct tcp_ring *r, uint32_t n);

/* Copies n bytes starting `off` bytes past head; off + n <= len. */
void tcp_ring_peek(const struct tcp_ring *r, uint32_t off, uint8_t *dst, uint32_t n);

/* Drops the first n bytes held (n <= len). */
void tcp_ring_consume(struct tcp_ring *r, uint32_t n);

/* Copies and drops up to n bytes; returns how many. */
uint32_t tcp_ring_read(struct tcp_ring *r, uint8_t *dst, uint32_t n);

/* Sequence ranges [start, end) received past rcv_nxt, disjoint, not adjacent, sorted by
 * distance from rcv_nxt. */
struct tcp_ooo {
    uint32_t start[TCP_OOO_MAX_RANGES];
    uint32_t end[TCP_OOO_MAX_RANGES];
    uint8_t n;
};

/* Adds [s, e) (s after rcv_nxt, e - s > 0), merging with ranges it overlaps or touches.
 * Returns 0, or -1 when it would need a new range and all are in use (nothing changed). */
int tcp_ooo_add(struct tcp_ooo *q, uint32_t rcv_nxt, uint32_t s, uint32_t e);

/* rcv_nxt moved forward: removes the ranges it reached and returns the new rcv_nxt, past
 * the end of any range that starts at or before it. */
uint32_t tcp_ooo_advance(struct tcp_ooo *q, uint32_t rcv_nxt);

/* Sequence number just past the highest byte held (rcv_nxt when empty). */
uint32_t tcp_ooo_highest(const struct tcp_ooo *q, uint32_t rcv_nxt);

#endif
