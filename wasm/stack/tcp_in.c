/* TCP input: validation, demultiplexing, and the state machine of RFC 9293 3.10.7 for
 * CLOSED (no connection), LISTEN, SYN_SENT and the sequence, RST and SYN checks of the
 * synchronized states. The ACK field, the text and FIN are in tcp_in_data.c. */
#include "bytes.h"
#include "inet_chksum.h"
#include "tcp_pcb.h"

static void drop(struct host *h, enum drop_reason why, const struct tcp_seg *seg)
{
    host_drop(h, why, IP_PROTO_TCP, (uint16_t)(TCP_HLEN + seg->len));
}

static struct tcp_pcb *lookup(struct host *h, const struct tcp_seg *seg)
{
    uint8_t i;
    struct tcp_pcb *listener = NULL;
    for (i = 0; i < HOST_CFG(h).tcp_max_pcbs; i++) {
        struct tcp_pcb *pcb = &h->tcp.pcbs[i];
        if (!pcb->in_use || pcb->local_port != seg->dport)
            continue;
        if (pcb->state == TCP_LISTEN) {
            if (!listener && (pcb->local_addr == 0 || pcb->local_addr == seg->dst))
                listener = pcb;
        } else if (pcb->state != TCP_CLOSED && pcb->remote_port == seg->sport &&
                   pcb->remote_addr == seg->src && pcb->local_addr == seg->dst) {
            return pcb;
        }
    }
    return listener;
}

void tcp_input(struct host *h, struct ip_rx *rx)
{
    uint8_t *p = rx->dgram + rx->hlen;
    uint16_t tlen = (uint16_t)(rx->len - rx->hlen), off;
    struct tcp_seg seg;
    struct tcp_pcb *pcb;

    tcp_clock_update(h);
    h->tcp.segs_in++;
    if (tlen < TCP_HLEN) {
        host_drop(h, DROP_TCP_SHORT, IP_PROTO_TCP, tlen);
        return;
    }
    off = (uint16_t)((p[TCP_OFF_DATAOFF] >> 4) * 4u);
    if (off < TCP_HLEN || off > tlen) {
        host_drop(h, DROP_TCP_SHORT, IP_PROTO_TCP, tlen);
        return;
    }
    if (!HOST_CFG(h).skip_checksum_check &&
        inet_fold(inet_sum(inet_pseudo_sum(rx->src, rx->dst, IP_PROTO_TCP, tlen), p, tlen)) != 0) {
        host_drop(h, DROP_TCP_CHKSUM, IP_PROTO_TCP, tlen);
        return;
    }
    if (tcp_opts_parse(p + TCP_HLEN, (uint16_t)(off - TCP_HLEN), &seg.opts) < 0) {
        host_drop(h, DROP_TCP_BAD_OPTION, IP_PROTO_TCP, tlen);
        return;
    }
    seg.src = rx->src;
    seg.dst = rx->dst;
    seg.sport = rd16(p + TCP_OFF_SRC_PORT);
    seg.dport = rd16(p + TCP_OFF_DST_PORT);
    seg.seq = rd32(p + TCP_OFF_SEQ);
    seg.ack = rd32(p + TCP_OFF_ACK);
    seg.flags = (uint8_t)(p[TCP_OFF_FLAGS] & 0x3Fu);
    seg.wnd = rd16(p + TCP_OFF_WND);
    seg.netif = rx->netif;
    seg.data = p + off;
    seg.len = (uint32_t)(tlen - off);

    /* RFC 1122 4.2.3.10: a SYN to a broadcast or multicast address is ignored, and no
     * reset ever goes to one. */
    if (rx->dst == 0xFFFFFFFFu || (rx->dst >> 28) == 0xE) {
        drop(h, DROP_TCP_NO_PCB, &seg);
        return;
    }
    pcb = lookup(h, &seg);
    if (pcb && pcb->state == TCP_TIME_WAIT &&
        (seg.flags & (TCP_SYN | TCP_ACK | TCP_RST)) == TCP_SYN &&
        tcp_seq_gt(seg.seq, pcb->rcv_nxt)) {
        /* RFC 1122 4.2.2.13: a new SYN may reopen a connection straight from TIME_WAIT if
         * its sequence numbers are past the old ones and ours will be too. */
        uint32_t iss = pcb->snd_nxt + 65536u;
        tcp_conn_done(h, pcb);
        pcb = lookup(h, &seg);
        if (pcb && pcb->state == TCP_LISTEN)
            tcp_set_next_iss(h, iss);
    }
    if (!pcb) {
        /* RFC 9293 3.10.7.1: CLOSED. Everything is answered with a reset except a reset. */
        drop(h, DROP_TCP_NO_PCB, &seg);
        tcp_send_rst_reply(h, &seg);
        return;
    }
    if (pcb->state == TCP_LISTEN)
        tcp_input_listen(h, pcb, &seg);
    else if (pcb->state == TCP_SYN_SENT)
        tcp_input_syn_sent(h, pcb, &seg);
    else
        tcp_input_established(h, pcb, &seg);
}

