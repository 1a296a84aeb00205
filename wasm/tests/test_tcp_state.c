/* The RFC 9293 state machine, segment by segment: active, passive and simultaneous open,
 * active, passive and simultaneous close, TIME_WAIT, SYN retries, the listen backlog.
 * Resets are in test_tcp_rst.c. Expected segments come from RFC 9293 3.5, 3.6 and figures
 * 6-13 with our ISS 1000 and the peer's 5000. */
#include "tcp_tests.h"

static void test_active_open(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    struct stack_sockaddr to = { LAB_PEER, 80 };
    struct tseg_spec s;
    int sock;
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    tcp_set_next_iss(&L.h, OUR_ISS);
    sock = tcpsocket(&L.h);
    CHECK(sock >= 0);
    CHECK_EQ(tcpconnect(&L.h, sock, &to), ERR_OK);
    CHECK_EQ(tt_state(&L, sock), TCP_SYN_SENT);
    /* <SEQ=1000><CTL=SYN>, MSS 1500 - 40, our whole buffer as window */
    CHECK(lab_next(&L, &g));
    CHECK(g.ip_ok && g.tcp_ok);
    CHECK_EQ(g.t, 0);
    CHECK_EQ(g.src, LAB_ME);
    CHECK_EQ(g.dst, LAB_PEER);
    CHECK_EQ(g.dport, 80);
    CHECK(g.sport >= 49152);
    CHECK_EQ(g.flags, TCP_SYN);
    CHECK_EQ(g.seq, 1000);
    CHECK_EQ(g.ack, 0);
    CHECK_EQ(g.wnd, 8192);
    CHECK(g.has_mss);
    CHECK_EQ(g.mss, 1460);
    CHECK(!g.has_ts);
    CHECK_EQ(g.len, 0);
    L.my_port = g.sport;
    L.peer_port = 80;
    /* <SEQ=5000><ACK=1001><CTL=SYN,ACK> at 10 ms -> <SEQ=1001><ACK=5001><CTL=ACK> */
    memset(&s, 0, sizeof s);
    s.flags = TCP_SYN | TCP_ACK;
    s.seq = 5000;
    s.ack = 1001;
    s.wnd = 4096;
    s.mss = 1460;
    lab_in(&L, MS(10), &s);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(10));
    CHECK_EQ(g.flags, TCP_ACK);
    CHECK_EQ(g.seq, 1001);
    CHECK_EQ(g.ack, 5001);
    CHECK_EQ(g.wnd, 8192);
    CHECK_EQ(g.hlen, 20);
    CHECK_EQ(lab_pending(&L), 0);
    CHECK_EQ(tt_state(&L, sock), TCP_ESTABLISHED);
    CHECK(tt_state_change(&L, 0, TCP_CLOSED, TCP_SYN_SENT));
    CHECK(tt_state_change(&L, 1, TCP_SYN_SENT, TCP_ESTABLISHED));
    /* the SYN's timer: armed at 0 with the initial 1 s, stopped by the SYN-ACK */
    CHECK_EQ(lab_event(&L, TRACE_RTO_ARM, 0)->a, 1000000);
    CHECK_EQ(lab_event(&L, TRACE_RTO_STOP, 0)->time, MS(10));
    CHECK_EQ(lab_event(&L, TRACE_RTT_SAMPLE, 0)->a, 10000);
    {
        stack_time_t d;
        CHECK(!lab_deadline(&L, &d)); /* nothing left to time */
    }
    lab_free(&L);
}

