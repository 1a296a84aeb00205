/* 1 MB over the fake network, two hosts on a 10 Mbit/s link with 1 ms delay each way:
 * random bytes from a seeded PRNG go from host A to host B, which checks every byte against
 * the same PRNG and the end of stream, at 0 %, 5 % and 20 % random loss in both
 * directions. Prints the virtual time taken and the retransmissions by cause. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_net.h"
#include "socket.h"
#include "unit.h"

#define XFER_BYTES (1024u * 1024u)
#define XFER_PORT  5001
#define ADDR_A     0x0A000001u
#define ADDR_B     0x0A000002u
#define CHUNK_MAX  4096u

struct stream {
    uint32_t x;      /* xorshift32 state */
    uint32_t offset; /* bytes produced */
};

static uint8_t stream_byte(struct stream *s)
{
    s->x ^= s->x << 13;
    s->x ^= s->x >> 17;
    s->x ^= s->x << 5;
    s->offset++;
    return (uint8_t)(s->x >> 24);
}

struct xfer {
    struct fake_net net;
    /* sender, host 0 */
    int s_sock;
    struct stream s_stream;
    uint8_t pend[CHUNK_MAX];
    uint32_t pend_len, pend_off, sent;
    int s_closed, s_error;
    /* receiver, host 1 */
    int r_listen, r_sock;
    struct stream r_stream;
    uint32_t received, mismatches;
    int r_eof, r_error;
    /* trace counts of host 0 */
    uint32_t retx[8], rto_expired, fast_recoveries;
};

static void xfer_trace(void *ctx, const struct host *h, const struct trace_event *ev)
{
    struct xfer *x = ctx;
    if (h != &x->net.hosts[0])
        return;
    if (ev->kind == TRACE_RETRANSMIT && ev->c < 8)
        x->retx[ev->c]++;
    else if (ev->kind == TRACE_RTO_EXPIRE)
        x->rto_expired++;
    else if (ev->kind == TRACE_RECOVERY_ENTER)
        x->fast_recoveries++;
}

static void sender_poll(struct xfer *x, struct host *h)
{
    int n;
    if (x->s_closed || x->s_error)
        return;
    for (;;) {
        if (x->pend_off == x->pend_len) {
            uint32_t i, left = XFER_BYTES - x->sent - (x->pend_len - x->pend_off);
            if (x->sent == XFER_BYTES) {
                tcpclose(h, x->s_sock); /* FIN after the data, RFC 9293 3.10.4 */
                x->s_closed = 1;
                return;
            }
            x->pend_len = left < CHUNK_MAX ? left : CHUNK_MAX;
            x->pend_off = 0;
            for (i = 0; i < x->pend_len; i++)
                x->pend[i] = stream_byte(&x->s_stream);
        }
        n = tcpsend(h, x->s_sock, x->pend + x->pend_off, x->pend_len - x->pend_off);
        if (n == ERR_WOULDBLOCK)
            return;
        if (n < 0) {
            x->s_error = n;
            return;
        }
        x->pend_off += (uint32_t)n;
        x->sent += (uint32_t)n;
    }
}

static void receiver_poll(struct xfer *x, struct host *h)
{
    uint8_t buf[2048];
    int n, i;
    if (x->r_eof || x->r_error)
        return;
    if (x->r_sock < 0) {
        x->r_sock = tcpaccept(h, x->r_listen);
        if (x->r_sock < 0) {
            x->r_sock = -1;
            return;
        }
    }
    for (;;) {
        n = tcprecv(h, x->r_sock, buf, sizeof buf);
        if (n == ERR_WOULDBLOCK)
            return;
        if (n == 0) {
            x->r_eof = 1;
            tcpclose(h, x->r_sock);
            return;
        }
        if (n < 0) {
            x->r_error = n;
            return;
        }
        for (i = 0; i < n; i++)
            if (buf[i] != stream_byte(&x->r_stream)) {
                if (!x->mismatches && getenv("XFER_DEBUG"))
                    printf("first mismatch at %u (read of %d at %u)\n",
                           (unsigned)(x->received + (uint32_t)i), n, (unsigned)x->received);
                x->mismatches++;
            }
        x->received += (uint32_t)n;
    }
}

static int xfer_poll(void *ctx, struct fake_net *net, stack_time_t *next)
{
    struct xfer *x = ctx;
    (void)next;
    receiver_poll(x, &net->hosts[1]);
    sender_poll(x, &net->hosts[0]);
    return 0;
}

