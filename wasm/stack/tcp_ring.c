#include "tcp_ring.h"

#include <string.h>

void tcp_ring_init(struct tcp_ring *r, uint8_t *buf, uint32_t size)
{
    r->buf = buf;
    r->size = size;
    r->head = 0;
    r->len = 0;
}

/* Index in buf of the byte `off` past head. */
static uint32_t ring_index(const struct tcp_ring *r, uint32_t off)
{
    uint32_t i = r->head + off;
    return i >= r->size ? i - r->size : i;
}

static void ring_copy_in(struct tcp_ring *r, uint32_t off, const uint8_t *src, uint32_t n)
{
    uint32_t i = ring_index(r, off);
    uint32_t first = r->size - i;
    if (first > n)
        first = n;
    memcpy(r->buf + i, src, first);
    if (n > first)
        memcpy(r->buf, src + first, n - first);
}

uint32_t tcp_ring_write(struct tcp_ring *r, const uint8_t *src, uint32_t n)
{
    uint32_t room = tcp_ring_free(r);
    if (n > room)
        n = room;
    if (n == 0)
        return 0;
    ring_copy_in(r, r->len, src, n);
    r->len += n;
    return n;
}

void tcp_ring_put_at(struct tcp_ring *r, uint32_t off, const uint8_t *src, uint32_t n)
{
    if (n == 0 || off > r->size || n > r->size - off)
        return;
    ring_copy_in(r, off, src, n);
}

void tcp_ring_commit(struct tcp_ring *r, uint32_t n)
{
    if (n > tcp_ring_free(r))
        n = tcp_ring_free(r);
    r->len += n;
}

void tcp_ring_peek(const struct tcp_ring *r, uint32_t off, uint8_t *dst, uint32_t n)
{
    uint32_t i, first;
    if (n == 0 || off > r->len || n > r->len - off)
        return;
    i = ring_index(r, off);
    first = r->size - i;
    if (first > n)
        first = n;
    memcpy(dst, r->buf + i, first);
    if (n > first)
        memcpy(dst + first, r->buf, n - first);
}

void tcp_ring_consume(struct tcp_ring *r, uint32_t n)
{
    if (n > r->len)
        n = r->len;
    r->head = ring_index(r, n);
    r->len -= n;
    /* head stays where it is even when the ring empties: out-of-order data may sit past
     * the end, placed relative to head (tcp_ring_put_at). */
}

uint32_t tcp_ring_read(struct tcp_ring *r, uint8_t *dst, uint32_t n)
{
    if (n > r->len)
        n = r->len;
    tcp_ring_peek(r, 0, dst, n);
    tcp_ring_consume(r, n);
    return n;
}

/* Distance of sequence number s past rcv_nxt (wrap-safe, RFC 9293 3.4). */
static uint32_t rel(uint32_t rcv_nxt, uint32_t s)
{
    return s - rcv_nxt;
}

int tcp_ooo_add(struct tcp_ooo *q, uint32_t rcv_nxt, uint32_t s, uint32_t e)
{
    uint32_t rs = rel(rcv_nxt, s), re = rel(rcv_nxt, e);
    uint8_t i, j, first, last;

    /* ranges [first, last) overlap or touch [s, e) */
    first = 0;
    while (first < q->n && rel(rcv_nxt, q->end[first]) < rs)
        first++;
    last = first;
    while (last < q->n && rel(rcv_nxt, q->start[last]) <= re)
        last++;
    if (first == last) {
        /* a new range at position `first` */
        if (q->n >= TCP_OOO_MAX_RANGES)
            return -1;
        for (j = q->n; j > first; j--) {
            q->start[j] = q->start[j - 1];
            q->end[j] = q->end[j - 1];
        }
        q->start[first] = s;
        q->end[first] = e;
        q->n++;
        return 0;
    }
    /* merge ranges first..last-1 with [s, e) into range `first` */
    if (rel(rcv_nxt, q->start[first]) < rs)
        s = q->start[first];
    if (rel(rcv_nxt, q->end[last - 1]) > re)
        e = q->end[last - 1];
    q->start[first] = s;
    q->end[first] = e;
    for (i = (uint8_t)(first + 1), j = last; j < q->n; i++, j++) {
        q->start[i] = q->start[j];
        q->end[i] = q->end[j];
    }
    q->n = (uint8_t)(q->n - (last - first - 1));
    return 0;
}

uint32_t tcp_ooo_advance(struct tcp_ooo *q, uint32_t rcv_nxt)
{
    while (q->n > 0 && (int32_t)(q->start[0] - rcv_nxt) <= 0) {
        uint8_t j;
        if ((int32_t)(q->end[0] - rcv_nxt) > 0)
            rcv_nxt = q->end[0];
        for (j = 1; j < q->n; j++) {
            q->start[j - 1] = q->start[j];
            q->end[j - 1] = q->end[j];
        }
        q->n--;
    }
    return rcv_nxt;
}

uint32_t tcp_ooo_highest(const struct tcp_ooo *q, uint32_t rcv_nxt)
{
    return q->n ? q->end[q->n - 1] : rcv_nxt;
}