/* The options of the peer's SYN: timestamps if both want them (RFC 7323 3.2), SACK if
 * both offered it (RFC 2018 2), the MSS. */
static void take_syn_options(struct host *h, struct tcp_pcb *pcb, const struct tcp_seg *seg)
{
    if (HOST_CFG(h).tcp_timestamps && seg->opts.has_ts) {
        pcb->ts_ok = 1;
        pcb->ts_recent = seg->opts.ts_val;
    }
#if STACK_SACK
    if (HOST_CFG(h).tcp_sack && seg->opts.sack_perm)
        pcb->sack_ok = 1;
#endif
    tcp_pcb_set_mss(h, pcb, &seg->opts);
}

static void take_irs(struct tcp_pcb *pcb, const struct tcp_seg *seg)
{
    pcb->irs = seg->seq;
    pcb->rcv_nxt = seg->seq + 1;
    pcb->rcv_adv = pcb->rcv_nxt + pcb->rcv_wnd_last; /* the window our SYN carried, if any */
    /* RFC 9293 3.10.7.3: SND.WND from the SYN, SND.WL1 = SEG.SEQ (no scaling: RFC 7323
     * 2.2, a SYN's window is never scaled anyway). */
    pcb->snd_wnd = seg->wnd;
    pcb->max_snd_wnd = seg->wnd;
    pcb->snd_wl1 = seg->seq;
    pcb->snd_wl2 = seg->ack;
}

/* RFC 9293 3.10.7.2: LISTEN. */
void tcp_input_listen(struct host *h, struct tcp_pcb *lpcb, struct tcp_seg *seg)
{
    struct tcp_pcb *c;
    if (seg->flags & TCP_RST) {
        drop(h, DROP_TCP_BAD_FLAGS, seg); /* "An incoming RST should be ignored" */
        return;
    }
    if (seg->flags & TCP_ACK) {
        drop(h, DROP_TCP_BAD_ACK, seg); /* <SEQ=SEG.ACK><CTL=RST> */
        tcp_send_rst_reply(h, seg);
        return;
    }
    if (!(seg->flags & TCP_SYN)) {
        drop(h, DROP_TCP_BAD_FLAGS, seg);
        return;
    }
    /* Connections not yet accepted count toward the backlog; past it the SYN is dropped
     * without an answer, as Linux does, so the peer tries again later. */
    if (tcp_backlog_used(h, lpcb) >= lpcb->backlog) {
        drop(h, DROP_TCP_BACKLOG_FULL, seg);
        return;
    }
    c = tcp_pcb_alloc(h);
    if (!c) {
        drop(h, DROP_TCP_NO_PCB_MEM, seg);
        return;
    }
    c->parent = lpcb->slot;
    c->passive = 1;
    c->local_addr = seg->dst;
    c->local_port = lpcb->local_port;
    c->remote_addr = seg->src;
    c->remote_port = seg->sport;
    if (tcp_pcb_route(h, c) != ERR_OK) {
        tcp_pcb_free(h, c);
        drop(h, DROP_IP_NO_ROUTE, seg);
        return;
    }
    c->state = TCP_LISTEN; /* born from the listener: the trace shows LISTEN -> SYN_RECEIVED */
    take_irs(c, seg);
    take_syn_options(h, c, seg);
    c->iss = tcp_new_iss(h);
    c->snd_una = c->snd_nxt = c->snd_max = c->iss;
    c->snd_buf_seq = c->iss + 1;
    c->snd_sml = c->iss;
    c->snd_wl2 = c->iss;
    /* Data or FIN on the SYN are not taken: they are not acknowledged, so the peer sends
     * them again once the connection is established (RFC 9293 3.10.7.2 allows either). */
    tcp_set_state(h, c, TCP_SYN_RECEIVED);
    tcp_output(h, c); /* <SEQ=ISS><ACK=RCV.NXT><CTL=SYN,ACK> */
}

