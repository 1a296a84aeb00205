/* TCP output: segments cut from the send ring, Nagle and sender-side SWS avoidance, the
 * advertised window, ACKs, resets, zero-window probes (the options: tcp_opts.c).
 *
 * tcp_output() works like BSD's: it looks at the connection and sends whatever is due
 * (a SYN, data the windows allow, a FIN, a pending retransmission, an ACK), so every
 * caller (input, timers, the socket calls, channel sensing) just calls it. */
#include <string.h>

#include "bytes.h"
#include "inet_chksum.h"
#include "tcp_pcb.h"

/* The window to advertise now, with receiver-side SWS avoidance (RFC 9293 3.8.6.2.2,
 * RFC 1122 4.2.3.3): the right edge only moves forward by at least min(half the buffer,
 * MSS), and it never moves back (no shrinking). */
static uint32_t rcv_window_candidate(const struct tcp_pcb *pcb, uint32_t *cur)
{
    uint32_t fre = tcp_ring_free(&pcb->rcv);
    uint32_t thresh = pcb->rcv.size / 2u;
    if (thresh > pcb->rcv_mss)
        thresh = pcb->rcv_mss;
    if (fre > TCP_MAX_WINDOW)
        fre = TCP_MAX_WINDOW;
    *cur = tcp_seq_gt(pcb->rcv_adv, pcb->rcv_nxt) ? pcb->rcv_adv - pcb->rcv_nxt : 0;
    if (fre > *cur && fre - *cur >= thresh)
        return fre;
    return *cur;
}

static uint16_t rcv_window_take(struct host *h, struct tcp_pcb *pcb, int update)
{
    uint32_t cur, w = rcv_window_candidate(pcb, &cur);
    pcb->rcv_adv = pcb->rcv_nxt + w;
    if ((uint16_t)w != pcb->rcv_wnd_last)
        tcp_trace(h, pcb, TRACE_RCV_WND, w, pcb->rcv_wnd_last, update ? 1u : 0u, 0);
    pcb->rcv_wnd_last = (uint16_t)w;
    return (uint16_t)w;
}

/* Builds and sends one segment of this connection: `len` bytes from `ring_off` bytes into
 * the send ring. Returns ERR_WOULDBLOCK when channel sensing holds it. */
static int tcp_xmit(struct host *h, struct tcp_pcb *pcb, uint32_t seq, uint8_t flags,
                    uint32_t ring_off, uint16_t len, int wnd_update)
{
    uint8_t *p = ip_tx_payload(h);
    uint16_t hlen = TCP_HLEN, tlen;
    uint32_t sum;

    if (HOST_CFG(h).tcp_channel_sensing && h->netifs[pcb->netif].busy) {
        /* NFC paper: hold while the module is busy; tcp_netif_free() sends it. */
        tcp_trace(h, pcb, TRACE_CHANNEL_WAIT, seq, len, pcb->netif, 0);
        return ERR_WOULDBLOCK;
    }
    hlen = (uint16_t)(hlen + tcp_opts_write(h, pcb, p + TCP_HLEN, flags, len));
    wr16(p + TCP_OFF_SRC_PORT, pcb->local_port);
    wr16(p + TCP_OFF_DST_PORT, pcb->remote_port);
    wr32(p + TCP_OFF_SEQ, seq);
    wr32(p + TCP_OFF_ACK, (flags & TCP_ACK) ? pcb->rcv_nxt : 0);
    p[TCP_OFF_DATAOFF] = (uint8_t)((hlen / 4u) << 4);
    p[TCP_OFF_FLAGS] = flags;
    wr16(p + TCP_OFF_WND, rcv_window_take(h, pcb, wnd_update));
    wr16(p + TCP_OFF_CHKSUM, 0);
    wr16(p + TCP_OFF_URG, 0);
    if (len)
        tcp_ring_peek(&pcb->snd, ring_off, p + hlen, len);
    tlen = (uint16_t)(hlen + len);
    sum = inet_pseudo_sum(pcb->local_addr, pcb->remote_addr, IP_PROTO_TCP, tlen);
    wr16(p + TCP_OFF_CHKSUM, inet_fold(inet_sum(sum, p, tlen)));
    h->tcp.segs_out++;
    if (flags & TCP_ACK) {
        /* Any ACK we send covers what the delayed ACK waited for (RFC 1122 4.2.3.2). */
        pcb->last_ack_sent = pcb->rcv_nxt;
        pcb->ack_now = 0;
        pcb->unacked_bytes = 0;
        if (pcb->delack)
            tcp_delack_cancel(h, pcb);
    }
    ip_output(h, pcb->local_addr, pcb->remote_addr, IP_PROTO_TCP, tlen, 0);
    return ERR_OK;
}

