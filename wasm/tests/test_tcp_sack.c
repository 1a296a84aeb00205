/* Selective acknowledgments: negotiation (RFC 2018 2), the receiver's SACK blocks
 * (RFC 2018 4) and SACK-based loss recovery (RFC 6675), on the bench of tcp_lab.h. */
#include "tcp_pcb.h"
#include "tcp_tests.h"

static uint8_t data[16384];
static const uint8_t sack_perm_opt[4] = { 1, 1, 4, 2 };

static void fill_data(void)
{
    uint32_t i;
    for (i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 13u + 7u);
}

/* The options of a captured segment. */
static const uint8_t *opts_of(const struct tseg *g)
{
    return g->data - (g->hlen - 20u);
}

/* Active open; the SYN-ACK offers SACK when peer_sack. *syn gets our SYN. */
static int open_sack(struct tcp_lab *L, int peer_sack, struct tseg *syn)
{
    struct stack_sockaddr to = { LAB_PEER, 80 };
    struct tseg_spec s;
    int sock;
    tcp_set_next_iss(&L->h, OUR_ISS);
    sock = tcpsocket(&L->h);
    if (sock < 0 || tcpconnect(&L->h, sock, &to) != ERR_OK || !lab_next(L, syn))
        return -1;
    L->my_port = syn->sport;
    L->peer_port = 80;
    memset(&s, 0, sizeof s);
    s.flags = TCP_SYN | TCP_ACK;
    s.seq = PEER_ISS;
    s.ack = OUR_ISS + 1;
    s.wnd = 32768;
    s.mss = 1460;
    if (peer_sack) {
        s.raw_opts = sack_perm_opt;
        s.raw_opts_len = sizeof sack_perm_opt;
    }
    lab_in(L, MS(10), &s);
    lab_skip(L);
    return sock;
}

static void test_sack_permitted_offered_when_enabled(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    int sock;
    fill_data();
    /* off (the default): MSS only, as before */
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = open_sack(&L, 1, &g);
    CHECK(sock >= 0);
    CHECK_EQ(g.hlen, 24);
    CHECK_EQ(L.h.tcp.pcbs[sock].sack_ok, 0);
    lab_free(&L);
    /* on: MSS, then NOP NOP SACK-permitted */
    tt_config(&cfg);
    cfg.tcp_sack = 1;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = open_sack(&L, 1, &g);
    CHECK(sock >= 0);
    CHECK_EQ(g.hlen, 28);
    CHECK_MEM(opts_of(&g) + 4, sack_perm_opt, 4);
    CHECK_EQ(L.h.tcp.pcbs[sock].sack_ok, 1);
    lab_free(&L);
    /* on, with timestamps: MSS, NOP NOP TS, NOP NOP SACK-permitted */
    tt_config(&cfg);
    cfg.tcp_sack = 1;
    cfg.tcp_timestamps = 1;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = open_sack(&L, 1, &g);
    CHECK(sock >= 0);
    CHECK_EQ(g.hlen, 40);
    CHECK(g.has_ts);
    CHECK_MEM(opts_of(&g) + 16, sack_perm_opt, 4);
    lab_free(&L);
    /* on, the peer does not offer it: not in use (RFC 2018 2) */
    tt_config(&cfg);
    cfg.tcp_sack = 1;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = open_sack(&L, 0, &g);
    CHECK(sock >= 0);
    CHECK_EQ(L.h.tcp.pcbs[sock].sack_ok, 0);
    lab_free(&L);
}

static void test_syn_ack_offers_sack_only_if_the_syn_did(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    struct tseg_spec s;
    struct stack_sockaddr me = { 0, 80 };
    int pass, l;
    for (pass = 0; pass < 2; pass++) {
        tt_config(&cfg);
        cfg.tcp_sack = 1;
        CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
        l = tcpsocket(&L.h);
        CHECK(l >= 0 && tcpbind(&L.h, l, &me) == ERR_OK && tcplisten(&L.h, l, 4) == ERR_OK);
        L.my_port = 80;
        L.peer_port = 40000;
        tcp_set_next_iss(&L.h, OUR_ISS);
        memset(&s, 0, sizeof s);
        s.flags = TCP_SYN;
        s.seq = PEER_ISS;
        s.wnd = 8192;
        s.mss = 1460;
        if (pass) {
            s.raw_opts = sack_perm_opt;
            s.raw_opts_len = 4;
        }
        lab_in(&L, 0, &s);
        CHECK(lab_next(&L, &g));
        CHECK_EQ(g.flags, TCP_SYN | TCP_ACK);
        CHECK_EQ(g.hlen, pass ? 28 : 24);
        if (pass)
            CHECK_MEM(opts_of(&g) + 4, sack_perm_opt, 4);
        lab_free(&L);
    }
}

