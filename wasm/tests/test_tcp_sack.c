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
    s.wnd = 16384;
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

UNIT_MAIN(UNIT(test_sack_permitted_offered_when_enabled),
          UNIT(test_syn_ack_offers_sack_only_if_the_syn_did))
