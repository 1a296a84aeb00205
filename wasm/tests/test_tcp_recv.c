/* The receive side: delayed ACK (RFC 1122 4.2.3.2, RFC 5681 4.2) in its standard form, on
 * lwIP's fast tick and in the NFC paper's variant; the out-of-order queue (RFC 9293
 * 3.10.7.4, immediate duplicate ACKs by RFC 5681 4.2), and the same with the queue off;
 * the zero window, receiver-side SWS avoidance and the window update (RFC 9293 3.8.6.2.2).
 * Our host is the client (ISS 1000); the peer (ISS 5000) sends the data. */
#include "tcp_tests.h"

static uint8_t data[8192];

static void fill_data(void)
{
    uint32_t i;
    for (i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 13u + 5u);
}

/* The peer's data segment: bytes [off, off + len) of `data`, at 5001 + off. */
static void peer_data(struct tcp_lab *L, stack_time_t t, uint32_t off, uint16_t len, uint16_t wnd)
{
    lab_seg(L, t, TCP_ACK, 5001 + off, 1001, wnd, data + off, len);
}

static void test_delayed_ack_every_second_segment_and_timer(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    int sock;
    fill_data();
    tt_config(&cfg);
    cfg.tcp_delack = TCP_DELACK_STANDARD; /* tcp_delack_ms 200 */
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 8192, 1460);
    CHECK(sock >= 0);
    peer_data(&L, MS(100), 0, 1460, 8192);
    CHECK_EQ(lab_pending(&L), 0); /* held */
    CHECK_EQ(lab_event(&L, TRACE_DELACK_ARM, 0)->a, 200000);
    CHECK_EQ(lab_event(&L, TRACE_DELACK_ARM, 0)->b, 6461);
    peer_data(&L, MS(110), 1460, 1460, 8192);
    /* the second full-sized segment: ACK at once (RFC 5681 4.2) */
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(110));
    CHECK_EQ(g.flags, TCP_ACK);
    CHECK_EQ(g.ack, 7921);
    CHECK_EQ(g.wnd, 8192 - 2920);
    CHECK_EQ(lab_event(&L, TRACE_DELACK_CANCEL, 0)->time, MS(110));
    /* a lone segment waits for the timer: 200 ms */
    peer_data(&L, MS(200), 2920, 1460, 8192);
    lab_run(&L, MS(399));
    CHECK_EQ(lab_pending(&L), 0);
    lab_run(&L, MS(400));
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(400));
    CHECK_EQ(g.ack, 9381);
    CHECK_EQ(lab_event(&L, TRACE_DELACK_FIRE, 0)->time, MS(400));
    CHECK_EQ(lab_event(&L, TRACE_DELACK_FIRE, 0)->a, 9381);
    lab_free(&L);
}

static void test_delayed_ack_on_fast_ticks(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    int sock;
    fill_data();
    tt_config(&cfg);
    cfg.tcp_delack = TCP_DELACK_STANDARD;
    cfg.tcp_fast_tick_ms = 250; /* lwIP's fast timer */
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 8192, 1460);
    CHECK(sock >= 0);
    /* 200 ms = 1 tick of 250: at 100 ms the ACK goes at the next tick, 250 ms */
    peer_data(&L, MS(100), 0, 100, 8192);
    lab_run(&L, MS(249));
    CHECK_EQ(lab_pending(&L), 0);
    lab_run(&L, MS(250));
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(250));
    CHECK_EQ(g.ack, 5101);
    /* at 260 ms: (floor(260 / 250) + 1) x 250 = 500 ms */
    peer_data(&L, MS(260), 100, 100, 8192);
    lab_run(&L, MS(499));
    CHECK_EQ(lab_pending(&L), 0);
    lab_run(&L, MS(500));
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(500));
    CHECK_EQ(g.ack, 5201);
    lab_free(&L);
}

/* Our reply is queued but held by Nagle (our 10-byte segment is unacknowledged), then the
 * peer sends `len` bytes without acknowledging it. Returns 1 if we ACKed at once. */