static int xfer_done(void *ctx)
{
    struct xfer *x = ctx;
    return (x->r_eof && x->s_closed) || x->r_error || x->s_error;
}

/* Runs the transfer; returns the virtual time it took in microseconds (64-bit: a lossy
 * run may outlast the 71-minute wrap of the 32-bit clock), or 0 on failure. */
static uint64_t run_transfer(struct xfer *x, uint32_t loss_ppm, uint32_t seed,
                             void (*tune)(struct host_config *))
{
    struct host_config cfg;
    struct stack_sockaddr me = { 0, XFER_PORT }, to = { ADDR_B, XFER_PORT };
    uint64_t elapsed = 0;
    const uint64_t limit = 2ull * 3600u * 1000000u; /* two hours of virtual time */

    fake_net_free(&x->net); /* what a failed earlier test left */
    memset(x, 0, sizeof *x);
    host_config_default(&cfg);
    if (tune)
        tune(&cfg);
    cfg.seed = seed;
    fake_net_init(&x->net, seed * 7u + 1u);
    if (fake_net_add_host(&x->net, &cfg) != 0)
        return 0;
    cfg.seed = seed + 100u;
    if (fake_net_add_host(&x->net, &cfg) != 1)
        return 0;
    if (fake_net_connect(&x->net, 0, ADDR_A, 1, ADDR_B, 1500, 10000000u, 1000u) != 0)
        return 0;
    x->net.links[0].loss_ppm = loss_ppm;
    x->net.poll = xfer_poll;
    x->net.ctx = x;
    host_set_tracer(&x->net.hosts[0], xfer_trace, x);
    x->s_stream.x = 0x12345678u;
    x->r_stream.x = 0x12345678u;
    x->r_sock = -1;
    x->r_listen = tcpsocket(&x->net.hosts[1]);
    if (tcpbind(&x->net.hosts[1], x->r_listen, &me) != ERR_OK ||
        tcplisten(&x->net.hosts[1], x->r_listen, 1) != ERR_OK)
        return 0;
    x->s_sock = tcpsocket(&x->net.hosts[0]);
    if (tcpconnect(&x->net.hosts[0], x->s_sock, &to) != ERR_OK)
        return 0;
    while (elapsed < limit) {
        stack_time_t start = x->net.now;
        int done = fake_net_run(&x->net, start + 600000000u, xfer_done); /* 10 min steps */
        elapsed += (uint32_t)(x->net.now - start);
        if (done)
            break;
    }
    return xfer_done(x) ? elapsed : 0;
}

static void report(const char *name, const struct xfer *x, uint64_t us, uint32_t loss_ppm)
{
    printf("    %s: %u bytes, loss %u.%u %%, virtual time %llu.%06llu s, frames lost %u of %u; "
           "retransmissions: RTO %u (timer expiries %u), fast %u, NewReno partial ACK %u, "
           "SYN %u, FIN %u; fast recoveries %u\n",
           name, (unsigned)x->received, (unsigned)(loss_ppm / 10000u),
           (unsigned)(loss_ppm / 1000u % 10u), (unsigned long long)(us / 1000000u),
           (unsigned long long)(us % 1000000u), (unsigned)x->net.lost,
           (unsigned)(x->net.lost + x->net.delivered), (unsigned)x->retx[TCP_RETX_RTO],
           (unsigned)x->rto_expired, (unsigned)x->retx[TCP_RETX_FAST],
           (unsigned)x->retx[TCP_RETX_PARTIAL_ACK], (unsigned)x->retx[TCP_RETX_SYN_RTO],
           (unsigned)x->retx[TCP_RETX_FIN_RTO], (unsigned)x->fast_recoveries);
}

static struct xfer xf; /* large (in-flight frames hold 2 KB each): not on the stack */

static void free_xf(void)
{
    fake_net_free(&xf.net);
}

static void check_transfer(const char *name, uint32_t loss_ppm, uint32_t seed, uint64_t *us,
                           void (*tune)(struct host_config *))
{
    static int registered;
    if (!registered) {
        atexit(free_xf);
        registered = 1;
    }
    *us = run_transfer(&xf, loss_ppm, seed, tune);
    report(name, &xf, *us, loss_ppm);
}

