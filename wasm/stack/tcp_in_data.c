/* TCP input, second half: the ACK field (RFC 9293 3.10.7.4 fifth check, with RFC 6298 RTT
 * sampling and RFC 5681 / 6582 duplicate-ACK handling), the segment text with the
 * out-of-order queue and the delayed-ACK decision (seventh check), the FIN (eighth), and
 * RFC 7323 timestamps. */
#include "tcp_pcb.h"

static void drop(struct host *h, enum drop_reason why, const struct tcp_seg *seg)
{
    host_drop(h, why, IP_PROTO_TCP, (uint16_t)(TCP_HLEN + seg->len));
}

void tcp_ts_rtt(struct host *h, struct tcp_pcb *pcb, uint32_t ts_ecr, uint16_t dgram_len)
{
    /* RFC 7323 4.1: RTT = now - TSecr, on the TSval clock (milliseconds). */
    uint32_t rtt_ms = h->tcp.clk_ms - ts_ecr, rtt_us, ticks = 0;
    if (rtt_ms > 0x7FFFFFFFu / 1000u)
        return; /* an echo from the future or from long ago: no sample */
    rtt_us = rtt_ms * 1000u;
    if (HOST_CFG(h).tcp_timer_tick_ms) {
        /* floor(now / T) - floor((now - rtt) / T), with now = slow_at + r */
        uint32_t T = STACK_MS(HOST_CFG(h).tcp_timer_tick_ms), r = h->now - h->tcp.slow_at;
        ticks = rtt_us > r ? (rtt_us - r + T - 1u) / T : 0;
    }
    tcp_rtt_sample(h, pcb, rtt_us, ticks, dgram_len, 1);
}

int tcp_process_ts(struct host *h, struct tcp_pcb *pcb, const struct tcp_seg *seg)
{
    if (!pcb->ts_ok || !seg->opts.has_ts)
        return 0;
    /* RFC 7323 5.3 R1, PAWS: a TSval older than TS.Recent marks an old duplicate (not
     * applied to resets, RFC 7323 5.3 and 5.2). */
    if (!(seg->flags & TCP_RST) && tcp_seq_lt(seg->opts.ts_val, pcb->ts_recent)) {
        drop(h, DROP_TCP_PAWS, seg);
        tcp_ack_now(h, pcb);
        return -1;
    }
    /* R3: TS.Recent follows segments that reach the left edge of the window. */
    if (tcp_seq_leq(seg->seq, pcb->last_ack_sent))
        pcb->ts_recent = seg->opts.ts_val;
    return 0;
}

static int fin_acked(const struct tcp_pcb *pcb)
{
    return pcb->fin_queued && pcb->snd_una == pcb->snd_buf_seq + pcb->snd.len + 1u;
}

static void enter_time_wait(struct host *h, struct tcp_pcb *pcb)
{
    tcp_rto_stop(h, pcb);
    tcp_persist_stop(pcb);
    tcp_set_state(h, pcb, TCP_TIME_WAIT);
    tcp_timewait_start(h, pcb);
}

/* SACK's part of an ACK that advances snd_una: the scoreboard forgets what it passed and,
 * in loss recovery, RFC 6675 5: a cumulative ACK reaching RecoveryPoint ends it; below it
 * cwnd stays, and tcp_output sends what the pipe allows. Returns 1 in recovery (tcp_cc is
 * not told of the ACK), else 0. */
static int sack_recovery_ack(struct host *h, struct tcp_pcb *pcb, uint32_t ack)
{
#if STACK_SACK
    tcp_sack_acked(pcb);
    if (!pcb->sack_rec)
        return 0;
    pcb->cc.dupacks = 0;
    if (tcp_seq_geq(ack, pcb->sack_recover))
        tcp_cc_sack_exit(h, pcb, ack);
    return 1;
#else
    (void)h;
    (void)pcb;
    (void)ack;
    return 0;
#endif
}

