/* The ping client: sending echo requests, matching replies, statistics as iputils keeps
 * them (ping/ping_common.c: gather_statistics, finish). The output lines are made in
 * ping_format.c. RFC 792 (echo), RFC 1122 3.2.2.6.
 */
#include "ping.h"

#include <string.h>

#include "bytes.h"
#include "host.h"
#include "icmp.h"
#include "inet_chksum.h"

#define PING_FLOOD_GAP_US 10000u /* iputils' MININTERVAL: a flood waits 10 ms for a reply */

static int got_test(const struct ping_state *p, uint16_t seq)
{
    uint16_t i = (uint16_t)(seq % PING_HISTORY);
    return (p->got[i >> 3] >> (i & 7u)) & 1u;
}

static void got_put(struct ping_state *p, uint16_t seq, int on)
{
    uint16_t i = (uint16_t)(seq % PING_HISTORY);
    if (on)
        p->got[i >> 3] = (uint8_t)(p->got[i >> 3] | (1u << (i & 7u)));
    else
        p->got[i >> 3] = (uint8_t)(p->got[i >> 3] & ~(1u << (i & 7u)));
}

static void event_push(struct ping_state *p, const struct ping_event *ev)
{
    if (p->ev_count == PING_EVENTS) { /* nobody drained: lose the oldest */
        p->ev_head = (uint8_t)((p->ev_head + 1u) % PING_EVENTS);
        p->ev_count--;
        p->ev_lost++;
    }
    p->events[(p->ev_head + p->ev_count) % PING_EVENTS] = *ev;
    p->ev_count++;
}

int ping_next_event(struct host *h, struct ping_event *ev)
{
    struct ping_state *p = &h->icmp.ping;
    if (p->ev_count == 0)
        return 0;
    *ev = p->events[p->ev_head];
    p->ev_head = (uint8_t)((p->ev_head + 1u) % PING_EVENTS);
    p->ev_count--;
    return 1;
}

/* Writes v as 8 bytes, least significant first (an x86-64 long). */
static void wr64le(uint8_t *b, uint32_t v)
{
    uint8_t i;
    for (i = 0; i < 8; i++) {
        b[i] = (uint8_t)(i < 4 ? v >> (8u * i) : 0);
    }
}

/* iputils pinger() / __schedule_exit(): one request; after the last, when to give up. */
static void ping_send(struct host *h)
{
    struct ping_state *p = &h->icmp.ping;
    uint8_t *m = ip_tx_payload(h);
    uint16_t seq = (uint16_t)(p->transmitted + 1u);
    uint16_t i;
    int err;

    m[ICMP_OFF_TYPE] = ICMP_ECHO_REQUEST;
    m[ICMP_OFF_CODE] = 0;
    wr16(m + ICMP_OFF_CHKSUM, 0);
    wr16(m + ICMP_OFF_ID, p->id);
    wr16(m + ICMP_OFF_SEQ, seq);
    for (i = 0; i < p->payload; i++)
        m[ICMP_HLEN + i] = (uint8_t)i; /* iputils setup(): outpack[8 + i] = i */
    if (p->payload >= PING_TIMESTAMP_LEN) {
        wr64le(m + ICMP_HLEN, h->now / 1000000u);     /* tv_sec */
        wr64le(m + ICMP_HLEN + 8, h->now % 1000000u); /* tv_usec */
    }
    wr16(m + ICMP_OFF_CHKSUM, inet_chksum(m, (uint16_t)(ICMP_HLEN + p->payload)));

    p->sent_at[seq % PING_HISTORY] = h->now;
    got_put(p, seq, 0);
    p->transmitted++;
    p->last_send = h->now;
    p->next_send = h->now + (p->interval_us ? p->interval_us : PING_FLOOD_GAP_US);
    h->icmp.out_msgs++;
    trace_simple(h, TRACE_ICMP_SENT, ICMP_ECHO_REQUEST, 0, (uint32_t)ICMP_HLEN + p->payload);
    err = ip_output(h, 0, p->dst, IP_PROTO_ICMP, (uint16_t)(ICMP_HLEN + p->payload), 0);
    if (err < 0) {
        /* iputils: a hard local error counts as sent; the user sees the error. */
        struct ping_event ev;
        memset(&ev, 0, sizeof ev);
        ev.kind = PING_EV_SEND_FAIL;
        ev.seq = seq;
        ev.err = (int8_t)err;
        event_push(p, &ev);
    }
    if (p->count && p->transmitted >= p->count) {
        /* __schedule_exit: twice the longest RTT (at least an interval) once something
         * came back, else the -W timeout. */
        uint32_t wait = p->timeout_us;
        if (p->received) {
            wait = 2u * p->tmax;
            if (wait < p->interval_us)
                wait = p->interval_us;
        }
        p->finish_at = h->now + wait;
    }
}

