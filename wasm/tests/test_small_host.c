/* What the Arduino firmware (firmware/) asks of the stack, checked natively:
 *
 *   - cfg.tcp_buf_pairs: fewer send/receive ring pairs than connection blocks, taken by a
 *     block when it is created and given back when it listens or is freed;
 *   - a received datagram that lives in the host's own transmit buffer (the firmware
 *     decodes SLIP straight into h->txbuf to spare 576 bytes of its 2 KB): every answer
 *     must be the one the host gives when the datagram has a buffer of its own.
 */
#include <string.h>

#include "app_world.h"
#include "tcp_seg.h"
#include "test_host.h"
#include "unit.h"

#define RUN_LIMIT STACK_MS(120000)

/* ---- tcp_buf_pairs ---- */

static void test_pairs_memory(void)
{
    struct host_config cfg;
    size_t own, pooled;
    host_config_default(&cfg);
    cfg.tcp_max_pcbs = 3;
    cfg.tcp_snd_buf = 100;
    cfg.tcp_rcv_buf = 100;
    own = host_mem_required(&cfg);
    cfg.tcp_buf_pairs = 1;
    pooled = host_mem_required(&cfg);
    /* Two pairs fewer; a pair is two rings of 100 bytes, each rounded up to 8: 208. */
    CHECK_EQ(own - pooled, 2u * 208u);
    cfg.tcp_buf_pairs = 3; /* as many as blocks: the same as 0 */
    CHECK_EQ(host_mem_required(&cfg), own);
}

static void test_pairs_listener_gives_its_pair_back(void)
{
    static struct th t;
    struct host_config cfg;
    struct stack_sockaddr local = { 0, 7 };
    int l, a, b;
    host_config_default(&cfg);
    cfg.tcp_max_pcbs = 3;
    cfg.tcp_buf_pairs = 1;
    CHECK_EQ(th_start(&t, &cfg, IP4(10, 0, 0, 2), 1500), 0);
    l = tcpsocket(&t.h); /* takes the only pair ... */
    CHECK(l >= 0);
    CHECK_EQ(tcpbind(&t.h, l, &local), ERR_OK);
    CHECK_EQ(tcplisten(&t.h, l, 1), ERR_OK); /* ... and gives it back */
    a = tcpsocket(&t.h);
    CHECK(a >= 0);
    b = tcpsocket(&t.h); /* a block is free, but no pair */
    CHECK_EQ(b, ERR_MEM);
    CHECK_EQ(tcpclose(&t.h, a), ERR_OK);
    b = tcpsocket(&t.h);
    CHECK(b >= 0);
    th_free(&t);
}

static int clients_done(void *ctx)
{
    struct app_world *w = ctx;
    int i;
    for (i = 0; i < w->n_clients; i++)
        if (!w->clients[i].report.done)
            return 0;
    return w->echo->server.completed + w->echo->server.failed == w->n_clients;
}

/* The firmware's shape: echo and discard listening, one pair for one connection at a
 * time. Two echo clients at once: the second SYN finds no pair and is dropped, the
 * client's SYN retransmission gets in once the first connection is over. */
static void test_pairs_two_listeners_one_connection(void)
{
    static struct app_world w;
    struct host_config ca, cb;
    struct app_tcp_echo echo;
    struct app_tcp_discard discard;
    struct app_echo_client clients[2];
    int i;

    host_config_default(&ca);
    host_config_default(&cb);
    cb.tcp_max_pcbs = 3;
    cb.tcp_buf_pairs = 1;
    cb.tcp_snd_buf = 128;
    cb.tcp_rcv_buf = 64;
    CHECK_EQ(app_world_init(&w, &ca, &cb, 57600u, 1000u), 0);
    CHECK_EQ(app_tcp_echo_start(&echo, app_world_b(&w), 0, 1, 1), ERR_OK);
    CHECK_EQ(app_tcp_discard_start(&discard, app_world_b(&w), 0, 1, 1), ERR_OK);
    for (i = 0; i < 2; i++) {
        struct app_echo_client_params p;
        memset(&p, 0, sizeof p);
        p.server.addr = APP_WORLD_ADDR_B;
        p.server.port = APP_TCP_ECHO_PORT;
        p.len = 2000u + 500u * (uint32_t)i;
        CHECK_EQ(app_echo_client_start(&clients[i], app_world_a(&w), &p), ERR_OK);
    }
    w.echo = &echo;
    w.discard = &discard;
    w.clients = clients;
    w.n_clients = 2;
    CHECK_EQ(fake_net_run(&w.net, RUN_LIMIT, clients_done), 1);
    for (i = 0; i < 2; i++) {
        CHECK_EQ(clients[i].report.error, 0);
        CHECK_EQ(clients[i].report.bytes_received, 2000u + 500u * (uint32_t)i);
        CHECK_EQ(clients[i].report.mismatch_at, APP_ECHO_NO_MISMATCH);
    }
    CHECK(app_world_b(&w)->stats.drops[DROP_TCP_NO_PCB_MEM] >= 1);
    CHECK_EQ(echo.server.completed, 2);
    app_world_free(&w);
}

/* ---- a datagram received into the transmit buffer ---- */

static struct th plain, shared;
static struct app_tcp_echo plain_echo, shared_echo;

/* The same datagram to both hosts: `plain` gets a copy, `shared` gets it in its own
 * transmit buffer, as the firmware does. Then the echo servers run. */
static void both(const uint8_t *d, uint16_t len, stack_time_t now)
{
    stack_time_t unused;
    th_input(&plain, d, len, now);
    memcpy(shared.h.txbuf, d, len);
    host_input(&shared.h, 0, shared.h.txbuf, len, now);
    app_tcp_echo_poll(&plain_echo, &plain.h, &unused);
    app_tcp_echo_poll(&shared_echo, &shared.h, &unused);
}