/* An ACK that advances snd_una (RFC 9293 3.10.7.4: SND.UNA < SEG.ACK =< SND.NXT). */
static void new_ack(struct host *h, struct tcp_pcb *pcb, const struct tcp_seg *seg)
{
    uint32_t ack = seg->ack, acked = ack - pcb->snd_una, flight = pcb->snd_max - pcb->snd_una;
    uint32_t ring_acked = ack - pcb->snd_buf_seq;
    uint16_t una_dg = tcp_una_dgram_len(h, pcb);
    enum tcp_cc_action a = TCP_CC_NOTHING;

    if (ring_acked > pcb->snd.len)
        ring_acked = pcb->snd.len; /* the FIN is acknowledged too */
    tcp_ring_consume(&pcb->snd, ring_acked);
    pcb->snd_buf_seq += ring_acked;
    pcb->bytes_acked += ring_acked;
    pcb->snd_una = ack;
    if (tcp_seq_lt(pcb->snd_nxt, ack))
        pcb->snd_nxt = ack;
    pcb->retries = 0;
    if (tcp_rto_follows_lwip(&HOST_CFG(h)))
        pcb->backoff = 0; /* lwIP: an ACK of new data ends the backoff (tcp_rto.h) */
    if (pcb->snd_una == pcb->snd_max)
        pcb->probe_out = 0;

    /* RTT: RFC 7323 4 with timestamps, a sample per ACK of new data; otherwise the one
     * timed segment (RFC 6298 3), never a retransmitted one (Karn). */
    if (pcb->ts_ok && seg->opts.has_ts && seg->opts.ts_ecr != 0) {
        tcp_ts_rtt(h, pcb, seg->opts.ts_ecr, una_dg);
    } else if (pcb->rtt_timing && tcp_seq_gt(ack, pcb->rtt_seq)) {
        pcb->rtt_timing = 0;
        tcp_rtt_sample(h, pcb, h->now - pcb->rtt_start, h->tcp.slow_ticks - pcb->rtt_tick_start,
                       pcb->rtt_dgram_len, 0);
    }
    if (!sack_recovery_ack(h, pcb, ack) && pcb->cc_ready)
        a = tcp_cc_ack(h, pcb, ack, acked, flight);
#if STACK_EIFEL
    if (pcb->eifel_armed && seg->opts.has_ts)
        tcp_eifel_check(h, pcb, seg->opts.ts_ecr, acked);
#endif
    if (a == TCP_CC_PARTIAL_ACK_RETRANSMIT && pcb->snd_una != pcb->snd_max)
        pcb->retx_pending = TCP_RETX_PARTIAL_ACK;

    /* RFC 6298 5.2 / 5.3: stop the timer when all is acknowledged, else restart it. */
    if (pcb->snd_una == pcb->snd_max)
        tcp_rto_stop(h, pcb);
    else if (!pcb->persist)
        tcp_rto_start(h, pcb, tcp_una_dgram_len(h, pcb), 1);
}

/* With SACK in use, RFC 6675 5: every ACK's blocks update the scoreboard, and a duplicate
 * ACK is also one that SACKs new data (RFC 6675 2). Returns 1 when it took the ACK, 0 when
 * SACK is not in use on this connection (the ACK is then Reno's or NewReno's). */
static int sack_ack_input(struct host *h, struct tcp_pcb *pcb, const struct tcp_seg *seg, int dup)
{
#if STACK_SACK
    uint32_t newly;
    if (!(pcb->sack_ok && pcb->cc_ready && tcp_cc_adapts(&HOST_CFG(h))))
        return 0;
    newly = seg->opts.n_sack ? tcp_sack_update(pcb, &seg->opts) : 0;
    if (tcp_seq_gt(seg->ack, pcb->snd_una))
        new_ack(h, pcb, seg);
    else if (dup || (newly && seg->ack == pcb->snd_una && seg->len == 0))
        tcp_cc_sack_dupack(h, pcb);
    return 1;
#else
    (void)h;
    (void)pcb;
    (void)seg;
    (void)dup;
    return 0;
#endif
}

