/* The TCP responder (tcp_responder.h): echo and discard answered from the received datagram.
 *
 * Sequence numbers on echo: the answer to the peer's byte k is our byte k, so our stream is
 * theirs moved by `mirror` = SND.NXT - RCV.NXT, which stays the same from the handshake to
 * the close (every byte taken is echoed at once, and the two FINs pair up). The peer's
 * ACK field then tells which of its bytes it has had back: everything before
 * SEG.ACK - mirror. Bytes from there to RCV.NXT were taken and echoed, but their echo is
 * not yet acknowledged; if the peer sends them again, its first answer was lost, and they
 * are echoed again. That is the responder's receive window: from SEG.ACK - mirror (RCV.NXT
 * on discard) to RCV.NXT + RCV.WND, where the full TCP's starts at RCV.NXT. */
#include "tcp_responder.h"

#include <string.h>

#include "bytes.h"
#include "host.h"
#include "inet_chksum.h"
#include "tcp_responder_int.h"

/* A SYN-ACK's MSS option, kind 2, length 4: the one option an answer has. */
#define RSP_MSS_OPT 4

/* What the responder needs of a segment, read before its answer is written over it. */
struct rsp_seg {
    uint32_t seq, ack;
    uint16_t sport, dport;
    uint16_t wnd;
    uint16_t len;      /* data bytes */
    uint16_t data;     /* where they start, from rx->dgram */
    uint16_t peer_mss; /* the SYN's MSS option; TCP_DEFAULT_MSS without one */
    uint8_t flags;
    uint8_t data_summed; /* data_sum holds the sum of the data (the checksum was checked) */
    uint32_t data_sum;   /* inet_sum() of the data bytes, for the echo's checksum */
};

size_t tcp_responder_mem_required(const struct host_config *cfg)
{
    return host_arena_cost((size_t)cfg->tcp_responder_conns * sizeof(struct tcp_responder_conn)) +
           host_arena_cost(TCP_RESPONDER_MARK_BYTES(cfg->tcp_responder_conns));
}

int tcp_responder_init(struct host *h, struct host_arena *arena)
{
    uint8_t conns = HOST_CFG(h).tcp_responder_conns;
    struct tcp_responder_state *r = &h->responder;
    r->conns = host_arena_take(arena, (size_t)conns * sizeof(struct tcp_responder_conn));
    r->marks = host_arena_take(arena, TCP_RESPONDER_MARK_BYTES(conns));
    r->busy_since = 0;
    r->hand = 0;
    r->open = 0;
    r->turn = 0;
    r->n_waiting = 0;
    r->owed = 0;
    r->netif = 0;
#if !TCP_RESPONDER_PEER_ADDR
    r->peer = 0;
#endif
    return r->conns && r->marks ? ERR_OK : ERR_MEM;
}

static void rsp_set_state(struct host *h, struct tcp_responder_conn *c, uint8_t to)
{
#if STACK_TRACE
    struct trace_event ev;
    if (h->tracer.fn) {
        memset(&ev, 0, sizeof ev);
        ev.kind = TRACE_TCP_STATE;
        ev.conn = (uint8_t)(c - h->responder.conns);
        ev.netif = 0xFF;
        ev.lport = (c->flags & TCP_RESPONDER_F_DISCARD) ? TCP_RESPONDER_DISCARD_PORT
                                                        : TCP_RESPONDER_ECHO_PORT;
        ev.rport = c->rport;
        ev.a = rsp_state_of(c);
        ev.b = to;
        trace_emit(h, &ev);
    }
#endif
    if (rsp_in_use(rsp_state_of(c)) != rsp_in_use(to))
        h->responder.open =
            (uint8_t)(rsp_in_use(to) ? h->responder.open + 1u : h->responder.open - 1u);
    if (!rsp_in_use(to))
        rsp_turn_closed(h, (uint8_t)(c - h->responder.conns), rsp_in_use(rsp_state_of(c)));
    c->flags = (uint8_t)((c->flags & ~TCP_RESPONDER_F_STATE) | to);
}

/* RFC 9293 3.1 options: the MSS is read, every other kind skipped by its length; a length
 * that runs past the header, or is wrong for MSS or timestamps, makes the segment bad (as
 * the full TCP's tcp_opts_parse). */
