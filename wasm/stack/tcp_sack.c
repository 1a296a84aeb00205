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

/* Sender (RFC 6675). The scoreboard, pcb->sb_l / sb_r, holds what the peer SACKed above
 * snd_una, as disjoint sorted ranges; a hole is a gap between them (or below the first,
 * or above the last up to snd_max). HighACK is snd_una, HighData snd_max, HighRxt is kept
 * as sack_rxt_high, just past the highest byte retransmitted in this recovery.
 *
 * Within one hole nothing is SACKed, so what is SACKed above any of its bytes is the same
 * for all of them: IsLost() is a property of the hole, and SetPipe() and NextSeg() walk
 * holes instead of octets. Choices beyond the RFC's letter:
 *  - IsLost's "DupThresh discontiguous SACKed sequences" counts scoreboard ranges above
 *    the sequence number; the byte rule ((DupThresh - 1) x SMSS) covers adjacent segments
 *    the receiver reported as one block.
 *  - NextSeg's rule 4 (the rescue retransmission) is not implemented: a lost last
 *    segment is left to the RTO, as before.
 *  - A full scoreboard forgets its highest range; a block it cannot hold is ignored. */

static uint32_t sb_total(const struct tcp_pcb *pcb)
{
    uint32_t t = 0;
    uint8_t i;
    for (i = 0; i < pcb->sb_n; i++)
        t += pcb->sb_r[i] - pcb->sb_l[i];
    return t;
}

static void sb_remove(struct tcp_pcb *pcb, uint8_t i)
{
    for (; i + 1u < pcb->sb_n; i++) {
        pcb->sb_l[i] = pcb->sb_l[i + 1];
        pcb->sb_r[i] = pcb->sb_r[i + 1];
    }
    pcb->sb_n--;
}

static void sb_add(struct tcp_pcb *pcb, uint32_t l, uint32_t r)
{
    uint8_t i = 0, pos;
    /* merge with every range it overlaps or touches */
    while (i < pcb->sb_n) {
        if (tcp_seq_lt(r, pcb->sb_l[i]) || tcp_seq_gt(l, pcb->sb_r[i])) {
            i++;
            continue;
        }
        if (tcp_seq_lt(pcb->sb_l[i], l))
            l = pcb->sb_l[i];
        if (tcp_seq_gt(pcb->sb_r[i], r))
            r = pcb->sb_r[i];
        sb_remove(pcb, i);
    }
    for (pos = 0; pos < pcb->sb_n && tcp_seq_lt(pcb->sb_l[pos], l); pos++) {
    }
    if (pcb->sb_n == TCP_SACK_SB_MAX) {
        if (pos == TCP_SACK_SB_MAX)
            return;
        pcb->sb_n--; /* forget the highest */
    }
    for (i = pcb->sb_n; i > pos; i--) {
        pcb->sb_l[i] = pcb->sb_l[i - 1];
        pcb->sb_r[i] = pcb->sb_r[i - 1];
    }
    pcb->sb_l[pos] = l;
    pcb->sb_r[pos] = r;
    pcb->sb_n++;
}

uint32_t tcp_sack_update(struct tcp_pcb *pcb, const struct tcp_opts *o)
{
    uint32_t before = sb_total(pcb), after;
    uint8_t b;
    for (b = 0; b < o->n_sack; b++) {
        uint32_t l = o->sack_l[b], r = o->sack_r[b];
        /* RFC 2018 3: a block names data the receiver holds above the cumulative ACK;
         * anything else (empty, reversed, already acknowledged, never sent) is ignored. */
        if (!tcp_seq_lt(l, r) || !tcp_seq_gt(r, pcb->snd_una) || tcp_seq_gt(r, pcb->snd_max))
            continue;
        if (tcp_seq_lt(l, pcb->snd_una))
            l = pcb->snd_una;
        sb_add(pcb, l, r);
    }
    after = sb_total(pcb);
    return after > before ? after - before : 0;
}

void tcp_sack_acked(struct tcp_pcb *pcb)
{
    while (pcb->sb_n && tcp_seq_leq(pcb->sb_r[0], pcb->snd_una))
        sb_remove(pcb, 0);
    if (pcb->sb_n && tcp_seq_lt(pcb->sb_l[0], pcb->snd_una))
        pcb->sb_l[0] = pcb->snd_una;
    if (tcp_seq_lt(pcb->sack_rxt_high, pcb->snd_una))
        pcb->sack_rxt_high = pcb->snd_una;
}

void tcp_sack_clear(struct tcp_pcb *pcb)
{
    pcb->sb_n = 0;
    pcb->sack_rec = 0;
}

/* RFC 6675 4, IsLost(SeqNum), for an unSACKed seq. */
int tcp_sack_is_lost(const struct host *h, const struct tcp_pcb *pcb, uint32_t seq)
{
    uint32_t n = 0, bytes = 0, t = HOST_CFG(h).tcp_dupack_thresh;
    uint8_t i;
    for (i = 0; i < pcb->sb_n; i++) {
        if (tcp_seq_gt(pcb->sb_l[i], seq)) {
            n++;
            bytes += pcb->sb_r[i] - pcb->sb_l[i];
        }
    }
    return n >= t || bytes > (t - 1u) * tcp_seg_max(h, pcb);
}

