/* The TCP responder (tcp_responder.h): hand-built segments in, whole segments out, compared
 * field by field, time driven by hand. The host is 10.0.0.1 with MTU 576 (MSS 536), the
 * peer 10.0.0.2; its ISS is read from its SYN-ACK, the peer's is 5000. Every expected
 * number comes from RFC 9293 3.10.7 (or RFC 5961) and the segment sent, not from the code. */
#include <stdlib.h>

#include "inet_chksum.h"
#if STACK_TCP_RESPONDER != 2
#include "socket.h"
#endif
#include "tcp_lab.h"
#include "tcp_seg.h"
#include "unit.h"

#define MS(x) ((stack_time_t)(x)*1000u)
#define IRS   5000u

static const char pattern[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

static int rsp_start(struct tcp_lab *L, uint8_t conns, uint16_t wnd, uint16_t port)
{
    struct host_config cfg;
    host_config_default(&cfg);
    cfg.tcp_responder = 1;
    cfg.tcp_responder_conns = conns;
    cfg.tcp_responder_wnd = wnd;
    if (lab_init(L, &cfg, 576, 0) != 0)
        return -1;
    L->my_port = port;
    return 0;
}

/* Sends <SEQ=IRS><CTL=SYN> with an MSS option from peer port `pport`; returns the SYN-ACK
 * (g->seq is the ISS), or g->flags 0 when none came. */
static void rsp_syn(struct tcp_lab *L, stack_time_t t, uint16_t pport, uint16_t mss, struct tseg *g)
{
    struct tseg_spec s;
    memset(&s, 0, sizeof s);
    s.flags = TCP_SYN;
    s.seq = IRS;
    s.wnd = 8192;
    s.mss = mss;
    s.sport = pport;
    lab_in(L, t, &s);
    if (!lab_next(L, g))
        memset(g, 0, sizeof *g);
}

/* A segment from peer port `pport`, the peer's window 8192. */
/* A segment from the peer on port pport, with the window the peer offers. */
static void rsp_seg_wnd(struct tcp_lab *L, stack_time_t t, uint16_t pport, uint8_t flags,
                        uint32_t seq, uint32_t ack, uint16_t wnd, const void *data, uint16_t len)
{
    struct tseg_spec s;
    memset(&s, 0, sizeof s);
    s.flags = flags;
    s.seq = seq;
    s.ack = ack;
    s.wnd = wnd;
    s.data = data;
    s.len = len;
    s.sport = pport;
    lab_in(L, t, &s);
}

/* The same with a window of 8192: room for whatever the responder echoes. */
static void rsp_seg(struct tcp_lab *L, stack_time_t t, uint16_t pport, uint8_t flags, uint32_t seq,
                    uint32_t ack, const void *data, uint16_t len)
{
    rsp_seg_wnd(L, t, pport, flags, seq, ack, 8192, data, len);
}

/* The three-way handshake from peer port `pport`; returns the ISS (0 on failure). */
static uint32_t rsp_connect(struct tcp_lab *L, stack_time_t t, uint16_t pport)
{
    struct tseg g;
    rsp_syn(L, t, pport, 1460, &g);
    if (g.flags != (TCP_SYN | TCP_ACK) || g.ack != IRS + 1)
        return 0;
    rsp_seg(L, t + MS(1), pport, TCP_ACK, IRS + 1, g.seq + 1, NULL, 0);
    return lab_pending(L) == 0 ? g.seq : 0;
}

static void test_handshake(void)
{
    struct tcp_lab L;
    struct tseg g;
    const struct trace_event *e;
    uint32_t iss;
    CHECK(rsp_start(&L, 50, 0, 7) == 0);
    rsp_syn(&L, MS(1), 40000, 1460, &g);
    /* <SEQ=ISS><ACK=RCV.NXT><CTL=SYN,ACK>, MSS min(576 - 40, 1460), window one MSS */
    CHECK(g.ip_ok && g.tcp_ok);
    CHECK_EQ(g.src, LAB_ME);
    CHECK_EQ(g.dst, LAB_PEER);
    CHECK_EQ(g.sport, 7);
    CHECK_EQ(g.dport, 40000);
    CHECK_EQ(g.flags, TCP_SYN | TCP_ACK);
    CHECK_EQ(g.ack, IRS + 1);
    CHECK(g.has_mss);
    CHECK_EQ(g.mss, 536);
    CHECK_EQ(g.wnd, 536);
    CHECK_EQ(g.len, 0);
    CHECK_EQ(g.hlen, 24);
    CHECK_EQ(g.t, MS(1));
    iss = g.seq;
    CHECK_EQ(tcp_responder_count(&L.h), 1);
    /* the ACK of the SYN-ACK completes it and needs no answer */
    rsp_seg(&L, MS(2), 40000, TCP_ACK, IRS + 1, iss + 1, NULL, 0);
    CHECK_EQ(lab_pending(&L), 0);
    CHECK_EQ(lab_count(&L, TRACE_TCP_STATE), 2);
    e = lab_event(&L, TRACE_TCP_STATE, 0);
    CHECK_EQ(e->a, TCP_LISTEN);
    CHECK_EQ(e->b, TCP_SYN_RECEIVED);
    CHECK_EQ(e->lport, 7);
    CHECK_EQ(e->rport, 40000);
    e = lab_event(&L, TRACE_TCP_STATE, 1);
    CHECK_EQ(e->b, TCP_ESTABLISHED);
    /* a second connection gets another ISS from the host's generator */
    rsp_syn(&L, MS(3), 40001, 300, &g);
    CHECK_EQ(g.flags, TCP_SYN | TCP_ACK);
    CHECK(g.seq != iss);
    CHECK_EQ(g.mss, 300); /* the peer's, smaller: no echo larger than it takes */
    CHECK_EQ(tcp_responder_count(&L.h), 2);
    lab_free(&L);
}

static void test_syn_received(void)
{
    struct tcp_lab L;
    struct tseg g, again;
    CHECK(rsp_start(&L, 50, 0, 7) == 0);
    rsp_syn(&L, MS(1), 40000, 1460, &g);
    /* our SYN-ACK lost: the repeated SYN gets the same SYN-ACK */
    rsp_syn(&L, MS(1001), 40000, 1460, &again);
    CHECK_EQ(again.flags, TCP_SYN | TCP_ACK);
    CHECK_EQ(again.seq, g.seq);
    CHECK_EQ(again.ack, IRS + 1);
    CHECK_EQ(again.mss, 536);
    /* an ACK of something else: <SEQ=SEG.ACK><CTL=RST>, the entry stays */
    rsp_seg(&L, MS(1002), 40000, TCP_ACK, IRS + 1, g.seq + 77, NULL, 0);
    CHECK(lab_next(&L, &again));
    CHECK_EQ(again.flags, TCP_RST);
    CHECK_EQ(again.seq, g.seq + 77);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_BAD_ACK], 1);
    CHECK_EQ(tcp_responder_count(&L.h), 1);
    /* a SYN with another sequence number sends the half-open entry back to LISTEN */
    rsp_seg(&L, MS(1003), 40000, TCP_SYN, 9000, 0, NULL, 0);
    CHECK_EQ(lab_pending(&L), 0);
    CHECK_EQ(tcp_responder_count(&L.h), 0);
    lab_free(&L);
}