static uint32_t fin_seq(const struct tcp_pcb *pcb)
{
    return pcb->snd_buf_seq + pcb->snd.len;
}

/* Times the segment at seq, whose IP datagram is dgram_len bytes (RFC 6298 3: one at a
 * time). */
static void rtt_time(struct host *h, struct tcp_pcb *pcb, uint32_t seq, uint16_t dgram_len)
{
    pcb->rtt_timing = 1;
    pcb->rtt_seq = seq;
    pcb->rtt_start = h->now;
    pcb->rtt_tick_start = h->tcp.slow_ticks;
    pcb->rtt_dgram_len = dgram_len;
}

/* Retransmission bookkeeping shared by every path that re-sends [seq, seq + n), a
 * datagram of dgram_len bytes. */
static void note_retransmit(struct host *h, struct tcp_pcb *pcb, uint32_t seq, uint32_t n,
                            uint8_t cause, uint16_t dgram_len)
{
    int fast =
        cause == TCP_RETX_FAST || cause == TCP_RETX_PARTIAL_ACK || cause == TCP_RETX_SACK_LOSS;
    uint32_t d = fast ? pcb->cc.dupacks : pcb->retx_timer_id;
    if (tcp_rto_follows_lwip(&HOST_CFG(h)) && !pcb->ts_ok) {
        /* lwIP does not keep Karn's rule: tcp_rexmit_rto() and tcp_rexmit() clear rttest,
         * and tcp_output_segment() starts timing the next segment out, the retransmission
         * itself (of a timeout's go-back-N, the first one). An ACK of the original then
         * gives a sample shorter than the real round trip. */
        if (fast || !pcb->rtt_timing)
            rtt_time(h, pcb, seq, dgram_len);
    } else if (pcb->rtt_timing && tcp_seq_leq(seq, pcb->rtt_seq) &&
               tcp_seq_lt(pcb->rtt_seq, seq + n)) {
        pcb->rtt_timing = 0; /* Karn's rule (RFC 6298 3): no sample from a retransmission */
    }
    if (fast)
        pcb->retransmits_fast++;
    else
        pcb->retransmits_rto++;
    tcp_trace(h, pcb, TRACE_RETRANSMIT, seq, n, cause, d);
}

/* Re-sends one segment of what was sent, from seq, at most max bytes of data (and the FIN
 * if it ends there). snd_nxt stays where it is. */
static int send_retx(struct host *h, struct tcp_pcb *pcb, uint32_t seq, uint32_t max, uint8_t cause)
{
    uint32_t off = seq - pcb->snd_buf_seq, avail, out, len;
    int fin;
    avail = off < pcb->snd.len ? pcb->snd.len - off : 0;
    out = pcb->snd_max - seq;
    len = tcp_seg_max(h, pcb);
    if (len > max)
        len = max;
    if (len > avail)
        len = avail;
    if (len > out)
        len = out;
    fin = pcb->fin_queued && seq + len == fin_seq(pcb) && tcp_seq_gt(pcb->snd_max, fin_seq(pcb));
    if (len == 0 && !fin)
        return ERR_OK;
    if (tcp_xmit(h, pcb, seq, (uint8_t)(TCP_ACK | (fin ? TCP_FIN : 0)), off, (uint16_t)len, 0) < 0)
        return ERR_WOULDBLOCK;
    note_retransmit(h, pcb, seq, len + (fin ? 1u : 0u), cause,
                    (uint16_t)(IP_HLEN + TCP_HLEN + tcp_opt_len(pcb) + len));
    if (tcp_seq_lt(pcb->snd_nxt, seq + len + (fin ? 1u : 0u)))
        pcb->snd_nxt = seq + len + (fin ? 1u : 0u);
#if STACK_SACK
    if (pcb->sack_rec && tcp_seq_gt(seq + len + (fin ? 1u : 0u), pcb->sack_rxt_high))
        pcb->sack_rxt_high = seq + len + (fin ? 1u : 0u); /* RFC 6675: HighRxt */
#endif
    if (!pcb->rto_running)
        tcp_rto_start(h, pcb, (uint16_t)(IP_HLEN + TCP_HLEN + tcp_opt_len(pcb) + len), 0);
    return ERR_OK;
}