static int acks_at_once(enum tcp_delack_kind kind, uint16_t len)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    int sock, now;
    fill_data();
    tt_config(&cfg);
    cfg.tcp_delack = kind;
    if (lab_init(&L, &cfg, 1500, 0) != 0)
        return -1;
    sock = tt_open_active(&L, 0, MS(10), 8192, 1460);
    if (sock < 0 || tcpsend(&L.h, sock, "0123456789", 10) != 10)
        return -1;
    lab_skip(&L);
    if (tcpsend(&L.h, sock, data, 1000) != 1000 || lab_pending(&L) != 0)
        return -1; /* 1000 bytes unsent: Nagle holds them */
    lab_seg(&L, MS(100), TCP_ACK, 5001, 1001, 8192, data, len);
    now = lab_next(&L, &g) && g.t == MS(100) && g.flags == TCP_ACK && g.len == 0 &&
          g.ack == 5001u + len;
    lab_free(&L);
    return now;
}

static void test_delayed_ack_nfc_variant(void)
{
    /* NFC paper 5.3.2.2: a reply already queued (1000 B) bigger than the segment (200 B):
     * ACK at once, so the peer's RTT sample is not stretched by our delay. */
    CHECK_EQ(acks_at_once(TCP_DELACK_NFC, 200), 1);
    CHECK_EQ(acks_at_once(TCP_DELACK_STANDARD, 200), 0);
    /* a segment bigger than the queued reply: the standard delay */
    CHECK_EQ(acks_at_once(TCP_DELACK_NFC, 1200), 0);
    CHECK_EQ(acks_at_once(TCP_DELACK_OFF, 1200), 1);
}

/* A 5-byte request arrives; the application answers at once with `reply` bytes. Returns
 * 1 if a pure ACK left before the reply, 0 if the reply carried the ACK. */
static int ack_alone_before_reply(enum tcp_delack_kind kind, uint16_t reply)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    int sock, alone;
    fill_data();
    tt_config(&cfg);
    cfg.tcp_delack = kind;
    if (lab_init(&L, &cfg, 1500, 0) != 0)
        return -1;
    sock = tt_open_active(&L, 0, MS(10), 8192, 1460);
    if (sock < 0)
        return -1;
    lab_seg(&L, MS(100), TCP_ACK | TCP_PSH, 5001, 1001, 8192, data, 5);
    if (lab_pending(&L) != 0 || tcpsend(&L.h, sock, data, reply) != reply)
        return -1; /* the delayed ACK waits; the reply is written */
    if (!lab_next(&L, &g) || g.t != MS(100))
        return -1;
    alone = g.len == 0 && g.ack == 5006;
    if (alone && (!lab_next(&L, &g) || g.len != reply))
        return -1;
    if (!alone && (g.len != reply || g.ack != 5006))
        return -1;
    lab_free(&L);
    return alone;
}

static void test_delayed_ack_nfc_reply_larger_than_request(void)
{
    /* NFC paper Table 5.6: a small request answered by a larger reply. Piggybacked, the
     * ACK would cross with the reply's 1000 bytes; the modified rule sends it alone. */
    CHECK_EQ(ack_alone_before_reply(TCP_DELACK_NFC, 1000), 1);
    CHECK_EQ(ack_alone_before_reply(TCP_DELACK_STANDARD, 1000), 0);
    /* a reply no larger than the request carries the ACK */
    CHECK_EQ(ack_alone_before_reply(TCP_DELACK_NFC, 5), 0);
}

static void test_piggybacked_ack_cancels_delayed_ack(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    int sock;
    fill_data();
    tt_config(&cfg);
    cfg.tcp_delack = TCP_DELACK_STANDARD;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 8192, 1460);
    CHECK(sock >= 0);
    peer_data(&L, MS(100), 0, 100, 8192);
    CHECK_EQ(lab_pending(&L), 0);
    lab_run(&L, MS(150));
    CHECK_EQ(tcpsend(&L.h, sock, "reply", 5), 5);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(150));
    CHECK_EQ(g.len, 5);
    CHECK_EQ(g.ack, 5101); /* the ACK rides on the data */
    CHECK_EQ(lab_event(&L, TRACE_DELACK_CANCEL, 0)->time, MS(150));
    lab_run(&L, MS(1000));
    CHECK_EQ(lab_pending(&L), 0); /* no pure ACK at 300 ms */
    CHECK_EQ(lab_count(&L, TRACE_DELACK_FIRE), 0);
    lab_free(&L);
}

