/* The window the TCP responder offers each connection (tcp_responder.h: the window, and
 * turns): one MSS each while several connections are busy, and at most
 * TCP_RESPONDER_WINDOWS of them holding a window at once, the others waiting their turn
 * with a zero window, given it by a window update when a holder gives one up. */
#include <string.h>

#include "bytes.h"
#include "inet_chksum.h"
#include "ip.h"
#include "tcp_responder_int.h"

/* Marks kept for each entry, a bit each in a plane of their own (r->marks). */
enum rsp_mark {
    RSP_WAITING, /* its window closed, its turn to come */
    RSP_FILLS0,  /* how often it filled its window in this turn (TCP_RESPONDER_TURN), */
    RSP_FILLS1,  /* two bits */
    RSP_MARKS
};

#if TCP_RESPONDER_TURN < 1 || TCP_RESPONDER_TURN > 4
#error "TCP_RESPONDER_TURN: 1 to 4 windows (a two-bit count)"
#endif

static size_t rsp_plane_bytes(uint8_t conns)
{
    return TCP_RESPONDER_MARK_BYTES(conns) / RSP_MARKS;
}

static int rsp_mark(const struct host *h, enum rsp_mark m, uint8_t i)
{
    const uint8_t *plane =
        h->responder.marks + m * rsp_plane_bytes(HOST_CFG(h).tcp_responder_conns);
    return (plane[i >> 3] >> (i & 7u)) & 1u;
}

static void rsp_set_mark(struct host *h, enum rsp_mark m, uint8_t i, int on)
{
    uint8_t *plane = h->responder.marks + m * rsp_plane_bytes(HOST_CFG(h).tcp_responder_conns);
    uint8_t bit = (uint8_t)(1u << (i & 7u));
    if (rsp_mark(h, m, i) == !!on)
        return;
    if (on)
        plane[i >> 3] |= bit;
    else
        plane[i >> 3] &= (uint8_t)~bit;
    if (m == RSP_WAITING)
        h->responder.n_waiting =
            (uint8_t)(on ? h->responder.n_waiting + 1u : h->responder.n_waiting - 1u);
}

static int rsp_waiting(const struct host *h, uint8_t i)
{
    return rsp_mark(h, RSP_WAITING, i);
}

static uint8_t rsp_fills(const struct host *h, uint8_t i)
{
    return (uint8_t)(rsp_mark(h, RSP_FILLS0, i) | rsp_mark(h, RSP_FILLS1, i) << 1);
}

static void rsp_set_fills(struct host *h, uint8_t i, uint8_t n)
{
    rsp_set_mark(h, RSP_FILLS0, i, n & 1u);
    rsp_set_mark(h, RSP_FILLS1, i, n & 2u);
}

/* Its turn has come, or it waits again (a turn's count of windows filled begins at 0). */
static void rsp_set_waiting(struct host *h, uint8_t i, int on)
{
    rsp_set_mark(h, RSP_WAITING, i, on);
    rsp_set_fills(h, i, 0);
}

/* c's entry closed (it was open: `was_in_use`): a holder's place is free for the next turn,
 * and the entry waits no more. */
void rsp_turn_closed(struct host *h, uint8_t i, int was_in_use)
{
    if (was_in_use && !rsp_waiting(h, i) && h->responder.n_waiting)
        h->responder.owed++;
    rsp_set_waiting(h, i, 0);
}

/* The MSS of the interface a segment came in on (cfg.tcp_mss when smaller): the largest
 * answer that leaves by it unfragmented. */
uint16_t rsp_mss(const struct host *h, uint8_t netif)
{
    uint16_t m = (uint16_t)(h->netifs[netif].mtu - RSP_HDRS);
    uint16_t cfg = HOST_CFG(h).tcp_mss;
    return cfg && cfg < m ? cfg : m;
}

/* The window of a connection alone: cfg.tcp_responder_wnd, one MSS when 0. The largest
 * any peer is offered. */
