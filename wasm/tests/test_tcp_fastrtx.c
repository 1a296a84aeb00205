/* Fast retransmit and fast recovery (RFC 5681 3.2) with NewReno's partial ACKs (RFC 6582
 * 3.2), and what counts as a duplicate ACK (RFC 5681 section 2).
 *
 * Five full segments leave at 100 ms (initial cwnd set to 10 segments, peer window 16384):
 *   #1 1001, #2 2461, #3 3921, #4 5381, #5 6841; snd_max 8301.
 * #1 and #3 are lost. #2, #4, #5 each draw an ACK of 1001: three duplicates. */
#include "tcp_tests.h"

static uint8_t data[7300];

static int five_segments(struct tcp_lab *L, struct host_config *cfg)
{
    uint32_t i;
    int sock;
    for (i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 17u + 1u);
    tt_config(cfg);
    cfg->tcp_initial_cwnd = 14600;
    cfg->tcp_snd_buf = 16384;
    if (lab_init(L, cfg, 1500, 0) != 0)
        return -1;
    sock = tt_open_active(L, 0, MS(10), 16384, 1460);
    if (sock < 0)
        return -1;
    lab_run(L, MS(100));
    if (tcpsend(&L->h, sock, data, sizeof data) != (int)sizeof data || lab_pending(L) != 5)
        return -1;
    lab_skip(L);
    lab_clear_trace(L);
    return sock;
}

static void test_fast_retransmit_and_newreno_partial_ack(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    const struct trace_event *e;
    struct tcp_info info;
    int sock = five_segments(&L, &cfg);
    CHECK(sock >= 0);
    lab_seg(&L, MS(120), TCP_ACK, 5001, 1001, 16384, NULL, 0);
    lab_seg(&L, MS(121), TCP_ACK, 5001, 1001, 16384, NULL, 0);
    CHECK_EQ(lab_pending(&L), 0);
    CHECK_EQ(lab_count(&L, TRACE_DUPACK), 2);
    /* the third duplicate: #1 again at once */
    lab_seg(&L, MS(122), TCP_ACK, 5001, 1001, 16384, NULL, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(122));
    CHECK_EQ(g.seq, 1001);
    CHECK_EQ(g.len, 1460);
    CHECK_MEM(g.data, data, 1460);
    CHECK_EQ(lab_pending(&L), 0);
    e = lab_event(&L, TRACE_RETRANSMIT, 0);
    CHECK_EQ(e->c, TCP_RETX_FAST);
    CHECK_EQ(e->d, 3);
    /* RFC 5681 3.2: ssthresh = max(FlightSize / 2, 2 SMSS) = max(3650, 2920) = 3650,
     * cwnd = ssthresh + 3 SMSS = 8030; recover = 8301 (RFC 6582) */
    e = lab_event(&L, TRACE_RECOVERY_ENTER, 0);
    CHECK(e != NULL);
    CHECK_EQ(e->a, 8301);
    CHECK_EQ(e->b, 8030);
    CHECK_EQ(e->c, 3650);
    CHECK_EQ(lab_event(&L, TRACE_SSTHRESH, 0)->a, 3650);
    /* #1 arrives, the peer now holds #1 #2 and ACKs 3921: a partial ACK. NewReno resends
     * the next hole, #3, and stays in recovery; cwnd = 8030 - 2920 + 1460 = 6570. */
    lab_seg(&L, MS(130), TCP_ACK, 5001, 3921, 16384, NULL, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(130));
    CHECK_EQ(g.seq, 3921);
    CHECK_EQ(g.len, 1460);
    CHECK_MEM(g.data, data + 2920, 1460);
    CHECK_EQ(lab_event(&L, TRACE_RETRANSMIT, 1)->c, TCP_RETX_PARTIAL_ACK);
    CHECK_EQ(lab_count(&L, TRACE_RECOVERY_EXIT), 0);
    CHECK_EQ(tcpstatus(&L.h, sock, &info), ERR_OK);
    CHECK_EQ(info.cwnd, 6570);
    /* the full ACK ends recovery: cwnd = min(ssthresh, max(FlightSize, SMSS) + SMSS) =
     * min(3650, 1460 + 1460) = 2920 (RFC 6582 3.2 step 3, option 1) */
    lab_seg(&L, MS(140), TCP_ACK, 5001, 8301, 16384, NULL, 0);
    e = lab_event(&L, TRACE_RECOVERY_EXIT, 0);
    CHECK(e != NULL);
    CHECK_EQ(e->a, 8301);
    CHECK_EQ(e->b, 2920);
    CHECK_EQ(tcpstatus(&L.h, sock, &info), ERR_OK);
    CHECK_EQ(info.retransmits_fast, 2);
    CHECK_EQ(info.retransmits_rto, 0);
    CHECK_EQ(info.snd_una, 8301);
    CHECK_EQ(lab_count(&L, TRACE_RTT_SAMPLE), 0); /* Karn: #1 was the timed segment */
    CHECK_EQ(lab_count(&L, TRACE_RTO_EXPIRE), 0);
    CHECK_EQ(lab_pending(&L), 0);
    lab_free(&L);
}

static void test_what_is_not_a_duplicate_ack(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    int sock = five_segments(&L, &cfg);
    CHECK(sock >= 0);
    /* a different window: a window update, not a duplicate */
    lab_seg(&L, MS(120), TCP_ACK, 5001, 1001, 16000, NULL, 0);
    /* carrying data: not a duplicate */
    lab_seg(&L, MS(121), TCP_ACK, 5001, 1001, 16000, "x", 1);
    lab_skip(&L);
    CHECK_EQ(lab_count(&L, TRACE_DUPACK), 0);
    /* these are (ACK 1001, no data, same window 16000, data outstanding) */
    lab_seg(&L, MS(122), TCP_ACK, 5002, 1001, 16000, NULL, 0);
    lab_seg(&L, MS(123), TCP_ACK, 5002, 1001, 16000, NULL, 0);
    CHECK_EQ(lab_count(&L, TRACE_DUPACK), 2);
    CHECK_EQ(lab_event(&L, TRACE_DUPACK, 1)->b, 2);
    CHECK_EQ(lab_count(&L, TRACE_RETRANSMIT), 0);
    /* a new ACK resets the count */
    lab_seg(&L, MS(124), TCP_ACK, 5002, 2461, 16000, NULL, 0);
    lab_seg(&L, MS(125), TCP_ACK, 5002, 2461, 16000, NULL, 0);
    CHECK_EQ(lab_event(&L, TRACE_DUPACK, 2)->b, 1);
    lab_free(&L);
}

UNIT_MAIN(UNIT(test_fast_retransmit_and_newreno_partial_ack),
          UNIT(test_what_is_not_a_duplicate_ack))