static void test_echo_one_segment(void)
{
    struct tcp_lab L;
    struct tseg g;
    uint32_t iss;
    CHECK(rsp_start(&L, 50, 0, 7) == 0);
    CHECK((iss = rsp_connect(&L, MS(1), 40000)) != 0);
    rsp_seg(&L, MS(10), 40000, TCP_ACK | TCP_PSH, IRS + 1, iss + 1, pattern, 40);
    CHECK(lab_next(&L, &g));
    CHECK(g.ip_ok && g.tcp_ok);
    CHECK_EQ(g.t, MS(10));
    CHECK_EQ(g.src, LAB_ME);
    CHECK_EQ(g.dst, LAB_PEER);
    CHECK_EQ(g.sport, 7);
    CHECK_EQ(g.dport, 40000);
    CHECK_EQ(g.flags, TCP_ACK | TCP_PSH);
    CHECK_EQ(g.seq, iss + 1);      /* their byte 0 is our byte 0 */
    CHECK_EQ(g.ack, IRS + 1 + 40); /* the data taken */
    CHECK_EQ(g.wnd, 536);
    CHECK_EQ(g.hlen, 20);
    CHECK_EQ(g.len, 40);
    CHECK_MEM(g.data, pattern, 40);
    CHECK_EQ(g.ip_len, 80);
    /* the next segment, acknowledging the echo, follows on */
    rsp_seg(&L, MS(20), 40000, TCP_ACK | TCP_PSH, IRS + 41, iss + 41, pattern + 40, 10);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, iss + 41);
    CHECK_EQ(g.ack, IRS + 51);
    CHECK_MEM(g.data, pattern + 40, 10);
    /* a pure ACK of that echo needs no answer */
    rsp_seg(&L, MS(30), 40000, TCP_ACK, IRS + 51, iss + 51, NULL, 0);
    CHECK_EQ(lab_pending(&L), 0);
    lab_free(&L);
}

static void test_discard(void)
{
    struct tcp_lab L;
    struct tseg g;
    uint32_t iss;
    CHECK(rsp_start(&L, 50, 0, 9) == 0);
    CHECK((iss = rsp_connect(&L, MS(1), 40000)) != 0);
    rsp_seg(&L, MS(10), 40000, TCP_ACK | TCP_PSH, IRS + 1, iss + 1, pattern, 60);
    CHECK(lab_next(&L, &g));
    CHECK(g.ip_ok && g.tcp_ok);
    CHECK_EQ(g.sport, 9);
    CHECK_EQ(g.flags, TCP_ACK);
    CHECK_EQ(g.seq, iss + 1); /* nothing sent: SND.NXT stays */
    CHECK_EQ(g.ack, IRS + 61);
    CHECK_EQ(g.len, 0);
    CHECK_EQ(g.ip_len, 40);
    /* sent again (our ACK lost): the same ACK, the data not counted twice */
    rsp_seg(&L, MS(20), 40000, TCP_ACK | TCP_PSH, IRS + 1, iss + 1, pattern, 60);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, iss + 1);
    CHECK_EQ(g.ack, IRS + 61);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_BAD_SEQ], 1);
    lab_free(&L);
}

static void test_retransmitted_segment(void)
{
    struct tcp_lab L;
    struct tseg first, g;
    uint32_t iss;
    CHECK(rsp_start(&L, 50, 0, 7) == 0);
    CHECK((iss = rsp_connect(&L, MS(1), 40000)) != 0);
    rsp_seg(&L, MS(10), 40000, TCP_ACK | TCP_PSH, IRS + 1, iss + 1, pattern, 30);
    CHECK(lab_next(&L, &first));
    /* the answer lost: the peer sends the segment again, with the same ACK field, and gets
     * the same answer */
    rsp_seg(&L, MS(1010), 40000, TCP_ACK | TCP_PSH, IRS + 1, iss + 1, pattern, 30);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, first.flags);
    CHECK_EQ(g.seq, first.seq);
    CHECK_EQ(g.ack, first.ack);
    CHECK_EQ(g.wnd, first.wnd);
    CHECK_EQ(g.len, first.len);
    CHECK_MEM(g.data, pattern, 30);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_BAD_SEQ], 0);
    /* two segments taken, the first one's echo not acknowledged: resending the first
     * echoes it again, and the ACK says everything taken */
    rsp_seg(&L, MS(1020), 40000, TCP_ACK | TCP_PSH, IRS + 31, iss + 1, pattern + 30, 20);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, iss + 31);
    CHECK_EQ(g.ack, IRS + 51);
    rsp_seg(&L, MS(2020), 40000, TCP_ACK | TCP_PSH, IRS + 1, iss + 1, pattern, 30);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, iss + 1);
    CHECK_EQ(g.ack, IRS + 51);
    CHECK_EQ(g.len, 30);
    CHECK_MEM(g.data, pattern, 30);
    /* part of it acknowledged (10 of the 30 bytes back): only the rest again */
    rsp_seg(&L, MS(3020), 40000, TCP_ACK | TCP_PSH, IRS + 1, iss + 11, pattern, 30);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, iss + 11);
    CHECK_EQ(g.len, 20);
    CHECK_MEM(g.data, pattern + 10, 20);
    CHECK_EQ(g.ack, IRS + 51);
    lab_free(&L);
}

/* An answer lost, and the next one arrived: its ACK covered the lost echo's data, which
 * the peer no longer holds. The peer, its echo stopped at the loss, sends from a window
 * past it: the connection is reset at the peer's RCV.NXT rather than left to hang. */