int ping_start(struct host *h, uint32_t dst, uint16_t id, uint16_t payload, uint32_t count,
               uint32_t interval_ms, uint32_t timeout_ms)
{
    struct ping_state *p = &h->icmp.ping;
    if (p->phase == PING_RUNNING)
        return ERR_STATE;
    if (dst == 0 || (uint32_t)payload + ICMP_HLEN > ip_tx_capacity(h) ||
        interval_ms > STACK_MAX_DELAY_MS || timeout_ms > STACK_MAX_DELAY_MS)
        return ERR_ARG;
    memset(p, 0, sizeof *p);
    p->phase = PING_RUNNING;
    p->dst = dst;
    p->id = id;
    p->payload = payload;
    p->count = count;
    p->interval_us = STACK_MS(interval_ms);
    p->timeout_us = STACK_MS(timeout_ms);
    p->start = h->now;
    ping_send(h);
    return ERR_OK;
}

void ping_stop(struct host *h)
{
    if (h->icmp.ping.phase == PING_RUNNING)
        h->icmp.ping.phase = PING_DONE;
}

int ping_done(const struct host *h)
{
    return h->icmp.ping.phase == PING_DONE;
}

static int all_sent(const struct ping_state *p)
{
    return p->count && p->transmitted >= p->count;
}

/* iputils main_loop(): stop once every request is answered (or refused by an error). */
static void check_finished(struct ping_state *p)
{
    if (all_sent(p) && p->received + p->errors >= p->count)
        p->phase = PING_DONE;
}

void ping_poll(struct host *h)
{
    struct ping_state *p = &h->icmp.ping;
    if (p->phase != PING_RUNNING)
        return;
    if (!all_sent(p)) {
        if (time_after_eq(h->now, p->next_send))
            ping_send(h);
    } else if (time_after_eq(h->now, p->finish_at)) {
        p->phase = PING_DONE;
    }
}

void ping_next_deadline(const struct host *h, stack_time_t *deadline, int *has)
{
    const struct ping_state *p = &h->icmp.ping;
    if (p->phase != PING_RUNNING)
        return;
    time_earliest(deadline, has, all_sent(p) ? p->finish_at : p->next_send);
}

/* Is seq one we sent and still remember? */
static int seq_known(const struct ping_state *p, uint16_t seq)
{
    uint16_t back = (uint16_t)((uint16_t)p->transmitted - seq);
    return back < PING_HISTORY && back < p->transmitted;
}

int ping_input_reply(struct host *h, const struct ip_rx *rx, const uint8_t *icmp, uint16_t len)
{
    struct ping_state *p = &h->icmp.ping;
    uint16_t seq = rd16(icmp + ICMP_OFF_SEQ);
    uint16_t back;
    uint32_t rtt;
    struct ping_event ev;

    if (p->phase != PING_RUNNING || rd16(icmp + ICMP_OFF_ID) != p->id)
        return 0;
    if (!seq_known(p, seq)) {
        p->unmatched++;
        return 0;
    }
    rtt = h->now - p->sent_at[seq % PING_HISTORY];
    /* gather_statistics(): acknowledge() tracks the pipe, then the RTT sums take every
     * reply, duplicates included; a duplicate is then taken back out of `received`. */
    back = (uint16_t)((uint16_t)p->transmitted - seq);
    if ((uint32_t)back + 1u > p->pipe)
        p->pipe = (uint32_t)back + 1u;
    p->tsum += rtt;
    p->tsum2 += (uint64_t)rtt * rtt;
    if (p->received + p->duplicates == 0 || rtt < p->tmin)
        p->tmin = rtt;
    if (rtt > p->tmax)
        p->tmax = rtt;
    p->ewma8 = p->ewma8 ? p->ewma8 + rtt - p->ewma8 / 8u : (uint64_t)rtt * 8u;

    memset(&ev, 0, sizeof ev);
    if (got_test(p, seq)) {
        p->duplicates++;
        ev.kind = PING_EV_DUP;
    } else {
        got_put(p, seq, 1);
        p->received++;
        ev.kind = PING_EV_REPLY;
    }
    ev.seq = seq;
    ev.ttl = rx->ttl;
    ev.timing = p->payload >= PING_TIMESTAMP_LEN;
    ev.bytes = len;
    ev.from = rx->src;
    ev.rtt_us = rtt;
    event_push(p, &ev);
    if (!p->interval_us && ev.kind == PING_EV_REPLY)
        p->next_send = h->now; /* flood: the next request as soon as one is answered */
    check_finished(p);
    return 1;
}