/* An RTT sample for the ACK of our SYN or SYN-ACK (RFC 6298 allows it; Karn applies). */
static void handshake_rtt(struct host *h, struct tcp_pcb *pcb, const struct tcp_seg *seg)
{
    uint16_t dg = tcp_una_dgram_len(h, pcb); /* still in a SYN state: the SYN's size */
    if (!pcb->passive && tcp_rto_follows_lwip(&HOST_CFG(h)))
        return; /* lwIP's active opener takes no sample here, and keeps the SYN timed (tcp_rto.h) */
    if (pcb->ts_ok && seg->opts.has_ts && seg->opts.ts_ecr != 0) {
        tcp_ts_rtt(h, pcb, seg->opts.ts_ecr, dg);
        pcb->rtt_timing = 0;
    } else if (pcb->rtt_timing && tcp_seq_gt(seg->ack, pcb->rtt_seq)) {
        pcb->rtt_timing = 0;
        tcp_rtt_sample(h, pcb, h->now - pcb->rtt_start, h->tcp.slow_ticks - pcb->rtt_tick_start, dg,
                       0);
    }
}

void tcp_handshake_done(struct host *h, struct tcp_pcb *pcb, const struct tcp_seg *seg)
{
    pcb->snd_una = seg->ack;
    if (tcp_seq_lt(pcb->snd_nxt, pcb->snd_una))
        pcb->snd_nxt = pcb->snd_una;
    pcb->retries = 0;
    handshake_rtt(h, pcb, seg);
    if (pcb->snd_una == pcb->snd_max)
        tcp_rto_stop(h, pcb);
    if (pcb->passive)
        pcb->accept_order = ++h->tcp.accept_counter; /* now waits for tcpaccept */
    tcp_set_state(h, pcb, pcb->fin_queued ? TCP_FIN_WAIT_1 : TCP_ESTABLISHED);
}

/* RFC 9293 3.10.7.3: SYN_SENT. */
void tcp_input_syn_sent(struct host *h, struct tcp_pcb *pcb, struct tcp_seg *seg)
{
    int ack = (seg->flags & TCP_ACK) != 0;
    if (ack && (tcp_seq_leq(seg->ack, pcb->iss) || tcp_seq_gt(seg->ack, pcb->snd_max))) {
        drop(h, DROP_TCP_BAD_ACK, seg);
        tcp_send_rst_reply(h, seg); /* <SEQ=SEG.ACK><CTL=RST>, not for a RST */
        return;
    }
    if (seg->flags & TCP_RST) {
        if (!ack) {
            drop(h, DROP_TCP_BAD_FLAGS, seg);
            return;
        }
        /* "error: connection reset" (connection refused) */
        tcp_conn_fail(h, pcb, ERR_RST);
        return;
    }
    if (!(seg->flags & TCP_SYN)) {
        drop(h, DROP_TCP_BAD_FLAGS, seg);
        return;
    }
    take_irs(pcb, seg);
    take_syn_options(h, pcb, seg);
    if (ack) {
        /* Our SYN is acknowledged: ESTABLISHED, and <SEQ=SND.NXT><ACK=RCV.NXT><CTL=ACK>. */
        tcp_handshake_done(h, pcb, seg);
        pcb->accepted = 1;
        seg->seq++; /* past the SYN; data on a SYN-ACK is processed from the sixth step */
        seg->flags &= (uint8_t)~TCP_SYN;
        pcb->ack_now = 1;
        if (seg->len || (seg->flags & TCP_FIN))
            tcp_process_data(h, pcb, seg);
        tcp_output(h, pcb);
        return;
    }
    /* Simultaneous open (RFC 9293 3.5, figure 8): SYN_RECEIVED, and our SYN again with an
     * ACK: <SEQ=ISS><ACK=RCV.NXT><CTL=SYN,ACK>. Not timed: it would be ambiguous. */
    tcp_set_state(h, pcb, TCP_SYN_RECEIVED);
    pcb->rtt_timing = 0;
    pcb->snd_nxt = pcb->iss;
    pcb->quiet_once = 1;
    tcp_output(h, pcb);
}