static void test_echo_lost_for_good(void)
{
    struct tcp_lab L;
    struct tseg g;
    uint32_t iss;
    uint8_t big[300];
    uint16_t i;
    for (i = 0; i < sizeof big; i++)
        big[i] = (uint8_t)i;
    CHECK(rsp_start(&L, 50, 0, 7) == 0); /* window 536 */
    CHECK((iss = rsp_connect(&L, MS(1), 40000)) != 0);
    rsp_seg(&L, MS(10), 40000, TCP_ACK | TCP_PSH, IRS + 1, iss + 1, big, 300);   /* answer lost */
    rsp_seg(&L, MS(11), 40000, TCP_ACK | TCP_PSH, IRS + 301, iss + 1, big, 200); /* arrives */
    CHECK_EQ(lab_pending(&L), 2);
    lab_skip(&L);
    /* the second answer came back with an ACK of 501, so the peer, its echo still stopped
     * at byte 0, may send up to 501 + 536. A segment from 501 could also come from a peer
     * whose first echo is merely late (501 < 1 + 536): echoed... */
    rsp_seg(&L, MS(300), 40000, TCP_ACK | TCP_PSH, IRS + 501, iss + 1, big, 36);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK | TCP_PSH);
    CHECK_EQ(g.seq, iss + 501);
    CHECK_EQ(g.ack, IRS + 537);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_ECHO_LOST], 0);
    /* ...and so can one from 537 = 1 + 536, a whole window past: the ACK field may lag the
     * echo the peer holds by one answer (rsp_echo_lost)... */
    rsp_seg(&L, MS(400), 40000, TCP_ACK | TCP_PSH, IRS + 537, iss + 1, big, 266);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK | TCP_PSH);
    CHECK_EQ(g.ack, IRS + 803);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_ECHO_LOST], 0);
    /* ...but one from 1073 = 1 + 2 x 536 only from a peer that has had an ACK past its
     * echo: reset, <SEQ=SEG.ACK><CTL=RST>, the entry freed */
    rsp_seg(&L, MS(500), 40000, TCP_ACK | TCP_PSH, IRS + 803, iss + 1, big, 270);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK | TCP_PSH);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_ECHO_LOST], 0);
    rsp_seg(&L, MS(600), 40000, TCP_ACK | TCP_PSH, IRS + 1073, iss + 1, big, 30);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_RST);
    CHECK_EQ(g.seq, iss + 1);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_ECHO_LOST], 1);
    CHECK_EQ(tcp_responder_count(&L.h), 0);
    lab_free(&L);
}

static void test_old_and_out_of_window(void)
{
    struct tcp_lab L;
    struct tseg g;
    uint32_t iss;
    CHECK(rsp_start(&L, 50, 0, 7) == 0);
    CHECK((iss = rsp_connect(&L, MS(1), 40000)) != 0);
    rsp_seg(&L, MS(10), 40000, TCP_ACK | TCP_PSH, IRS + 1, iss + 1, pattern, 30);
    CHECK(lab_next(&L, &g));
    /* old: its echo is acknowledged (SEG.ACK past it). <SEQ=SND.NXT><ACK=RCV.NXT><CTL=ACK> */
    rsp_seg(&L, MS(20), 40000, TCP_ACK | TCP_PSH, IRS + 1, iss + 31, pattern, 30);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK);
    CHECK_EQ(g.seq, iss + 31);
    CHECK_EQ(g.ack, IRS + 31);
    CHECK_EQ(g.len, 0);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_BAD_SEQ], 1);
    /* past the right edge (RCV.NXT + 536): the same ACK, nothing echoed */
    rsp_seg(&L, MS(30), 40000, TCP_ACK | TCP_PSH, IRS + 31 + 536, iss + 31, pattern, 10);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK);
    CHECK_EQ(g.seq, iss + 31);
    CHECK_EQ(g.ack, IRS + 31);
    CHECK_EQ(g.len, 0);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_BAD_SEQ], 2);
    /* in the window but not next: nowhere to keep it, the same ACK */
    rsp_seg(&L, MS(40), 40000, TCP_ACK | TCP_PSH, IRS + 41, iss + 31, pattern, 10);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, iss + 31);
    CHECK_EQ(g.ack, IRS + 31);
    CHECK_EQ(g.len, 0);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_OOO_OFF], 1);
    /* an ACK of what was never sent: an ACK, nothing taken (RFC 9293 3.10.7.4, fifth) */
    rsp_seg(&L, MS(50), 40000, TCP_ACK | TCP_PSH, IRS + 31, iss + 500, pattern, 10);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.ack, IRS + 31);
    CHECK_EQ(g.len, 0);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_BAD_ACK], 1);
    /* no ACK bit: dropped without an answer */
    rsp_seg(&L, MS(60), 40000, TCP_PSH, IRS + 31, 0, pattern, 10);
    CHECK_EQ(lab_pending(&L), 0);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_BAD_FLAGS], 1);
    lab_free(&L);
}

static void test_larger_than_window(void)
{
    struct tcp_lab L;
    struct tseg g;
    uint32_t iss;
    uint8_t big[500];
    uint16_t i;
    for (i = 0; i < sizeof big; i++)
        big[i] = (uint8_t)(i * 7u + 1u);
    /* a 256-byte window, so the trim is the window's and not the MSS's */
    CHECK(rsp_start(&L, 50, 256, 7) == 0);
    CHECK((iss = rsp_connect(&L, MS(1), 40000)) != 0);
    rsp_seg(&L, MS(10), 40000, TCP_ACK | TCP_PSH | TCP_FIN, IRS + 1, iss + 1, big, 500);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.wnd, 256);
    CHECK_EQ(g.flags, TCP_ACK | TCP_PSH); /* the FIN lay past the window: not taken */
    CHECK_EQ(g.seq, iss + 1);
    CHECK_EQ(g.ack, IRS + 257);
    CHECK_EQ(g.len, 256);
    CHECK_MEM(g.data, big, 256);
    /* the rest, sent again from where the ACK said */
    rsp_seg(&L, MS(20), 40000, TCP_ACK | TCP_PSH | TCP_FIN, IRS + 257, iss + 257, big + 256, 244);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK | TCP_PSH | TCP_FIN);
    CHECK_EQ(g.seq, iss + 257);
    CHECK_EQ(g.ack, IRS + 502);
    CHECK_EQ(g.len, 244);
    CHECK_MEM(g.data, big + 256, 244);
    lab_free(&L);
}

static void test_peer_window(void)
{
    struct tcp_lab L;
    struct tseg g;
    uint32_t iss;
    CHECK(rsp_start(&L, 50, 0, 7) == 0);
    CHECK((iss = rsp_connect(&L, MS(1), 40000)) != 0);
    /* the peer has room for 12 bytes: 12 are taken and echoed, the rest left to it */
    rsp_seg_wnd(&L, MS(10), 40000, TCP_ACK | TCP_PSH, IRS + 1, iss + 1, 12, pattern, 30);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.len, 12);
    CHECK_EQ(g.ack, IRS + 13);
    /* no room at all: nothing taken, the current numbers */
    rsp_seg_wnd(&L, MS(20), 40000, TCP_ACK | TCP_PSH, IRS + 13, iss + 1, 0, pattern + 12, 18);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.len, 0);
    CHECK_EQ(g.seq, iss + 13);
    CHECK_EQ(g.ack, IRS + 13);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_ECHO_NO_ROOM], 1);
    lab_free(&L);
}

/* A window of two MSS is for a connection alone: with a second one open, each is offered
 * one MSS, and its right edge stays where it was when a full segment is taken; when one
 * closes, the other gets both again (tcp_responder.h: the window). */