int tcp_process_ack(struct host *h, struct tcp_pcb *pcb, struct tcp_seg *seg)
{
    uint32_t ack = seg->ack;
    int dup;

    if (pcb->state == TCP_SYN_RECEIVED) {
        /* RFC 9293 3.10.7.4: SND.UNA < SEG.ACK =< SND.NXT completes the handshake;
         * otherwise <SEQ=SEG.ACK><CTL=RST>. */
        if (!tcp_seq_gt(ack, pcb->snd_una) || tcp_seq_gt(ack, pcb->snd_max)) {
            drop(h, DROP_TCP_BAD_ACK, seg);
            tcp_send_rst_reply(h, seg);
            return -1;
        }
        pcb->snd_wnd = seg->wnd;
        if (seg->wnd > pcb->max_snd_wnd)
            pcb->max_snd_wnd = seg->wnd;
        pcb->snd_wl1 = seg->seq;
        pcb->snd_wl2 = ack;
        tcp_handshake_done(h, pcb, seg);
        return 0;
    }
    if (tcp_seq_gt(ack, pcb->snd_max)) {
        /* Acknowledges something not yet sent: ACK, drop, return. */
        drop(h, DROP_TCP_BAD_ACK, seg);
        tcp_ack_now(h, pcb);
        return -1;
    }
    if (tcp_seq_lt(ack, pcb->snd_una))
        return 0; /* an old duplicate ACK: ignored, the text is still processed */

    /* RFC 5681 section 2, DUPLICATE ACKNOWLEDGMENT: data outstanding, no data and no
     * SYN/FIN on this segment, ack = snd_una, the same window as before. A zero window is
     * excluded: ACKs to zero-window probes are not a sign of loss. */
    dup = ack == pcb->snd_una && pcb->snd_max != pcb->snd_una && seg->len == 0 &&
          !(seg->flags & (TCP_SYN | TCP_FIN)) && seg->wnd == pcb->snd_wnd && pcb->snd_wnd != 0;

    /* Window update, RFC 9293 3.10.7.4: if SND.WL1 < SEG.SEQ or (SND.WL1 = SEG.SEQ and
     * SND.WL2 =< SEG.ACK). */
    if (tcp_seq_lt(pcb->snd_wl1, seg->seq) ||
        (pcb->snd_wl1 == seg->seq && tcp_seq_leq(pcb->snd_wl2, ack))) {
        if (seg->wnd != pcb->snd_wnd)
            tcp_trace(h, pcb, TRACE_SND_WND, seg->wnd, pcb->snd_wnd, 0, 0);
        pcb->snd_wnd = seg->wnd;
        if (seg->wnd > pcb->max_snd_wnd)
            pcb->max_snd_wnd = seg->wnd;
        pcb->snd_wl1 = seg->seq;
        pcb->snd_wl2 = ack;
    }

    if (sack_ack_input(h, pcb, seg, dup))
        ; /* taken by SACK loss recovery */
    else if (tcp_seq_gt(ack, pcb->snd_una))
        new_ack(h, pcb, seg);
    else if (dup && pcb->cc_ready && tcp_cc_dupack(h, pcb) == TCP_CC_FAST_RETRANSMIT)
        pcb->retx_pending = TCP_RETX_FAST;

    /* The window opened while the persist timer ran: stop probing. A probe byte the peer
     * did not take is sent again as ordinary data, not as a retransmission. */
    if (pcb->persist && pcb->snd_wnd > 0) {
        tcp_persist_stop(pcb);
        if (pcb->probe_out && pcb->snd_una != pcb->snd_max) {
            pcb->snd_nxt = pcb->snd_una;
            pcb->quiet_once = 1;
        }
        pcb->probe_out = 0;
    }

    switch (pcb->state) {
    case TCP_FIN_WAIT_1:
        if (fin_acked(pcb)) {
            tcp_set_state(h, pcb, TCP_FIN_WAIT_2);
            if (!pcb->has_socket)
                tcp_timewait_start(h, pcb); /* orphaned: do not wait forever (Linux) */
        }
        break;
    case TCP_CLOSING:
        if (fin_acked(pcb))
            enter_time_wait(h, pcb);
        break;
    case TCP_LAST_ACK:
        if (fin_acked(pcb)) {
            tcp_conn_done(h, pcb);
            return -1;
        }
        break;
    default: break;
    }
    return 0;
}

/* RFC 1122 4.2.3.2 / RFC 5681 4.2: acknowledge now, or let the delayed-ACK timer run. */
static void ack_policy(struct host *h, struct tcp_pcb *pcb, uint32_t len)
{
    if (len > pcb->rcv_seg_max)
        pcb->rcv_seg_max = len;
    pcb->unacked_bytes += len;
    switch (HOST_CFG(h).tcp_delack) {
    case TCP_DELACK_OFF: pcb->ack_now = 1; return;
    case TCP_DELACK_NFC:
        /* NFC paper 5.3.2.2: a reply already queued, and bigger than this segment, is
         * not to be waited for: acknowledge at once (a reply sent now still carries the
         * ACK alone first: tcp_out.c, ack_before_larger_reply). */
        if (tcp_snd_unsent(pcb) > len) {
            pcb->ack_now = 1;
            return;
        }
        break;
    case TCP_DELACK_STANDARD: break;
    }
    /* RFC 5681 4.2: an ACK for at least every second full-sized segment. */
    if (pcb->unacked_bytes >= 2u * pcb->rcv_seg_max)
        pcb->ack_now = 1;
    else
        tcp_delack_start(h, pcb);
}

