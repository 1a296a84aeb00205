/* The mTCP seed's bulk transfer (app_bulk): N bytes, "DONE", "OK", on two hosts over the
 * fake network (app_world.h), with the fixed congestion window of the seed's experiment.
 *
 * The throughput the receiver reports is worked out by hand below from the link's rate and
 * delay and the window, and compared with a tolerance that is justified there.
 */
#include <string.h>

#include "app_common.h"
#include "app_world.h"
#include "unit.h"

#define RUN_LIMIT STACK_MS(120000)

static int bulk_done(void *ctx)
{
    struct app_world *w = ctx;
    return w->sender->report.done &&
           (w->receiver->report.sessions == 1 || w->receiver->report.error != 0);
}

static void bulk_configs(struct host_config *snd, struct host_config *rcv, uint32_t snd_buf)
{
    host_config_default(snd);
    snd->tcp_cc = TCP_CC_FIXED;    /* the seed's fixed window */
    snd->tcp_initial_cwnd = 20000; /* the seed's CWND=20,000 */
    snd->tcp_snd_buf = snd_buf;
    host_config_default(rcv);
    rcv->tcp_rcv_buf = 32768;         /* a window above cwnd: cwnd is what limits */
    rcv->tcp_delack = TCP_DELACK_OFF; /* one ACK per segment: a clean ACK clock */
}

static int run_bulk(struct app_world *w, struct app_bulk_sender *snd, struct app_bulk_receiver *rcv,
                    uint32_t snd_buf, uint32_t bytes)
{
    struct host_config cs, cr;
    struct stack_sockaddr to;
    bulk_configs(&cs, &cr, snd_buf);
    if (app_world_init(w, &cs, &cr, 10000000u, 10000u) != 0)
        return -1;
    if (app_bulk_receiver_start(rcv, app_world_b(w), 0) != ERR_OK)
        return -1;
    to.addr = APP_WORLD_ADDR_B;
    to.port = APP_BULK_PORT;
    if (app_bulk_sender_start(snd, app_world_a(w), &to, bytes) != ERR_OK)
        return -1;
    w->sender = snd;
    w->receiver = rcv;
    return fake_net_run(&w->net, RUN_LIMIT, bulk_done);
}

/* 1 000 000 bytes at a fixed cwnd of 20000 B over 10 Mbit/s with 10 ms each way, MTU
 * 1500 (MSS 1460, 1500 B datagrams: 1.2 ms each on the wire; a 40 B ACK: 32 us).
 *
 * The window holds floor(20000 / 1460) = 13 full segments (18980 B): a sender that
 * avoids silly windows (RFC 9293 3.8.6.2.1) does not send the 1020 B left over. 13 x 1.2
 * = 15.6 ms of transmission is less than a round trip, so the link idles and cwnd/RTT
 * sets the rate. The receiver ACKs each segment at once; each ACK frees one segment, so
 * segment k + 13 leaves when the ACK of segment k arrives, one segment's round trip
 * later: 1.2 + 10 + 0.032 + 10 = 21.232 ms. Throughput 18980 B / 21.232 ms = 7.151
 * Mbit/s (the seed's own 1 MB run: 7.5 Mbit/s for 20000 B over a 20 ms RTT).
 *
 * The stream is 1 000 004 B ("DONE" included): 684 full segments and one of 1364 B,
 * numbered 0..684; segment 684 is in window 52 (684 = 52 x 13 + 8), position 8. Segment k
 * (window j, position i) arrives at 21.232 j + 1.2 i + (its own 1.2 or 1.1232) + 10 ms
 * after the first left. The receiver's clock runs from the arrival of segment 0 to that
 * of segment 684, when it answers OK:
 *   21.232 x 52 + 1.2 x 8 + 1.1232 - 1.2 = 1113.5872 ms  ->  7183 kbit/s (8e9 / 1113587
 *   = 7183.99, truncated).
 * Tolerance: 1 %, 11 ms. Where the stack cuts the stream differently (the first write
 * leaving alone, before the rest is queued; a short segment to fill the window) the
 * segments shift by less than a segment's 1.2 ms per window of 13, about 1 % at most; a
 * retransmission or a delayed ACK would cost a whole RTO or 200 ms and falls outside. */