static void test_window_shared(void)
{
    struct tcp_lab L;
    struct tseg g;
    uint32_t a, b;
    uint8_t seg[536];
    memset(seg, 0x5a, sizeof seg);
    CHECK(rsp_start(&L, 50, 1072, 7) == 0);
    CHECK((a = rsp_connect(&L, MS(1), 40000)) != 0);
    rsp_seg(&L, MS(10), 40000, TCP_ACK | TCP_PSH, IRS + 1, a + 1, pattern, 10);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.wnd, 1072); /* alone: both MSS */
    /* a second connection: its SYN-ACK offers one MSS */
    CHECK((b = rsp_connect(&L, MS(20), 40001)) != 0);
    CHECK_EQ(tcp_responder_count(&L.h), 2);
    rsp_seg(&L, MS(30), 40001, TCP_ACK | TCP_PSH, IRS + 1, b + 1, pattern, 10);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.wnd, 536);
    /* the first, sending a full segment into its window of 1072 (edge IRS + 11 + 1072):
     * one MSS offered now, the edge where it was */
    rsp_seg(&L, MS(40), 40000, TCP_ACK | TCP_PSH, IRS + 11, a + 11, seg, 536);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.len, 536);
    CHECK_EQ(g.ack, IRS + 547);
    CHECK_EQ(g.wnd, 536);
    CHECK_EQ(g.ack + g.wnd, IRS + 11 + 1072);
    /* the second closes (its FIN, our FIN-ACK, its last ACK): the first has both MSS again */
    rsp_seg(&L, MS(50), 40001, TCP_ACK | TCP_FIN, IRS + 11, b + 11, NULL, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK | TCP_FIN);
    rsp_seg(&L, MS(60), 40001, TCP_ACK, IRS + 12, b + 12, NULL, 0);
    CHECK_EQ(tcp_responder_count(&L.h), 1);
    rsp_seg(&L, MS(70), 40000, TCP_ACK | TCP_PSH, IRS + 547, a + 547, pattern, 10);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.wnd, 1072);
    lab_free(&L);
}

/* A connection whose peer went away without a reset the responder heard (the reset lost
 * in the peer's own queue) stays in the table, but once it has been quiet for two busy
 * periods (TCP_RESPONDER_BUSY_US) a connection alone has both MSS again. */
static void test_window_quiet_entry(void)
{
    struct tcp_lab L;
    struct tseg g;
    uint32_t a, b;
    const stack_time_t quiet = 2u * TCP_RESPONDER_BUSY_US;
    CHECK(rsp_start(&L, 50, 1072, 7) == 0);
    CHECK((b = rsp_connect(&L, MS(1), 40001)) != 0); /* then silent: its peer is gone */
    CHECK((a = rsp_connect(&L, MS(10), 40000)) != 0);
    rsp_seg(&L, MS(20), 40000, TCP_ACK | TCP_PSH, IRS + 1, a + 1, pattern, 10);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.wnd, 536); /* the other was heard from a moment ago: shared */
    rsp_seg(&L, MS(20) + quiet, 40000, TCP_ACK | TCP_PSH, IRS + 11, a + 11, pattern, 10);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.wnd, 1072);                  /* quiet for two periods: alone */
    CHECK_EQ(tcp_responder_count(&L.h), 2); /* its entry is kept all the same */
    /* the silent one speaks again: shared at once */
    rsp_seg(&L, MS(30) + quiet, 40001, TCP_ACK | TCP_PSH, IRS + 1, b + 1, pattern, 10);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.wnd, 536);
    rsp_seg(&L, MS(40) + quiet, 40000, TCP_ACK | TCP_PSH, IRS + 21, a + 21, pattern, 10);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.wnd, 536);
    lab_free(&L);
}

/* Turns (tcp_responder.h): with more connections busy than TCP_RESPONDER_WINDOWS, those
 * beyond wait with their windows closed. A connection that fills its window for the
 * TCP_RESPONDER_TURN-th time in its turn gives it up: its echo offers none (the right edge
 * where the segment ended), and the next host_poll() sends a window update to the next one
 * waiting, round robin in table order. A zero-window probe from a waiting one is answered
 * with no window while the places are taken, with one when a holder has gone quiet for two
 * busy periods. */
static void test_turns(void)
{
    enum { N = TCP_RESPONDER_WINDOWS + 2, W = TCP_RESPONDER_WINDOWS, K = TCP_RESPONDER_TURN };
    struct tcp_lab L;
    struct tseg g;
    uint32_t iss[N], a0, a1;
    uint8_t seg[536];
    uint16_t i;
    stack_time_t t;
    memset(seg, 0x5a, sizeof seg);
    CHECK(rsp_start(&L, 50, 1072, 7) == 0);
    for (i = 0; i < N; i++) {
        rsp_syn(&L, MS(1 + i), (uint16_t)(41000 + i), 1460, &g);
        CHECK_EQ(g.wnd, i == 0 ? 1072 : i < W ? 536 : 0);
        iss[i] = g.seq;
        rsp_seg(&L, MS(1 + i), (uint16_t)(41000 + i), TCP_ACK, IRS + 1, g.seq + 1, NULL, 0);
        CHECK_EQ(lab_pending(&L), 0);
    }
    /* the first fills its window of one MSS (the edge its SYN-ACK set) K times: one MSS
     * each time but the last, whose echo offers none */
    for (i = 0; i < K; i++) {
        rsp_seg(&L, MS(100 + i), 41000, TCP_ACK | TCP_PSH, IRS + 1 + 536u * i,
                iss[0] + 1 + 536u * i, seg, 536);
        CHECK(lab_next(&L, &g));
        CHECK_EQ(g.dport, 41000);
        CHECK_EQ(g.len, 536);
        CHECK_EQ(g.ack, IRS + 1 + 536u * (i + 1u));
        CHECK_EQ(g.wnd, i + 1 < K ? 536 : 0);
        CHECK_EQ(lab_pending(&L), 0);
    }
    CHECK_EQ(g.ack, IRS + 1 + 536u * K); /* the right edge where the last segment ended */
    a0 = g.ack;
    /* polled: the first one waiting is told its turn came */
    lab_run(&L, MS(100 + K));
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.dport, 41000 + W);
    CHECK_EQ(g.flags, TCP_ACK);
    CHECK_EQ(g.seq, iss[W] + 1);
    CHECK_EQ(g.ack, IRS + 1);
    CHECK_EQ(g.wnd, 536);
    CHECK_EQ(g.len, 0);
    CHECK(g.ip_ok && g.tcp_ok);
    CHECK_EQ(lab_pending(&L), 0);
    /* a segment that does not fill the window keeps it */
    rsp_seg(&L, MS(110), 41001, TCP_ACK | TCP_PSH, IRS + 1, iss[1] + 1, pattern, 10);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.wnd, 536);
    CHECK_EQ(lab_pending(&L), 0);
    /* the first one's zero-window probe (RFC 9293 3.8.6.1): <SEQ=SND.UNA-1>, answered
     * with its numbers and still no window: all places are taken */
    rsp_seg(&L, MS(120), 41000, TCP_ACK, a0 - 1, iss[0] + (a0 - IRS), NULL, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.dport, 41000);
    CHECK_EQ(g.ack, a0);
    CHECK_EQ(g.wnd, 0);
    lab_run(&L, MS(120));
    CHECK_EQ(lab_pending(&L), 0);
    /* the second fills its window K times; the next turn goes round to the last one
     * waiting */
    for (i = 0; i < K; i++) {
        rsp_seg(&L, MS(130 + i), 41001, TCP_ACK | TCP_PSH, IRS + 11 + 536u * i,
                iss[1] + 11 + 536u * i, seg, 536);
        CHECK(lab_next(&L, &g));
        CHECK_EQ(g.wnd, i + 1 < K ? 536 : 0);
    }
    a1 = g.ack;
    CHECK_EQ(a1, IRS + 11 + 536u * K);
    lab_run(&L, MS(130 + K));
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.dport, 41000 + W + 1);
    CHECK_EQ(g.wnd, 536);
    CHECK_EQ(lab_pending(&L), 0);
    /* all go quiet for two busy periods; then one alone has both MSS, and the two waiting
     * have their windows from the answers to their probes */
    t = MS(140) + 2u * TCP_RESPONDER_BUSY_US;
    rsp_seg(&L, t, 41000 + W, TCP_ACK | TCP_PSH, IRS + 1, iss[W] + 1, pattern, 10);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.dport, 41000 + W);
    CHECK_EQ(g.wnd, 1072);
    lab_run(&L, t);
    CHECK_EQ(lab_pending(&L), 0);
    rsp_seg(&L, t + MS(5), 41000, TCP_ACK, a0 - 1, iss[0] + (a0 - IRS), NULL, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.dport, 41000);
    CHECK_EQ(g.ack, a0);
    CHECK_EQ(g.wnd, 536);
    rsp_seg(&L, t + MS(10), 41001, TCP_ACK, a1 - 1, iss[1] + (a1 - IRS), NULL, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.dport, 41001);
    CHECK_EQ(g.ack, a1);
    CHECK_EQ(g.wnd, 536);
    CHECK_EQ(lab_pending(&L), 0);
    lab_free(&L);
}