/* The i-th hole, [*a, *b), i from 0 to sb_n; 0 when it is empty. */
static int hole(const struct tcp_pcb *pcb, uint8_t i, uint32_t *a, uint32_t *b)
{
    *a = i == 0 ? pcb->snd_una : pcb->sb_r[i - 1];
    *b = i < pcb->sb_n ? pcb->sb_l[i] : pcb->snd_max;
    return tcp_seq_lt(*a, *b);
}

/* RFC 6675 4, SetPipe(): octets not SACKed and not lost count once, octets retransmitted
 * in this recovery once more. */
uint32_t tcp_sack_pipe(const struct host *h, const struct tcp_pcb *pcb)
{
    uint32_t pipe = 0, a, b;
    uint8_t i;
    for (i = 0; i <= pcb->sb_n; i++) {
        if (!hole(pcb, i, &a, &b))
            continue;
        if (!tcp_sack_is_lost(h, pcb, a))
            pipe += b - a;
        if (tcp_seq_lt(a, pcb->sack_rxt_high))
            pipe += (tcp_seq_lt(b, pcb->sack_rxt_high) ? b : pcb->sack_rxt_high) - a;
    }
    return pipe;
}

/* RFC 6675 4, NextSeg() rule 1 (lost = 1) or rule 3 (lost = 0): the first unSACKed
 * octet past HighRxt that is lost (rule 1), or any (rule 3), and how much of its hole
 * one segment takes. Returns 0 when there is none. */
int tcp_sack_next_hole(const struct host *h, const struct tcp_pcb *pcb, int lost, uint32_t *seq,
                       uint32_t *len)
{
    uint32_t a, b,
        from = tcp_seq_gt(pcb->sack_rxt_high, pcb->snd_una) ? pcb->sack_rxt_high : pcb->snd_una;
    uint32_t smss = tcp_seg_max(h, pcb);
    uint8_t i;
    for (i = 0; i <= pcb->sb_n; i++) {
        if (!hole(pcb, i, &a, &b) || tcp_seq_leq(b, from))
            continue;
        if (lost && !tcp_sack_is_lost(h, pcb, a))
            return 0; /* holes further up have even less SACKed above them */
        if (tcp_seq_lt(a, from))
            a = from;
        *seq = a;
        *len = b - a < smss ? b - a : smss;
        return 1;
    }
    return 0;
}

#if STACK_SACK
/* Loss recovery with the scoreboard (RFC 6675 5): entered on DupThresh duplicates or when
 * IsLost says so, left when the cumulative ACK reaches RecoveryPoint. */
void tcp_cc_sack_dupack(struct host *h, struct tcp_pcb *pcb)
{
    struct tcp_cc before = pcb->cc;
    uint8_t t = HOST_CFG(h).tcp_dupack_thresh;
    if (pcb->sack_rec)
        return; /* in recovery the pipe, not a count, decides what is sent */
    if (pcb->cc.dupacks < 0xFFu)
        pcb->cc.dupacks++;
    tcp_trace(h, pcb, TRACE_DUPACK, pcb->snd_una, pcb->cc.dupacks, 0, 0);
    /* RFC 6675 5 steps 1-2: DupThresh duplicates, or IsLost(HighACK + 1). RFC 6675 5.1:
     * after an RTO during loss recovery, not before HighACK reaches the RecoveryPoint the
     * RTO set (cc.recover; rto_hold clears then). An RTO outside recovery does not hold
     * it back: the scoreboard tells new losses from the go-back-N re-sends. */
    if (!pcb->cc.rto_hold)
        pcb->sack_rto_hold = 0;
    if (pcb->sack_rto_hold || (pcb->cc.dupacks < t && !tcp_sack_is_lost(h, pcb, pcb->snd_una)))
        return;
    /* Step 4: RecoveryPoint = HighData, ssthresh = cwnd = FlightSize / 2, retransmit the
     * first segment (tcp_output: retx_pending, which sets HighRxt). */
    tcp_cc_on_sack_loss(&pcb->cc, &HOST_CFG(h), tcp_seg_max(h, pcb), pcb->snd_max,
                        pcb->snd_max - pcb->snd_una);
    tcp_cc_trace_change(h, pcb, &before, pcb->snd_una);
    pcb->sack_rec = 1;
    pcb->sack_recover = pcb->snd_max;
    pcb->sack_rxt_high = pcb->snd_una;
    pcb->retx_pending = TCP_RETX_FAST;
    /* Going back N after an RTO stops here: from now on the scoreboard chooses what is
     * re-sent (NextSeg), so snd_nxt returns to the highest sequence number sent. */
    pcb->snd_nxt = pcb->snd_max;
}

void tcp_cc_sack_exit(struct host *h, struct tcp_pcb *pcb, uint32_t ack)
{
    struct tcp_cc before = pcb->cc;
    tcp_cc_on_sack_exit(&pcb->cc);
    pcb->sack_rec = 0;
    tcp_cc_trace_change(h, pcb, &before, ack);
}
#endif /* STACK_SACK */
