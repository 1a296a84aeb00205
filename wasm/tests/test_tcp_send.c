/* The send side: Nagle's algorithm on and off (RFC 9293 3.7.4, Minshall's variant), the
 * FIN after queued data, zero-window probing with the persist timer and its backoff
 * (RFC 9293 3.8.6.1, RFC 1122 4.2.2.17), and channel sensing (hold while the interface is
 * busy, send when it is free). Our ISS 1000, the peer's 5000. */
#include "tcp_tests.h"

static uint8_t data[8192];

static void fill_data(void)
{
    uint32_t i;
    for (i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 31u + 7u);
}

static void test_nagle_holds_small_segments(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    int sock;
    fill_data();
    tt_config(&cfg); /* tcp_nagle 1 */
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 8192, 1460);
    CHECK(sock >= 0);
    lab_run(&L, MS(100));
    CHECK_EQ(tcpsend(&L.h, sock, "a", 1), 1); /* nothing outstanding: goes */
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(100));
    CHECK_EQ(g.seq, 1001);
    CHECK_EQ(g.len, 1);
    lab_run(&L, MS(101));
    CHECK_EQ(tcpsend(&L.h, sock, "b", 1), 1); /* "a" unacknowledged: held */
    lab_run(&L, MS(102));
    CHECK_EQ(tcpsend(&L.h, sock, "c", 1), 1);
    CHECK_EQ(lab_pending(&L), 0);
    /* a full-sized segment is never held */
    lab_run(&L, MS(103));
    CHECK_EQ(tcpsend(&L.h, sock, data, 1460), 1460);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(103));
    CHECK_EQ(g.seq, 1002);
    CHECK_EQ(g.len, 1460);
    CHECK_MEM(g.data, "bc", 2);
    CHECK_MEM(g.data + 2, data, 1458);
    CHECK_EQ(lab_pending(&L), 0); /* the last 2 bytes wait */
    /* the ACK of "a" releases them */
    lab_seg(&L, MS(120), TCP_ACK, 5001, 1002, 8192, NULL, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(120));
    CHECK_EQ(g.seq, 2462);
    CHECK_EQ(g.len, 2);
    CHECK_EQ(g.flags, TCP_ACK | TCP_PSH);
    CHECK_MEM(g.data, data + 1458, 2);
    lab_free(&L);
}

static void test_nagle_off_sends_at_once(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    int sock;
    tt_config(&cfg);
    cfg.tcp_nagle = 0;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 8192, 1460);
    CHECK(sock >= 0);
    lab_run(&L, MS(100));
    CHECK_EQ(tcpsend(&L.h, sock, "a", 1), 1);
    lab_run(&L, MS(101));
    CHECK_EQ(tcpsend(&L.h, sock, "b", 1), 1);
    lab_run(&L, MS(102));
    CHECK_EQ(tcpsend(&L.h, sock, "c", 1), 1);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(100));
    CHECK_EQ(g.seq, 1001);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(101));
    CHECK_EQ(g.seq, 1002);
    CHECK_MEM(g.data, "b", 1);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(102));
    CHECK_EQ(g.seq, 1003);
    CHECK_EQ(g.flags, TCP_ACK | TCP_PSH);
    lab_free(&L);
}

static void test_fin_follows_queued_data(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    int sock;
    fill_data();
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 1460, 1460); /* the peer offers one segment */
    CHECK(sock >= 0);
    lab_run(&L, MS(100));
    CHECK_EQ(tcpsend(&L.h, sock, data, 3000), 3000);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.len, 1460);
    CHECK_EQ(g.flags, TCP_ACK);
    CHECK_EQ(lab_pending(&L), 0);
    CHECK_EQ(tcpclose(&L.h, sock), ERR_OK); /* FIN_WAIT_1, the FIN queued after 1540 B */
    CHECK_EQ(lab_pending(&L), 0);
    lab_seg(&L, MS(120), TCP_ACK, 5001, 2461, 8192, NULL, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, 2461);
    CHECK_EQ(g.len, 1460);
    CHECK_EQ(g.flags, TCP_ACK);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, 3921);
    CHECK_EQ(g.len, 80);
    CHECK_EQ(g.flags, TCP_ACK | TCP_PSH | TCP_FIN); /* the FIN rides on the last data */
    CHECK_MEM(g.data, data + 2920, 80);
    lab_seg(&L, MS(140), TCP_ACK, 5001, 4002, 8192, NULL, 0);
    CHECK(tt_state_change(&L, 3, TCP_FIN_WAIT_1, TCP_FIN_WAIT_2));
    lab_free(&L);
}