static void test_rst_for_unknown(void)
{
    struct tcp_lab L;
    struct tseg g;
    struct tseg_spec s;
    CHECK(rsp_start(&L, 50, 0, 8) == 0);
    /* a SYN to port 8: <SEQ=0><ACK=SEG.SEQ+1><CTL=RST,ACK> (connection refused) */
    rsp_syn(&L, MS(1), 40000, 1460, &g);
    CHECK(g.ip_ok && g.tcp_ok);
    CHECK_EQ(g.flags, TCP_RST | TCP_ACK);
    CHECK_EQ(g.seq, 0);
    CHECK_EQ(g.ack, IRS + 1);
    CHECK_EQ(g.sport, 8);
    CHECK_EQ(g.dport, 40000);
    CHECK_EQ(g.wnd, 0);
    /* a segment of no connection on port 7: <SEQ=SEG.ACK><CTL=RST> */
    L.my_port = 7;
    rsp_seg(&L, MS(2), 40000, TCP_ACK | TCP_PSH, IRS + 1, 4242, pattern, 5);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_RST);
    CHECK_EQ(g.seq, 4242);
    CHECK_EQ(g.len, 0);
    /* data and FIN, no ACK: SEG.LEN = 5 + 1 */
    rsp_seg(&L, MS(3), 40000, TCP_FIN, IRS + 1, 0, pattern, 5);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_RST | TCP_ACK);
    CHECK_EQ(g.ack, IRS + 7);
    /* a reset is never answered */
    rsp_seg(&L, MS(4), 40000, TCP_RST, IRS + 1, 0, NULL, 0);
    CHECK_EQ(lab_pending(&L), 0);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_NO_PCB], 4);
    /* nothing to a broadcast address */
    memset(&s, 0, sizeof s);
    s.flags = TCP_SYN;
    s.seq = IRS;
    s.dst = IP4(10, 0, 0, 255);
    lab_in(&L, MS(5), &s);
    CHECK_EQ(lab_pending(&L), 0);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_NO_PCB] + L.h.stats.drops[DROP_IP_NOT_FOR_US], 5);
    CHECK_EQ(tcp_responder_count(&L.h), 0);
    lab_free(&L);
}

static void test_rst_acceptability(void)
{
    struct tcp_lab L;
    struct tseg g;
    uint32_t iss;
    CHECK(rsp_start(&L, 50, 0, 7) == 0);
    CHECK((iss = rsp_connect(&L, MS(1), 40000)) != 0);
    /* RFC 5961 3.2: in the window but not RCV.NXT: a challenge ACK, the connection stays */
    rsp_seg(&L, MS(10), 40000, TCP_RST, IRS + 2, 0, NULL, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK);
    CHECK_EQ(g.seq, iss + 1);
    CHECK_EQ(g.ack, IRS + 1);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_RST_CHALLENGE], 1);
    CHECK_EQ(tcp_responder_count(&L.h), 1);
    /* outside the window: dropped, no answer */
    rsp_seg(&L, MS(20), 40000, TCP_RST, IRS + 1 + 536, 0, NULL, 0);
    rsp_seg(&L, MS(21), 40000, TCP_RST, IRS, 0, NULL, 0);
    CHECK_EQ(lab_pending(&L), 0);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_BAD_SEQ], 2);
    CHECK_EQ(tcp_responder_count(&L.h), 1);
    /* a SYN on the connection: a challenge ACK too (RFC 5961 4.2) */
    rsp_seg(&L, MS(30), 40000, TCP_SYN, 77777, 0, NULL, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK);
    CHECK_EQ(g.ack, IRS + 1);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_RST_CHALLENGE], 2);
    /* exactly RCV.NXT: the connection is gone, nothing sent */
    rsp_seg(&L, MS(40), 40000, TCP_RST, IRS + 1, 0, NULL, 0);
    CHECK_EQ(lab_pending(&L), 0);
    CHECK_EQ(tcp_responder_count(&L.h), 0);
    CHECK_EQ(lab_event(&L, TRACE_TCP_STATE, 2)->b, TCP_CLOSED);
    lab_free(&L);
}

