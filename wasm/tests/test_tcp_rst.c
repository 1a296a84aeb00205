/* Resets: generated for segments that have no connection (RFC 9293 3.10.7.1, the
 * "connection refused" a peer sees), and received in every state (3.10.7.3, 3.10.7.4
 * second check; RFC 5961 3.2 for a reset in the window but not at RCV.NXT). Our ISS is
 * 1000, the peer's 5000. */
#include "tcp_tests.h"

static void test_rst_for_closed_port(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    struct tseg_spec s;
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    L.my_port = 81; /* nobody listens */
    /* a SYN: <SEQ=0><ACK=SEG.SEQ+SEG.LEN><CTL=RST,ACK>, the SYN counting 1 */
    memset(&s, 0, sizeof s);
    s.flags = TCP_SYN;
    s.seq = 7000;
    s.wnd = 1024;
    s.mss = 1460;
    lab_in(&L, MS(1), &s);
    CHECK(lab_next(&L, &g));
    CHECK(g.ip_ok && g.tcp_ok);
    CHECK_EQ(g.t, MS(1));
    CHECK_EQ(g.flags, TCP_RST | TCP_ACK);
    CHECK_EQ(g.seq, 0);
    CHECK_EQ(g.ack, 7001);
    CHECK_EQ(g.sport, 81);
    CHECK_EQ(g.dport, 40000);
    CHECK_EQ(g.src, LAB_ME);
    CHECK_EQ(g.dst, LAB_PEER);
    CHECK_EQ(g.len, 0);
    /* data and FIN without ACK: SEG.LEN = 10 + 1 */
    lab_seg(&L, MS(2), TCP_PSH | TCP_FIN, 7000, 0, 1024, "0123456789", 10);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_RST | TCP_ACK);
    CHECK_EQ(g.seq, 0);
    CHECK_EQ(g.ack, 7011);
    /* with an ACK: <SEQ=SEG.ACK><CTL=RST> */
    lab_seg(&L, MS(3), TCP_ACK, 7000, 12345, 1024, NULL, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_RST);
    CHECK_EQ(g.seq, 12345);
    CHECK_EQ(g.ack, 0);
    /* a reset is never answered */
    lab_seg(&L, MS(4), TCP_RST, 7000, 0, 0, NULL, 0);
    lab_seg(&L, MS(5), TCP_RST | TCP_ACK, 7000, 1, 0, NULL, 0);
    CHECK_EQ(lab_pending(&L), 0);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_NO_PCB], 5);
    CHECK_EQ(L.h.tcp.rst_sent, 3);
    lab_free(&L);
}

static void test_syn_sent_refused(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    struct stack_sockaddr to = { LAB_PEER, 80 };
    char buf[4];
    int sock;
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    tcp_set_next_iss(&L.h, OUR_ISS);
    sock = tcpsocket(&L.h);
    CHECK_EQ(tcpconnect(&L.h, sock, &to), ERR_OK);
    CHECK(lab_next(&L, &g));
    L.my_port = g.sport;
    L.peer_port = 80;
    /* a RST without ACK is not acceptable in SYN_SENT: ignored */
    lab_seg(&L, MS(1), TCP_RST, 0, 0, 0, NULL, 0);
    CHECK_EQ(tt_state(&L, sock), TCP_SYN_SENT);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_BAD_FLAGS], 1);
    /* an ACK of something else: <SEQ=SEG.ACK><CTL=RST>, and still SYN_SENT */
    lab_seg(&L, MS(2), TCP_ACK, 9999, 999, 0, NULL, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_RST);
    CHECK_EQ(g.seq, 999);
    CHECK_EQ(tt_state(&L, sock), TCP_SYN_SENT);
    /* what a closed port answers: RST,ACK with ACK = ISS + 1: connection refused */
    lab_seg(&L, MS(3), TCP_RST | TCP_ACK, 0, 1001, 0, NULL, 0);
    CHECK_EQ(tt_state(&L, sock), TCP_CLOSED);
    CHECK_EQ(tcprecv(&L.h, sock, buf, sizeof buf), ERR_RST);
    CHECK_EQ(tcpsend(&L.h, sock, "x", 1), ERR_RST);
    CHECK_EQ((int32_t)lab_event(&L, TRACE_TCP_ERROR, 0)->a, ERR_RST);
    CHECK_EQ(lab_event(&L, TRACE_RTO_STOP, 0)->time, MS(3)); /* the SYN's timer is gone */
    CHECK_EQ(lab_pending(&L), 0);
    CHECK_EQ(tcpclose(&L.h, sock), ERR_OK);
    lab_free(&L);
}

