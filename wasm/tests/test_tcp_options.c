/* TCP options: the MSS (RFC 9293 3.7.1: announced on SYNs, 536 when the peer sends none,
 * the smaller of both used), options we do not know (skipped by their length), malformed
 * options (the segment is dropped), and timestamps (RFC 7323: negotiated on the SYNs, TSval
 * and TSecr on every segment, an RTT sample per ACK of new data, PAWS). */
#include "tcp_tests.h"

static uint8_t data[4000];

static void fill_data(void)
{
    uint32_t i;
    for (i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 3u + 11u);
}

/* Connects and answers the SYN with `synack` (seq 5000, ack 1001 filled in). */
static int connect_with(struct tcp_lab *L, struct tseg_spec *synack, struct tseg *syn)
{
    struct stack_sockaddr to = { LAB_PEER, 80 };
    int sock;
    tcp_set_next_iss(&L->h, OUR_ISS);
    sock = tcpsocket(&L->h);
    if (sock < 0 || tcpconnect(&L->h, sock, &to) != ERR_OK || !lab_next(L, syn))
        return -1;
    L->my_port = syn->sport;
    L->peer_port = 80;
    synack->flags = TCP_SYN | TCP_ACK;
    synack->seq = 5000;
    synack->ack = 1001;
    lab_in(L, MS(10), synack);
    return sock;
}

/* connect_with() answered by a SYN-ACK with timestamps: window 8192, MSS 1460, TSval 7777,
 * TSecr 1 (the TSval of our SYN). */
static int connect_with_ts(struct tcp_lab *L, struct tseg_spec *synack, struct tseg *syn)
{
    memset(synack, 0, sizeof *synack);
    synack->wnd = 8192;
    synack->mss = 1460;
    synack->ts = 1;
    synack->tsval = 7777;
    synack->tsecr = 1;
    return connect_with(L, synack, syn);
}

static void test_mss_absent_means_536(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    struct tseg_spec s;
    struct tcp_info info;
    int sock;
    fill_data();
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    memset(&s, 0, sizeof s);
    s.wnd = 8192; /* no MSS option */
    sock = connect_with(&L, &s, &g);
    CHECK(sock >= 0);
    CHECK_EQ(g.mss, 1460);
    CHECK_EQ(tcpstatus(&L.h, sock, &info), ERR_OK);
    CHECK_EQ(info.state, TCP_ESTABLISHED);
    CHECK_EQ(info.mss, 536);
    lab_skip(&L);
    lab_run(&L, MS(100));
    CHECK_EQ(tcpsend(&L.h, sock, data, 1000), 1000);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.len, 536);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, 1537);
    CHECK_EQ(g.len, 464);
    lab_free(&L);
}

static void test_mss_smaller_side_wins(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    struct tseg_spec s;
    struct tcp_info info;
    int sock;
    tt_config(&cfg);
    /* the peer announces 1000 */
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    memset(&s, 0, sizeof s);
    s.wnd = 8192;
    s.mss = 1000;
    sock = connect_with(&L, &s, &g);
    CHECK_EQ(tcpstatus(&L.h, sock, &info), ERR_OK);
    CHECK_EQ(info.mss, 1000);
    lab_free(&L);
    /* we are configured for 512: we announce it and never send more */
    tt_config(&cfg);
    cfg.tcp_mss = 512;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    s.mss = 1460;
    sock = connect_with(&L, &s, &g);
    CHECK_EQ(g.mss, 512);
    CHECK_EQ(tcpstatus(&L.h, sock, &info), ERR_OK);
    CHECK_EQ(info.mss, 512);
    lab_free(&L);
    /* a 576-byte MTU: 576 - 40 = 536 announced */
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 576, 0) == 0);
    sock = connect_with(&L, &s, &g);
    CHECK_EQ(g.mss, 536);
    CHECK_EQ(tcpstatus(&L.h, sock, &info), ERR_OK);
    CHECK_EQ(info.mss, 536);
    lab_free(&L);
}