static int rsp_options(const uint8_t *p, uint16_t len, uint16_t *mss)
{
    uint16_t i = 0;
    while (i < len && p[i] != 0) {
        uint8_t olen;
        if (p[i] == 1) {
            i++;
            continue;
        }
        if (i + 1 >= len)
            return -1;
        olen = p[i + 1];
        if (olen < 2 || olen > len - i || (p[i] == 2 && olen != 4) || (p[i] == 8 && olen != 10))
            return -1;
        if (p[i] == 2)
            *mss = rd16(p + i + 2);
        i = (uint16_t)(i + olen);
    }
    return 0;
}

/* The full TCP's checks on input (tcp_in.c): length, data offset, checksum, options. */
static enum drop_reason rsp_parse(const struct host *h, const struct ip_rx *rx, struct rsp_seg *s)
{
    const uint8_t *p = rx->dgram + rx->hlen;
    uint16_t tlen = (uint16_t)(rx->len - rx->hlen), off;
    if (tlen < TCP_HLEN)
        return DROP_TCP_SHORT;
    off = (uint16_t)((p[TCP_OFF_DATAOFF] >> 4) * 4u);
    if (off < TCP_HLEN || off > tlen)
        return DROP_TCP_SHORT;
    /* The header and the data are summed apart: the data's sum is the larger part of the
     * echo's checksum too (rsp_checksum), and the board has no time to sum it twice. */
    s->data_summed = !HOST_CFG(h).skip_checksum_check;
    if (s->data_summed) {
        s->data_sum = inet_sum(0, p + off, (uint16_t)(tlen - off));
        if (inet_fold(inet_sum(inet_pseudo_sum(rx->src, rx->dst, IP_PROTO_TCP, tlen), p, off) +
                      s->data_sum) != 0)
            return DROP_TCP_CHKSUM;
    }
    s->peer_mss = TCP_DEFAULT_MSS; /* RFC 9293 3.7.1: without the option, 536 */
    if (rsp_options(p + TCP_HLEN, (uint16_t)(off - TCP_HLEN), &s->peer_mss) != 0)
        return DROP_TCP_BAD_OPTION;
    s->sport = rd16(p + TCP_OFF_SRC_PORT);
    s->dport = rd16(p + TCP_OFF_DST_PORT);
    s->seq = rd32(p + TCP_OFF_SEQ);
    s->ack = rd32(p + TCP_OFF_ACK);
    s->flags = (uint8_t)(p[TCP_OFF_FLAGS] & 0x3Fu);
    s->wnd = rd16(p + TCP_OFF_WND);
    s->data = (uint16_t)(rx->hlen + off);
    s->len = (uint16_t)(tlen - off);
    return DROP_NONE;
}

/* The answer's checksum (RFC 9293 3.1). An echo of all the request's data has the data's
 * sum of the request: only its header is summed then. The data starts at an even offset
 * in both (headers are multiples of 4 bytes), so its bytes pair into the same 16-bit
 * words, and where the words sit does not change a one's complement sum (RFC 1071 2). */
static uint16_t rsp_checksum(const struct ip_rx *rx, const struct rsp_seg *s,
                             const struct rsp_ans *a, const uint8_t *t, uint16_t tlen)
{
    uint32_t sum = inet_pseudo_sum(rx->dst, rx->src, IP_PROTO_TCP, tlen);
    uint16_t hdr = (uint16_t)(tlen - a->n);
    if (a->n && s->data_summed && a->from == s->data && a->n == s->len)
        return inet_fold(inet_sum(sum, t, hdr) + s->data_sum);
    return inet_fold(inet_sum(sum, t, tlen));
}

void rsp_header(uint8_t *t, uint16_t sport, uint16_t dport, const struct rsp_ans *a, uint16_t opt)
{
    wr16(t + TCP_OFF_SRC_PORT, sport);
    wr16(t + TCP_OFF_DST_PORT, dport);
    wr32(t + TCP_OFF_SEQ, a->seq);
    wr32(t + TCP_OFF_ACK, a->ack);
    t[TCP_OFF_DATAOFF] = (uint8_t)(((TCP_HLEN + opt) / 4u) << 4);
    t[TCP_OFF_FLAGS] = a->flags;
    wr16(t + TCP_OFF_WND, a->wnd);
    wr16(t + TCP_OFF_CHKSUM, 0);
    wr16(t + TCP_OFF_URG, 0);
}