static void test_out_of_order_hole_filled_later(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    uint8_t back[600];
    int sock;
    fill_data();
    tt_config(&cfg);
    cfg.tcp_delack = TCP_DELACK_STANDARD; /* out of order is ACKed at once anyway */
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 8192, 1460);
    CHECK(sock >= 0);
    /* [0,100) is lost; [100,200) and [300,400) arrive: duplicate ACKs for 5001 */
    peer_data(&L, MS(100), 100, 100, 8192);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(100));
    CHECK_EQ(g.ack, 5001);
    CHECK_EQ(g.wnd, 8192);
    peer_data(&L, MS(101), 300, 100, 8192);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.ack, 5001);
    CHECK_EQ(lab_count(&L, TRACE_OOO_QUEUE), 2);
    CHECK_EQ(lab_event(&L, TRACE_OOO_QUEUE, 0)->a, 5101);
    CHECK_EQ(lab_event(&L, TRACE_OOO_QUEUE, 0)->b, 100);
    CHECK_EQ(lab_event(&L, TRACE_OOO_QUEUE, 1)->c, 2); /* two ranges held */
    CHECK_EQ(tcprecv(&L.h, sock, back, sizeof back), ERR_WOULDBLOCK);
    /* the first hole fills: everything up to the second hole, ACKed at once */
    peer_data(&L, MS(200), 0, 100, 8192);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(200));
    CHECK_EQ(g.ack, 5201);
    CHECK_EQ(g.wnd, 8192 - 200);
    /* and the second */
    peer_data(&L, MS(210), 200, 100, 8192);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(210));
    CHECK_EQ(g.ack, 5401);
    CHECK_EQ(tcprecv(&L.h, sock, back, sizeof back), 400);
    CHECK_MEM(back, data, 400);
    lab_free(&L);
}

static void test_out_of_order_off_drops(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    uint8_t back[300];
    int sock;
    fill_data();
    tt_config(&cfg);
    cfg.tcp_ooo = 0;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 8192, 1460);
    CHECK(sock >= 0);
    peer_data(&L, MS(100), 100, 100, 8192);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.ack, 5001); /* still a duplicate ACK */
    CHECK_EQ(L.h.stats.drops[DROP_TCP_OOO_OFF], 1);
    CHECK_EQ(lab_count(&L, TRACE_OOO_QUEUE), 0);
    peer_data(&L, MS(200), 0, 100, 8192);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.ack, 5101); /* the second segment must come again */
    CHECK_EQ(tcprecv(&L.h, sock, back, sizeof back), 100);
    lab_free(&L);
}

static void test_out_of_order_queue_full(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    int sock, i;
    fill_data();
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 8192, 1460);
    CHECK(sock >= 0);
    /* TCP_OOO_MAX_RANGES disjoint ranges fit; one more does not */
    for (i = 0; i <= TCP_OOO_MAX_RANGES; i++)
        peer_data(&L, MS(100) + (stack_time_t)i, (uint32_t)(100 + 200 * i), 100, 8192);
    CHECK_EQ(lab_count(&L, TRACE_OOO_QUEUE), TCP_OOO_MAX_RANGES);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_OOO_FULL], 1);
    CHECK_EQ(lab_pending(&L), TCP_OOO_MAX_RANGES + 1); /* a duplicate ACK for each */
    /* one that joins a held range still fits */
    peer_data(&L, MS(200), 200, 100, 8192);
    CHECK_EQ(lab_count(&L, TRACE_OOO_QUEUE), TCP_OOO_MAX_RANGES + 1);
    lab_free(&L);
}