static void test_bulk_1mb_fixed_cwnd(void)
{
    static struct app_world w;
    struct app_bulk_sender snd;
    struct app_bulk_receiver rcv;
    const int32_t expect_us = 1113587;

    CHECK_EQ(run_bulk(&w, &snd, &rcv, 32768u, 1000000u), 1);
    CHECK_EQ(snd.report.error, 0);
    CHECK_EQ(snd.report.bad_reply, 0);
    CHECK_EQ(snd.report.bytes, 1000000);
    CHECK_EQ(rcv.report.error, 0);
    CHECK_EQ(rcv.report.sessions, 1);
    CHECK_EQ(rcv.report.ok_sent, 1);
    CHECK_EQ(rcv.report.bytes, 1000000);
    CHECK_EQ(rcv.report.checked, 1000000); /* every data byte, "DONE" not */
    CHECK_EQ(rcv.report.mismatches, 0);
    CHECK_EQ(rcv.report.mismatch_at, APP_BULK_NO_MISMATCH);
    CHECK_EQ(rcv.report.extra, 0);
    CHECK_EQ(w.net.hosts[0].tcp.rst_sent + w.net.hosts[1].tcp.rst_sent, 0);

    CHECK((int32_t)rcv.report.elapsed_us > expect_us - 11136);
    CHECK((int32_t)rcv.report.elapsed_us < expect_us + 11136);
    CHECK_EQ(rcv.report.kbps, app_rate_kbps(1000000u, rcv.report.elapsed_us));
    CHECK(rcv.report.kbps > 7111 && rcv.report.kbps < 7255); /* 7183 +- 1 % */
    /* The sender's clock runs from its first write to "OK"; the receiver's from the first
     * data byte's arrival to its "OK". The difference is the two one-way trips at the
     * ends, whatever happens in between. At the start the sender writes in the poll that
     * sees the SYN-ACK, behind the handshake's ACK (40 B, 32 us): the first segment
     * arrives 32 + 1200 + 10000 us after the write. At the end the receiver ACKs the
     * "DONE" segment at once (delayed ACK off), then "OK" (42 B: 336 bits at 10 Mbit/s,
     * 33 us on the fake link's integer clock) follows that ACK: 32 + 33 + 10000 us.
     * Sum: 21297 us, exactly. */
    CHECK_EQ(snd.report.total_us - rcv.report.elapsed_us, 21297);
    CHECK_EQ(snd.report.total_kbps, app_rate_kbps(1000000u, snd.report.total_us));
    /* With a 32 KB send buffer the last byte is queued less than a buffer's worth of
     * transfer before the end, so the seed's "copy time" is close to the total here. */
    CHECK(snd.report.queue_us < snd.report.total_us);
    CHECK(snd.report.queue_us > snd.report.total_us / 2);
    app_world_free(&w);
}

/* The seed's sender figure (1 MB "in 0.000245 s", 32901 Mbit/s): its send buffer took the
 * whole megabyte at once, so its clock stopped before anything was on the wire. With a
 * send buffer holding all 1 000 004 bytes the same happens here, in virtual time exactly:
 * every byte is queued in the poll that finds the connection established, queue_us is 0
 * and the rate is unmeasurable (0), while the receiver's figure is unchanged. */
static void test_bulk_sender_figure_measures_the_copy(void)
{
    static struct app_world w;
    struct app_bulk_sender snd;
    struct app_bulk_receiver rcv;

    CHECK_EQ(run_bulk(&w, &snd, &rcv, 1000004u, 1000000u), 1);
    CHECK_EQ(snd.report.error, 0);
    CHECK_EQ(rcv.report.bytes, 1000000);
    CHECK_EQ(rcv.report.mismatches, 0);
    CHECK_EQ(snd.report.queue_us, 0);
    CHECK_EQ(snd.report.queue_kbps, 0);
    CHECK_EQ(snd.report.queued_at, snd.report.first_send_at);
    CHECK((int32_t)rcv.report.elapsed_us > 1113587 - 11136);
    CHECK((int32_t)rcv.report.elapsed_us < 1113587 + 11136);
    app_world_free(&w);
}

/* A transfer of nothing still runs the protocol: "DONE" at once, "OK" back. */
static void test_bulk_zero_bytes(void)
{
    static struct app_world w;
    struct app_bulk_sender snd;
    struct app_bulk_receiver rcv;

    CHECK_EQ(run_bulk(&w, &snd, &rcv, 32768u, 0), 1);
    CHECK_EQ(snd.report.error, 0);
    CHECK_EQ(snd.report.bad_reply, 0);
    CHECK_EQ(rcv.report.sessions, 1);
    CHECK_EQ(rcv.report.bytes, 0);
    CHECK_EQ(rcv.report.elapsed_us, 0); /* "DONE" is the first and the last segment */
    app_world_free(&w);
}