static void test_unknown_options_are_skipped(void)
{
    /* NOP, window scale (3, 3, 7), SACK permitted (4, 2), NOP, NOP, an unknown kind 99 of
     * length 4: 12 bytes, after the MSS */
    static const uint8_t opts[] = { 1, 3, 3, 7, 4, 2, 1, 1, 99, 4, 0xAB, 0xCD };
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    struct tseg_spec s;
    struct tcp_info info;
    int sock;
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    memset(&s, 0, sizeof s);
    s.wnd = 8192;
    s.mss = 1200;
    s.raw_opts = opts;
    s.raw_opts_len = sizeof opts;
    sock = connect_with(&L, &s, &g);
    CHECK(sock >= 0);
    CHECK_EQ(tcpstatus(&L.h, sock, &info), ERR_OK);
    CHECK_EQ(info.state, TCP_ESTABLISHED);
    CHECK_EQ(info.mss, 1200);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.hlen, 20); /* we offered neither, so we use neither */
    lab_free(&L);
}

static void test_malformed_options_drop_the_segment(void)
{
    static const uint8_t zero_len[] = { 4, 0, 1, 1 };  /* a length below 2 */
    static const uint8_t past_end[] = { 1, 1, 99, 9 }; /* 9 bytes, 2 left */
    static const uint8_t bad_mss[] = { 2, 3, 5, 1 };   /* MSS must be 4 long */
    const uint8_t *bad[3] = { zero_len, past_end, bad_mss };
    int i;
    for (i = 0; i < 3; i++) {
        struct host_config cfg;
        struct tcp_lab L;
        struct tseg g;
        struct tseg_spec s;
        int sock;
        tt_config(&cfg);
        CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
        memset(&s, 0, sizeof s);
        s.wnd = 8192;
        s.raw_opts = bad[i];
        s.raw_opts_len = 4;
        sock = connect_with(&L, &s, &g);
        CHECK(sock >= 0);
        CHECK_EQ(tt_state(&L, sock), TCP_SYN_SENT);
        CHECK_EQ(L.h.stats.drops[DROP_TCP_BAD_OPTION], 1);
        CHECK_EQ(lab_pending(&L), 0);
        lab_free(&L);
    }
}

static void test_timestamps_negotiated_and_sampled(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    struct tseg_spec s;
    const struct trace_event *e;
    int sock;
    fill_data();
    tt_config(&cfg);
    cfg.tcp_timestamps = 1;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = connect_with_ts(&L, &s, &g);
    CHECK(sock >= 0);
    /* our SYN: MSS then NOP NOP TS, TSval = 1 at time 0 (ms clock from 1), TSecr 0 */
    CHECK_EQ(g.hlen, 36);
    CHECK(g.has_ts);
    CHECK_EQ(g.tsval, 1);
    CHECK_EQ(g.tsecr, 0);
    /* RTT from the echo: now 11 - 1 = 10 ms (RFC 7323 4.1) */
    e = lab_event(&L, TRACE_RTT_SAMPLE, 0);
    CHECK(e != NULL);
    CHECK_EQ(e->a, 10000);
    CHECK_EQ(e->c, 1);
    CHECK(lab_next(&L, &g)); /* our ACK: timestamps on every segment now */
    CHECK_EQ(g.hlen, 32);
    CHECK_EQ(g.tsval, 11);
    CHECK_EQ(g.tsecr, 7777);
    /* data: 1460 - 12 bytes of options = 1448 per segment (RFC 7323 / RFC 6691) */
    lab_run(&L, MS(100));
    CHECK_EQ(tcpsend(&L.h, sock, data, 3000), 3000);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.len, 1448);
    CHECK_EQ(g.tsval, 101);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, 2449);
    CHECK_EQ(g.len, 1448);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.len, 104);
    /* an ACK of new data echoing 101 at 150 ms: a 50 ms sample */
    s.flags = TCP_ACK;
    s.seq = 5001;
    s.ack = 2449;
    s.mss = 0;
    s.tsval = 7800;
    s.tsecr = 101;
    lab_in(&L, MS(150), &s);
    e = lab_event(&L, TRACE_RTT_SAMPLE, 1);
    CHECK(e != NULL);
    CHECK_EQ(e->a, 50000);
    CHECK_EQ(e->c, 1);
    /* a second ACK of new data echoing the same TSval: another sample (one per ACK of new
     * data, RFC 7323 4), 60 ms */
    s.ack = 3897;
    lab_in(&L, MS(160), &s);
    CHECK_EQ(lab_event(&L, TRACE_RTT_SAMPLE, 2)->a, 60000);
    /* an ACK without timestamps is still accepted (as Linux does) */
    lab_skip(&L);
    lab_seg(&L, MS(170), TCP_ACK, 5001, 4001, 8192, NULL, 0);
    {
        struct tcp_info info;
        CHECK_EQ(tcpstatus(&L.h, sock, &info), ERR_OK);
        CHECK_EQ(info.snd_una, 4001);
    }
    /* our next segment echoes the peer's latest TSval, 7800, and carries 1 + 170 */
    CHECK_EQ(tcpsend(&L.h, sock, "z", 1), 1);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.tsecr, 7800);
    CHECK_EQ(g.tsval, 171);
    lab_free(&L);
}