static void test_zero_window_and_window_update(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    uint8_t back[1000];
    const struct trace_event *e;
    int sock, i;
    fill_data();
    tt_config(&cfg);
    cfg.tcp_rcv_buf = 4096;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 8192, 1460);
    CHECK(sock >= 0);
    for (i = 0; i < 4; i++)
        peer_data(&L, MS(100) + (stack_time_t)i, (uint32_t)(1024 * i), 1024, 8192);
    for (i = 0; i < 4; i++) {
        CHECK(lab_next(&L, &g));
        CHECK_EQ(g.wnd, 4096 - 1024 * (i + 1));
    }
    /* window 0: a probe byte is not taken, but ACKed with the window still 0 */
    peer_data(&L, MS(200), 4096, 1, 8192);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.ack, 5001 + 4096);
    CHECK_EQ(g.wnd, 0);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_RCVBUF_FULL], 1);
    /* the application reads 1000 B: a window of 1000 is less than min(4096 / 2, 1460) =
     * 1460, so it is not offered (receiver SWS avoidance, RFC 9293 3.8.6.2.2) */
    CHECK_EQ(tcprecv(&L.h, sock, back, 1000), 1000);
    CHECK_MEM(back, data, 1000);
    CHECK_EQ(lab_pending(&L), 0);
    /* 2000 B free: worth a window update */
    CHECK_EQ(tcprecv(&L.h, sock, back, 1000), 1000);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK);
    CHECK_EQ(g.ack, 5001 + 4096);
    CHECK_EQ(g.wnd, 2000);
    e = lab_event(&L, TRACE_RCV_WND, lab_count(&L, TRACE_RCV_WND) - 1);
    CHECK_EQ(e->a, 2000);
    CHECK_EQ(e->b, 0);
    CHECK_EQ(e->c, 1);
    /* 3000 B free: not yet twice the 2000 offered, no update (as Linux's tcp_cleanup_rbuf,
     * so a reader that keeps up adds no ACKs) */
    CHECK_EQ(tcprecv(&L.h, sock, back, 1000), 1000);
    CHECK_EQ(lab_pending(&L), 0);
    /* 4000 B free: twice the 2000 offered, and 2000 <= 4096 / 2: an update */
    CHECK_EQ(tcprecv(&L.h, sock, back, 1000), 1000);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.wnd, 4000);
    CHECK_EQ(lab_pending(&L), 0);
    lab_free(&L);
}

/* With our window at zero, no segment is acceptable, "but special allowance should be made
 * to accept valid ACKs" (RFC 9293 3.10.7.4). Linux probes a zero window with SND.UNA - 1 and
 * no data: that probe may be the only ACK of our data to come (the Linux interop test
 * stalled for a minute on it, its other ACKs lost). Its ACK is taken, the segment still
 * dropped and answered with our ACK; our data is not sent again. */
static void test_zero_window_probe_ack_taken(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    stack_time_t t;
    int sock, i;
    fill_data();
    tt_config(&cfg);
    cfg.tcp_rcv_buf = 4096;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 8192, 1460);
    CHECK(sock >= 0);
    for (i = 0; i < 4; i++)
        peer_data(&L, MS(100) + (stack_time_t)i, (uint32_t)(1024 * i), 1024, 8192);
    for (i = 0; i < 4; i++)
        CHECK(lab_next(&L, &g));
    /* our 100 bytes go out; the window we offer is 0 */
    CHECK_EQ(tcpsend(&L.h, sock, data, 100), 100);
    lab_run(&L, MS(150));
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, OUR_ISS + 1);
    CHECK_EQ(g.len, 100);
    CHECK_EQ(g.wnd, 0);
    /* the peer's zero-window probe, at RCV.NXT - 1, acknowledges them */
    lab_seg(&L, MS(400), TCP_ACK, 5001 + 4096 - 1, OUR_ISS + 101, 8192, NULL, 0);
    CHECK(lab_next(&L, &g)); /* our ACK of the unacceptable segment */
    CHECK_EQ(g.len, 0);
    CHECK_EQ(g.ack, 5001 + 4096);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_BAD_SEQ], 1);
    /* nothing is outstanding: no retransmission, however long we wait */
    for (t = MS(500); t < MS(60000); t += MS(500))
        lab_run(&L, t);
    CHECK_EQ(lab_pending(&L), 0);
    CHECK_EQ(lab_count(&L, TRACE_RETRANSMIT), 0);
    lab_free(&L);
}

UNIT_MAIN(UNIT(test_delayed_ack_every_second_segment_and_timer),
          UNIT(test_delayed_ack_on_fast_ticks), UNIT(test_delayed_ack_nfc_variant),
          UNIT(test_delayed_ack_nfc_reply_larger_than_request),
          UNIT(test_piggybacked_ack_cancels_delayed_ack), UNIT(test_out_of_order_hole_filled_later),
          UNIT(test_out_of_order_off_drops), UNIT(test_out_of_order_queue_full),
          UNIT(test_zero_window_and_window_update), UNIT(test_zero_window_probe_ack_taken))