static void test_fin_close(void)
{
    struct tcp_lab L;
    struct tseg g;
    uint32_t iss;
    CHECK(rsp_start(&L, 50, 0, 7) == 0);
    CHECK((iss = rsp_connect(&L, MS(1), 40000)) != 0);
    /* data and FIN: the echo, our FIN after it, the ACK of both */
    rsp_seg(&L, MS(10), 40000, TCP_ACK | TCP_PSH | TCP_FIN, IRS + 1, iss + 1, pattern, 20);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK | TCP_PSH | TCP_FIN);
    CHECK_EQ(g.seq, iss + 1);
    CHECK_EQ(g.len, 20);
    CHECK_EQ(g.ack, IRS + 22);
    CHECK_EQ(lab_event(&L, TRACE_TCP_STATE, 2)->b, TCP_CLOSE_WAIT);
    CHECK_EQ(lab_event(&L, TRACE_TCP_STATE, 3)->b, TCP_LAST_ACK);
    /* our FIN-ACK lost: the FIN again gets it again (the echo was not acknowledged either) */
    rsp_seg(&L, MS(1010), 40000, TCP_ACK | TCP_PSH | TCP_FIN, IRS + 1, iss + 1, pattern, 20);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK | TCP_PSH | TCP_FIN);
    CHECK_EQ(g.seq, iss + 1);
    CHECK_EQ(g.len, 20);
    CHECK_EQ(g.ack, IRS + 22);
    /* the echo acknowledged but not our FIN: the FIN alone, at its own number, whether the
     * peer sends its FIN alone or with the data again (nothing of it counted as dropped) */
    rsp_seg(&L, MS(2010), 40000, TCP_ACK | TCP_FIN, IRS + 21, iss + 21, NULL, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK | TCP_FIN);
    CHECK_EQ(g.seq, iss + 21);
    CHECK_EQ(g.ack, IRS + 22);
    CHECK_EQ(g.len, 0);
    rsp_seg(&L, MS(2020), 40000, TCP_ACK | TCP_PSH | TCP_FIN, IRS + 1, iss + 21, pattern, 20);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK | TCP_FIN);
    CHECK_EQ(g.seq, iss + 21);
    CHECK_EQ(g.ack, IRS + 22);
    CHECK_EQ(g.len, 0);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_ECHO_NO_ROOM], 0);
    /* the last ACK frees the entry, and is not answered */
    rsp_seg(&L, MS(3010), 40000, TCP_ACK, IRS + 22, iss + 22, NULL, 0);
    CHECK_EQ(lab_pending(&L), 0);
    CHECK_EQ(tcp_responder_count(&L.h), 0);
    CHECK_EQ(lab_event(&L, TRACE_TCP_STATE, 4)->b, TCP_CLOSED);
    /* anything after it: no connection */
    rsp_seg(&L, MS(3020), 40000, TCP_ACK, IRS + 22, iss + 22, NULL, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_RST);
    lab_free(&L);
}

static void test_fin_close_discard(void)
{
    struct tcp_lab L;
    struct tseg g;
    uint32_t iss;
    CHECK(rsp_start(&L, 50, 0, 9) == 0);
    CHECK((iss = rsp_connect(&L, MS(1), 40000)) != 0);
    rsp_seg(&L, MS(10), 40000, TCP_ACK | TCP_FIN, IRS + 1, iss + 1, pattern, 20);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK | TCP_FIN);
    CHECK_EQ(g.seq, iss + 1);
    CHECK_EQ(g.ack, IRS + 22);
    CHECK_EQ(g.len, 0);
    /* the FIN again (our FIN-ACK lost): the same FIN-ACK */
    rsp_seg(&L, MS(1010), 40000, TCP_ACK | TCP_FIN, IRS + 21, iss + 1, NULL, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK | TCP_FIN);
    CHECK_EQ(g.seq, iss + 1);
    CHECK_EQ(g.ack, IRS + 22);
    rsp_seg(&L, MS(1020), 40000, TCP_ACK, IRS + 22, iss + 2, NULL, 0);
    CHECK_EQ(lab_pending(&L), 0);
    CHECK_EQ(tcp_responder_count(&L.h), 0);
    lab_free(&L);
}

static void test_fin_needs_room(void)
{
    struct tcp_lab L;
    struct tseg g;
    uint32_t iss;
    CHECK(rsp_start(&L, 50, 0, 7) == 0);
    CHECK((iss = rsp_connect(&L, MS(1), 40000)) != 0);
    /* the peer's window has room for the 5 bytes but not for our FIN after them: the data
     * is taken, the FIN left for the peer to send again */
    rsp_seg_wnd(&L, MS(10), 40000, TCP_ACK | TCP_FIN, IRS + 1, iss + 1, 5, pattern, 5);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK | TCP_PSH);
    CHECK_EQ(g.len, 5);
    CHECK_EQ(g.ack, IRS + 6);
    CHECK_EQ(tcp_responder_conn(&L.h, 0)->flags & TCP_RESPONDER_F_STATE, TCP_ESTABLISHED);
    lab_free(&L);
}

static void test_full_table(void)
{
    struct tcp_lab L;
    struct tseg g;
    uint32_t iss[3];
    uint16_t i;
    CHECK(rsp_start(&L, 3, 0, 7) == 0);
    for (i = 0; i < 3; i++)
        CHECK((iss[i] = rsp_connect(&L, MS(1 + 10 * i), (uint16_t)(40000 + i))) != 0);
    /* a fourth SYN: every entry has had a segment since it was made; the sweep clears
     * their marks and the SYN is dropped without an answer */
    rsp_syn(&L, MS(100), 40003, 1460, &g);
    CHECK_EQ(g.flags, 0);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_NO_PCB_MEM], 1);
    CHECK_EQ(tcp_responder_count(&L.h), 3);
    /* connections 1 and 2 go on; 0 says nothing */
    rsp_seg(&L, MS(200), 40001, TCP_ACK | TCP_PSH, IRS + 1, iss[1] + 1, pattern, 4);
    rsp_seg(&L, MS(201), 40002, TCP_ACK | TCP_PSH, IRS + 1, iss[2] + 1, pattern, 4);
    CHECK_EQ(lab_pending(&L), 2);
    lab_skip(&L);
    /* the SYN again (its retransmission): it takes the quiet entry, connection 0's */
    rsp_syn(&L, MS(1100), 40003, 1460, &g);
    CHECK_EQ(g.flags, TCP_SYN | TCP_ACK);
    CHECK_EQ(g.dport, 40003);
    CHECK_EQ(tcp_responder_find(&L.h, 7, LAB_PEER, 40000), -1);
    CHECK_EQ(tcp_responder_find(&L.h, 7, LAB_PEER, 40003), 0);
    CHECK_EQ(tcp_responder_find(&L.h, 7, LAB_PEER, 40001), 1);
    /* connection 0's next segment finds no connection: a reset */
    rsp_seg(&L, MS(1200), 40000, TCP_ACK | TCP_PSH, IRS + 1, iss[0] + 1, pattern, 4);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_RST);
    CHECK_EQ(g.seq, iss[0] + 1);
    /* connections 1 and 2 still echo */
    rsp_seg(&L, MS(1300), 40001, TCP_ACK | TCP_PSH, IRS + 5, iss[1] + 5, pattern + 4, 4);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, iss[1] + 5);
    CHECK_EQ(g.ack, IRS + 9);
    CHECK_MEM(g.data, pattern + 4, 4);
    lab_free(&L);
}

