/* Selective acknowledgments (RFC 2018) and SACK-based loss recovery (RFC 6675).
 *
 * Receiver: the SACK blocks an ACK carries are the out-of-order ranges the receive ring
 * holds (struct tcp_ooo). RFC 2018 4: the first block holds the segment that triggered
 * the ACK, the others repeat the most recently reported ones. pcb->sack_recent keeps one
 * sequence number inside each range, most recently received first; ranges merge as holes
 * fill, so the blocks are looked up from these numbers each time an ACK is built.
 *
 * Sender: see the second half of this file. */
#include <string.h>

#include "bytes.h"
#include "tcp_pcb.h"

#if STACK_SACK

/* Index of the out-of-order range holding seq, or -1. */
static int ooo_range_of(const struct tcp_ooo *q, uint32_t seq)
{
    uint8_t i;
    for (i = 0; i < q->n; i++)
        if (tcp_seq_leq(q->start[i], seq) && tcp_seq_lt(seq, q->end[i]))
            return i;
    return -1;
}

void tcp_sack_note_ooo(struct tcp_pcb *pcb, uint32_t seq)
{
    uint32_t keep[TCP_OOO_MAX_RANGES];
    uint8_t i, n = 0;
    int r = ooo_range_of(&pcb->ooo, seq);
    if (r < 0)
        return;
    keep[n++] = seq;
    for (i = 0; i < pcb->sack_recent_n && n < TCP_OOO_MAX_RANGES; i++) {
        int ri = ooo_range_of(&pcb->ooo, pcb->sack_recent[i]);
        uint8_t j, dup = 0;
        if (ri < 0 || ri == r)
            continue; /* delivered, or now part of the newest block */
        for (j = 1; j < n; j++)
            if (ooo_range_of(&pcb->ooo, keep[j]) == ri)
                dup = 1; /* two earlier blocks merged */
        if (!dup)
            keep[n++] = pcb->sack_recent[i];
    }
    memcpy(pcb->sack_recent, keep, n * sizeof keep[0]);
    pcb->sack_recent_n = n;
}

uint8_t tcp_sack_blocks(const struct tcp_pcb *pcb, uint32_t *l, uint32_t *r, uint8_t max)
{
    uint8_t used[TCP_OOO_MAX_RANGES];
    uint8_t i, n = 0;
    if (!pcb->sack_ok || pcb->ooo.n == 0)
        return 0;
    memset(used, 0, sizeof used);
    for (i = 0; i < pcb->sack_recent_n && n < max; i++) {
        int ri = ooo_range_of(&pcb->ooo, pcb->sack_recent[i]);
        if (ri < 0 || used[ri])
            continue;
        used[ri] = 1;
        l[n] = pcb->ooo.start[ri];
        r[n] = pcb->ooo.end[ri];
        n++;
    }
    /* Ranges not in the list (none, unless it was cut short), nearest first. */
    for (i = 0; i < pcb->ooo.n && n < max; i++) {
        if (used[i])
            continue;
        l[n] = pcb->ooo.start[i];
        r[n] = pcb->ooo.end[i];
        n++;
    }
    return n;
}

uint16_t tcp_sack_write(const struct tcp_pcb *pcb, uint8_t *p, uint16_t room)
{
    uint32_t l[TCP_SACK_MAX_BLOCKS], r[TCP_SACK_MAX_BLOCKS];
    uint8_t max, n, i;
    if (room < 4u + 8u)
        return 0;
    max = (uint8_t)((room - 4u) / 8u);
    if (max > TCP_SACK_MAX_BLOCKS)
        max = TCP_SACK_MAX_BLOCKS;
    n = tcp_sack_blocks(pcb, l, r, max);
    if (n == 0)
        return 0;
    /* NOP, NOP, kind 5, length 2 + 8 n, then the blocks (RFC 2018 3). */
    p[0] = 1;
    p[1] = 1;
    p[2] = 5;
    p[3] = (uint8_t)(2u + 8u * n);
    for (i = 0; i < n; i++) {
        wr32(p + 4 + 8u * i, l[i]);
        wr32(p + 8 + 8u * i, r[i]);
    }
    return (uint16_t)(4u + 8u * n);
}

#endif /* STACK_SACK */