static void same_answers(void)
{
    uint32_t i;
    CHECK_EQ(shared.n_frames, plain.n_frames);
    for (i = 0; i < plain.n_frames && i < TH_MAX_FRAMES; i++) {
        CHECK_EQ(shared.len[i], plain.len[i]);
        CHECK_MEM(shared.frame[i], plain.frame[i], plain.len[i]);
    }
}

static uint16_t echo_request(uint8_t *d, uint8_t ihl_words, uint16_t data_len)
{
    uint16_t hl = (uint16_t)(ihl_words * 4u), i, total = (uint16_t)(hl + 8u + data_len);
    uint8_t *m = d + hl;
    th_ip(d, total, 77, 0, 64, IP_PROTO_ICMP, IP4(10, 0, 0, 1), IP4(10, 0, 0, 2));
    if (ihl_words > 5) {
        /* Options: NOPs (RFC 791 type 1); header checksum over the longer header. */
        d[IP_OFF_VHL] = (uint8_t)(0x40u | ihl_words);
        memset(d + IP_HLEN, 1, (size_t)(hl - IP_HLEN));
        wr16(d + IP_OFF_CHKSUM, 0);
        wr16(d + IP_OFF_CHKSUM, inet_chksum(d, hl));
    }
    memset(m, 0, 8);
    m[ICMP_OFF_TYPE] = ICMP_ECHO_REQUEST;
    wr16(m + ICMP_OFF_ID, 0x1234);
    wr16(m + ICMP_OFF_SEQ, 1);
    for (i = 0; i < data_len; i++)
        m[8 + i] = (uint8_t)(i * 7u + 3u);
    wr16(m + ICMP_OFF_CHKSUM, inet_chksum(m, (uint16_t)(8u + data_len)));
    return total;
}

static uint16_t segment(uint8_t *d, uint16_t dport, uint32_t seq, uint32_t ack, uint8_t flags,
                        const uint8_t *data, uint16_t len)
{
    struct tseg_spec s;
    memset(&s, 0, sizeof s);
    s.src = IP4(10, 0, 0, 1);
    s.dst = IP4(10, 0, 0, 2);
    s.sport = 40000;
    s.dport = dport;
    s.seq = seq;
    s.ack = ack;
    s.flags = flags;
    s.wnd = 8192;
    s.data = data;
    s.len = len;
    s.mss = (flags & TCP_SYN) ? 536 : 0;
    return tseg_build(d, &s);
}

static void test_input_in_txbuf_same_answers(void)
{
    struct host_config cfg;
    uint8_t d[700], text[200];
    struct tseg synack, echoed;
    uint16_t len, i;
    host_config_default(&cfg);
    cfg.ip_max_datagram = 576; /* the firmware's buffer */
    CHECK_EQ(th_start(&plain, &cfg, IP4(10, 0, 0, 2), 576), 0);
    CHECK_EQ(th_start(&shared, &cfg, IP4(10, 0, 0, 2), 576), 0);
    CHECK_EQ(app_tcp_echo_start(&plain_echo, &plain.h, 0, 1, 1), ERR_OK);
    CHECK_EQ(app_tcp_echo_start(&shared_echo, &shared.h, 0, 1, 1), ERR_OK);

    /* Pings, the largest the buffer holds among them: the reply's data must be the
     * request's, also when IP options move the data 20 bytes down. */
    len = echo_request(d, 5, 548);
    both(d, len, 1000);
    CHECK_EQ(shared.n_frames, 1);
    CHECK_EQ(shared.len[0], 576);
    CHECK_EQ(shared.frame[0][20 + ICMP_OFF_TYPE], ICMP_ECHO_REPLY);
    CHECK_MEM(shared.frame[0] + 28, d + 28, 548);
    len = echo_request(d, 10, 100);
    both(d, len, 2000);
    CHECK_EQ(shared.n_frames, 2);
    CHECK_EQ(shared.len[1], 20 + 8 + 100);
    CHECK_MEM(shared.frame[1] + 28, d + 40 + 8, 100);

    /* A SYN to a closed port: RST, ACK = SEQ + 1 (RFC 9293 3.10.7.1). */
    len = segment(d, 8, 1000, 0, TCP_SYN, NULL, 0);
    both(d, len, 3000);
    /* The echo service: handshake, 200 bytes, they come back. */
    len = segment(d, 7, 5000, 0, TCP_SYN, NULL, 0);
    both(d, len, 4000);
    CHECK_EQ(tseg_parse(shared.frame[3], shared.len[3], &synack), 0);
    CHECK_EQ(synack.flags, TCP_SYN | TCP_ACK);
    len = segment(d, 7, 5001, synack.seq + 1, TCP_ACK, NULL, 0);
    both(d, len, 5000);
    for (i = 0; i < sizeof text; i++)
        text[i] = (uint8_t)(255u - i);
    len = segment(d, 7, 5001, synack.seq + 1, TCP_ACK | TCP_PSH, text, sizeof text);
    both(d, len, 6000);
    same_answers();
    CHECK_EQ(shared.n_frames, 5);
    CHECK_EQ(tseg_parse(shared.frame[4], shared.len[4], &echoed), 0);
    CHECK_EQ(echoed.len, sizeof text);
    CHECK_EQ(echoed.ack, 5001u + sizeof text);
    CHECK_MEM(echoed.data, text, sizeof text);
    CHECK(echoed.tcp_ok && echoed.ip_ok);
    th_free(&plain);
    th_free(&shared);
}

UNIT_MAIN(UNIT(test_pairs_memory), UNIT(test_pairs_listener_gives_its_pair_back),
          UNIT(test_pairs_two_listeners_one_connection), UNIT(test_input_in_txbuf_same_answers))