static void test_passive_open_and_data(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    struct tseg_spec s;
    struct stack_sockaddr me = { 0, 80 };
    struct tcp_info info;
    char buf[16];
    int l, c;
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    l = tcpsocket(&L.h);
    CHECK_EQ(tcpbind(&L.h, l, &me), ERR_OK);
    CHECK_EQ(tcplisten(&L.h, l, 2), ERR_OK);
    CHECK_EQ(tcpaccept(&L.h, l), ERR_WOULDBLOCK);
    tcp_set_next_iss(&L.h, OUR_ISS);
    memset(&s, 0, sizeof s);
    s.flags = TCP_SYN;
    s.seq = 5000;
    s.wnd = 4096;
    s.mss = 1000;
    lab_in(&L, 0, &s);
    /* <SEQ=1000><ACK=5001><CTL=SYN,ACK> with our MSS */
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_SYN | TCP_ACK);
    CHECK_EQ(g.seq, 1000);
    CHECK_EQ(g.ack, 5001);
    CHECK_EQ(g.sport, 80);
    CHECK_EQ(g.dport, 40000);
    CHECK_EQ(g.mss, 1460);
    CHECK_EQ(g.wnd, 8192);
    CHECK_EQ(tcpaccept(&L.h, l), ERR_WOULDBLOCK); /* not established yet */
    lab_seg(&L, MS(5), TCP_ACK, 5001, 1001, 4096, NULL, 0);
    CHECK_EQ(lab_pending(&L), 0);
    c = tcpaccept(&L.h, l);
    CHECK(c >= 0 && c != l);
    CHECK_EQ(tcpaccept(&L.h, l), ERR_WOULDBLOCK);
    CHECK(tt_state_change(&L, 0, TCP_CLOSED, TCP_LISTEN));
    CHECK(tt_state_change(&L, 1, TCP_LISTEN, TCP_SYN_RECEIVED));
    CHECK(tt_state_change(&L, 2, TCP_SYN_RECEIVED, TCP_ESTABLISHED));
    CHECK_EQ(tcpstatus(&L.h, c, &info), ERR_OK);
    CHECK_EQ(info.mss, 1000); /* min(peer's 1000, our 1460), RFC 9293 3.7.1 */
    CHECK_EQ(info.snd_wnd, 4096);
    CHECK_EQ(info.remote.addr, LAB_PEER);
    CHECK_EQ(info.remote.port, 40000);
    CHECK_EQ(info.local.port, 80);
    CHECK_EQ(tt_state(&L, l), TCP_LISTEN);
    /* data: 5 bytes at 6 ms, ACKed at once (delayed ACK off), window 8192 - 5 */
    lab_seg(&L, MS(6), TCP_ACK | TCP_PSH, 5001, 1001, 4096, "hello", 5);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK);
    CHECK_EQ(g.seq, 1001);
    CHECK_EQ(g.ack, 5006);
    CHECK_EQ(g.wnd, 8187);
    CHECK_EQ(tcprecv(&L.h, c, buf, sizeof buf), 5);
    CHECK_MEM(buf, "hello", 5);
    CHECK_EQ(tcprecv(&L.h, c, buf, sizeof buf), ERR_WOULDBLOCK);
    /* and back: 3 bytes go at once, PSH on the last segment of what was queued */
    CHECK_EQ(tcpsend(&L.h, c, "abc", 3), 3);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK | TCP_PSH);
    CHECK_EQ(g.seq, 1001);
    CHECK_EQ(g.ack, 5006);
    CHECK_EQ(g.len, 3);
    CHECK_MEM(g.data, "abc", 3);
    lab_free(&L);
}

static void test_simultaneous_open(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    struct tseg_spec s;
    struct stack_sockaddr to = { LAB_PEER, 80 };
    int sock;
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    tcp_set_next_iss(&L.h, OUR_ISS);
    sock = tcpsocket(&L.h);
    CHECK_EQ(tcpconnect(&L.h, sock, &to), ERR_OK);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_SYN);
    L.my_port = g.sport;
    L.peer_port = 80;
    /* RFC 9293 figure 8: the peer's SYN crosses ours. */
    memset(&s, 0, sizeof s);
    s.flags = TCP_SYN;
    s.seq = 5000;
    s.wnd = 4096;
    s.mss = 1460;
    lab_in(&L, MS(5), &s);
    CHECK_EQ(tt_state(&L, sock), TCP_SYN_RECEIVED);
    CHECK(lab_next(&L, &g)); /* <SEQ=1000><ACK=5001><CTL=SYN,ACK> */
    CHECK_EQ(g.t, MS(5));
    CHECK_EQ(g.flags, TCP_SYN | TCP_ACK);
    CHECK_EQ(g.seq, 1000);
    CHECK_EQ(g.ack, 5001);
    CHECK(g.has_mss);
    /* line 6: <SEQ=5000><ACK=1001><CTL=SYN,ACK> -> ESTABLISHED */
    s.flags = TCP_SYN | TCP_ACK;
    s.ack = 1001;
    lab_in(&L, MS(6), &s);
    CHECK_EQ(tt_state(&L, sock), TCP_ESTABLISHED);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK);
    CHECK_EQ(g.seq, 1001);
    CHECK_EQ(g.ack, 5001);
    CHECK_EQ(lab_pending(&L), 0);
    CHECK(tt_state_change(&L, 1, TCP_SYN_SENT, TCP_SYN_RECEIVED));
    CHECK(tt_state_change(&L, 2, TCP_SYN_RECEIVED, TCP_ESTABLISHED));
    CHECK_EQ(lab_count(&L, TRACE_RETRANSMIT), 0); /* the SYN-ACK is not a retransmission */
    lab_free(&L);
}

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