static void test_syn_received_reset_returns_to_listen(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    struct tseg_spec s;
    struct stack_sockaddr me = { 0, 80 };
    int l;
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    l = tcpsocket(&L.h);
    CHECK_EQ(tcpbind(&L.h, l, &me), ERR_OK);
    CHECK_EQ(tcplisten(&L.h, l, 1), ERR_OK);
    memset(&s, 0, sizeof s);
    s.flags = TCP_SYN;
    s.seq = 5000;
    s.wnd = 1024;
    lab_in(&L, 0, &s);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_SYN | TCP_ACK);
    /* an ACK to the listener for something unknown: <SEQ=SEG.ACK><CTL=RST> */
    L.peer_port = 40001;
    lab_seg(&L, MS(1), TCP_ACK, 100, 200, 1024, NULL, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_RST);
    CHECK_EQ(g.seq, 200);
    CHECK_EQ(g.dport, 40001);
    /* the half-open connection is reset at RCV.NXT: it goes, the listener stays */
    L.peer_port = 40000;
    lab_seg(&L, MS(2), TCP_RST, 5001, 0, 0, NULL, 0);
    CHECK(tt_state_change(&L, 2, TCP_SYN_RECEIVED, TCP_CLOSED));
    CHECK_EQ(lab_count(&L, TRACE_TCP_ERROR), 0); /* nobody to tell */
    CHECK_EQ(tt_state(&L, l), TCP_LISTEN);
    CHECK_EQ(tcpaccept(&L.h, l), ERR_WOULDBLOCK);
    CHECK_EQ(lab_pending(&L), 0);
    /* the backlog place is free again */
    lab_in(&L, MS(3), &s);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_SYN | TCP_ACK);
    lab_free(&L);
}

static void test_established_reset_checks(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    int sock;
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 4096, 1460);
    CHECK(sock >= 0);
    /* outside the window (RCV.NXT 5001, window 8192): dropped, no answer */
    lab_seg(&L, MS(20), TCP_RST, 5001 + 8192 + 100, 0, 0, NULL, 0);
    CHECK_EQ(lab_pending(&L), 0);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_BAD_SEQ], 1);
    /* in the window but not RCV.NXT: a challenge ACK, RFC 5961 3.2 */
    lab_seg(&L, MS(21), TCP_RST, 5101, 0, 0, NULL, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK);
    CHECK_EQ(g.seq, 1001);
    CHECK_EQ(g.ack, 5001);
    CHECK_EQ(tt_state(&L, sock), TCP_ESTABLISHED);
    /* a SYN in the window: a challenge ACK too (RFC 5961 4) */
    lab_seg(&L, MS(22), TCP_SYN, 5011, 0, 1024, NULL, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK);
    CHECK_EQ(g.ack, 5001);
    CHECK_EQ(tt_state(&L, sock), TCP_ESTABLISHED);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_RST_CHALLENGE], 2);
    /* exactly RCV.NXT: the connection is reset */
    lab_seg(&L, MS(23), TCP_RST, 5001, 0, 0, NULL, 0);
    CHECK_EQ(tt_state(&L, sock), TCP_CLOSED);
    CHECK_EQ(lab_pending(&L), 0);
    {
        char buf[4];
        CHECK_EQ(tcprecv(&L.h, sock, buf, sizeof buf), ERR_RST);
    }
    lab_free(&L);
}

/* Brings a fresh connection to `state` (our side closed with tcpclose where the state
 * needs it); returns RCV.NXT at that point. */
