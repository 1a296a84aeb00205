/* The RFC 9293 state machine, segment by segment: active, passive and simultaneous open,
 * SYN retries, the listen backlog, what OPEN refuses. Closing is in test_tcp_close.c,
 * resets in test_tcp_rst.c. Expected segments come from RFC 9293 3.5, 3.6 and figures
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
    lab_in(&L, MS(2),
           &(struct tseg_spec){
               .flags = TCP_ACK, .seq = 5001, .ack = g.seq + 1, .wnd = 4096, .sport = 40000 });
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

UNIT_MAIN(UNIT(test_active_open), UNIT(test_passive_open_and_data), UNIT(test_simultaneous_open),
          UNIT(test_open_to_broadcast_or_multicast_refused), UNIT(test_syn_retries_then_timeout),
          UNIT(test_listen_backlog_full))