/* Writes the answer over the request and sends it back (the request's fields are in *s
 * already). Only a SYN-ACK can be longer than its request, by its MSS option, and only
 * than a SYN without options: it goes to h->txbuf then, unless the request is there. */
static int rsp_send(struct host *h, struct ip_rx *rx, const struct rsp_seg *s,
                    const struct rsp_ans *a)
{
    uint16_t opt = a->mss ? RSP_MSS_OPT : 0;
    uint16_t tlen = (uint16_t)(TCP_HLEN + opt + a->n);
    uint8_t *d = rx->dgram, *t;
    int err;
    if (IP_HLEN + tlen > rx->len && d != h->txbuf)
        d = h->txbuf;
    /* down (from >= RSP_HDRS); a request without options has its data in place already,
     * and moving 536 bytes onto themselves costs the Uno a quarter of a millisecond */
    if (a->n && d + RSP_HDRS != rx->dgram + a->from)
        memmove(d + RSP_HDRS, rx->dgram + a->from, a->n);
    t = d + IP_HLEN;
    rsp_header(t, s->dport, s->sport, a, opt);
    if (opt) {
        t[TCP_HLEN] = 2; /* RFC 9293 3.2: MSS, kind 2, length 4 */
        t[TCP_HLEN + 1] = RSP_MSS_OPT;
        wr16(t + TCP_HLEN + 2, a->mss);
    }
    wr16(t + TCP_OFF_CHKSUM, rsp_checksum(rx, s, a, t, tlen));
    err = ip_output_at(h, d, rx->dst, rx->src, IP_PROTO_TCP, tlen, 0);
    return err < 0 ? err : 1;
}

/* RFC 9293 3.10.7.1: no connection. <SEQ=SEG.ACK><CTL=RST> for a segment with an ACK,
 * else <SEQ=0><ACK=SEG.SEQ+SEG.LEN><CTL=RST,ACK>. */
static int rsp_reset(struct host *h, struct ip_rx *rx, const struct rsp_seg *s)
{
    struct rsp_ans a;
    memset(&a, 0, sizeof a);
    if (s->flags & TCP_ACK) {
        a.seq = s->ack;
        a.flags = TCP_RST;
    } else {
        a.ack =
            s->seq + s->len + ((s->flags & TCP_SYN) ? 1u : 0u) + ((s->flags & TCP_FIN) ? 1u : 0u);
        a.flags = TCP_RST | TCP_ACK;
    }
    return rsp_send(h, rx, s, &a);
}

/* <SEQ=SND.NXT><ACK=RCV.NXT><CTL=ACK>: the current numbers, nothing else. */
static int rsp_ack(struct host *h, struct tcp_responder_conn *c, struct ip_rx *rx,
                   const struct rsp_seg *s)
{
    struct rsp_ans a;
    memset(&a, 0, sizeof a);
    a.seq = c->snd_nxt;
    a.ack = c->rcv_nxt;
    a.wnd = rsp_offer(h, c, rsp_wnd(h, c, rx->netif), RSP_USE_PART);
    a.flags = TCP_ACK;
    return rsp_send(h, rx, s, &a);
}

/* <SEQ=ISS><ACK=RCV.NXT><CTL=SYN,ACK> with an MSS option: ours, or the peer's when that is
 * smaller, so that no segment the peer sends has an echo larger than it takes. */
static int rsp_syn_ack(struct host *h, struct tcp_responder_conn *c, struct ip_rx *rx,
                       const struct rsp_seg *s)
{
    struct rsp_ans a;
    uint16_t mss = rsp_mss(h, rx->netif);
    memset(&a, 0, sizeof a);
    a.seq = c->snd_nxt - 1u;
    a.ack = c->rcv_nxt;
    /* a new connection takes its turn behind those waiting */
    a.wnd = rsp_offer(h, c, rsp_wnd(h, c, rx->netif), RSP_USE_NEW);
    a.mss = s->peer_mss && s->peer_mss < mss ? s->peer_mss : mss;
    a.flags = TCP_SYN | TCP_ACK;
    return rsp_send(h, rx, s, &a);
}

static struct tcp_responder_conn *rsp_lookup(struct host *h, uint32_t raddr,
                                             const struct rsp_seg *s)
{
    int i = tcp_responder_find(h, s->dport, raddr, s->sport);
    return i < 0 ? NULL : &h->responder.conns[i];
}