static void test_zero_window_probe_and_recovery(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    int sock;
    fill_data();
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 4096, 1460);
    CHECK(sock >= 0);
    lab_run(&L, MS(100));
    CHECK_EQ(tcpsend(&L.h, sock, data, 4096), 4096); /* 1460 + 1460 + 1176, window full */
    CHECK_EQ(lab_pending(&L), 3);
    lab_skip(&L);
    /* all acknowledged, and the window closed */
    lab_seg(&L, MS(120), TCP_ACK, 5001, 5097, 0, NULL, 0);
    CHECK_EQ(lab_event(&L, TRACE_SND_WND, 0)->a, 0);
    lab_run(&L, MS(130));
    CHECK_EQ(tcpsend(&L.h, sock, data + 4096, 100), 100);
    CHECK_EQ(lab_pending(&L), 0);
    /* persist timer: the RTO (RTTs of 10 and 20 ms give 1 s, the floor), doubling */
    CHECK_EQ(lab_event(&L, TRACE_PERSIST_ARM, 0)->time, MS(130));
    CHECK_EQ(lab_event(&L, TRACE_PERSIST_ARM, 0)->a, 1000000);
    lab_run(&L, MS(1129));
    CHECK_EQ(lab_pending(&L), 0);
    lab_run(&L, MS(1130));
    CHECK(lab_next(&L, &g)); /* one byte of new data */
    CHECK_EQ(g.t, MS(1130));
    CHECK_EQ(g.seq, 5097);
    CHECK_EQ(g.len, 1);
    CHECK_EQ(g.data[0], data[4096]);
    CHECK_EQ(lab_event(&L, TRACE_ZERO_WINDOW_PROBE, 0)->a, 5097);
    CHECK_EQ(lab_event(&L, TRACE_PERSIST_ARM, 1)->a, 2000000);
    /* the peer still has no room: the probe is not taken */
    lab_seg(&L, MS(1140), TCP_ACK, 5001, 5097, 0, NULL, 0);
    CHECK_EQ(lab_count(&L, TRACE_DUPACK), 0); /* not a duplicate ACK: window 0 */
    lab_run(&L, MS(3129));
    CHECK_EQ(lab_pending(&L), 0);
    lab_run(&L, MS(3130));
    CHECK(lab_next(&L, &g)); /* the same byte again */
    CHECK_EQ(g.t, MS(3130));
    CHECK_EQ(g.seq, 5097);
    CHECK_EQ(g.len, 1);
    CHECK_EQ(lab_event(&L, TRACE_ZERO_WINDOW_PROBE, 1)->b, 1);
    CHECK_EQ(lab_event(&L, TRACE_PERSIST_ARM, 2)->a, 4000000);
    /* the window opens (the probe still not taken): the data goes from 5097 */
    lab_seg(&L, MS(3140), TCP_ACK, 5001, 5097, 1000, NULL, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(3140));
    CHECK_EQ(g.seq, 5097);
    CHECK_EQ(g.len, 100);
    CHECK_MEM(g.data, data + 4096, 100);
    CHECK_EQ(lab_count(&L, TRACE_RETRANSMIT), 0);
    lab_run(&L, MS(8000));
    CHECK_EQ(lab_count(&L, TRACE_ZERO_WINDOW_PROBE), 2); /* the persist timer stopped */
    lab_free(&L);
}