/* Fast retransmit / NewReno partial ACK: the segment at snd_una, once (RFC 5681 3.2 step 2,
 * RFC 6582 3.2 step 3); in SACK recovery, not past the first SACKed byte (RFC 6675 5
 * step 4.3). */
static int send_una_segment(struct host *h, struct tcp_pcb *pcb)
{
    uint32_t max = 0xFFFFFFFFu;
#if STACK_SACK
    if (pcb->sack_rec && pcb->sb_n)
        max = pcb->sb_l[0] - pcb->snd_una;
#endif
    return send_retx(h, pcb, pcb->snd_una, max, pcb->retx_pending);
}

/* One pass of new data, go-back-N retransmission, SYN or FIN. Returns 1 if a segment was
 * sent, 0 if nothing was due, -1 if channel sensing held it. */
static uint32_t tcp_seq_for_empty(const struct tcp_pcb *pcb);

/* The NFC paper's modified delayed ACK (5.3.2.2, Table 5.6): "an empty ACK will be sent
 * if the size of the received packet is less than the size of the packet to be
 * transmitted". Piggybacked on the larger reply, the ACK would take the reply's longer
 * crossing, and the peer's RTO, estimated for its small segment, would run out first. So
 * before new data longer than what it acknowledges, an ACK owed goes alone. Returns what
 * tcp_xmit returned, 0 if nothing was sent. */
static int ack_before_larger_reply(struct host *h, struct tcp_pcb *pcb, uint16_t dlen)
{
    if (HOST_CFG(h).tcp_delack != TCP_DELACK_NFC || pcb->unacked_bytes == 0 ||
        dlen <= pcb->unacked_bytes)
        return 0;
    return tcp_xmit(h, pcb, tcp_seq_for_empty(pcb), TCP_ACK, 0, 0, 0);
}

static int sack_rec(const struct tcp_pcb *pcb)
{
#if STACK_SACK
    return pcb->sack_rec;
#else
    (void)pcb;
    return 0;
#endif
}

/* Limited transmit (RFC 3042), which RFC 6675 5 step 3 allows before loss recovery: with
 * SACK in use, each of the first two duplicate ACKs lets one more segment of new data go
 * beyond cwnd, so a small window still collects DupThresh duplicates after a loss.
 * Bytes to add to cwnd; 0 without SACK (the NewReno path is unchanged). */
static uint32_t limited_transmit(const struct host *h, const struct tcp_pcb *pcb)
{
#if STACK_SACK
    uint8_t t = HOST_CFG(h).tcp_dupack_thresh;
    uint8_t n = pcb->cc.dupacks < 2u ? pcb->cc.dupacks : 2u;
    if (!pcb->sack_ok || pcb->sack_rec || pcb->cc.dupacks >= t || pcb->snd_nxt != pcb->snd_max ||
        !tcp_cc_adapts(&HOST_CFG(h)))
        return 0;
    return (uint32_t)n * tcp_seg_max(h, pcb);
#else
    (void)h;
    (void)pcb;
    return 0;
#endif
}