/* RFC 1122 4.2.3.14: OPEN to a broadcast or multicast address is refused; nothing is sent. */
static void test_open_to_broadcast_or_multicast_refused(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct stack_sockaddr bcast = { 0xFFFFFFFFu, 80 }, mcast = { IP4(224, 0, 0, 1), 80 };
    int sock;
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tcpsocket(&L.h);
    CHECK(sock >= 0);
    CHECK_EQ(tcpconnect(&L.h, sock, &bcast), ERR_ARG);
    CHECK_EQ(tcpconnect(&L.h, sock, &mcast), ERR_ARG);
    CHECK_EQ(lab_pending(&L), 0);
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
    CHECK_EQ(tcpsend(&L.h, sock, "ok", 2), 2);          /* we may still send */
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

static void test_syn_retries_then_timeout(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    struct stack_sockaddr to = { LAB_PEER, 80 };
    char buf[4];
    int sock;
    tt_config(&cfg);
    cfg.tcp_syn_retries = 2;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    tcp_set_next_iss(&L.h, OUR_ISS);
    sock = tcpsocket(&L.h);
    CHECK_EQ(tcpconnect(&L.h, sock, &to), ERR_OK);
    /* RFC 6298: 1 s initial, doubled per expiry: SYN at 0, 1 s, 3 s; give up at 7 s. */
    lab_run(&L, MS(10000));
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(1000));
    CHECK_EQ(g.flags, TCP_SYN);
    CHECK_EQ(g.seq, 1000);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(3000));
    CHECK_EQ(lab_pending(&L), 0);
    CHECK_EQ(tt_state(&L, sock), TCP_CLOSED);
    CHECK_EQ(lab_event(&L, TRACE_TCP_STATE, 1)->time, MS(7000));
    CHECK_EQ(tcprecv(&L.h, sock, buf, sizeof buf), ERR_TIMEOUT);
    CHECK_EQ(lab_count(&L, TRACE_RETRANSMIT), 2);
    CHECK_EQ(lab_event(&L, TRACE_RETRANSMIT, 0)->c, TCP_RETX_SYN_RTO);
    CHECK_EQ(lab_event(&L, TRACE_RETRANSMIT, 0)->d, lab_event(&L, TRACE_RTO_EXPIRE, 0)->b);
    CHECK_EQ(lab_event(&L, TRACE_RTO_ARM, 1)->a, 2000000);
    CHECK_EQ(lab_event(&L, TRACE_RTO_ARM, 2)->a, 4000000);
    CHECK_EQ(lab_count(&L, TRACE_RTO_EXPIRE), 3);
    CHECK_EQ((int32_t)lab_event(&L, TRACE_TCP_ERROR, 0)->a, ERR_TIMEOUT);
    lab_free(&L);
}

static void test_listen_backlog_full(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    struct tseg_spec s;
    struct stack_sockaddr me = { 0, 80 };
    int l, c;
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    l = tcpsocket(&L.h);
    CHECK_EQ(tcpbind(&L.h, l, &me), ERR_OK);
    CHECK_EQ(tcplisten(&L.h, l, 1), ERR_OK);
    memset(&s, 0, sizeof s);
    s.flags = TCP_SYN;
    s.seq = 5000;
    s.wnd = 4096;
    s.sport = 40000;
    lab_in(&L, 0, &s);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_SYN | TCP_ACK);
    CHECK_EQ(g.dport, 40000);
    /* a second SYN while the first connection holds the one backlog place: silence */
    s.sport = 40001;
    lab_in(&L, MS(1), &s);
    CHECK_EQ(lab_pending(&L), 0);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_BACKLOG_FULL], 1);
    /* established but not accepted still counts */
    lab_in(&L, MS(2), &(struct tseg_spec){ .flags = TCP_ACK, .seq = 5001, .ack = g.seq + 1,
                                           .wnd = 4096, .sport = 40000 });
    s.sport = 40002;
    lab_in(&L, MS(3), &s);
    CHECK_EQ(lab_pending(&L), 0);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_BACKLOG_FULL], 2);
    c = tcpaccept(&L.h, l);
    CHECK(c >= 0);
    /* accepted: the place is free again */
    lab_in(&L, MS(4), &s);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_SYN | TCP_ACK);
    CHECK_EQ(g.dport, 40002);
    CHECK_EQ(g.ack, 5001);
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

UNIT_MAIN(UNIT(test_active_open), UNIT(test_passive_open_and_data), UNIT(test_simultaneous_open),
          UNIT(test_active_close_and_time_wait), UNIT(test_half_close_keeps_the_socket),
          UNIT(test_open_to_broadcast_or_multicast_refused), UNIT(test_time_wait_answers_a_repeated_fin),
          UNIT(test_passive_close), UNIT(test_simultaneous_close),
          UNIT(test_syn_retries_then_timeout), UNIT(test_listen_backlog_full),
          UNIT(test_time_wait_reopened_by_new_syn))