static void test_bad_checksums(void)
{
    struct tcp_lab L;
    uint8_t buf[128];
    uint16_t n;
    struct tseg_spec s;
    uint8_t bad_opt[4] = { 8, 6, 0, 0 }; /* timestamps must be 10 bytes long */
    CHECK(rsp_start(&L, 50, 0, 7) == 0);
    memset(&s, 0, sizeof s);
    s.src = LAB_PEER;
    s.dst = LAB_ME;
    s.sport = 40000;
    s.dport = 7;
    s.flags = TCP_SYN;
    s.seq = IRS;
    s.wnd = 8192;
    n = tseg_build(buf, &s);
    buf[n - 1] ^= 0x01; /* the TCP checksum */
    host_input(&L.h, 0, buf, n, MS(1));
    CHECK_EQ(L.h.stats.drops[DROP_TCP_CHKSUM], 1);
    n = tseg_build(buf, &s);
    buf[8] ^= 0x01; /* the TTL, under the IP header checksum */
    host_input(&L.h, 0, buf, n, MS(2));
    CHECK_EQ(L.h.stats.drops[DROP_IP_CHKSUM], 1);
    s.raw_opts = bad_opt;
    s.raw_opts_len = sizeof bad_opt;
    n = tseg_build(buf, &s);
    host_input(&L.h, 0, buf, n, MS(3));
    CHECK_EQ(L.h.stats.drops[DROP_TCP_BAD_OPTION], 1);
    /* a data offset past the segment */
    s.raw_opts = NULL;
    s.raw_opts_len = 0;
    n = tseg_build(buf, &s);
    buf[20 + TCP_OFF_DATAOFF] = 0xF0;
    host_input(&L.h, 0, buf, n, MS(4));
    CHECK_EQ(L.h.stats.drops[DROP_TCP_SHORT], 1);
    CHECK_EQ(lab_pending(&L), 0);
    CHECK_EQ(tcp_responder_count(&L.h), 0);
    CHECK_EQ(lab_count(&L, TRACE_DROP), 4);
    lab_free(&L);
}

/* A SYN with no options is 40 bytes, its SYN-ACK 44: built in the host's transmit buffer
 * (an exactly sized buffer here, so ASan sees any write past it). */
static void test_syn_without_options(void)
{
    struct tcp_lab L;
    struct tseg g;
    struct tseg_spec s;
    uint8_t tmp[64], *exact;
    uint16_t n;
    CHECK(rsp_start(&L, 50, 0, 7) == 0);
    memset(&s, 0, sizeof s);
    s.src = LAB_PEER;
    s.dst = LAB_ME;
    s.sport = 40000;
    s.dport = 7;
    s.flags = TCP_SYN;
    s.seq = IRS;
    s.wnd = 8192;
    n = tseg_build(tmp, &s);
    CHECK_EQ(n, 40);
    exact = malloc(n);
    CHECK(exact != NULL);
    memcpy(exact, tmp, n);
    host_input(&L.h, 0, exact, n, MS(1));
    free(exact);
    CHECK(lab_next(&L, &g));
    CHECK(g.ip_ok && g.tcp_ok);
    CHECK_EQ(g.flags, TCP_SYN | TCP_ACK);
    CHECK(g.has_mss);
    CHECK_EQ(g.mss, 536); /* the peer's 536 by default, ours 536 */
    CHECK_EQ(g.ip_len, 44);
    lab_free(&L);
}

/* 50 connections at once: 50 SYNs, then 50 ACKs, then data on each in the other order,
 * then 50 closes in order. The first TCP_RESPONDER_WINDOWS are offered a window and have
 * their data echoed with their own numbers; the others wait their turn (their data is not
 * taken: a zero window), and each close hands the next one its turn (host_poll). */
static void test_fifty_connections(void)
{
    enum { W = TCP_RESPONDER_WINDOWS };
    struct tcp_lab L;
    struct tseg g;
    uint32_t iss[50];
    uint16_t i, updates = 0;
    CHECK(rsp_start(&L, 50, 0, 7) == 0);
    for (i = 0; i < 50; i++) {
        rsp_syn(&L, MS(1 + i), (uint16_t)(41000 + i), 1460, &g);
        CHECK_EQ(g.flags, TCP_SYN | TCP_ACK);
        CHECK_EQ(g.dport, 41000 + i);
        CHECK_EQ(g.wnd, i < W ? 536 : 0);
        iss[i] = g.seq;
    }
    CHECK_EQ(tcp_responder_count(&L.h), 50);
    for (i = 0; i < 50; i++)
        rsp_seg(&L, MS(100 + i), (uint16_t)(41000 + i), TCP_ACK, IRS + 1, iss[i] + 1, NULL, 0);
    CHECK_EQ(lab_pending(&L), 0);
    for (i = 50; i-- > 0;) {
        rsp_seg(&L, MS(200 + i), (uint16_t)(41000 + i), TCP_ACK | TCP_PSH, IRS + 1, iss[i] + 1,
                pattern + i % 10, (uint16_t)(1 + i));
        CHECK(lab_next(&L, &g));
        CHECK_EQ(g.dport, 41000 + i);
        CHECK_EQ(g.seq, iss[i] + 1);
        if (i < W) {
            CHECK_EQ(g.ack, IRS + 2 + i);
            CHECK_EQ(g.len, 1 + i);
            CHECK_MEM(g.data, pattern + i % 10, 1u + i);
        } else { /* RFC 9293 3.10.7.4: nothing is acceptable in a zero window */
            CHECK_EQ(g.ack, IRS + 1);
            CHECK_EQ(g.len, 0);
            CHECK_EQ(g.wnd, 0);
        }
    }
    CHECK_EQ(L.h.stats.drops[DROP_TCP_BAD_SEQ], 50 - W);
    for (i = 0; i < 50; i++) {
        stack_time_t t = MS(300 + 4 * i);
        rsp_seg(&L, t, (uint16_t)(41000 + i), TCP_ACK | TCP_FIN, IRS + 2 + i, iss[i] + 2 + i, NULL,
                0);
        CHECK(lab_next(&L, &g));
        CHECK_EQ(g.flags, TCP_ACK | TCP_FIN);
        CHECK_EQ(g.seq, iss[i] + 2 + i);
        rsp_seg(&L, t + MS(1), (uint16_t)(41000 + i), TCP_ACK, IRS + 3 + i, iss[i] + 3 + i, NULL,
                0);
        lab_run(&L, t + MS(1));
        /* its place goes to the next one waiting, told when the host is polled, whose data
         * is echoed now */
        if (i + W < 50) {
            uint16_t j = (uint16_t)(i + W);
            CHECK(lab_next(&L, &g));
            CHECK_EQ(g.flags, TCP_ACK);
            CHECK_EQ(g.dport, 41000 + j);
            CHECK_EQ(g.seq, iss[j] + 1);
            CHECK_EQ(g.ack, IRS + 1);
            CHECK_EQ(g.wnd, 536);
            CHECK_EQ(g.len, 0);
            CHECK(g.ip_ok && g.tcp_ok);
            updates++;
            rsp_seg(&L, t + MS(2), (uint16_t)(41000 + j), TCP_ACK | TCP_PSH, IRS + 1, iss[j] + 1,
                    pattern + j % 10, (uint16_t)(1 + j));
            CHECK(lab_next(&L, &g));
            CHECK_EQ(g.ack, IRS + 2 + j);
            CHECK_EQ(g.len, 1 + j);
            CHECK_MEM(g.data, pattern + j % 10, 1u + j);
        }
        CHECK_EQ(lab_pending(&L), 0);
    }
    CHECK_EQ(updates, 50 - W);
    CHECK_EQ(tcp_responder_count(&L.h), 0);
    lab_free(&L);
}