/* A free entry, or the first one the second-chance sweep finds quiet (tcp_responder.h). */
static struct tcp_responder_conn *rsp_alloc(struct host *h)
{
    struct tcp_responder_state *r = &h->responder;
    uint8_t i, n = HOST_CFG(h).tcp_responder_conns;
    for (i = 0; i < n; i++)
        if (rsp_state_of(&r->conns[i]) == TCP_CLOSED)
            return &r->conns[i];
    for (i = 0; i < n; i++) {
        struct tcp_responder_conn *c = &r->conns[r->hand];
        if (++r->hand == n)
            r->hand = 0;
        if (!(c->flags & TCP_RESPONDER_F_SEEN)) {
            rsp_set_state(h, c, TCP_CLOSED); /* its peer has gone quiet: reclaimed */
            return c;
        }
        c->flags &= (uint8_t)~TCP_RESPONDER_F_SEEN;
    }
    return NULL;
}

/* RFC 9293 3.10.7.2 on ports 7 and 9: SYN_RECEIVED and a SYN-ACK. Data on the SYN is not
 * taken (nor acknowledged): the peer sends it again, as the full TCP has it. */
static int rsp_open(struct host *h, struct ip_rx *rx, const struct rsp_seg *s)
{
    struct tcp_responder_conn *c = rsp_alloc(h);
    if (!c) {
        host_drop(h, DROP_TCP_NO_PCB_MEM, IP_PROTO_TCP, (uint16_t)(rx->len - rx->hlen));
        return 0;
    }
#if TCP_RESPONDER_PEER_ADDR
    c->raddr = rx->src;
#endif
    c->rport = s->sport;
    c->flags = (uint8_t)(TCP_LISTEN | TCP_RESPONDER_F_SEEN |
                         (s->dport == TCP_RESPONDER_DISCARD_PORT ? TCP_RESPONDER_F_DISCARD : 0));
    c->rcv_nxt = s->seq + 1u;
    c->snd_nxt = host_random(h) + 1u; /* ISS + 1 */
    rsp_set_state(h, c, TCP_SYN_RECEIVED);
    rsp_busy(h, c);
    return rsp_syn_ack(h, c, rx, s);
}

/* No entry: a SYN to 7 or 9 opens one; anything else but a reset gets a reset. */
static int rsp_closed(struct host *h, struct ip_rx *rx, const struct rsp_seg *s)
{
    if ((s->flags & (TCP_SYN | TCP_ACK | TCP_RST)) == TCP_SYN &&
        (s->dport == TCP_RESPONDER_ECHO_PORT || s->dport == TCP_RESPONDER_DISCARD_PORT))
        return rsp_open(h, rx, s);
    host_drop(h, DROP_TCP_NO_PCB, IP_PROTO_TCP, (uint16_t)(rx->len - rx->hlen));
    if (s->flags & TCP_RST)
        return 0; /* a reset is never answered */
    return rsp_reset(h, rx, s);
}

/* RFC 5961 3.2: a reset at exactly RCV.NXT closes; in the window, a challenge ACK; outside
 * it, nothing. */
static int rsp_reset_in(struct host *h, struct tcp_responder_conn *c, struct ip_rx *rx,
                        const struct rsp_seg *s)
{
    uint16_t tl = (uint16_t)(rx->len - rx->hlen);
    if (s->seq == c->rcv_nxt) {
        rsp_set_state(h, c, TCP_CLOSED);
        return 0;
    }
    if (s->seq - c->rcv_nxt < rsp_rcv_wnd(h, c, rx->netif)) {
        host_drop(h, DROP_TCP_RST_CHALLENGE, IP_PROTO_TCP, tl);
        return rsp_ack(h, c, rx, s);
    }
    host_drop(h, DROP_TCP_BAD_SEQ, IP_PROTO_TCP, tl);
    return 0;
}

/* A SYN on a connection: our SYN-ACK was lost and the peer repeats its SYN (the same
 * SYN-ACK again); in SYN_RECEIVED another SYN sends the half-open entry back to LISTEN, as
 * RFC 9293 3.10.7.4's fourth check says for a passive open; in a synchronized state, a
 * challenge ACK (RFC 5961 4.2). */