/* The SACK option of an ACK: n blocks, byte for byte (RFC 2018 3), at `at` in the options. */
static int sack_is(const struct tseg *g, uint16_t at, const uint32_t *lr, uint8_t n)
{
    const uint8_t *o = opts_of(g) + at;
    uint8_t i;
    if (g->hlen != 20u + at + 4u + 8u * n)
        return 0;
    if (o[0] != 1 || o[1] != 1 || o[2] != 5 || o[3] != 2u + 8u * n)
        return 0;
    for (i = 0; i < 2u * n; i++)
        if (rd32(o + 4 + 4u * i) != lr[i])
            return 0;
    return 1;
}

/* Peer data of 100 bytes at PEER_ISS + 1 + off; our ACK comes back at once. */
static int peer_data(struct tcp_lab *L, stack_time_t t, uint32_t off, int ts, struct tseg *ack)
{
    struct tseg_spec s;
    memset(&s, 0, sizeof s);
    s.flags = TCP_ACK;
    s.seq = PEER_ISS + 1 + off;
    s.ack = OUR_ISS + 1;
    s.wnd = 16384;
    s.data = data + off;
    s.len = 100;
    if (ts) {
        s.ts = 1;
        s.tsval = 100 + (uint32_t)(t / 1000u);
        s.tsecr = 1;
    }
    lab_in(L, t, &s);
    return lab_next(L, ack) && lab_pending(L) == 0 && ack->len == 0;
}

static void test_receiver_sack_blocks_order(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    int sock;
    fill_data();
    tt_config(&cfg);
    cfg.tcp_sack = 1;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = open_sack(&L, 1, &g);
    CHECK(sock >= 0);
    /* 5001 .. 5101 lost; 5101 arrives: ACK 5001, block [5101, 5201) */
    CHECK(peer_data(&L, MS(20), 100, 0, &g));
    CHECK_EQ(g.ack, 5001);
    {
        static const uint32_t b[] = { 5101, 5201 };
        CHECK(sack_is(&g, 0, b, 1));
    }
    /* 5301: the newest block first, then the earlier one */
    CHECK(peer_data(&L, MS(21), 300, 0, &g));
    {
        static const uint32_t b[] = { 5301, 5401, 5101, 5201 };
        CHECK(sack_is(&g, 0, b, 2));
    }
    /* 5501 and 5701: four blocks, the most that fit without timestamps */
    CHECK(peer_data(&L, MS(22), 500, 0, &g));
    CHECK(peer_data(&L, MS(23), 700, 0, &g));
    {
        static const uint32_t b[] = { 5701, 5801, 5501, 5601, 5301, 5401, 5101, 5201 };
        CHECK(sack_is(&g, 0, b, 4));
    }
    /* 5201 fills the hole between 5101 and 5301: the merged block [5101, 5401) leads */
    CHECK(peer_data(&L, MS(24), 200, 0, &g));
    {
        static const uint32_t b[] = { 5101, 5401, 5701, 5801, 5501, 5601 };
        CHECK(sack_is(&g, 0, b, 3));
    }
    /* 5001 arrives: ACK 5401, the remaining blocks in their last order */
    CHECK(peer_data(&L, MS(25), 0, 0, &g));
    CHECK_EQ(g.ack, 5401);
    {
        static const uint32_t b[] = { 5701, 5801, 5501, 5601 };
        CHECK(sack_is(&g, 0, b, 2));
    }
    /* the last holes: no block once nothing is held out of order */
    CHECK(peer_data(&L, MS(26), 400, 0, &g));
    CHECK(peer_data(&L, MS(27), 600, 0, &g));
    CHECK_EQ(g.ack, 5801);
    CHECK_EQ(g.hlen, 20);
    lab_free(&L);
}