static void challenge_ack(struct host *h, struct tcp_pcb *pcb, struct tcp_seg *seg)
{
    drop(h, DROP_TCP_RST_CHALLENGE, seg);
    tcp_ack_now(h, pcb);
}

/* RFC 9293 3.10.7.4, second check: a reset with SEG.SEQ = RCV.NXT (RFC 5961 3.2; in the
 * window but not exact gets a challenge ACK, outside it was already dropped). */
static void reset_received(struct host *h, struct tcp_pcb *pcb, struct tcp_seg *seg)
{
    if (seg->seq != pcb->rcv_nxt) {
        challenge_ack(h, pcb, seg);
        return;
    }
    switch (pcb->state) {
    case TCP_SYN_RECEIVED:
        if (pcb->passive) {
            /* Back to LISTEN: for us the listener never left it; this child goes. */
            tcp_conn_done(h, pcb);
            return;
        }
        tcp_conn_fail(h, pcb, ERR_RST); /* connection refused */
        return;
    case TCP_ESTABLISHED:
    case TCP_FIN_WAIT_1:
    case TCP_FIN_WAIT_2:
    case TCP_CLOSE_WAIT: tcp_conn_fail(h, pcb, ERR_RST); return;
    default: /* CLOSING, LAST_ACK, TIME_WAIT: the connection is over anyway */
        tcp_conn_done(h, pcb);
        return;
    }
}

/* RFC 9293 3.10.7.4, first check: is the segment in the receive window? */
static int acceptable(const struct tcp_pcb *pcb, const struct tcp_seg *seg, uint32_t wnd)
{
    uint32_t seglen =
        seg->len + ((seg->flags & TCP_SYN) ? 1u : 0u) + ((seg->flags & TCP_FIN) ? 1u : 0u);
    uint32_t rel = seg->seq - pcb->rcv_nxt;
    if (seglen == 0)
        return wnd == 0 ? seg->seq == pcb->rcv_nxt : rel < wnd;
    if (wnd == 0)
        return 0;
    return rel < wnd || (seg->seq + seglen - 1u - pcb->rcv_nxt) < wnd;
}

/* With a zero window no segment is acceptable, "but special allowance should be made to
 * accept valid ACKs" (RFC 9293 3.10.7.4): a zero-window probe (Linux's is at SND.UNA - 1,
 * without data) may carry the only ACK of our data to come. Taken when it acknowledges new
 * data: an ACK that only repeats SND.UNA is no news, and counting it as a duplicate would
 * be wrong (RFC 5681 2 counts only acceptable segments). */
static int zero_window_ack(const struct tcp_pcb *pcb, const struct tcp_seg *seg, uint32_t wnd)
{
    return wnd == 0 && (seg->flags & (TCP_ACK | TCP_RST | TCP_SYN)) == TCP_ACK &&
           pcb->state != TCP_SYN_RECEIVED && tcp_seq_gt(seg->ack, pcb->snd_una) &&
           tcp_seq_leq(seg->ack, pcb->snd_max);
}