static int rsp_syn_in(struct host *h, struct tcp_responder_conn *c, struct ip_rx *rx,
                      const struct rsp_seg *s)
{
    uint16_t tl = (uint16_t)(rx->len - rx->hlen);
    if (rsp_state_of(c) == TCP_SYN_RECEIVED) {
        if (!(s->flags & TCP_ACK) && s->seq + 1u == c->rcv_nxt)
            return rsp_syn_ack(h, c, rx, s);
        host_drop(h, DROP_TCP_BAD_FLAGS, IP_PROTO_TCP, tl);
        rsp_set_state(h, c, TCP_CLOSED);
        return 0;
    }
    host_drop(h, DROP_TCP_RST_CHALLENGE, IP_PROTO_TCP, tl);
    return rsp_ack(h, c, rx, s);
}

/* RFC 9293 3.10.7.4 first check, over the window [left, right). */
static int rsp_acceptable(const struct rsp_seg *s, uint32_t left, uint32_t right)
{
    uint32_t seglen = (uint32_t)s->len + ((s->flags & TCP_FIN) ? 1u : 0u);
    uint32_t span = right - left;
    if (seglen == 0)
        return span ? s->seq - left < span : s->seq == left; /* a zero window: RCV.NXT only */
    return s->seq - left < span || s->seq + seglen - 1u - left < span;
}

/* The text and FIN of an acceptable segment starting at or before RCV.NXT (seventh and
 * eighth checks): what can be taken is taken, echoed or dropped, and acknowledged. */
static int rsp_text(struct host *h, struct tcp_responder_conn *c, struct ip_rx *rx,
                    const struct rsp_seg *s, uint32_t left, uint16_t wnd)
{
    uint32_t right = c->rcv_nxt + wnd, full = right;
    int echo = !(c->flags & TCP_RESPONDER_F_DISCARD);
    uint32_t mirror = c->snd_nxt - c->rcv_nxt;
    uint32_t end = s->seq + s->len, from = tcp_seq_lt(s->seq, left) ? left : s->seq, to = end;
    uint32_t edge = s->ack + s->wnd - mirror; /* echo: the peer's window, in its numbers */
    struct rsp_ans a;

    if (rsp_state_of(c) == TCP_LAST_ACK)
        right = c->rcv_nxt; /* after the peer's FIN there is no new text to take */
    if (tcp_seq_gt(to, right))
        to = right; /* RFC 9293 3.10.7.4: trimmed to the window */
    if (echo) {
        if (to - from > rsp_mss(h, rx->netif))
            to = from + rsp_mss(h, rx->netif);
        if (tcp_seq_gt(to, edge))
            to = tcp_seq_lt(edge, from) ? from : edge;
    }
    if (tcp_seq_gt(to, c->rcv_nxt)) {
        uint32_t taken = to - c->rcv_nxt;
        c->rcv_nxt = to;
        if (echo)
            c->snd_nxt += taken;
    }
    memset(&a, 0, sizeof a);
    a.flags = TCP_ACK;
    if (echo && to != from) {
        a.from = (uint16_t)(s->data + (from - s->seq));
        a.n = (uint16_t)(to - from);
        a.flags |= TCP_PSH;
    } else if (to == from && tcp_seq_lt(from, end)) {
        /* Text to take, none taken: no room in the peer's window for its echo, or text
         * after the peer's FIN (RFC 9293 3.10.7.4, seventh check: ignored). */
        host_drop(h, echo && !tcp_seq_gt(edge, from) ? DROP_TCP_ECHO_NO_ROOM : DROP_TCP_BAD_SEQ,
                  IP_PROTO_TCP, (uint16_t)(rx->len - rx->hlen));
    }
    /* The FIN once all the text before it is taken, and on echo when the peer's window
     * has room for ours (else it is left for the peer to send again). */
    if ((s->flags & TCP_FIN) && to == end && (!echo || tcp_seq_lt(end, edge))) {
        if (rsp_state_of(c) == TCP_ESTABLISHED && c->rcv_nxt == end) {
            /* The FIN taken, and ours with its ACK: the service closes when the peer does. */
            c->rcv_nxt++;
            c->snd_nxt++;
            rsp_set_state(h, c, TCP_CLOSE_WAIT);
            rsp_set_state(h, c, TCP_LAST_ACK);
        }
        if (rsp_state_of(c) == TCP_LAST_ACK && c->rcv_nxt == end + 1u)
            a.flags |= TCP_FIN; /* the first time, or again: our FIN-ACK was lost */
    }
    if (!s->len && !(a.flags & TCP_FIN))
        return 0; /* an acceptable pure ACK: nothing to answer */
    a.seq = a.n ? from + mirror : c->snd_nxt - ((a.flags & TCP_FIN) ? 1u : 0u);
    a.ack = c->rcv_nxt;
    /* rsp_segment's window: taking text does not change who is busy */
    a.wnd = rsp_offer(h, c, rsp_wnd(h, c, rx->netif),
                      c->rcv_nxt == full ? RSP_USE_FILLED : RSP_USE_PART);
    return rsp_send(h, rx, s, &a);
}