static void test_receiver_sack_blocks_with_timestamps_three(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    int sock;
    fill_data();
    tt_config(&cfg);
    cfg.tcp_sack = 1;
    cfg.tcp_timestamps = 1;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    {
        struct stack_sockaddr to = { LAB_PEER, 80 };
        struct tseg_spec s;
        static const uint8_t opt[4] = { 1, 1, 4, 2 };
        tcp_set_next_iss(&L.h, OUR_ISS);
        sock = tcpsocket(&L.h);
        CHECK(sock >= 0 && tcpconnect(&L.h, sock, &to) == ERR_OK && lab_next(&L, &g));
        L.my_port = g.sport;
        L.peer_port = 80;
        memset(&s, 0, sizeof s);
        s.flags = TCP_SYN | TCP_ACK;
        s.seq = PEER_ISS;
        s.ack = OUR_ISS + 1;
        s.wnd = 16384;
        s.mss = 1460;
        s.ts = 1;
        s.tsval = 100;
        s.tsecr = 1;
        s.raw_opts = opt;
        s.raw_opts_len = 4;
        lab_in(&L, MS(10), &s);
        lab_skip(&L);
        CHECK(L.h.tcp.pcbs[sock].sack_ok && L.h.tcp.pcbs[sock].ts_ok);
    }
    CHECK(peer_data(&L, MS(20), 100, 1, &g));
    CHECK(peer_data(&L, MS(21), 300, 1, &g));
    CHECK(peer_data(&L, MS(22), 500, 1, &g));
    CHECK(peer_data(&L, MS(23), 700, 1, &g));
    /* TS (12 bytes) then NOP NOP SACK with the three most recent blocks: 40 bytes */
    CHECK(g.has_ts);
    {
        static const uint32_t b[] = { 5701, 5801, 5501, 5601, 5301, 5401 };
        CHECK(sack_is(&g, 12, b, 3));
    }
    lab_free(&L);
}

/* The peer's ACK at t with n SACK blocks (lr: left, right, ...). */
static void sack_ack(struct tcp_lab *L, stack_time_t t, uint32_t ack, const uint32_t *lr, uint8_t n)
{
    uint8_t opt[36];
    struct tseg_spec s;
    uint8_t i;
    opt[0] = 1;
    opt[1] = 1;
    opt[2] = 5;
    opt[3] = (uint8_t)(2u + 8u * n);
    for (i = 0; i < 2u * n; i++)
        wr32(opt + 4 + 4u * i, lr[i]);
    memset(&s, 0, sizeof s);
    s.flags = TCP_ACK;
    s.seq = PEER_ISS + 1;
    s.ack = ack;
    s.wnd = 32768;
    if (n) {
        s.raw_opts = opt;
        s.raw_opts_len = (uint8_t)(4u + 8u * n);
    }
    lab_in(L, t, &s);
}

#define SEG(k) (OUR_ISS + 1u + ((k)-1u) * 1460u) /* start of our k-th segment */

/* Eight full segments out (cwnd 8 x 1460), twelve more queued (windows of 32 KB). In
 * the tests #1 and #3 are lost; the peer SACKs the others as they arrive. */
static int eight_out(struct tcp_lab *L, struct host_config *cfg, int sack)
{
    struct tseg g;
    int sock;
    uint32_t k;
    fill_data();
    tt_config(cfg);
    cfg->tcp_sack = (uint8_t)sack;
    cfg->tcp_initial_cwnd = 8u * 1460u;
    cfg->tcp_snd_buf = 32768;
    if (lab_init(L, cfg, 1500, 0) != 0)
        return -1;
    sock = open_sack(L, 1, &g);
    if (sock < 0)
        return -1;
    lab_run(L, MS(100));
    if (tcpsend(&L->h, sock, data, 20u * 800u) != 20 * 800 ||
        tcpsend(&L->h, sock, data, 20u * 660u) != 20 * 660)
        return -1;
    for (k = 1; k <= 8; k++)
        if (!lab_next(L, &g) || g.seq != SEG(k) || g.len != 1460)
            return -1;
    if (lab_pending(L) != 0)
        return -1;
    lab_clear_trace(L);
    return sock;
}