static uint32_t reach(struct tcp_lab *L, int sock, uint8_t state)
{
    switch (state) {
    case TCP_ESTABLISHED: return 5001;
    case TCP_FIN_WAIT_1: tcpclose(&L->h, sock); return 5001;
    case TCP_FIN_WAIT_2:
        tcpclose(&L->h, sock);
        lab_seg(L, MS(50), TCP_ACK, 5001, 1002, 4096, NULL, 0);
        return 5001;
    case TCP_CLOSE_WAIT:
        lab_seg(L, MS(50), TCP_FIN | TCP_ACK, 5001, 1001, 4096, NULL, 0);
        return 5002;
    case TCP_CLOSING:
        tcpclose(&L->h, sock);
        lab_seg(L, MS(50), TCP_FIN | TCP_ACK, 5001, 1001, 4096, NULL, 0);
        return 5002;
    case TCP_LAST_ACK:
        lab_seg(L, MS(50), TCP_FIN | TCP_ACK, 5001, 1001, 4096, NULL, 0);
        tcpclose(&L->h, sock);
        return 5002;
    case TCP_TIME_WAIT:
        tcpclose(&L->h, sock);
        lab_seg(L, MS(50), TCP_FIN | TCP_ACK, 5001, 1002, 4096, NULL, 0);
        return 5002;
    }
    return 0;
}

static void test_reset_in_each_state(void)
{
    static const struct {
        uint8_t state;
        uint8_t error; /* the application is told ERR_RST */
    } cases[] = {
        { TCP_ESTABLISHED, 1 }, { TCP_FIN_WAIT_1, 1 }, { TCP_FIN_WAIT_2, 1 }, { TCP_CLOSE_WAIT, 1 },
        { TCP_CLOSING, 0 },     { TCP_LAST_ACK, 0 },   { TCP_TIME_WAIT, 0 },
    };
    unsigned i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct host_config cfg;
        struct tcp_lab L;
        const struct trace_event *e;
        uint32_t n, rcv_nxt;
        int sock;
        tt_config(&cfg);
        CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
        sock = tt_open_active(&L, 0, MS(10), 4096, 1460);
        CHECK(sock >= 0);
        rcv_nxt = reach(&L, sock, cases[i].state);
        n = lab_count(&L, TRACE_TCP_STATE);
        e = lab_event(&L, TRACE_TCP_STATE, n - 1);
        CHECK_EQ(e->b, cases[i].state);
        lab_skip(&L);
        lab_seg(&L, MS(100), TCP_RST, rcv_nxt, 0, 0, NULL, 0);
        CHECK_EQ(lab_count(&L, TRACE_TCP_STATE), n + 1);
        e = lab_event(&L, TRACE_TCP_STATE, n);
        CHECK_EQ(e->a, cases[i].state);
        CHECK_EQ(e->b, TCP_CLOSED);
        CHECK_EQ(e->time, MS(100));
        CHECK_EQ(lab_count(&L, TRACE_TCP_ERROR), cases[i].error);
        CHECK_EQ(lab_pending(&L), 0); /* a reset is never answered */
        {
            stack_time_t d;
            CHECK(!lab_deadline(&L, &d)); /* every timer of the connection is gone */
        }
        lab_free(&L);
    }
}

static void test_abort_sends_reset(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    int sock;
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 4096, 1460);
    CHECK(sock >= 0);
    lab_run(&L, MS(30));
    CHECK_EQ(tcpabort(&L.h, sock), ERR_OK);
    /* RFC 9293 3.10.5: <SEQ=SND.NXT><CTL=RST> (with the ACK, as BSD and Linux) */
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(30));
    CHECK_EQ(g.flags, TCP_RST | TCP_ACK);
    CHECK_EQ(g.seq, 1001);
    CHECK_EQ(g.ack, 5001);
    CHECK_EQ(tcpstatus(&L.h, sock, &(struct tcp_info){ 0 }), ERR_ARG);
    /* closing with unread data also resets (RFC 2525 2.17) */
    sock = tt_open_active(&L, MS(100), MS(10), 4096, 1460);
    CHECK(sock >= 0);
    lab_seg(&L, MS(120), TCP_ACK | TCP_PSH, 5001, 1001, 4096, "unread", 6);
    lab_skip(&L);
    CHECK_EQ(tcpclose(&L.h, sock), ERR_OK);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_RST | TCP_ACK);
    CHECK_EQ(g.seq, 1001);
    CHECK_EQ(g.ack, 5007);
    lab_free(&L);
}

UNIT_MAIN(UNIT(test_rst_for_closed_port), UNIT(test_syn_sent_refused),
          UNIT(test_syn_received_reset_returns_to_listen), UNIT(test_established_reset_checks),
          UNIT(test_reset_in_each_state), UNIT(test_abort_sends_reset))