static void test_timestamps_paws_drops_old_segment(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    struct tseg_spec s;
    char buf[8];
    int sock;
    tt_config(&cfg);
    cfg.tcp_timestamps = 1;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = connect_with_ts(&L, &s, &g);
    lab_skip(&L);
    /* data whose TSval (7000) is older than TS.Recent (7777): PAWS, RFC 7323 5.3 R1 */
    s.flags = TCP_ACK | TCP_PSH;
    s.seq = 5001;
    s.ack = 1001;
    s.mss = 0;
    s.tsval = 7000;
    s.tsecr = 0;
    s.data = (const uint8_t *)"old";
    s.len = 3;
    lab_in(&L, MS(20), &s);
    CHECK_EQ(L.h.stats.drops[DROP_TCP_PAWS], 1);
    CHECK(lab_next(&L, &g)); /* an ACK, still at 5001 */
    CHECK_EQ(g.ack, 5001);
    CHECK_EQ(g.tsecr, 7777);
    CHECK_EQ(tcprecv(&L.h, sock, buf, sizeof buf), ERR_WOULDBLOCK);
    /* the same with a newer TSval is taken, and TS.Recent follows */
    s.tsval = 7790;
    s.data = (const uint8_t *)"new";
    lab_in(&L, MS(21), &s);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.ack, 5004);
    CHECK_EQ(g.tsecr, 7790);
    CHECK_EQ(tcprecv(&L.h, sock, buf, sizeof buf), 3);
    lab_free(&L);
}

static void test_timestamps_not_offered_by_peer(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    struct tseg_spec s;
    int sock;
    tt_config(&cfg);
    cfg.tcp_timestamps = 1;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    memset(&s, 0, sizeof s);
    s.wnd = 8192;
    s.mss = 1460;
    sock = connect_with(&L, &s, &g);
    CHECK(sock >= 0);
    CHECK(g.has_ts); /* offered */
    CHECK(lab_next(&L, &g));
    CHECK(!g.has_ts); /* not answered: not used (RFC 7323 3.2) */
    CHECK_EQ(g.hlen, 20);
    lab_free(&L);
    /* passive side: a SYN with TS gets a SYN-ACK echoing its TSval */
    tt_config(&cfg);
    cfg.tcp_timestamps = 1;
    CHECK(lab_init(&L, &cfg, 1500, MS(5)) == 0);
    {
        struct stack_sockaddr me = { 0, 80 };
        int l = tcpsocket(&L.h);
        CHECK_EQ(tcpbind(&L.h, l, &me), ERR_OK);
        CHECK_EQ(tcplisten(&L.h, l, 1), ERR_OK);
    }
    memset(&s, 0, sizeof s);
    s.flags = TCP_SYN;
    s.seq = 5000;
    s.wnd = 8192;
    s.mss = 1460;
    s.ts = 1;
    s.tsval = 424242;
    lab_in(&L, MS(25), &s);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_SYN | TCP_ACK);
    CHECK(g.has_ts);
    CHECK_EQ(g.tsecr, 424242);
    CHECK_EQ(g.tsval, 21); /* 1 + 20 ms since the host started at 5 ms */
    lab_free(&L);
}