/* RFC 9293 3.10.7.4, eighth check: an in-sequence FIN. */
static void fin_received(struct host *h, struct tcp_pcb *pcb)
{
    pcb->ack_now = 1;
    if (pcb->fin_rcvd) {
        if (pcb->state == TCP_TIME_WAIT)
            tcp_timewait_start(h, pcb);
        return;
    }
    pcb->fin_rcvd = 1;
    pcb->ooo_fin = 0;
    pcb->rcv_nxt++;
    switch (pcb->state) {
    case TCP_SYN_RECEIVED:
    case TCP_ESTABLISHED: tcp_set_state(h, pcb, TCP_CLOSE_WAIT); break;
    case TCP_FIN_WAIT_1:
        if (fin_acked(pcb))
            enter_time_wait(h, pcb);
        else
            tcp_set_state(h, pcb, TCP_CLOSING); /* simultaneous close */
        break;
    case TCP_FIN_WAIT_2:
        pcb->tw = 0;
        enter_time_wait(h, pcb);
        break;
    default: break;
    }
}

void tcp_process_data(struct host *h, struct tcp_pcb *pcb, struct tcp_seg *seg)
{
    int fin = (seg->flags & TCP_FIN) != 0;
    uint8_t s = pcb->state;
    if (seg->len > 0) {
        uint32_t off = seg->seq - pcb->rcv_nxt;
        if (s != TCP_ESTABLISHED && s != TCP_FIN_WAIT_1 && s != TCP_FIN_WAIT_2) {
            /* After the peer's FIN there is no more text to take (CLOSE_WAIT, CLOSING,
             * LAST_ACK, TIME_WAIT): "ignore the segment text". */
            drop(h, DROP_TCP_BAD_SEQ, seg);
            return;
        }
        if (off != 0) {
            /* Out of order (RFC 9293 3.10.7.4: in the window but not next): keep it at its
             * place if we can, and send a duplicate ACK at once (RFC 5681 4.2). */
            pcb->ack_now = 1;
            if (!HOST_CFG(h).tcp_ooo) {
                drop(h, DROP_TCP_OOO_OFF, seg);
                return;
            }
            if (tcp_ooo_add(&pcb->ooo, pcb->rcv_nxt, seg->seq, seg->seq + seg->len) < 0) {
                drop(h, DROP_TCP_OOO_FULL, seg);
                return;
            }
            tcp_ring_put_at(&pcb->rcv, pcb->rcv.len + off, seg->data, seg->len);
#if STACK_SACK
            if (pcb->sack_ok)
                tcp_sack_note_ooo(pcb, seg->seq);
#endif
            if (fin) {
                pcb->ooo_fin = 1;
                pcb->ooo_fin_seq = seg->seq + seg->len;
            }
            tcp_trace(h, pcb, TRACE_OOO_QUEUE, seg->seq, seg->len, pcb->ooo.n, 0);
            return;
        }
        {
            int gap = pcb->ooo.n > 0;
            uint32_t nxt;
            tcp_ring_put_at(&pcb->rcv, pcb->rcv.len, seg->data, seg->len);
            nxt = tcp_ooo_advance(&pcb->ooo, pcb->rcv_nxt + seg->len);
            tcp_ring_commit(&pcb->rcv, nxt - pcb->rcv_nxt);
            pcb->bytes_received += nxt - pcb->rcv_nxt;
            pcb->rcv_nxt = nxt;
            if (pcb->ooo_fin && pcb->rcv_nxt == pcb->ooo_fin_seq)
                fin = 1;
            if (!pcb->has_socket && pcb->accepted)
                tcp_ring_consume(&pcb->rcv, pcb->rcv.len); /* closed: no one will read it */
            if (gap)
                pcb->ack_now = 1; /* RFC 5681 4.2: the segment filled (part of) a gap */
            else
                ack_policy(h, pcb, seg->len);
        }
    } else if (fin && seg->seq != pcb->rcv_nxt) {
        /* A FIN past a hole: remember it for when the hole fills (or it comes again). */
        pcb->ack_now = 1;
        if (HOST_CFG(h).tcp_ooo) {
            pcb->ooo_fin = 1;
            pcb->ooo_fin_seq = seg->seq;
        }
        return;
    }
    if (fin && s != TCP_CLOSED && s != TCP_LISTEN && s != TCP_SYN_SENT)
        fin_received(h, pcb);
}