int ping_input_error(struct host *h, const struct ip_rx *rx, uint8_t type, uint8_t code,
                     uint16_t mtu, const uint8_t *quote, uint16_t qlen)
{
    struct ping_state *p = &h->icmp.ping;
    uint16_t qhl = (uint16_t)((quote[IP_OFF_VHL] & 0x0F) * 4);
    const uint8_t *qm = quote + qhl;
    struct ping_event ev;

    /* The caller checked that qlen holds the quoted header and 8 bytes after it. */
    (void)qlen;
    if (p->phase != PING_RUNNING || quote[IP_OFF_PROTO] != IP_PROTO_ICMP ||
        rd32(quote + IP_OFF_DST) != p->dst || qm[ICMP_OFF_TYPE] != ICMP_ECHO_REQUEST ||
        rd16(qm + ICMP_OFF_ID) != p->id)
        return 0;
    p->errors++;
    memset(&ev, 0, sizeof ev);
    ev.kind = PING_EV_ERROR;
    ev.seq = rd16(qm + ICMP_OFF_SEQ);
    ev.icmp_type = type;
    ev.icmp_code = code;
    ev.mtu = mtu;
    ev.from = rx->src;
    ev.ttl = rx->ttl;
    event_push(p, &ev);
    check_finished(p);
    return 1;
}

uint32_t ping_llsqrt(uint64_t a)
{
    /* Digit-by-digit square root: floor(sqrt(a)). iputils' llsqrt() runs Newton's method
     * from x = a and returns the first x that stops decreasing; from s = floor(sqrt(a))
     * the next step gives s + 1 exactly when a = s*s + 2s, and that is what it returns. */
    uint64_t rest = a, r = 0, bit = (uint64_t)1 << 62;
    while (bit > rest)
        bit >>= 2;
    while (bit) {
        if (rest >= r + bit) {
            rest -= r + bit;
            r = (r >> 1) + bit;
        } else {
            r >>= 1;
        }
        bit >>= 2;
    }
    if (a > 0 && a == r * r + 2u * r)
        r++;
    return (uint32_t)r;
}

void ping_get_stats(const struct host *h, struct ping_stats *st)
{
    const struct ping_state *p = &h->icmp.ping;
    uint64_t total = (uint64_t)p->received + p->duplicates;
    memset(st, 0, sizeof *st);
    st->transmitted = p->transmitted;
    st->received = p->received;
    st->duplicates = p->duplicates;
    st->errors = p->errors;
    st->timing = p->payload >= PING_TIMESTAMP_LEN;
    /* finish(): from the start to the last request sent, rounded to milliseconds. */
    st->time_ms = p->transmitted ? (p->last_send - p->start + 500u) / 1000u : 0;
    st->pipe = p->pipe;
    st->ewma_us = (uint32_t)(p->ewma8 / 8u);
    if (total) {
        uint64_t var;
        st->min_us = p->tmin;
        st->max_us = p->tmax;
        st->avg_us = (uint32_t)(p->tsum / total);
        if (p->tsum < 2147483647u) {
            /* iputils: (tsum2 - tsum * tsum / total) / total, in double, truncated. Done
             * exactly here: with A = tsum2 - q, tsum^2 = q * total + r, the value is
             * A / total - r / total^2, whose floor is floor(A / total), less one when A
             * divides evenly and r > 0 (A / total is then whole and r / total^2 < 1). */
            uint64_t sq = p->tsum * p->tsum;
            uint64_t q = sq / total, r = sq % total, a = p->tsum2 - q;
            var = a / total - ((a % total == 0 && r > 0) ? 1u : 0u);
        } else {
            var = p->tsum2 / total - (uint64_t)st->avg_us * st->avg_us;
        }
        st->mdev_us = ping_llsqrt(var);
    }
}