static int output_one(struct host *h, struct tcp_pcb *pcb)
{
    uint32_t seq = pcb->snd_nxt, len = 0, off = 0, avail, flight, wnd, usable;
    uint16_t maxseg = tcp_seg_max(h, pcb), dlen, dgram;
    uint8_t flags;
    int fin = 0, syn = 0, is_retx;

    if (pcb->state == TCP_SYN_SENT || pcb->state == TCP_SYN_RECEIVED) {
        if (seq != pcb->iss)
            return 0;
        syn = 1;
        flags = (uint8_t)(TCP_SYN | (pcb->state == TCP_SYN_RECEIVED ? TCP_ACK : 0));
    } else if (tcp_data_state(pcb->state)) {
        off = seq - pcb->snd_buf_seq;
        avail = tcp_seq_geq(seq, pcb->snd_buf_seq) && off < pcb->snd.len ? pcb->snd.len - off : 0;
        flight = seq - pcb->snd_una;
        wnd = pcb->snd_wnd;
        if (pcb->cc_ready &&
            tcp_cc_window(&pcb->cc, &HOST_CFG(h)) + limited_transmit(h, pcb) < wnd &&
            !sack_rec(pcb))
            wnd = tcp_cc_window(&pcb->cc, &HOST_CFG(h)) + limited_transmit(h, pcb);
        usable = wnd > flight ? wnd - flight : 0;
        /* In SACK recovery the caller checked the pipe against cwnd (RFC 6675 5 (C)):
         * one segment, as far as the peer's window goes. */
        if (sack_rec(pcb) && usable > maxseg)
            usable = maxseg;
        if (pcb->force_one) {
            /* After an RTO one segment goes whatever the congestion window says (the loss
             * window, RFC 5681 3.1), but no more than the peer offers (RFC 9293 3.8.6.1):
             * a 64-byte window takes 64 bytes, not a full segment it has to cut down. */
            uint32_t one = pcb->snd_wnd > flight ? pcb->snd_wnd - flight : 0;
            if (one > maxseg)
                one = maxseg;
            if (usable < one)
                usable = one;
        }
        len = avail < maxseg ? avail : maxseg;
        if (len > usable)
            len = usable;
        is_retx = tcp_seq_lt(seq, pcb->snd_max);
        fin = pcb->fin_queued && seq + len == fin_seq(pcb);
        if (!is_retx && !fin && len > 0 && len < maxseg) {
            int idle = pcb->snd_una == pcb->snd_max;
            if (len == avail) {
                /* Nagle, RFC 9293 3.7.4: hold a short segment until the outstanding data is
                 * acknowledged or a full segment can be sent; in Minshall's variant (as
                 * Linux), only while an earlier short segment is unacknowledged, so the
                 * tail of a bulk write is not held for a round trip. */
                if (HOST_CFG(h).tcp_nagle && tcp_seq_gt(pcb->snd_sml, pcb->snd_una))
                    len = 0;
            } else if (!idle && len < pcb->max_snd_wnd / 2u) {
                /* Sender SWS avoidance, RFC 9293 3.8.6.2.1: the window, not the data,
                 * limits us; wait for it to open by a useful amount. */
                len = 0;
            }
            fin = pcb->fin_queued && seq + len == fin_seq(pcb);
        }
        if (len == 0 && !fin)
            return 0;
        flags = (uint8_t)(TCP_ACK | (fin ? TCP_FIN : 0));
        if (len && seq + len == fin_seq(pcb))
            flags |= TCP_PSH; /* the last segment of what the application queued */
    } else {
        return 0;
    }
    is_retx = tcp_seq_lt(seq, pcb->snd_max);
    dlen = (uint16_t)len;
    if (!is_retx && dlen > 0 && !tcp_small_queue_room(h, pcb->netif))
        return 0; /* held until the interface's queue drains (host_set_netif_unsent) */
    if (!is_retx && ack_before_larger_reply(h, pcb, dlen) < 0)
        return -1;
    if (tcp_xmit(h, pcb, seq, flags, off, dlen, 0) < 0)
        return -1;
    pcb->force_one = 0;
    len += (uint32_t)syn + (uint32_t)fin;
    dgram =
        (uint16_t)(IP_HLEN + TCP_HLEN + (syn ? tcp_syn_opt_len(h, pcb) : tcp_opt_len(pcb)) + dlen);
    if (is_retx && pcb->quiet_once)
        pcb->quiet_once = 0; /* a probe byte or a simultaneous-open SYN-ACK, sent again */
    else if (is_retx)
        note_retransmit(h, pcb, seq, len,
                        syn ? TCP_RETX_SYN_RTO
                            : (dlen == 0 && fin ? TCP_RETX_FIN_RTO : pcb->retx_cause),
                        dgram);
    else if (!pcb->rtt_timing && !pcb->ts_ok)
        rtt_time(h, pcb, seq, dgram);
    if (!is_retx && dlen > 0 && dlen < maxseg)
        pcb->snd_sml = seq + dlen; /* Minshall: the last short segment sent */
    pcb->snd_nxt = seq + len;
    if (tcp_seq_gt(pcb->snd_nxt, pcb->snd_max))
        pcb->snd_max = pcb->snd_nxt;
    /* RFC 6298 5.1: start the timer when sending data (or SYN/FIN) if it is not running. */
    if (!pcb->rto_running && !pcb->persist)
        tcp_rto_start(h, pcb, dgram, 0);
    return 1;
}