/* Eifel: a connection with timestamps sends 3000 bytes at 100 ms (TSval 101, three
 * segments), its 1 s RTO runs out at 1.1 s and it resends seq 1001 with TSval 1101; the
 * first ACK of new data then echoes `tsecr`. *spurious: the tcp.rto.spurious events after
 * that ACK. */
static void eifel_run(struct tcp_lab *L, int eifel, uint32_t tsecr, uint32_t *spurious)
{
    struct host_config cfg;
    struct tseg g;
    struct tseg_spec s;
    int sock;
    fill_data();
    tt_config(&cfg);
    cfg.tcp_timestamps = 1;
    cfg.tcp_eifel = (uint8_t)eifel;
    *spurious = 0;
    CHECK(lab_init(L, &cfg, 1500, 0) == 0);
    sock = connect_with_ts(L, &s, &g);
    CHECK(sock >= 0);
    lab_skip(L); /* our ACK of the SYN-ACK */
    lab_run(L, MS(100));
    CHECK_EQ(tcpsend(&L->h, sock, data, 3000), 3000);
    CHECK_EQ(lab_pending(L), 3);
    lab_skip(L);
    lab_skip(L);
    lab_skip(L);
    lab_run(L, MS(1100));
    CHECK(lab_next(L, &g));
    CHECK_EQ(g.t, MS(1100));
    CHECK_EQ(g.seq, 1001);
    CHECK_EQ(g.tsval, 1101);
    CHECK_EQ(lab_pending(L), 0);
    s.flags = TCP_ACK;
    s.seq = 5001;
    s.ack = 2449;
    s.mss = 0;
    s.tsval = 7800;
    s.tsecr = tsecr;
    lab_in(L, MS(1150), &s);
    *spurious = lab_count(L, TRACE_RTO_SPURIOUS);
}

static void test_eifel_undoes_a_spurious_timeout(void)
{
    struct tcp_lab L;
    const struct trace_event *e;
    uint32_t spurious;
    /* The ACK echoes 101, the original's TSval: the original arrived, the timeout was
     * spurious (RFC 3522). No going back: the rest was sent already, nothing goes. */
    eifel_run(&L, 1, 101, &spurious);
    CHECK_EQ(spurious, 1);
    e = lab_event(&L, TRACE_RTO_SPURIOUS, 0);
    CHECK_EQ(e->a, 101);
    CHECK_EQ(e->b, 1101);
    /* RFC 4015 3.2: cwnd = FlightSize (4001 - 2449) + min(acked 1448, IW 4344); ssthresh
     * as before the timeout (pipe_prev = max(FlightSize 3000, ssthresh): still "infinite") */
    CHECK_EQ(e->c, 1552 + 1448);
    CHECK_EQ(e->d, 0xFFFFFFFFu);
    CHECK_EQ(lab_pending(&L), 0);
    lab_free(&L);
}

static void test_eifel_keeps_a_genuine_timeout(void)
{
    struct tcp_lab L;
    struct tseg g;
    uint32_t spurious;
    /* The ACK echoes 1101, the retransmission's: the original was lost; go back N. */
    eifel_run(&L, 1, 1101, &spurious);
    CHECK_EQ(spurious, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, 2449);
    lab_free(&L);
    /* Without tcp_eifel the echo of the original changes nothing: go back N */
    eifel_run(&L, 0, 101, &spurious);
    CHECK_EQ(spurious, 0);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, 2449);
    lab_free(&L);
}

UNIT_MAIN(UNIT(test_mss_absent_means_536), UNIT(test_mss_smaller_side_wins),
          UNIT(test_unknown_options_are_skipped), UNIT(test_malformed_options_drop_the_segment),
          UNIT(test_timestamps_negotiated_and_sampled),
          UNIT(test_timestamps_paws_drops_old_segment), UNIT(test_timestamps_not_offered_by_peer),
          UNIT(test_eifel_undoes_a_spurious_timeout), UNIT(test_eifel_keeps_a_genuine_timeout))