/* ICMP echo keeps working on a responder host, and it has no TCP sockets (none at all in
 * the responder-only build, STACK_TCP_RESPONDER 2, which runs these tests again). */
static void test_ping_and_no_sockets(void)
{
    struct tcp_lab L;
    uint8_t d[28 + 8];
    const struct lab_frame *f;
    CHECK(rsp_start(&L, 50, 0, 7) == 0);
    memset(d, 0, sizeof d);
    d[0] = 0x45;
    wr16(d + 2, sizeof d);
    d[8] = 64;
    d[9] = IP_PROTO_ICMP;
    wr32(d + 12, LAB_PEER);
    wr32(d + 16, LAB_ME);
    wr16(d + 10, inet_chksum(d, 20));
    d[20] = 8; /* echo request, id 0x0102, seq 3, 8 bytes of data */
    wr16(d + 24, 0x0102);
    wr16(d + 26, 3);
    memcpy(d + 28, "pingdata", 8);
    wr16(d + 22, inet_chksum(d + 20, sizeof d - 20));
    host_input(&L.h, 0, d, sizeof d, MS(1));
    CHECK_EQ(L.n_frames, 1);
    f = &L.frames[0];
    CHECK_EQ(f->len, sizeof d);
    CHECK_EQ(f->data[20], 0); /* echo reply */
    CHECK_EQ(rd16(f->data + 24), 0x0102);
    CHECK_MEM(f->data + 28, "pingdata", 8);
#if STACK_TCP_RESPONDER != 2
    CHECK(tcpsocket(&L.h) < 0);
#endif
    lab_free(&L);
}

/* Two peers from the same port: two connections when the entries keep the peer's address
 * (TCP_RESPONDER_PEER_ADDR), one when they do not (the responder-only build). */
static void test_two_peers_same_port(void)
{
    struct tcp_lab L;
    struct tseg g;
    struct tseg_spec s;
    CHECK(rsp_start(&L, 50, 0, 7) == 0);
    rsp_syn(&L, MS(1), 40000, 1460, &g);
    CHECK_EQ(g.dst, LAB_PEER);
    memset(&s, 0, sizeof s);
    s.src = IP4(10, 0, 0, 3);
    s.sport = 40000;
    s.flags = TCP_SYN;
    s.seq = IRS + 1000;
    s.wnd = 8192;
    lab_in(&L, MS(2), &s);
#if TCP_RESPONDER_PEER_ADDR
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.dst, IP4(10, 0, 0, 3));
    CHECK_EQ(g.flags, TCP_SYN | TCP_ACK);
    CHECK_EQ(g.ack, IRS + 1001);
    CHECK_EQ(tcp_responder_count(&L.h), 2);
    CHECK_EQ(tcp_responder_find(&L.h, 7, IP4(10, 0, 0, 3), 40000), 1);
#else
    /* taken for the first peer's entry: another SYN there sends it back to LISTEN */
    CHECK_EQ(lab_pending(&L), 0);
    CHECK_EQ(tcp_responder_count(&L.h), 0);
#endif
    lab_free(&L);
}

static int refuse_output(void *ctx, uint8_t netif, const uint8_t *d, uint16_t len)
{
    (void)ctx;
    (void)netif;
    (void)d;
    (void)len;
    return -1;
}

/* What tcp_responder_input() returns, called as IP calls it. */
static void test_input_result(void)
{
    struct tcp_lab L;
    struct tseg_spec s;
    struct tseg g;
    struct ip_rx rx;
    uint8_t buf[128];
    CHECK(rsp_start(&L, 50, 0, 7) == 0);
    memset(&s, 0, sizeof s);
    s.src = LAB_PEER;
    s.dst = LAB_ME;
    s.sport = 40000;
    s.dport = 7;
    s.flags = TCP_SYN;
    s.seq = IRS;
    s.wnd = 8192;
    s.mss = 1460;
    memset(&rx, 0, sizeof rx);
    rx.dgram = buf;
    rx.hlen = 20;
    rx.len = tseg_build(buf, &s);
    rx.src = LAB_PEER;
    rx.dst = LAB_ME;
    rx.proto = IP_PROTO_TCP;
    CHECK_EQ(tcp_responder_input(&L.h, &rx), 1); /* the SYN-ACK left */
    CHECK(lab_next(&L, &g));
    s.flags = TCP_ACK;
    s.seq = IRS + 1;
    s.ack = g.seq + 1;
    s.mss = 0;
    rx.len = tseg_build(buf, &s);
    CHECK_EQ(tcp_responder_input(&L.h, &rx), 0); /* the handshake's ACK needs no answer */
    /* data whose echo the link refuses: counted, and the error returned */
    L.h.netifs[0].output = refuse_output;
    s.data = (const uint8_t *)pattern;
    s.len = 10;
    rx.len = tseg_build(buf, &s);
    CHECK_EQ(tcp_responder_input(&L.h, &rx), ERR_RTE);
    CHECK_EQ(L.h.stats.drops[DROP_NETIF_DOWN], 1);
    lab_free(&L);
}

UNIT_MAIN(UNIT(test_handshake), UNIT(test_syn_received), UNIT(test_echo_one_segment),
          UNIT(test_discard), UNIT(test_retransmitted_segment), UNIT(test_echo_lost_for_good),
          UNIT(test_old_and_out_of_window), UNIT(test_larger_than_window), UNIT(test_peer_window),
          UNIT(test_rst_for_unknown), UNIT(test_rst_acceptability), UNIT(test_fin_close),
          UNIT(test_fin_close_discard), UNIT(test_fin_needs_room), UNIT(test_full_table),
          UNIT(test_bad_checksums), UNIT(test_window_shared), UNIT(test_window_quiet_entry),
          UNIT(test_turns), UNIT(test_syn_without_options), UNIT(test_fifty_connections),
          UNIT(test_ping_and_no_sockets), UNIT(test_two_peers_same_port), UNIT(test_input_result))
