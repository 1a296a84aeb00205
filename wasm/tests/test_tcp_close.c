/* The RFC 9293 closing handshakes, segment by segment: active, passive, simultaneous and
 * half close, TIME_WAIT (2 MSL, a repeated FIN, reopening by a new SYN). Expected
 * segments come from RFC 9293 3.6 and figures 12-13 with our ISS 1000 and the peer's
 * 5000. */
#include "tcp_tests.h"

static void test_active_close_and_time_wait(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    const struct trace_event *e;
    int sock;
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 4096, 1460);
    CHECK(sock >= 0);
    lab_run(&L, MS(100));
    CHECK_EQ(tcpclose(&L.h, sock), ERR_OK);
    CHECK(lab_next(&L, &g)); /* <SEQ=1001><ACK=5001><CTL=FIN,ACK> */
    CHECK_EQ(g.t, MS(100));
    CHECK_EQ(g.flags, TCP_FIN | TCP_ACK);
    CHECK_EQ(g.seq, 1001);
    CHECK_EQ(g.ack, 5001);
    CHECK_EQ(tcpsend(&L.h, sock, "x", 1), ERR_ARG); /* the descriptor is given back */
    lab_seg(&L, MS(110), TCP_ACK, 5001, 1002, 4096, NULL, 0);
    CHECK_EQ(lab_pending(&L), 0);
    lab_seg(&L, MS(120), TCP_FIN | TCP_ACK, 5001, 1002, 4096, NULL, 0);
    CHECK(lab_next(&L, &g)); /* the FIN is acknowledged at once */
    CHECK_EQ(g.flags, TCP_ACK);
    CHECK_EQ(g.seq, 1002);
    CHECK_EQ(g.ack, 5002);
    CHECK(tt_state_change(&L, 2, TCP_ESTABLISHED, TCP_FIN_WAIT_1));
    CHECK(tt_state_change(&L, 3, TCP_FIN_WAIT_1, TCP_FIN_WAIT_2));
    CHECK(tt_state_change(&L, 4, TCP_FIN_WAIT_2, TCP_TIME_WAIT));
    /* 2 MSL = tcp_time_wait_ms = 60 s after entering TIME_WAIT */
    lab_run(&L, MS(120) + MS(60000) - 1);
    CHECK_EQ(lab_count(&L, TRACE_TCP_STATE), 5);
    lab_run(&L, MS(120) + MS(60000));
    e = lab_event(&L, TRACE_TCP_STATE, 5);
    CHECK(e != NULL);
    CHECK_EQ(e->a, TCP_TIME_WAIT);
    CHECK_EQ(e->b, TCP_CLOSED);
    CHECK_EQ(e->time, MS(60120));
    CHECK_EQ(lab_pending(&L), 0);
    CHECK_EQ(tcpsocket(&L.h), sock); /* the block went back to the pool */
    lab_free(&L);
}

/* tcpshutdown: our FIN leaves, but the socket stays: the peer's data is still read, and
 * tcpstatus follows FIN_WAIT_1 -> FIN_WAIT_2 -> TIME_WAIT -> CLOSED (RFC 9293 3.10.4: after
 * CLOSE the user may go on receiving). The block is kept after TIME_WAIT until tcpclose. */