uint16_t rsp_wnd_alone(const struct host *h, uint8_t netif)
{
    uint16_t w = HOST_CFG(h).tcp_responder_wnd;
    return w ? w : rsp_mss(h, netif);
}

/* A segment arrived for c: it is busy for this period and the next. A period that has
 * ended moves every entry's mark back one period (two or more: both marks cleared). */
void rsp_busy(struct host *h, struct tcp_responder_conn *c)
{
    struct tcp_responder_state *r = &h->responder;
    stack_time_t since = h->now - r->busy_since;
    if (since >= TCP_RESPONDER_BUSY_US) {
        uint8_t i, n = HOST_CFG(h).tcp_responder_conns;
        uint8_t keep = since < 2u * TCP_RESPONDER_BUSY_US ? TCP_RESPONDER_F_BUSY : 0u;
        for (i = 0; i < n; i++) {
            struct tcp_responder_conn *e = &r->conns[i];
            uint8_t was = e->flags & keep;
            e->flags &= (uint8_t) ~(TCP_RESPONDER_F_BUSY | TCP_RESPONDER_F_BUSY_PREV);
            if (was)
                e->flags |= TCP_RESPONDER_F_BUSY_PREV;
        }
        r->busy_since = h->now;
    }
    c->flags |= TCP_RESPONDER_F_BUSY;
}

/* Whether a connection other than c is open and busy. */
static int rsp_others_busy(const struct host *h, const struct tcp_responder_conn *c)
{
    uint8_t i, n = HOST_CFG(h).tcp_responder_conns;
    for (i = 0; i < n; i++) {
        const struct tcp_responder_conn *e = &h->responder.conns[i];
        if (e != c && rsp_in_use(rsp_state_of(e)) &&
            (e->flags & (TCP_RESPONDER_F_BUSY | TCP_RESPONDER_F_BUSY_PREV)))
            return 1;
    }
    return 0;
}

/* One MSS each when several connections are busy (tcp_responder.h: the window). */
uint16_t rsp_wnd(const struct host *h, const struct tcp_responder_conn *c, uint8_t netif)
{
    uint16_t w = rsp_wnd_alone(h, netif), mss = rsp_mss(h, netif);
    return w > mss && rsp_others_busy(h, c) ? mss : w;
}

/* Connections holding a window and using it: open, busy and not waiting. */
static uint8_t rsp_holding(const struct host *h)
{
    const struct tcp_responder_state *r = &h->responder;
    uint8_t i, n = HOST_CFG(h).tcp_responder_conns, k = 0;
    for (i = 0; i < n; i++) {
        const struct tcp_responder_conn *e = &r->conns[i];
        if (rsp_in_use(rsp_state_of(e)) && !rsp_waiting(h, i) &&
            (e->flags & (TCP_RESPONDER_F_BUSY | TCP_RESPONDER_F_BUSY_PREV)))
            k++;
    }
    return k;
}

/* The window offered to c in an answer (tcp_responder.h: turns), `wnd` being the one it
 * may fill (rsp_wnd) and `use` what the segment answered did with it. A connection that
 * waits is offered nothing while
 * TCP_RESPONDER_WINDOWS hold a window or are owed one. One that has filled its window
 * TCP_RESPONDER_TURN times in its turn waits from then on, if another waits or too many
 * hold one; its right edge stays where the full segment ended. */