/* The next segment sent is our k-th, new or again; nothing else was sent. */
static int sent_only(struct tcp_lab *L, uint32_t k)
{
    struct tseg g;
    return lab_next(L, &g) && g.seq == SEG(k) && g.len == 1460 && lab_pending(L) == 0;
}

static void test_sack_two_holes_repaired_without_rto(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tcp_info info;
    const struct trace_event *e;
    int sock = eight_out(&L, &cfg, 1);
    CHECK(sock >= 0);
    {
        const uint32_t b2[] = { SEG(2), SEG(3) };
        const uint32_t b4[] = { SEG(4), SEG(5), SEG(2), SEG(3) };
        const uint32_t b5[] = { SEG(4), SEG(6), SEG(2), SEG(3) };
        /* limited transmit (RFC 3042, RFC 6675 5 step 3): a new segment for each of the
         * first two duplicates */
        sack_ack(&L, MS(150), SEG(1), b2, 1);
        CHECK(sent_only(&L, 9));
        sack_ack(&L, MS(151), SEG(1), b4, 2);
        CHECK(sent_only(&L, 10));
        CHECK_EQ(lab_count(&L, TRACE_DUPACK), 2);
        CHECK_EQ(lab_count(&L, TRACE_RETRANSMIT), 0);
        /* third duplicate: recovery, RecoveryPoint #11, ssthresh = cwnd = FlightSize / 2
         * = 10 x 1460 / 2 = 7300 (RFC 6675 5 step 4.2), #1 again (step 4.3). #3 has only
         * #4 and #5 SACKed above it: not lost yet (IsLost: 1 range, 2920 bytes, not more
         * than 2 SMSS). */
        sack_ack(&L, MS(152), SEG(1), b5, 2);
        CHECK(sent_only(&L, 1));
        e = lab_event(&L, TRACE_RECOVERY_ENTER, 0);
        CHECK(e != NULL);
        CHECK_EQ(e->a, SEG(11));
        CHECK_EQ(e->b, 7300);
        CHECK_EQ(e->c, 7300);
        CHECK_EQ(lab_event(&L, TRACE_RETRANSMIT, 0)->c, TCP_RETX_FAST);
    }
    {
        /* #6 SACKed: #3 is lost now (3 SMSS above it) but the pipe is full: #1 re-sent,
         * #7 to #10 in flight = 7300 */
        const uint32_t b6[] = { SEG(4), SEG(7), SEG(2), SEG(3) };
        const uint32_t b7[] = { SEG(4), SEG(8), SEG(2), SEG(3) };
        sack_ack(&L, MS(153), SEG(1), b6, 2);
        CHECK_EQ(lab_pending(&L), 0);
        /* #7 SACKed: room for one segment, and NextSeg's rule 1 takes the lost hole */
        sack_ack(&L, MS(154), SEG(1), b7, 2);
        CHECK(sent_only(&L, 3));
        e = lab_event(&L, TRACE_RETRANSMIT, 1);
        CHECK(e != NULL);
        CHECK_EQ(e->c, TCP_RETX_SACK_LOSS);
        CHECK_EQ(e->a, SEG(3));
    }
    {
        /* #8, #9, #10 SACKed: each frees a segment of pipe, new data goes (rule 2) */
        const uint32_t b8[] = { SEG(4), SEG(9), SEG(2), SEG(3) };
        const uint32_t b9[] = { SEG(4), SEG(10), SEG(2), SEG(3) };
        const uint32_t b10[] = { SEG(4), SEG(11), SEG(2), SEG(3) };
        const uint32_t part[] = { SEG(4), SEG(11) };
        sack_ack(&L, MS(155), SEG(1), b8, 2);
        CHECK(sent_only(&L, 11));
        sack_ack(&L, MS(156), SEG(1), b9, 2);
        CHECK(sent_only(&L, 12));
        sack_ack(&L, MS(157), SEG(1), b10, 2);
        CHECK(sent_only(&L, 13));
        /* #1 arrives: a partial ACK to #3; recovery goes on, one more new segment */
        sack_ack(&L, MS(202), SEG(3), part, 1);
        CHECK(sent_only(&L, 14));
        CHECK_EQ(lab_count(&L, TRACE_RECOVERY_EXIT), 0);
        /* #3 arrives: the cumulative ACK reaches RecoveryPoint, recovery ends */
        sack_ack(&L, MS(204), SEG(11), NULL, 0);
        e = lab_event(&L, TRACE_RECOVERY_EXIT, 0);
        CHECK(e != NULL);
        CHECK_EQ(e->a, SEG(11));
        CHECK_EQ(e->b, 7300);
    }
    lab_skip(&L);
    CHECK_EQ(lab_count(&L, TRACE_RETRANSMIT), 2);
    CHECK_EQ(lab_count(&L, TRACE_RTO_EXPIRE), 0);
    CHECK_EQ(tcpstatus(&L.h, sock, &info), ERR_OK);
    CHECK_EQ(info.snd_una, SEG(11));
    lab_free(&L);
}