static void test_half_close_keeps_the_socket(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tcp_info info;
    struct tseg g;
    char buf[8];
    int sock;
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 4096, 1460);
    CHECK(sock >= 0);
    lab_run(&L, MS(100));
    CHECK_EQ(tcpshutdown(&L.h, sock), ERR_OK);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_FIN | TCP_ACK);
    CHECK_EQ(g.seq, 1001);
    CHECK_EQ(tcpstatus(&L.h, sock, &info), ERR_OK);
    CHECK_EQ(info.state, TCP_FIN_WAIT_1);
    CHECK_EQ(info.snd_space, 0); /* nothing more may be sent */
    /* The peer acknowledges our FIN and still sends 5 bytes, then its FIN. */
    lab_seg(&L, MS(110), TCP_ACK | TCP_PSH, 5001, 1002, 4096, "hello", 5);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.ack, 5006);
    CHECK_EQ(tcpstatus(&L.h, sock, &info), ERR_OK);
    CHECK_EQ(info.state, TCP_FIN_WAIT_2);
    CHECK_EQ(tcprecv(&L.h, sock, buf, sizeof buf), 5);
    CHECK_MEM(buf, "hello", 5);
    lab_seg(&L, MS(120), TCP_FIN | TCP_ACK, 5006, 1002, 4096, NULL, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK);
    CHECK_EQ(g.ack, 5007);
    CHECK_EQ(tcprecv(&L.h, sock, buf, sizeof buf), 0); /* end of the peer's data */
    CHECK_EQ(tcpstatus(&L.h, sock, &info), ERR_OK);
    CHECK_EQ(info.state, TCP_TIME_WAIT);
    lab_run(&L, MS(120) + MS(60000));
    CHECK_EQ(tcpstatus(&L.h, sock, &info), ERR_OK);
    CHECK_EQ(info.state, TCP_CLOSED); /* over, but still ours until tcpclose */
    CHECK_EQ(tcpclose(&L.h, sock), ERR_OK);
    CHECK_EQ(tcpstatus(&L.h, sock, &info), ERR_ARG);
    CHECK_EQ(tcpshutdown(&L.h, sock), ERR_ARG);
    lab_free(&L);
}

static void test_time_wait_answers_a_repeated_fin(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    int sock;
    tt_config(&cfg);
    cfg.tcp_time_wait_ms = 2000;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 4096, 1460);
    CHECK(sock >= 0);
    CHECK_EQ(tcpclose(&L.h, sock), ERR_OK);
    lab_seg(&L, MS(20), TCP_FIN | TCP_ACK, 5001, 1002, 4096, NULL, 0);
    lab_skip(&L);
    /* FIN and ACK of our FIN together: the ACK is processed first (RFC 9293 3.10.7.4, fifth
     * check: FIN_WAIT_2), then the FIN (eighth check: TIME_WAIT). */
    CHECK(tt_state_change(&L, 3, TCP_FIN_WAIT_1, TCP_FIN_WAIT_2));
    CHECK(tt_state_change(&L, 4, TCP_FIN_WAIT_2, TCP_TIME_WAIT));
    /* our ACK was lost; the peer repeats its FIN at 1 s: ACK again, 2 MSL from now */
    lab_seg(&L, MS(1000), TCP_FIN | TCP_ACK, 5001, 1002, 4096, NULL, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK);
    CHECK_EQ(g.seq, 1002);
    CHECK_EQ(g.ack, 5002);
    lab_run(&L, MS(2999));
    CHECK_EQ(lab_count(&L, TRACE_TCP_STATE), 5); /* would have closed at 2.02 s */
    lab_run(&L, MS(3000));
    CHECK(tt_state_change(&L, 5, TCP_TIME_WAIT, TCP_CLOSED));
    CHECK_EQ(lab_event(&L, TRACE_TCP_STATE, 5)->time, MS(3000));
    lab_free(&L);
}

static void test_passive_close(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    char buf[4];
    int sock;
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 4096, 1460);
    CHECK(sock >= 0);
    lab_seg(&L, MS(100), TCP_FIN | TCP_ACK, 5001, 1001, 4096, NULL, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(100));
    CHECK_EQ(g.flags, TCP_ACK);
    CHECK_EQ(g.ack, 5002);
    CHECK_EQ(tt_state(&L, sock), TCP_CLOSE_WAIT);
    CHECK_EQ(tcprecv(&L.h, sock, buf, sizeof buf), 0); /* end of stream */
    CHECK_EQ(tcpsend(&L.h, sock, "ok", 2), 2);         /* we may still send */
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, 1001);
    CHECK_EQ(g.len, 2);
    lab_seg(&L, MS(150), TCP_ACK, 5002, 1003, 4096, NULL, 0);
    lab_run(&L, MS(200));
    CHECK_EQ(tcpclose(&L.h, sock), ERR_OK);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_FIN | TCP_ACK);
    CHECK_EQ(g.seq, 1003);
    CHECK_EQ(g.ack, 5002);
    CHECK(tt_state_change(&L, 3, TCP_CLOSE_WAIT, TCP_LAST_ACK));
    lab_seg(&L, MS(210), TCP_ACK, 5002, 1004, 4096, NULL, 0);
    CHECK(tt_state_change(&L, 4, TCP_LAST_ACK, TCP_CLOSED));
    CHECK_EQ(lab_event(&L, TRACE_TCP_STATE, 4)->time, MS(210));
    CHECK_EQ(lab_pending(&L), 0);
    lab_free(&L);
}