/* The sequence number of a segment with no data, SYN or FIN (a pure ACK, a window update,
 * a reset). After a retransmission timeout snd_nxt is pulled back to snd_una (go-back-N),
 * below what the peer may already hold; a segment carrying it would be an old duplicate
 * to the peer (RFC 9293 3.10.7.4 first check), dropped before its ACK field is read and
 * answered with an ACK, which the peer's own pulled-back snd_nxt makes just as stale: an
 * ACK war until the retries run out. So it carries snd_max, as BSD's tcp_output does;
 * except while probing a zero window, where snd_max may lie one byte past the peer's
 * window and snd_nxt is right. */
static uint32_t tcp_seq_for_empty(const struct tcp_pcb *pcb)
{
    return pcb->persist || pcb->probe_out ? pcb->snd_nxt : pcb->snd_max;
}

#if STACK_SACK
/* RFC 6675 5 (C): while cwnd - pipe >= 1 SMSS, send NextSeg(): a lost hole (rule 1), new
 * data (rule 2), another hole (rule 3). Returns 0, or -1 if channel sensing held one. */
static int sack_recovery_output(struct host *h, struct tcp_pcb *pcb)
{
    uint32_t smss = tcp_seg_max(h, pcb), seq, len;
    for (;;) {
        uint32_t pipe = tcp_sack_pipe(h, pcb);
        int r = 0;
        if (pcb->cc.cwnd < pipe || pcb->cc.cwnd - pipe < smss)
            return 0;
        if (tcp_sack_next_hole(h, pcb, 1, &seq, &len) ||
            ((r = output_one(h, pcb)) == 0 && tcp_sack_next_hole(h, pcb, 0, &seq, &len))) {
            uint32_t high = pcb->sack_rxt_high;
            if (send_retx(h, pcb, seq, len, TCP_RETX_SACK_LOSS) < 0)
                return -1;
            if (pcb->sack_rxt_high == high)
                return 0; /* nothing could be cut from the hole: do not spin */
            continue;
        }
        if (r < 0)
            return -1;
        if (r == 0)
            return 0;
    }
}
#else
static int sack_recovery_output(struct host *h, struct tcp_pcb *pcb)
{
    (void)h;
    (void)pcb;
    return 0; /* never called: sack_rec() is 0 without SACK */
}
#endif

void tcp_output(struct host *h, struct tcp_pcb *pcb)
{
    int r;
    if (!pcb->in_use || pcb->state == TCP_CLOSED || pcb->state == TCP_LISTEN)
        return;
    if (pcb->retx_pending && tcp_data_state(pcb->state)) {
        if (send_una_segment(h, pcb) < 0)
            return;
        pcb->retx_pending = 0;
    }
    if (sack_rec(pcb) && tcp_data_state(pcb->state)) {
        if (sack_recovery_output(h, pcb) < 0)
            return;
    } else {
        while ((r = output_one(h, pcb)) > 0) {
        }
        if (r < 0)
            return;
    }
    if (pcb->ack_now && pcb->state != TCP_SYN_SENT)
        tcp_xmit(h, pcb, tcp_seq_for_empty(pcb), TCP_ACK, 0, 0, 0);
    tcp_timers_update(h, pcb);
}

void tcp_ack_now(struct host *h, struct tcp_pcb *pcb)
{
    pcb->ack_now = 1;
    tcp_output(h, pcb);
}