void tcp_input_established(struct host *h, struct tcp_pcb *pcb, struct tcp_seg *seg)
{
    uint32_t wnd = tcp_ring_free(&pcb->rcv);
    if (wnd > TCP_MAX_WINDOW)
        wnd = TCP_MAX_WINDOW;

    /* A peer that lost our ACK of its FIN sends the FIN again: ACK it and restart 2 MSL
     * (RFC 9293 3.10.7.4, eighth check, TIME_WAIT). */
    if (pcb->state == TCP_TIME_WAIT && (seg->flags & TCP_FIN) && !(seg->flags & TCP_RST) &&
        seg->seq + seg->len + 1u == pcb->rcv_nxt) {
        tcp_timewait_start(h, pcb);
        tcp_ack_now(h, pcb);
        return;
    }
    /* Our SYN-ACK was lost and the peer repeats its SYN: repeat the SYN-ACK. */
    if (pcb->state == TCP_SYN_RECEIVED && (seg->flags & (TCP_SYN | TCP_ACK | TCP_RST)) == TCP_SYN &&
        seg->seq == pcb->irs) {
        pcb->snd_nxt = pcb->iss;
        pcb->quiet_once = 1;
        tcp_output(h, pcb);
        return;
    }
    /* The peer's SYN seen again (our ACK of it was lost, or the SYN-ACK of a simultaneous
     * open, RFC 9293 figure 8 line 6): drop the SYN, as BSD does, and acknowledge. */
    if ((seg->flags & TCP_SYN) && seg->seq == pcb->irs) {
        seg->flags &= (uint8_t)~TCP_SYN;
        seg->seq++;
        pcb->ack_now = 1;
    }
    /* A zero window accepts no data, but the ACK, window and RST of a segment starting at
     * RCV.NXT are still processed (RFC 9293 3.10.7.4). */
    if (wnd == 0 && seg->len > 0 && seg->seq == pcb->rcv_nxt && !(seg->flags & TCP_SYN)) {
        drop(h, DROP_TCP_RCVBUF_FULL, seg);
        seg->len = 0;
        seg->flags &= (uint8_t)~TCP_FIN;
        pcb->ack_now = 1;
    }
    if (tcp_process_ts(h, pcb, seg) < 0)
        return;
    if (!acceptable(pcb, seg, wnd)) {
        drop(h, DROP_TCP_BAD_SEQ, seg);
        if (zero_window_ack(pcb, seg, wnd) && tcp_process_ack(h, pcb, seg) < 0)
            return;
        if (!(seg->flags & TCP_RST))
            tcp_ack_now(h, pcb); /* <SEQ=SND.NXT><ACK=RCV.NXT><CTL=ACK> */
        return;
    }
    if (seg->flags & TCP_RST) {
        reset_received(h, pcb, seg);
        return;
    }
    /* Fourth check: a SYN in a synchronized state (RFC 9293 3.10.7.4, RFC 5961 4): a
     * challenge ACK. In SYN_RECEIVED from a listener, the half-open connection goes. */
    if (seg->flags & TCP_SYN) {
        if (pcb->state == TCP_SYN_RECEIVED && pcb->passive) {
            drop(h, DROP_TCP_BAD_FLAGS, seg);
            tcp_conn_done(h, pcb);
            return;
        }
        challenge_ack(h, pcb, seg);
        return;
    }
    /* Trim to the window: what is before RCV.NXT was received already, what is past the
     * right edge does not fit (and a FIN there is not ours to see yet). */
    if (tcp_seq_lt(seg->seq, pcb->rcv_nxt)) {
        uint32_t d = pcb->rcv_nxt - seg->seq;
        if (d >= seg->len) {
            if (d > seg->len)
                seg->flags &= (uint8_t)~TCP_FIN;
            seg->data += seg->len;
            seg->len = 0;
        } else {
            seg->data += d;
            seg->len -= d;
        }
        seg->seq = pcb->rcv_nxt;
        pcb->ack_now = 1; /* a duplicate: tell the peer where we are */
    }
    if (seg->len > 0 && seg->seq + seg->len - pcb->rcv_nxt > wnd) {
        seg->len = pcb->rcv_nxt + wnd - seg->seq;
        seg->flags &= (uint8_t)~TCP_FIN;
        pcb->ack_now = 1;
    }
    /* Fifth check: the ACK field. */
    if (!(seg->flags & TCP_ACK)) {
        drop(h, DROP_TCP_BAD_FLAGS, seg);
        return;
    }
    if (tcp_process_ack(h, pcb, seg) < 0)
        return;
    /* Sixth (URG: not supported, the pointer is ignored), seventh and eighth checks. */
    tcp_process_data(h, pcb, seg);
    if (pcb->in_use)
        tcp_output(h, pcb);
}