/* A hand-made sender for the receiver's check: a stream with two wrong bytes, written one
 * piece at a time, each once the last is acknowledged, so the receiver reads the pieces
 * one by one (1, 2, 3, 5 ... bytes: less than, as much as and more than its four-byte
 * window). */
struct bulk_crafted {
    struct app_world w;
    int sock;
    uint8_t stream[204];
    uint32_t sent, piece;
};

static int crafted_poll(void *ctx, struct fake_net *net, stack_time_t *next)
{
    static const uint8_t sizes[] = { 1, 2, 3, 5, 4, 1, 7, 26, 27, 3, 52, 9, 1, 2 };
    struct bulk_crafted *c = ctx;
    struct tcp_info info;
    int r = app_world_poll(&c->w, net, next);
    if (tcpstatus(&net->hosts[0], c->sock, &info) == ERR_OK && info.state == TCP_ESTABLISHED &&
        info.snd_una == info.snd_nxt && c->sent < sizeof c->stream) {
        uint32_t k = c->piece < sizeof sizes ? sizes[c->piece++] : sizeof c->stream - c->sent;
        if (k > sizeof c->stream - c->sent)
            k = sizeof c->stream - c->sent;
        if (tcpsend(&net->hosts[0], c->sock, c->stream + c->sent, k) == (int)k)
            c->sent += k;
    }
    return r;
}

static int crafted_done(void *ctx)
{
    struct bulk_crafted *c = ctx;
    return c->w.receiver->report.ok_sent;
}

/* 200 data bytes, offsets 3, 120, 144, 170 and 198 wrong, then "DONE": the receiver counts
 * each once (offset 198 is still in its window when the bytes after it arrive; 120 lies
 * past the first 26 bytes of its piece, where a byte is compared with the one 26 before it,
 * and 170 equals the wrong byte 26 before it, so only the pattern tells), names the first,
 * and checks every data byte but none of "DONE". */
static void test_bulk_receiver_finds_wrong_bytes(void)
{
    static struct bulk_crafted c;
    struct app_bulk_receiver rcv;
    struct host_config cs, cr;
    struct stack_sockaddr to = { APP_WORLD_ADDR_B, APP_BULK_PORT };
    uint32_t i;

    bulk_configs(&cs, &cr, 32768u);
    CHECK_EQ(app_world_init(&c.w, &cs, &cr, 10000000u, 10000u), 0);
    c.w.net.poll = crafted_poll;
    c.w.net.ctx = &c;
    for (i = 0; i < 200; i++)
        c.stream[i] = app_bulk_pattern(i);
    c.stream[3] = 'X';
    c.stream[120] = 'Z';                 /* in the 52-byte piece at 79, after its first 26 bytes */
    c.stream[144] = c.stream[170] = 'Q'; /* in the last piece, 26 bytes apart */
    c.stream[198] = 'Y';
    memcpy(c.stream + 200, "DONE", 4);
    CHECK_EQ(app_bulk_receiver_start(&rcv, app_world_b(&c.w), 0), ERR_OK);
    c.w.receiver = &rcv;
    c.sock = tcpsocket(app_world_a(&c.w));
    CHECK(c.sock >= 0);
    CHECK_EQ(tcpconnect(app_world_a(&c.w), c.sock, &to), ERR_OK);
    CHECK_EQ(fake_net_run(&c.w.net, RUN_LIMIT, crafted_done), 1);
    CHECK_EQ(c.sent, sizeof c.stream);
    CHECK(c.piece > 10); /* the pieces went one by one */
    CHECK_EQ(rcv.report.bytes, 200);
    CHECK_EQ(rcv.report.checked, 200);
    CHECK_EQ(rcv.report.mismatches, 5);
    CHECK_EQ(rcv.report.mismatch_at, 3);
    app_world_free(&c.w);
}

UNIT_MAIN(UNIT(test_bulk_1mb_fixed_cwnd), UNIT(test_bulk_sender_figure_measures_the_copy),
          UNIT(test_bulk_zero_bytes), UNIT(test_bulk_receiver_finds_wrong_bytes))