static void test_simultaneous_close(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    int sock;
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 4096, 1460);
    CHECK(sock >= 0);
    lab_run(&L, MS(100));
    CHECK_EQ(tcpclose(&L.h, sock), ERR_OK);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_FIN | TCP_ACK);
    /* RFC 9293 figure 13: the peer's FIN crosses ours (it does not ACK our FIN). */
    lab_seg(&L, MS(105), TCP_FIN | TCP_ACK, 5001, 1001, 4096, NULL, 0);
    CHECK(tt_state_change(&L, 3, TCP_FIN_WAIT_1, TCP_CLOSING));
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK);
    CHECK_EQ(g.seq, 1002);
    CHECK_EQ(g.ack, 5002);
    lab_seg(&L, MS(110), TCP_ACK, 5002, 1002, 4096, NULL, 0);
    CHECK(tt_state_change(&L, 4, TCP_CLOSING, TCP_TIME_WAIT));
    CHECK_EQ(lab_pending(&L), 0);
    lab_run(&L, MS(110) + MS(60000));
    CHECK(tt_state_change(&L, 5, TCP_TIME_WAIT, TCP_CLOSED));
    CHECK_EQ(lab_event(&L, TRACE_TCP_STATE, 5)->time, MS(60110));
    lab_free(&L);
}

static void test_time_wait_reopened_by_new_syn(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    struct tseg_spec s;
    int l, c;
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    c = tt_open_passive(&L, 0, MS(10), 4096, 1460, &l);
    CHECK(c >= 0);
    /* the server closes first and ends in TIME_WAIT */
    lab_run(&L, MS(100));
    CHECK_EQ(tcpclose(&L.h, c), ERR_OK);
    lab_seg(&L, MS(110), TCP_FIN | TCP_ACK, 5001, 1002, 4096, NULL, 0);
    lab_skip(&L);
    CHECK(tt_state_change(&L, 5, TCP_FIN_WAIT_2, TCP_TIME_WAIT));
    /* an old SYN (below RCV.NXT) does not reopen it: it gets the TIME_WAIT ACK */
    lab_seg(&L, MS(400), TCP_SYN, 4000, 0, 4096, NULL, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK);
    CHECK_EQ(g.seq, 1002);
    CHECK_EQ(g.ack, 5002);
    CHECK_EQ(lab_count(&L, TRACE_TCP_STATE), 6);
    /* the client comes back from the same port with a higher sequence number: a new
     * connection at once, our ISS past the old one (1002 + 65536), RFC 1122 4.2.2.13 */
    memset(&s, 0, sizeof s);
    s.flags = TCP_SYN;
    s.seq = 90000;
    s.wnd = 4096;
    s.mss = 1460;
    lab_in(&L, MS(500), &s);
    CHECK(tt_state_change(&L, 6, TCP_TIME_WAIT, TCP_CLOSED));
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_SYN | TCP_ACK);
    CHECK_EQ(g.seq, 1002 + 65536);
    CHECK_EQ(g.ack, 90001);
    lab_free(&L);
}

UNIT_MAIN(UNIT(test_active_close_and_time_wait), UNIT(test_half_close_keeps_the_socket),
          UNIT(test_time_wait_answers_a_repeated_fin), UNIT(test_passive_close),
          UNIT(test_simultaneous_close), UNIT(test_time_wait_reopened_by_new_syn))