static void test_zero_window_probe_accepted(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    int sock;
    fill_data();
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 4096, 1460);
    CHECK(sock >= 0);
    lab_seg(&L, MS(50), TCP_ACK, 5001, 1001, 0, NULL, 0); /* the window closes */
    lab_run(&L, MS(100));
    CHECK_EQ(tcpsend(&L.h, sock, data, 50), 50);
    CHECK_EQ(lab_pending(&L), 0);
    lab_run(&L, MS(1100));
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, 1001);
    CHECK_EQ(g.len, 1);
    /* the peer takes it and offers room: the other 49 bytes follow */
    lab_seg(&L, MS(1110), TCP_ACK, 5001, 1002, 2000, NULL, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(1110));
    CHECK_EQ(g.seq, 1002);
    CHECK_EQ(g.len, 49);
    CHECK_MEM(g.data, data + 1, 49);
    lab_free(&L);
}

static void test_channel_sensing_holds_until_free(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    const struct trace_event *e;
    int sock;
    tt_config(&cfg);
    cfg.tcp_channel_sensing = 1;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 4096, 1460);
    CHECK(sock >= 0);
    host_set_netif_busy(&L.h, 0, 1, MS(100));
    CHECK_EQ(tcpsend(&L.h, sock, "held", 4), 4);
    CHECK_EQ(lab_pending(&L), 0);
    e = lab_event(&L, TRACE_CHANNEL_WAIT, 0);
    CHECK(e != NULL);
    CHECK_EQ(e->a, 1001);
    CHECK_EQ(e->b, 4);
    CHECK_EQ(e->c, 0);
    /* an ACK due meanwhile is held too */
    lab_seg(&L, MS(120), TCP_ACK | TCP_PSH, 5001, 1001, 4096, "ping", 4);
    CHECK_EQ(lab_pending(&L), 0);
    host_set_netif_busy(&L.h, 0, 0, MS(150));
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(150));
    CHECK_EQ(g.seq, 1001);
    CHECK_EQ(g.ack, 5005); /* carries the ACK of "ping" */
    CHECK_EQ(g.len, 4);
    CHECK_MEM(g.data, "held", 4);
    CHECK_EQ(lab_pending(&L), 0);
    /* without channel sensing a busy flag changes nothing */
    lab_free(&L);
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 4096, 1460);
    host_set_netif_busy(&L.h, 0, 1, MS(100));
    CHECK_EQ(tcpsend(&L.h, sock, "now", 3), 3);
    CHECK_EQ(lab_pending(&L), 1);
    lab_free(&L);
}

static void test_small_queues_hold_new_data_not_acks(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    int sock;
    tt_config(&cfg);
    cfg.tcp_small_queues = 2;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 4096, 1460);
    CHECK(sock >= 0);
    /* two of the host's frames are still on their way out: new data waits in the socket */
    host_set_netif_unsent(&L.h, 0, 2, MS(100));
    CHECK_EQ(tcpsend(&L.h, sock, "held", 4), 4);
    CHECK_EQ(lab_pending(&L), 0);
    /* an ACK is not held (Linux checks TSQ only for data): "ping" is ACKed when due */
    lab_seg(&L, MS(120), TCP_ACK | TCP_PSH, 5001, 1001, 4096, "ping", 4);
    lab_run(&L, MS(399));
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, 1001);
    CHECK_EQ(g.ack, 5005);
    CHECK_EQ(g.len, 0);
    CHECK_EQ(lab_pending(&L), 0);
    /* one frame left the link: room, and the data goes at that instant */
    host_set_netif_unsent(&L.h, 0, 1, MS(400));
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(400));
    CHECK_EQ(g.seq, 1001);
    CHECK_EQ(g.len, 4);
    CHECK_MEM(g.data, "held", 4);
    lab_free(&L);
    /* off (0), the count changes nothing */
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 4096, 1460);
    host_set_netif_unsent(&L.h, 0, 9, MS(100));
    CHECK_EQ(tcpsend(&L.h, sock, "now", 3), 3);
    CHECK_EQ(lab_pending(&L), 1);
    lab_free(&L);
}

UNIT_MAIN(UNIT(test_nagle_holds_small_segments), UNIT(test_nagle_off_sends_at_once),
          UNIT(test_fin_follows_queued_data), UNIT(test_zero_window_probe_and_recovery),
          UNIT(test_zero_window_probe_accepted), UNIT(test_channel_sensing_holds_until_free),
          UNIT(test_small_queues_hold_new_data_not_acks))