static void test_sack_scoreboard_cleared_on_rto(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    int sock = eight_out(&L, &cfg, 1);
    const uint32_t b[] = { SEG(2), SEG(9) };
    CHECK(sock >= 0);
    sack_ack(&L, MS(150), SEG(1), b, 1);
    CHECK_EQ(L.h.tcp.pcbs[sock].sb_n, 1);
    /* one duplicate, but 7 SMSS SACKed above #1: IsLost(HighACK + 1) starts recovery
     * (RFC 6675 5 step 2) */
    CHECK_EQ(L.h.tcp.pcbs[sock].sack_rec, 1);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, SEG(1));
    lab_skip(&L);
    /* nothing more comes back: the RTO forgets the scoreboard and the recovery (RFC 2018
     * 8) and goes back to #1 */
    lab_run(&L, MS(1200));
    CHECK_EQ(lab_count(&L, TRACE_RTO_EXPIRE), 1);
    CHECK_EQ(L.h.tcp.pcbs[sock].sb_n, 0);
    CHECK_EQ(L.h.tcp.pcbs[sock].sack_rec, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, SEG(1));
    CHECK_EQ(lab_pending(&L), 0);
    /* RFC 6675 5.1: the RTO came during recovery, so duplicates SACKing what was sent
     * before it start no new recovery until snd_una passes the RTO's recovery point */
    sack_ack(&L, MS(1201), SEG(1), b, 1);
    sack_ack(&L, MS(1202), SEG(1), b, 1);
    sack_ack(&L, MS(1203), SEG(1), b, 1);
    CHECK_EQ(L.h.tcp.pcbs[sock].sack_rec, 0);
    CHECK_EQ(L.h.tcp.pcbs[sock].sb_n, 1);
    CHECK_EQ(lab_pending(&L), 0);
    lab_free(&L);
}

static void test_sack_off_keeps_newreno(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    int sock = eight_out(&L, &cfg, 0);
    const uint32_t b[] = { SEG(2), SEG(9) };
    CHECK(sock >= 0);
    /* SACK blocks from a peer we did not negotiate with are ignored: three duplicates
     * give NewReno's fast retransmit, and cwnd = ssthresh + 3 SMSS */
    sack_ack(&L, MS(150), SEG(1), b, 1);
    sack_ack(&L, MS(151), SEG(1), b, 1);
    CHECK_EQ(lab_pending(&L), 0);
    sack_ack(&L, MS(152), SEG(1), b, 1);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, SEG(1));
    CHECK_EQ(lab_event(&L, TRACE_RECOVERY_ENTER, 0)->b, 5840u + 3u * 1460u);
    lab_free(&L);
}

UNIT_MAIN(UNIT(test_sack_permitted_offered_when_enabled),
          UNIT(test_sack_two_holes_repaired_without_rto), UNIT(test_sack_scoreboard_cleared_on_rto),
          UNIT(test_sack_off_keeps_newreno), UNIT(test_syn_ack_offers_sack_only_if_the_syn_did),
          UNIT(test_receiver_sack_blocks_order),
          UNIT(test_receiver_sack_blocks_with_timestamps_three))