/* Does the peer lack echo that it will never get? An answer was lost, and a later one's
 * cumulative ACK covered the data it echoed, which the peer then took off its
 * retransmission queue: nobody holds those bytes any more. The peer sends only within the
 * window of the last ACK it has had (RFC 9293 3.8.6), and each answer carried the echo up
 * to the point it acknowledged. But the ACK field of a segment (`left`, mirrored) may lag
 * the echo its sender holds by one answer: Linux was seen sending a whole window past an
 * ACK field that caught up with the echo 48 ms later (firmware/README.md, Linux as the
 * peer). So only a segment that starts two windows or more past `left` (or a pure ACK
 * beyond that) proves an ACK beyond the echo the peer holds; on a path that keeps the
 * order (a serial line) only a lost answer does that. The peer keeps sending after such a
 * loss (our ACKs keep opening its window), so it gets there within two windows: of the
 * largest it may have been offered, a connection alone's, whatever it is offered now. */
static int rsp_echo_lost(const struct rsp_seg *s, uint32_t left, uint16_t wnd)
{
    uint32_t ahead = s->seq - left, proof = 2u * (uint32_t)wnd;
    if (tcp_seq_lt(s->seq, left))
        return 0;
    return s->len ? ahead >= proof : ahead > proof;
}

/* A segment with ACK (no SYN, no RST) on a connection, RFC 9293 3.10.7.4. */
static int rsp_segment(struct host *h, struct tcp_responder_conn *c, struct ip_rx *rx,
                       const struct rsp_seg *s)
{
    uint16_t tl = (uint16_t)(rx->len - rx->hlen), wnd = rsp_rcv_wnd(h, c, rx->netif);
    uint32_t left = c->rcv_nxt, right = c->rcv_nxt + wnd;
    uint8_t st = rsp_state_of(c);

    if (st == TCP_SYN_RECEIVED) {
        if (!rsp_acceptable(s, left, right)) {
            host_drop(h, DROP_TCP_BAD_SEQ, IP_PROTO_TCP, tl);
            return rsp_ack(h, c, rx, s);
        }
        if (s->ack != c->snd_nxt) { /* fifth check: <SEQ=SEG.ACK><CTL=RST> */
            host_drop(h, DROP_TCP_BAD_ACK, IP_PROTO_TCP, tl);
            return rsp_reset(h, rx, s);
        }
        rsp_set_state(h, c, TCP_ESTABLISHED);
    } else {
        /* RFC 9293 3.10.7.4 / RFC 5961 5.2: SND.NXT - MAX.SND.WND <= SEG.ACK <= SND.NXT,
         * MAX.SND.WND taken as the largest window without scaling. */
        if (tcp_seq_gt(s->ack, c->snd_nxt) || c->snd_nxt - s->ack > TCP_MAX_WINDOW) {
            host_drop(h, DROP_TCP_BAD_ACK, IP_PROTO_TCP, tl);
            return rsp_ack(h, c, rx, s);
        }
        if (!(c->flags & TCP_RESPONDER_F_DISCARD))
            left = s->ack - (c->snd_nxt - c->rcv_nxt); /* echo not yet acknowledged */
        else if (st == TCP_LAST_ACK)
            left = c->rcv_nxt - 1u; /* the peer's FIN, sent again */
        if (!rsp_acceptable(s, left, right)) {
            host_drop(h, DROP_TCP_BAD_SEQ, IP_PROTO_TCP, tl);
            return rsp_ack(h, c, rx, s);
        }
        if (st == TCP_LAST_ACK && s->ack == c->snd_nxt) {
            rsp_set_state(h, c, TCP_CLOSED); /* our FIN is acknowledged: the entry is free */
            return 0;
        }
        if (!(c->flags & TCP_RESPONDER_F_DISCARD) &&
            rsp_echo_lost(s, left, rsp_wnd_alone(h, rx->netif))) {
            /* Better a reset the peer's application sees than a connection that waits for
             * ever; <SEQ=SEG.ACK> is the peer's RCV.NXT, so it takes the reset (RFC 5961 3.2). */
            host_drop(h, DROP_TCP_ECHO_LOST, IP_PROTO_TCP, tl);
            rsp_set_state(h, c, TCP_CLOSED);
            return rsp_reset(h, rx, s);
        }
    }
    if (tcp_seq_gt(s->seq, c->rcv_nxt)) {
        if (!s->len && !(s->flags & TCP_FIN))
            return 0;
        host_drop(h, DROP_TCP_OOO_OFF, IP_PROTO_TCP, tl); /* nowhere to keep it */
        return rsp_ack(h, c, rx, s);
    }
    return rsp_text(h, c, rx, s, left, wnd);
}