void tcp_rcv_window_check(struct host *h, struct tcp_pcb *pcb)
{
    uint32_t cur, w;
    uint32_t maxw = pcb->rcv.size < TCP_MAX_WINDOW ? pcb->rcv.size : TCP_MAX_WINDOW;
    if (pcb->state != TCP_ESTABLISHED && pcb->state != TCP_FIN_WAIT_1 &&
        pcb->state != TCP_FIN_WAIT_2)
        return;
    w = rcv_window_candidate(pcb, &cur);
    /* As Linux's tcp_cleanup_rbuf: only when the window we advertised has fallen to half
     * or less and would at least double, so a reader that keeps up adds no extra ACKs. */
    if (w > cur && 2u * cur <= maxw && w >= 2u * cur) {
        if (tcp_xmit(h, pcb, tcp_seq_for_empty(pcb), TCP_ACK, 0, 0, 1) < 0)
            pcb->ack_now = 1;
    }
}

void tcp_send_probe(struct host *h, struct tcp_pcb *pcb)
{
    /* RFC 9293 3.8.6.1, RFC 1122 4.2.2.17: probe a zero window with one byte of data. The
     * byte is new data the first time, the same byte again while it is not accepted. */
    uint32_t seq = pcb->probe_out && pcb->snd_una != pcb->snd_max ? pcb->snd_una : pcb->snd_nxt;
    uint32_t off = seq - pcb->snd_buf_seq;
    if (!tcp_data_state(pcb->state) || off >= pcb->snd.len)
        return;
    tcp_trace(h, pcb, TRACE_ZERO_WINDOW_PROBE, seq, pcb->persist_backoff, 0, 0);
    if (tcp_xmit(h, pcb, seq, TCP_ACK, off, 1, 0) < 0)
        return;
    pcb->probe_out = 1;
    if (tcp_seq_gt(seq + 1, pcb->snd_nxt))
        pcb->snd_nxt = seq + 1;
    if (tcp_seq_gt(pcb->snd_nxt, pcb->snd_max))
        pcb->snd_max = pcb->snd_nxt;
}

static void rst_out(struct host *h, uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport,
                    uint32_t seq, uint32_t ack, uint8_t flags)
{
    uint8_t *p = ip_tx_payload(h);
    uint32_t sum;
    memset(p, 0, TCP_HLEN);
    wr16(p + TCP_OFF_SRC_PORT, sport);
    wr16(p + TCP_OFF_DST_PORT, dport);
    wr32(p + TCP_OFF_SEQ, seq);
    wr32(p + TCP_OFF_ACK, ack);
    p[TCP_OFF_DATAOFF] = (TCP_HLEN / 4) << 4;
    p[TCP_OFF_FLAGS] = flags;
    sum = inet_pseudo_sum(src, dst, IP_PROTO_TCP, TCP_HLEN);
    wr16(p + TCP_OFF_CHKSUM, inet_fold(inet_sum(sum, p, TCP_HLEN)));
    h->tcp.segs_out++;
    h->tcp.rst_sent++;
    ip_output(h, src, dst, IP_PROTO_TCP, TCP_HLEN, 0);
}

void tcp_send_rst_reply(struct host *h, const struct tcp_seg *seg)
{
    /* RFC 9293 3.10.7.1: never answer a reset; if the segment has an ACK the reset takes
     * its sequence number from it, otherwise it acknowledges the whole segment. */
    if (seg->flags & TCP_RST)
        return;
    if (seg->flags & TCP_ACK)
        rst_out(h, seg->dst, seg->src, seg->dport, seg->sport, seg->ack, 0, TCP_RST);
    else
        rst_out(h, seg->dst, seg->src, seg->dport, seg->sport, 0,
                seg->seq + seg->len + ((seg->flags & TCP_SYN) ? 1u : 0u) +
                    ((seg->flags & TCP_FIN) ? 1u : 0u),
                TCP_RST | TCP_ACK);
}

void tcp_send_rst_pcb(struct host *h, struct tcp_pcb *pcb)
{
    /* RFC 9293 3.10.5 ABORT: <SEQ=SND.NXT><CTL=RST>, with snd_max after a go-back-N so the
     * peer finds it in its window (tcp_seq_for_empty); the ACK is added as BSD and Linux do. */
    rst_out(h, pcb->local_addr, pcb->remote_addr, pcb->local_port, pcb->remote_port,
            tcp_seq_for_empty(pcb), pcb->rcv_nxt, TCP_RST | TCP_ACK);
}