static void test_1mb_no_loss(void)
{
    uint64_t us;
    check_transfer("0 % loss", 0, 1, &us, NULL);
    CHECK(us > 0);
    CHECK_EQ(xf.received, XFER_BYTES);
    CHECK_EQ(xf.mismatches, 0);
    CHECK_EQ(xf.s_error, 0);
    CHECK_EQ(xf.r_error, 0);
    /* The floor: 1 MB in ceil(1048576 / 1460) = 719 segments of 40 header bytes each is
     * (1048576 + 719 x 40) x 8 bits / 10 Mbit/s = 0.861869 s of serialisation alone. The
     * 8 KB window exceeds the bandwidth-delay product (10 Mbit/s x ~3.2 ms RTT = 4 KB), so
     * the link, not the window, limits: the transfer should finish within 5 % of it. */
    CHECK(us > 861869u && us < 905000u);
    CHECK_EQ(xf.retx[TCP_RETX_RTO] + xf.retx[TCP_RETX_FAST] + xf.retx[TCP_RETX_PARTIAL_ACK], 0);
    fake_net_free(&xf.net);
}

static void test_1mb_5_percent_loss(void)
{
    uint64_t us;
    check_transfer("5 % loss", 50000u, 2, &us, NULL);
    CHECK(us > 0);
    CHECK_EQ(xf.received, XFER_BYTES);
    CHECK_EQ(xf.mismatches, 0);
    CHECK(xf.net.lost > 0);
    CHECK(xf.retx[TCP_RETX_RTO] + xf.retx[TCP_RETX_FAST] > 0);
    fake_net_free(&xf.net);
}

static void test_1mb_20_percent_loss(void)
{
    uint64_t us;
    check_transfer("20 % loss", 200000u, 3, &us, NULL);
    CHECK(us > 0);
    CHECK_EQ(xf.received, XFER_BYTES);
    CHECK_EQ(xf.mismatches, 0);
    CHECK(xf.net.lost > 0);
    fake_net_free(&xf.net);
}

/* The lwIP-like configuration of the NFC paper's stack: coarse 500/250 ms timers, Van
 * Jacobson's estimator in ticks, and timestamps on, at 5 % loss. */
static void lwip_like(struct host_config *c)
{
    c->tcp_timer_tick_ms = 500;
    c->tcp_fast_tick_ms = 250;
    c->tcp_rto = TCP_RTO_VJ_TICKS;
    c->tcp_timestamps = 1;
}

static void test_1mb_5_percent_loss_lwip_timers_timestamps(void)
{
    uint64_t us;
    check_transfer("5 % loss, lwIP ticks, VJ, timestamps", 50000u, 4, &us, lwip_like);
    CHECK(us > 0);
    CHECK_EQ(xf.received, XFER_BYTES);
    CHECK_EQ(xf.mismatches, 0);
    CHECK(xf.net.lost > 0);
    fake_net_free(&xf.net);
}

/* SACK on both ends (RFC 2018, RFC 6675), and with timestamps too (3 blocks fit). */
static void sack_on(struct host_config *c)
{
    c->tcp_sack = 1;
}

static void sack_ts_on(struct host_config *c)
{
    c->tcp_sack = 1;
    c->tcp_timestamps = 1;
}

static void check_sack_transfer(const char *name, uint32_t loss_ppm, uint32_t seed,
                                void (*tune)(struct host_config *))
{
    uint64_t us;
    check_transfer(name, loss_ppm, seed, &us, tune);
    printf("    %s: SACK loss recovery re-sent %u\n", name, (unsigned)xf.retx[TCP_RETX_SACK_LOSS]);
    CHECK(us > 0);
    CHECK_EQ(xf.received, XFER_BYTES);
    CHECK_EQ(xf.mismatches, 0);
    CHECK(xf.net.lost > 0);
    CHECK(xf.retx[TCP_RETX_SACK_LOSS] > 0);
    fake_net_free(&xf.net);
}

static void test_1mb_5_percent_loss_sack(void)
{
    check_sack_transfer("5 % loss, SACK", 50000u, 2, sack_on);
}

static void test_1mb_20_percent_loss_sack(void)
{
    check_sack_transfer("20 % loss, SACK", 200000u, 3, sack_on);
}

static void test_1mb_10_percent_loss_sack_timestamps(void)
{
    check_sack_transfer("10 % loss, SACK, timestamps", 100000u, 5, sack_ts_on);
}

UNIT_MAIN(UNIT(test_1mb_no_loss), UNIT(test_1mb_5_percent_loss), UNIT(test_1mb_20_percent_loss),
          UNIT(test_1mb_5_percent_loss_lwip_timers_timestamps), UNIT(test_1mb_5_percent_loss_sack),
          UNIT(test_1mb_20_percent_loss_sack), UNIT(test_1mb_10_percent_loss_sack_timestamps))