/* A segment that passed the checks, to its connection (RFC 9293 3.10.7). */
static int rsp_dispatch(struct host *h, struct ip_rx *rx, const struct rsp_seg *s)
{
    uint16_t tl = (uint16_t)(rx->len - rx->hlen);
    struct tcp_responder_conn *c = rsp_lookup(h, rx->src, s);
    if (!c)
        return rsp_closed(h, rx, s);
    c->flags |= TCP_RESPONDER_F_SEEN;
    rsp_busy(h, c);
    if (s->flags & TCP_RST)
        return rsp_reset_in(h, c, rx, s);
    if (s->flags & TCP_SYN)
        return rsp_syn_in(h, c, rx, s);
    if (!(s->flags & TCP_ACK)) {
        host_drop(h, DROP_TCP_BAD_FLAGS, IP_PROTO_TCP, tl);
        return 0;
    }
    return rsp_segment(h, c, rx, s);
}

int tcp_responder_input(struct host *h, struct ip_rx *rx)
{
    struct rsp_seg s;
    uint16_t tl = (uint16_t)(rx->len - rx->hlen);
    enum drop_reason why = rsp_parse(h, rx, &s);

    if (why != DROP_NONE) {
        host_drop(h, why, IP_PROTO_TCP, tl);
        return 0;
    }
    /* RFC 1122 4.2.3.10: nothing to or from a broadcast or multicast address. */
    if (rx->dst == 0xFFFFFFFFu || (rx->dst >> 28) == 0xE) {
        host_drop(h, DROP_TCP_NO_PCB, IP_PROTO_TCP, tl);
        return 0;
    }
    h->responder.netif = rx->netif; /* where a window update would go (rsp_window_update) */
#if !TCP_RESPONDER_PEER_ADDR
    h->responder.peer = rx->src;
#endif
    return rsp_dispatch(h, rx, &s);
}

uint8_t tcp_responder_count(const struct host *h)
{
    return h->responder.open;
}

int tcp_responder_find(const struct host *h, uint16_t lport, uint32_t raddr, uint16_t rport)
{
    uint8_t i, svc;
    if (lport != TCP_RESPONDER_ECHO_PORT && lport != TCP_RESPONDER_DISCARD_PORT)
        return -1;
    svc = lport == TCP_RESPONDER_DISCARD_PORT ? TCP_RESPONDER_F_DISCARD : 0;
#if !TCP_RESPONDER_PEER_ADDR
    (void)raddr;
#endif
    for (i = 0; i < HOST_CFG(h).tcp_responder_conns; i++) {
        const struct tcp_responder_conn *c = &h->responder.conns[i];
        if (rsp_state_of(c) != TCP_CLOSED && c->rport == rport &&
#if TCP_RESPONDER_PEER_ADDR
            c->raddr == raddr &&
#endif
            (c->flags & TCP_RESPONDER_F_DISCARD) == svc)
            return i;
    }
    return -1;
}

const struct tcp_responder_conn *tcp_responder_conn(const struct host *h, uint8_t i)
{
    return i < HOST_CFG(h).tcp_responder_conns ? &h->responder.conns[i] : NULL;
}