uint16_t rsp_offer(struct host *h, struct tcp_responder_conn *c, uint16_t wnd, enum rsp_use use)
{
    struct tcp_responder_state *r = &h->responder;
    uint8_t i = (uint8_t)(c - r->conns);
    if (rsp_waiting(h, i)) {
        /* a place a holder gave up is the next turn's, in order, not the first prober's */
        if (rsp_holding(h) + r->owed >= TCP_RESPONDER_WINDOWS)
            return 0;
        rsp_set_waiting(h, i, 0);
        rsp_busy(h, c); /* the window given counts as used until a busy period shows not */
        return wnd;
    }
    if (use == RSP_USE_PART || (!r->n_waiting && rsp_holding(h) <= TCP_RESPONDER_WINDOWS))
        return wnd;
    if (use == RSP_USE_FILLED && rsp_fills(h, i) + 1u < TCP_RESPONDER_TURN) {
        rsp_set_fills(h, i, (uint8_t)(rsp_fills(h, i) + 1u));
        return wnd;
    }
    rsp_set_waiting(h, i, 1);
    r->owed++;
    if (r->turn == i)
        r->turn = (uint8_t)(i + 1u); /* next in the round: it goes to the back */
    return 0;
}

/* The window a segment of c is taken in: the one offered last, none while it waits. */
uint16_t rsp_rcv_wnd(const struct host *h, const struct tcp_responder_conn *c, uint8_t netif)
{
    return rsp_waiting(h, (uint8_t)(c - h->responder.conns)) ? 0 : rsp_wnd(h, c, netif);
}

/* A window update for w, <SEQ=SND.NXT><ACK=RCV.NXT><CTL=ACK> with one MSS: its turn. It
 * is not an answer, so it has a buffer of its own: on a device the datagram buffer may
 * hold frames still to be answered. It leaves by the interface the last segment came in
 * on, to w's peer, or to that segment's sender when entries keep no address
 * (TCP_RESPONDER_PEER_ADDR 0: a point-to-point line). */
static STACK_NOINLINE int rsp_window_update(struct host *h, const struct tcp_responder_conn *w)
{
    const struct tcp_responder_state *r = &h->responder;
    uint8_t d[RSP_HDRS];
    uint8_t *t = d + IP_HLEN;
    uint32_t from = h->netifs[r->netif].addr;
    struct rsp_ans a;
#if TCP_RESPONDER_PEER_ADDR
    uint32_t to = w->raddr;
#else
    uint32_t to = r->peer;
#endif
    memset(&a, 0, sizeof a);
    a.seq = w->snd_nxt;
    a.ack = w->rcv_nxt;
    a.wnd = rsp_mss(h, r->netif);
    a.flags = TCP_ACK;
    rsp_header(t,
               (w->flags & TCP_RESPONDER_F_DISCARD) ? TCP_RESPONDER_DISCARD_PORT
                                                    : TCP_RESPONDER_ECHO_PORT,
               w->rport, &a, 0);
    wr16(t + TCP_OFF_CHKSUM,
         inet_fold(inet_sum(inet_pseudo_sum(from, to, IP_PROTO_TCP, TCP_HLEN), t, TCP_HLEN)));
    return ip_output_at(h, d, from, to, IP_PROTO_TCP, TCP_HLEN, 0);
}

int tcp_responder_turn_owed(const struct host *h)
{
    return h->responder.owed != 0;
}

/* A window given up goes to the next connection waiting in table order after the last one
 * given a turn (round robin: each waits one round at most), told by a window update
 * (tcp_responder.h: turns). */
int tcp_responder_pass_turn(struct host *h)
{
    struct tcp_responder_state *r = &h->responder;
    uint8_t n = HOST_CFG(h).tcp_responder_conns, i, tries;
    if (!r->owed)
        return 0;
    r->owed--;
    if (!r->n_waiting || rsp_holding(h) >= TCP_RESPONDER_WINDOWS)
        return 0; /* nobody to give it, or no place after all */
    i = r->turn < n ? r->turn : 0;
    for (tries = 0; tries < n && !rsp_waiting(h, i); tries++)
        i = (uint8_t)(i + 1u < n ? i + 1u : 0u);
    rsp_set_waiting(h, i, 0);
    rsp_busy(h, &r->conns[i]);
    r->turn = (uint8_t)(i + 1u);
    return rsp_window_update(h, &r->conns[i]) < 0 ? -1 : 1;
}
