/* Echo, discard and request/response applications (wasm/stack/apps) on two hosts over
 * the fake network (app_world.h): host A 10.0.0.1 runs the clients, host B
 * 10.0.0.2 the servers. Expected values are worked out by hand in the comments. The bulk
 * transfer has its own file, test_apps_bulk.c.
 */
#include <string.h>

#include "app_common.h"
#include "app_world.h"
#include "unit.h"

#define RUN_LIMIT STACK_MS(120000) /* virtual time; every test ends long before */

static int clients_done(void *ctx)
{
    struct app_world *w = ctx;
    int i;
    for (i = 0; i < w->n_clients; i++) {
        if (!w->clients[i].report.done)
            return 0;
    }
    return 1;
}

/* Clients done and the server has seen every connection close. */
static int echo_all_closed(void *ctx)
{
    struct app_world *w = ctx;
    return clients_done(ctx) && w->echo->server.completed + w->echo->server.failed == w->n_clients;
}

static int discard_closed(void *ctx)
{
    struct app_world *w = ctx;
    return clients_done(ctx) && w->discard->server.completed + w->discard->server.failed == 1;
}

static int rq_done(void *ctx)
{
    struct app_world *w = ctx;
    return w->rq_client->report.done && w->rq_server->report.done;
}

static struct stack_sockaddr server_addr(uint16_t port)
{
    struct stack_sockaddr s;
    s.addr = APP_WORLD_ADDR_B;
    s.port = port;
    return s;
}

/* ---- helpers, no network ---- */

static void test_rate_kbps(void)
{
    /* 1 000 000 B in 1.068184 s: 8e9 / 1068184 = 7489.36 -> 7489 kbit/s = 7.489 Mbit/s
     * (the seed's own "7.546" does not follow from its numbers). */
    CHECK_EQ(app_rate_kbps(1000000u, 1068184u), 7489);
    /* The seed's sender: 1 000 000 B in 245 us: 8e9 / 245 = 32653061.2. */
    CHECK_EQ(app_rate_kbps(1000000u, 245u), 32653061u);
    /* The seed's cwnd / RTT, 20000 B per 20 ms: 8000 kbit/s, not "1 Mbit/s". */
    CHECK_EQ(app_rate_kbps(20000u, 20000u), 8000);
    CHECK_EQ(app_rate_kbps(5u, 0u), 0);
    CHECK_EQ(app_rate_kbps(0xFFFFFFFFu, 1u), 0xFFFFFFFFu); /* 3.4e13 saturates */
}

static void test_patterns(void)
{
    uint32_t i;
    CHECK_EQ(app_echo_client_pattern(250), 250);
    CHECK_EQ(app_echo_client_pattern(251), 0);
    CHECK_EQ(app_echo_client_pattern(1000), 1000 - 3 * 251);
    CHECK_EQ(app_bulk_pattern(0), 'a');
    CHECK_EQ(app_bulk_pattern(27), 'b');
    /* Lower case only, so "DONE" never appears inside the data. */
    for (i = 0; i < 1000; i++)
        CHECK(app_bulk_pattern(i) >= 'a' && app_bulk_pattern(i) <= 'z');
    /* Request and response of one round differ, and so do two rounds. */
    CHECK(app_reqresp_pattern(0, 5, 0) != app_reqresp_pattern(0, 5, 1));
    CHECK(app_reqresp_pattern(0, 5, 0) != app_reqresp_pattern(1, 5, 0));
}

/* ---- echo ---- */

/* 10000 bytes of caller data through the echo server come back byte for byte. */
static void test_echo_10000_bytes_exact(void)
{
    static struct app_world w;
    static uint8_t data[10000], back[10000];
    struct host_config cfg;
    struct app_tcp_echo echo;
    struct app_echo_client client;
    struct app_echo_client_params p;
    uint32_t i, x = 12345;

    for (i = 0; i < sizeof data; i++) {
        x = x * 1103515245u + 12345u; /* any bytes, all 256 values */
        data[i] = (uint8_t)(x >> 16);
    }
    memset(back, 0, sizeof back);
    host_config_default(&cfg);
    CHECK_EQ(app_world_init(&w, &cfg, &cfg, 10000000u, 10000u), 0);
    CHECK_EQ(app_tcp_echo_start(&echo, app_world_b(&w), 0, 4, 4), ERR_OK);
    memset(&p, 0, sizeof p);
    p.server = server_addr(0); /* port 0: 7 */
    p.len = sizeof data;
    p.data = data;
    p.rx_copy = back;
    CHECK_EQ(app_echo_client_start(&client, app_world_a(&w), &p), ERR_OK);
    w.echo = &echo;
    w.clients = &client;
    w.n_clients = 1;

    CHECK_EQ(fake_net_run(&w.net, RUN_LIMIT, echo_all_closed), 1);
    CHECK_EQ(client.report.error, 0);
    CHECK_EQ(client.report.bytes_sent, 10000);
    CHECK_EQ(client.report.bytes_received, 10000);
    CHECK_EQ(client.report.mismatches, 0);
    CHECK_EQ(client.report.mismatch_at, APP_ECHO_NO_MISMATCH);
    CHECK_MEM(back, data, sizeof data);
    /* Handshake (one RTT) plus at least one more RTT for the data: 2 x 2 x 10 ms. */
    CHECK(client.report.elapsed_us >= 40000u);
    CHECK_EQ(echo.server.accepted, 1);
    CHECK_EQ(echo.server.completed, 1);
    CHECK_EQ(echo.server.failed, 0);
    CHECK_EQ(echo.server.active, 0);
    CHECK_EQ(echo.bytes_echoed, 10000);
    app_world_free(&w);
}

/* 1 MB through the echo server with 10 % random loss each way, both directions carrying
 * data at once, for six seeds: every byte comes back in order. Before pure ACKs carried
 * snd_max after a go-back-N, four of these six ended in ERR_TIMEOUT (an ACK war). */
static void test_echo_1mb_with_loss_both_ways(void)
{
    static struct app_world w;
    struct host_config cfg;
    struct app_tcp_echo echo;
    struct app_echo_client client;
    struct app_echo_client_params p;
    uint32_t seed;

    host_config_default(&cfg);
    cfg.tcp_snd_buf = 16384;
    cfg.tcp_rcv_buf = 16384;
    cfg.tcp_rto_min_ms = 200;
    for (seed = 1; seed <= 6; seed++) {
        cfg.seed = seed;
        CHECK_EQ(app_world_init(&w, &cfg, &cfg, 100000000u, 50u), 0);
        w.net.rng = seed;
        w.net.links[0].loss_ppm = 100000;
        CHECK_EQ(app_tcp_echo_start(&echo, app_world_b(&w), 0, 4, 4), ERR_OK);
        memset(&p, 0, sizeof p);
        p.server = server_addr(0);
        p.len = 1048576;
        CHECK_EQ(app_echo_client_start(&client, app_world_a(&w), &p), ERR_OK);
        w.echo = &echo;
        w.clients = &client;
        w.n_clients = 1;
        CHECK_EQ(fake_net_run(&w.net, RUN_LIMIT, echo_all_closed), 1);
        CHECK_EQ(client.report.error, 0);
        CHECK_EQ(client.report.bytes_received, 1048576);
        CHECK_EQ(client.report.mismatch_at, APP_ECHO_NO_MISMATCH);
        CHECK(w.net.lost > 0); /* the loss really happened */
        app_world_free(&w);
    }
}

/* Five clients at once, each with its own length, against a server taking `max_conns` at
 * a time: all complete, each gets exactly its own bytes back. */
static void run_parallel_echo(uint8_t max_conns)
{
    static struct app_world w;
    struct host_config cfg;
    struct app_tcp_echo echo;
    struct app_echo_client clients[5];
    uint32_t total = 0;
    int i;

    host_config_default(&cfg);
    CHECK_EQ(app_world_init(&w, &cfg, &cfg, 10000000u, 5000u), 0);
    CHECK_EQ(app_tcp_echo_start(&echo, app_world_b(&w), APP_TCP_ECHO_PORT, max_conns, max_conns),
             ERR_OK);
    for (i = 0; i < 5; i++) {
        struct app_echo_client_params p;
        memset(&p, 0, sizeof p);
        p.server = server_addr(APP_TCP_ECHO_PORT);
        p.len = 3000u + 1111u * (uint32_t)i; /* 3000, 4111, 5222, 6333, 7444 */
        total += p.len;
        CHECK_EQ(app_echo_client_start(&clients[i], app_world_a(&w), &p), ERR_OK);
    }
    CHECK_EQ(total, 26110);
    w.echo = &echo;
    w.clients = clients;
    w.n_clients = 5;

    CHECK_EQ(fake_net_run(&w.net, RUN_LIMIT, echo_all_closed), 1);
    for (i = 0; i < 5; i++) {
        CHECK_EQ(clients[i].report.error, 0);
        CHECK_EQ(clients[i].report.bytes_received, 3000u + 1111u * (uint32_t)i);
        CHECK_EQ(clients[i].report.mismatch_at, APP_ECHO_NO_MISMATCH);
    }
    CHECK_EQ(echo.server.accepted, 5);
    CHECK_EQ(echo.server.completed, 5);
    CHECK_EQ(echo.server.failed, 0);
    CHECK_EQ(echo.bytes_echoed, 26110);
    app_world_free(&w);
}

static void test_echo_five_parallel(void)
{
    run_parallel_echo(5);
}

/* Only two served at once: the other three wait in the listener's backlog (or retry their
 * SYN) and are served as slots free up. */
static void test_echo_five_parallel_two_slots(void)
{
    run_parallel_echo(2);
}

/* An echo client whose server answers with other bytes: a request/response server of one
 * round of 3000 bytes each way. The client's pattern is the round-0 request pattern
 * (offset mod 251), so the server finds no fault in it; the response is its complement,
 * so every one of the 3000 bytes that come back differs, and each is counted. */
static void test_echo_client_counts_every_wrong_byte(void)
{
    static struct app_world w;
    static const struct app_reqresp_round rounds[1] = { { 3000, 3000, 0, 0 } };
    struct host_config cfg;
    struct app_reqresp_server server;
    struct app_echo_client client;
    struct app_echo_client_params p;

    host_config_default(&cfg);
    CHECK_EQ(app_world_init(&w, &cfg, &cfg, 10000000u, 10000u), 0);
    CHECK_EQ(app_reqresp_server_start(&server, app_world_b(&w), 0, rounds, 1), ERR_OK);
    memset(&p, 0, sizeof p);
    p.server = server_addr(APP_REQRESP_PORT);
    p.len = 3000;
    CHECK_EQ(app_echo_client_start(&client, app_world_a(&w), &p), ERR_OK);
    w.rq_server = &server;
    w.clients = &client;
    w.n_clients = 1;

    CHECK_EQ(fake_net_run(&w.net, RUN_LIMIT, clients_done), 1);
    CHECK_EQ(server.report.req_bytes, 3000);
    CHECK_EQ(server.report.req_mismatches, 0);
    CHECK_EQ(client.report.error, 0);
    CHECK_EQ(client.report.bytes_received, 3000);
    CHECK_EQ(client.report.mismatches, 3000);
    CHECK_EQ(client.report.mismatch_at, 0);
    CHECK_EQ(client.report.mismatch_expected, 0);
    CHECK_EQ(client.report.mismatch_got, 0xFF);
    app_world_free(&w);
}

/* ---- one client, several connections ---- */

/* 10007 bytes of caller data over 3 connections: parts of 3336, 3336 and 3335 bytes at
 * offsets 0, 3336 and 6672, each echoed on its own connection and stored back at its own
 * offset; one report for the three. */
static void test_echo_client_connections_share_bytes(void)
{
    static struct app_world w;
    static uint8_t data[10007], back[10007];
    struct host_config cfg;
    struct app_tcp_echo echo;
    struct app_echo_client client;
    struct app_echo_client_params p;
    uint32_t i, x = 777;

    for (i = 0; i < sizeof data; i++) {
        x = x * 1103515245u + 12345u;
        data[i] = (uint8_t)(x >> 16);
    }
    memset(back, 0, sizeof back);
    host_config_default(&cfg);
    CHECK_EQ(app_world_init(&w, &cfg, &cfg, 10000000u, 5000u), 0);
    CHECK_EQ(app_tcp_echo_start(&echo, app_world_b(&w), 0, 4, 4), ERR_OK);
    memset(&p, 0, sizeof p);
    p.server = server_addr(0);
    p.len = sizeof data;
    p.data = data;
    p.rx_copy = back;
    p.connections = 3;
    CHECK_EQ(app_echo_client_start(&client, app_world_a(&w), &p), ERR_OK);
    CHECK_EQ(client.n_conns, 3);
    CHECK_EQ(client.conns[0].first, 0);
    CHECK_EQ(client.conns[0].len, 3336);
    CHECK_EQ(client.conns[1].first, 3336);
    CHECK_EQ(client.conns[1].len, 3336);
    CHECK_EQ(client.conns[2].first, 6672);
    CHECK_EQ(client.conns[2].len, 3335);
    w.echo = &echo;
    w.clients = &client;
    w.n_clients = 1;

    CHECK_EQ(fake_net_run(&w.net, RUN_LIMIT, clients_done), 1);
    CHECK_EQ(client.report.error, 0);
    CHECK_EQ(client.report.bytes_sent, 10007);
    CHECK_EQ(client.report.bytes_received, 10007);
    CHECK_EQ(client.report.mismatch_at, APP_ECHO_NO_MISMATCH);
    CHECK_MEM(back, data, sizeof data);
    CHECK_EQ(client.report.elapsed_us, client.report.finished_at - client.report.started_at);
    CHECK_EQ(echo.server.accepted, 3);
    CHECK_EQ(echo.bytes_echoed, 10007);
    app_world_free(&w);
}

/* One client of 4 x 3000 bytes over 4 connections sends what 4 clients of 3000 bytes
 * send, in the same order: the same frames, the same instants, the last byte back at the
 * same time. The link is slow enough (1 Mbit/s) for the connections to queue behind each
 * other. */
static void test_echo_client_connections_as_separate_clients(void)
{
    static struct app_world w;
    struct host_config cfg;
    struct app_tcp_echo echo;
    struct app_echo_client group, single[4];
    struct app_echo_client_params p;
    uint32_t delivered, last = 0;
    stack_time_t end;
    int i;

    host_config_default(&cfg);
    memset(&p, 0, sizeof p);
    p.server = server_addr(APP_TCP_ECHO_PORT);

    CHECK_EQ(app_world_init(&w, &cfg, &cfg, 1000000u, 2000u), 0);
    CHECK_EQ(app_tcp_echo_start(&echo, app_world_b(&w), 0, 4, 4), ERR_OK);
    p.len = 12000;
    p.connections = 4;
    CHECK_EQ(app_echo_client_start(&group, app_world_a(&w), &p), ERR_OK);
    w.echo = &echo;
    w.clients = &group;
    w.n_clients = 1;
    CHECK_EQ(fake_net_run(&w.net, RUN_LIMIT, clients_done), 1);
    CHECK_EQ(group.report.error, 0);
    CHECK_EQ(group.report.bytes_received, 12000);
    CHECK_EQ(group.report.mismatch_at, APP_ECHO_NO_MISMATCH);
    delivered = w.net.delivered;
    end = w.net.now;
    app_world_free(&w);

    CHECK_EQ(app_world_init(&w, &cfg, &cfg, 1000000u, 2000u), 0);
    CHECK_EQ(app_tcp_echo_start(&echo, app_world_b(&w), 0, 4, 4), ERR_OK);
    p.len = 3000;
    p.connections = 1;
    for (i = 0; i < 4; i++)
        CHECK_EQ(app_echo_client_start(&single[i], app_world_a(&w), &p), ERR_OK);
    w.echo = &echo;
    w.clients = single;
    w.n_clients = 4;
    CHECK_EQ(fake_net_run(&w.net, RUN_LIMIT, clients_done), 1);
    for (i = 0; i < 4; i++) {
        CHECK_EQ(single[i].report.error, 0);
        if (single[i].report.finished_at > last)
            last = single[i].report.finished_at;
    }
    CHECK_EQ(w.net.delivered, delivered);
    CHECK_EQ(w.net.now, end);
    CHECK_EQ(group.report.finished_at, last);
    CHECK_EQ(group.report.elapsed_us, last - single[0].report.started_at);
    app_world_free(&w);
}

/* Drops the second SYN (frame 1 from A): the second connection, with no SYN retries,
 * gives up; the first still carries its part. */
static int drop_second_syn(void *ctx, int link, int dir, uint32_t index, const uint8_t *dgram,
                           uint16_t len)
{
    (void)ctx;
    (void)link;
    (void)dgram;
    (void)len;
    return dir == 0 && index == 1;
}

/* A connection that fails does not stop the others; the client reports the failure once
 * every connection has ended, with the bytes that did come back. */
static void test_echo_client_connections_one_fails(void)
{
    static struct app_world w;
    struct host_config cfg;
    struct app_tcp_echo echo;
    struct app_echo_client client;
    struct app_echo_client_params p;

    host_config_default(&cfg);
    cfg.tcp_syn_retries = 0;
    CHECK_EQ(app_world_init(&w, &cfg, &cfg, 10000000u, 5000u), 0);
    w.net.drop = drop_second_syn;
    CHECK_EQ(app_tcp_echo_start(&echo, app_world_b(&w), 0, 4, 4), ERR_OK);
    memset(&p, 0, sizeof p);
    p.server = server_addr(0);
    p.len = 2000;
    p.connections = 2;
    CHECK_EQ(app_echo_client_start(&client, app_world_a(&w), &p), ERR_OK);
    w.echo = &echo;
    w.clients = &client;
    w.n_clients = 1;
    CHECK_EQ(fake_net_run(&w.net, RUN_LIMIT, clients_done), 1);
    CHECK_EQ(client.report.error, ERR_TIMEOUT);
    CHECK_EQ(client.report.bytes_received, 1000); /* the first connection's part */
    CHECK_EQ(client.report.mismatch_at, APP_ECHO_NO_MISMATCH);
    CHECK_EQ(echo.server.accepted, 1);
    CHECK(w.net.now >= STACK_MS(1000)); /* the second waited out its SYN's RTO */
    app_world_free(&w);
}

/* Refused at the start, with no connection left open: more connections than bytes or
 * than APP_ECHO_CLIENT_MAX_CONNS (ERR_ARG), more than the host has free TCP blocks
 * (ERR_MEM, the blocks opened before are given back). 0 means one. */
static void test_echo_client_connections_refused(void)
{
    static struct app_world w;
    struct host_config cfg;
    struct app_echo_client client;
    struct app_echo_client_params p;

    host_config_default(&cfg);
    cfg.tcp_max_pcbs = 8;
    CHECK_EQ(app_world_init(&w, &cfg, &cfg, 0, 10000u), 0);
    memset(&p, 0, sizeof p);
    p.server = server_addr(APP_TCP_ECHO_PORT);
    p.len = 4;
    p.connections = 5;
    CHECK_EQ(app_echo_client_start(&client, app_world_a(&w), &p), ERR_ARG);
    CHECK_EQ(client.report.done, 1);
    CHECK_EQ(client.report.error, ERR_ARG);
    p.len = 1000;
    p.connections = APP_ECHO_CLIENT_MAX_CONNS + 1;
    CHECK_EQ(app_echo_client_start(&client, app_world_a(&w), &p), ERR_ARG);
    CHECK_EQ(client.report.done, 1);
    p.connections = 9;
    CHECK_EQ(app_echo_client_start(&client, app_world_a(&w), &p), ERR_MEM);
    CHECK_EQ(client.report.done, 1);
    CHECK_EQ(client.report.error, ERR_MEM);
    /* all 8 blocks are free again */
    p.connections = 8;
    CHECK_EQ(app_echo_client_start(&client, app_world_a(&w), &p), ERR_OK);
    CHECK_EQ(client.report.done, 0);
    CHECK_EQ(client.n_conns, 8);
    app_world_free(&w);
    CHECK_EQ(app_world_init(&w, &cfg, &cfg, 0, 10000u), 0);
    p.connections = 0;
    CHECK_EQ(app_echo_client_start(&client, app_world_a(&w), &p), ERR_OK);
    CHECK_EQ(client.n_conns, 1);
    CHECK_EQ(client.conns[0].len, 1000);
    app_world_free(&w);
}

/* ---- discard ---- */

static void test_discard_counts_exactly(void)
{
    static struct app_world w;
    struct host_config cfg;
    struct app_tcp_discard discard;
    struct app_echo_client client;
    struct app_echo_client_params p;

    host_config_default(&cfg);
    CHECK_EQ(app_world_init(&w, &cfg, &cfg, 10000000u, 10000u), 0);
    CHECK_EQ(app_tcp_discard_start(&discard, app_world_b(&w), 0, 2, 2), ERR_OK);
    memset(&p, 0, sizeof p);
    p.server = server_addr(APP_TCP_DISCARD_PORT);
    p.len = 77777; /* not a multiple of any segment or chunk size */
    p.send_only = 1;
    CHECK_EQ(app_echo_client_start(&client, app_world_a(&w), &p), ERR_OK);
    w.discard = &discard;
    w.clients = &client;
    w.n_clients = 1;

    CHECK_EQ(fake_net_run(&w.net, RUN_LIMIT, discard_closed), 1);
    CHECK_EQ(client.report.error, 0);
    CHECK_EQ(client.report.bytes_sent, 77777);
    CHECK_EQ(client.report.bytes_received, 0);
    CHECK_EQ(discard.report.bytes, 77777);
    CHECK_EQ(discard.server.last_conn_bytes, 77777);
    CHECK_EQ(discard.server.accepted, 1);
    CHECK_EQ(discard.server.completed, 1);
    CHECK_EQ(discard.server.failed, 0);
    /* SYN and SYN-ACK are 44 B (MSS option): 352 bits at 10 Mbit/s, 35 us on the fake
     * link's integer clock, + 10 ms each. At 20070 us the client ACKs (40 B, 32 us) and
     * writes its first 1460 B (1500 B datagram, 1200 us) behind that ACK:
     * 20070 + 32 + 1200 + 10000 = 31302 us. */
    CHECK_EQ(discard.report.first_byte_at, 31302);
    app_world_free(&w);
}

/* A port nobody listens on answers the SYN with a reset (RFC 9293 3.10.7.1), which the
 * client reports as ERR_RST ("connection refused") one round trip after its SYN. */
static void test_echo_client_refused(void)
{
    static struct app_world w;
    struct host_config cfg;
    struct app_echo_client client;
    struct app_echo_client_params p;

    host_config_default(&cfg);
    CHECK_EQ(app_world_init(&w, &cfg, &cfg, 0, 10000u), 0);
    memset(&p, 0, sizeof p);
    p.server = server_addr(APP_TCP_ECHO_PORT);
    p.len = 100;
    CHECK_EQ(app_echo_client_start(&client, app_world_a(&w), &p), ERR_OK);
    w.clients = &client;
    w.n_clients = 1;
    CHECK_EQ(fake_net_run(&w.net, RUN_LIMIT, clients_done), 1);
    CHECK_EQ(client.report.error, ERR_RST);
    CHECK_EQ(client.report.bytes_sent, 0);
    CHECK_EQ(client.report.bytes_received, 0);
    CHECK_EQ(w.net.now, 20000); /* SYN out, RST back: 2 x 10 ms, rate 0 */
    app_world_free(&w);
}

/* ---- request/response ---- */

/* The NFC paper's session (Fig. 5.6, 5.12): 1024 bytes of TCP data each way (1080 B on its
 * NFC link), client port 49153 to server port 7891, the client closes first. On a link
 * with one-way delay d and no serialisation time (rate 0) every step takes d:
 *   0   SYN              d  SYN-ACK          2d ACK + request (established)
 *   3d  response         4d client's FIN      5d server's ACK + FIN
 *   6d  client in TIME_WAIT, its last ACK leaves: session latency 6d = 60 ms. */
static void test_reqresp_paper_session(void)
{
    static struct app_world w;
    static const struct app_reqresp_round rounds[1] = { { 1024, 1024, 0, 0 } };
    struct host_config cfg;
    struct app_reqresp_client client;
    struct app_reqresp_server server;
    struct stack_sockaddr srv = server_addr(0);
    uint32_t round_us[1] = { 0 };
    const uint32_t d = 10000;

    host_config_default(&cfg);
    CHECK_EQ(app_world_init(&w, &cfg, &cfg, 0, d), 0);
    CHECK_EQ(app_reqresp_server_start(&server, app_world_b(&w), 0, rounds, 1), ERR_OK);
    CHECK_EQ(app_reqresp_client_start(&client, app_world_a(&w), &srv, APP_REQRESP_CLIENT_PORT,
                                      rounds, 1, round_us),
             ERR_OK);
    w.rq_client = &client;
    w.rq_server = &server;

    CHECK_EQ(fake_net_run(&w.net, RUN_LIMIT, rq_done), 1);
    CHECK_EQ(client.report.error, 0);
    CHECK_EQ(client.report.rounds_done, 1);
    CHECK_EQ(client.report.req_bytes, 1024);
    CHECK_EQ(client.report.resp_bytes, 1024);
    CHECK_EQ(client.report.resp_mismatches, 0);
    CHECK_EQ(client.report.extra, 0);
    CHECK_EQ(server.report.error, 0);
    CHECK_EQ(server.report.sessions, 1);
    CHECK_EQ(server.report.rounds_done, 1);
    CHECK_EQ(server.report.req_bytes, 1024);
    CHECK_EQ(server.report.resp_bytes, 1024);
    CHECK_EQ(server.report.req_mismatches, 0);
    CHECK_EQ(server.report.extra, 0);

    CHECK_EQ(client.report.syn_at, 0);
    CHECK_EQ(client.report.established_at, 2 * d);
    CHECK_EQ(server.report.accepted_at, 3 * d);
    CHECK_EQ(round_us[0], 2 * d);
    CHECK_EQ(client.report.fin_at, 4 * d);
    CHECK_EQ(server.report.closed_at, 5 * d);
    CHECK_EQ(client.report.end_at, 6 * d);
    CHECK_EQ(client.report.latency_us, 60000);
    app_world_free(&w);
}

/* Three rounds with think times and sizes above the MSS (1460):
 *   round 0: 1024 -> 1024, no think;  round 1: 100 -> 3000 after 250 ms;
 *   round 2: 4000 -> 64 after 40 ms.
 * Nagle is off so a message's last, short segment leaves with the others, and every
 * message fits in the RFC 5681 initial window (3 x 1460 = 4380 B), so each round is one
 * round trip, 2d. With d = 10 ms and rate 0:
 *   established 2d = 20 ms; round 0 ends 40 ms; round 1 sends at 290, ends 310 ms;
 *   round 2 sends at 350, ends 370 ms; FIN at 370, end 370 + 2d = 390 ms. */
static void test_reqresp_rounds_think_times(void)
{
    static struct app_world w;
    static const struct app_reqresp_round rounds[3] = { { 1024, 1024, 0, 0 },
                                                        { 100, 3000, 250, 0 },
                                                        { 4000, 64, 40, 0 } };
    struct host_config cfg;
    struct app_reqresp_client client;
    struct app_reqresp_server server;
    struct stack_sockaddr srv = server_addr(APP_REQRESP_PORT);
    uint32_t round_us[3] = { 0, 0, 0 };

    host_config_default(&cfg);
    cfg.tcp_nagle = 0;
    CHECK_EQ(app_world_init(&w, &cfg, &cfg, 0, 10000u), 0);
    CHECK_EQ(app_reqresp_server_start(&server, app_world_b(&w), 0, rounds, 3), ERR_OK);
    CHECK_EQ(app_reqresp_client_start(&client, app_world_a(&w), &srv, 0, rounds, 3, round_us),
             ERR_OK);
    w.rq_client = &client;
    w.rq_server = &server;

    CHECK_EQ(fake_net_run(&w.net, RUN_LIMIT, rq_done), 1);
    CHECK_EQ(client.report.error, 0);
    CHECK_EQ(client.report.rounds_done, 3);
    CHECK_EQ(client.report.req_bytes, 1024 + 100 + 4000);
    CHECK_EQ(client.report.resp_bytes, 1024 + 3000 + 64);
    CHECK_EQ(client.report.resp_mismatches, 0);
    CHECK_EQ(client.report.extra, 0);
    CHECK_EQ(server.report.rounds_done, 3);
    CHECK_EQ(server.report.req_bytes, 5124);
    CHECK_EQ(server.report.resp_bytes, 4088);
    CHECK_EQ(server.report.req_mismatches, 0);
    CHECK_EQ(server.report.extra, 0);
    CHECK_EQ(round_us[0], 20000);
    CHECK_EQ(round_us[1], 20000);
    CHECK_EQ(round_us[2], 20000);
    CHECK_EQ(client.report.last_resp_at, 370000);
    CHECK_EQ(client.report.fin_at, 370000);
    CHECK_EQ(client.report.latency_us, 390000);
    app_world_free(&w);
}

/* ---- small writes and a reader that pauses: what lessons 8 and 9 stage ---- */

/* The segments each host put on the link, read from the datagrams by the tap: when, how
 * many data bytes, and the window they advertised. The world comes first, so the tap's
 * ctx (the world) is also the log. */
#define SEG_LOG_MAX 64
struct seg_log {
    struct app_world w;
    uint32_t n[2];
    stack_time_t t[2][SEG_LOG_MAX];
    uint16_t len[2][SEG_LOG_MAX];
    uint16_t win[2][SEG_LOG_MAX];
};

static void seg_log_tap(void *ctx, struct fake_net *net, int link, int dir, stack_time_t t,
                        const uint8_t *dgram, uint16_t len, int fate)
{
    struct seg_log *g = ctx;
    uint16_t ihl = (uint16_t)((dgram[0] & 15u) * 4u), doff;
    uint32_t k = g->n[dir];
    (void)net;
    (void)link;
    (void)fate;
    if (k >= SEG_LOG_MAX || len < ihl + 20u)
        return;
    doff = (uint16_t)((dgram[ihl + 12] >> 4) * 4u);
    g->t[dir][k] = t;
    g->len[dir][k] = (uint16_t)(len - ihl - doff);
    g->win[dir][k] = (uint16_t)(dgram[ihl + 14] << 8 | dgram[ihl + 15]);
    g->n[dir] = k + 1;
}

/* The k-th segment from `dir` with data (k from 0), or -1. */
static int seg_log_data(const struct seg_log *g, int dir, uint32_t k)
{
    uint32_t i;
    for (i = 0; i < g->n[dir]; i++)
        if (g->len[dir][i] > 0 && k-- == 0)
            return (int)i;
    return -1;
}

/* A 300-byte request written as 100 + 200 (split), answered with 1000 bytes; d = 10 ms,
 * rate 0, the server's delayed ACK 200 ms (RFC 1122 4.2.3.2). The header leaves at 2d with
 * the handshake's ACK and reaches the server at 3d: a lone short segment, and the server
 * answers only the whole request, so it holds its ACK until 3d + 200 ms. With Nagle (RFC
 * 1122 4.2.3.4) the body waits for that ACK, at 4d + 200 ms = 240 ms, and the response
 * comes back at 6d + 200 ms: round_us = 4d + 200 ms = 240 ms. Without Nagle the body
 * leaves with the header at 2d and the round takes one round trip, 2d = 20 ms. */
static void run_split_request(uint8_t nagle, stack_time_t body_at, uint32_t round_expect)
{
    static struct seg_log g;
    static const struct app_reqresp_round rounds[1] = { { 300, 1000, 0, 100 } };
    struct host_config ca, cb;
    struct app_reqresp_client client;
    struct app_reqresp_server server;
    struct stack_sockaddr srv = server_addr(0);
    uint32_t round_us[1] = { 0 };
    const uint32_t d = 10000;
    int h, b;

    host_config_default(&ca);
    host_config_default(&cb);
    ca.tcp_nagle = nagle;
    cb.tcp_delack = TCP_DELACK_STANDARD;
    cb.tcp_delack_ms = 200;
    CHECK_EQ(app_world_init(&g.w, &ca, &cb, 0, d), 0);
    g.n[0] = g.n[1] = 0;
    g.w.net.tap = seg_log_tap;
    CHECK_EQ(app_reqresp_server_start(&server, app_world_b(&g.w), 0, rounds, 1), ERR_OK);
    CHECK_EQ(app_reqresp_client_start(&client, app_world_a(&g.w), &srv, 0, rounds, 1, round_us),
             ERR_OK);
    g.w.rq_client = &client;
    g.w.rq_server = &server;

    CHECK_EQ(fake_net_run(&g.w.net, RUN_LIMIT, rq_done), 1);
    CHECK_EQ(client.report.error, 0);
    CHECK_EQ(client.report.req_bytes, 300);
    CHECK_EQ(server.report.req_bytes, 300);
    CHECK_EQ(server.report.req_mismatches, 0);
    CHECK_EQ(client.report.resp_bytes, 1000);
    CHECK_EQ(client.report.resp_mismatches, 0);
    h = seg_log_data(&g, 0, 0);
    b = seg_log_data(&g, 0, 1);
    CHECK(h >= 0 && b >= 0);
    if (h < 0 || b < 0)
        return;
    CHECK_EQ(g.len[0][h], 100); /* each write its own segment */
    CHECK_EQ(g.len[0][b], 200);
    CHECK_EQ(g.t[0][h], 2 * d);
    CHECK_EQ(g.t[0][b], body_at);
    CHECK_EQ(round_us[0], round_expect);
    app_world_free(&g.w);
}

static void test_reqresp_split_nagle_waits_for_delayed_ack(void)
{
    run_split_request(1, 4 * 10000u + 200000u, 4 * 10000u + 200000u);
}

static void test_reqresp_split_nodelay(void)
{
    run_split_request(0, 2 * 10000u, 2 * 10000u);
}

/* A discard server whose connection reads 1460 bytes, then nothing for 3.5 s; its receive
 * buffer holds 2920, d = 20 ms, rate 0. The first segment arrives at 3d = 60 ms and is read
 * at once, then the pause starts: the server reads again at 60 + 3500 = 3560 ms, and the
 * window it advertises then is the first non-zero one after the zero window. Meanwhile
 * the client's persist timer (RFC 9293 3.8.6.1) sends one-byte probes: the first one RTO
 * (1 s, RFC 6298 2.4's floor: every RTT sample is 2d) after the zero window arrives, the
 * next one twice that later (RFC 1122 4.2.2.17). No other data leaves while the window is
 * zero; all 8760 bytes arrive in the end. */
static void test_discard_pause_zero_window(void)
{
    static struct seg_log g;
    struct host_config ca, cb;
    struct app_tcp_discard discard;
    struct app_echo_client client;
    struct app_echo_client_params p;
    const uint32_t d = 20000;
    uint32_t i, zero = 0, update = 0, probes = 0, during = 0;
    stack_time_t probe_at[2] = { 0, 0 };

    host_config_default(&ca);
    host_config_default(&cb);
    cb.tcp_rcv_buf = 2920;
    CHECK_EQ(app_world_init(&g.w, &ca, &cb, 0, d), 0);
    g.n[0] = g.n[1] = 0;
    g.w.net.tap = seg_log_tap;
    CHECK_EQ(app_tcp_discard_start(&discard, app_world_b(&g.w), 0, 1, 1), ERR_OK);
    app_tcp_discard_set_pause(&discard, 1460, 3500);
    memset(&p, 0, sizeof p);
    p.server = server_addr(APP_TCP_DISCARD_PORT);
    p.len = 8760;
    p.send_only = 1;
    CHECK_EQ(app_echo_client_start(&client, app_world_a(&g.w), &p), ERR_OK);
    g.w.discard = &discard;
    g.w.clients = &client;
    g.w.n_clients = 1;

    CHECK_EQ(fake_net_run(&g.w.net, RUN_LIMIT, discard_closed), 1);
    CHECK_EQ(client.report.error, 0);
    CHECK_EQ(discard.report.bytes, 8760);
    CHECK_EQ(discard.report.first_byte_at, 3 * d);
    CHECK_EQ(discard.server.completed, 1);

    for (i = 1; i < g.n[1] && !zero; i++) /* [0] is the SYN-ACK */
        if (g.win[1][i] == 0)
            zero = i;
    CHECK(zero > 0);
    for (i = zero + 1; i < g.n[1] && !update; i++)
        if (g.win[1][i] > 0)
            update = i;
    CHECK(update > 0);
    if (!zero || !update)
        return;
    CHECK_EQ(g.t[1][update], 3 * d + 3500000u);
    for (i = 0; i < g.n[0]; i++) {
        if (g.len[0][i] == 0 || time_before(g.t[0][i], g.t[1][zero] + d) ||
            time_after_eq(g.t[0][i], g.t[1][update] + d))
            continue;
        during++;
        if (g.len[0][i] == 1 && probes < 2)
            probe_at[probes++] = g.t[0][i];
    }
    CHECK_EQ(probes, 2);
    CHECK_EQ(during, 2); /* only the probes */
    CHECK_EQ(probe_at[0], g.t[1][zero] + d + 1000000u);
    CHECK_EQ(probe_at[1], probe_at[0] + 2000000u);
    app_world_free(&g.w);
}

UNIT_MAIN(UNIT(test_rate_kbps), UNIT(test_patterns), UNIT(test_echo_10000_bytes_exact),
          UNIT(test_echo_1mb_with_loss_both_ways), UNIT(test_echo_five_parallel),
          UNIT(test_echo_five_parallel_two_slots), UNIT(test_echo_client_counts_every_wrong_byte),
          UNIT(test_echo_client_connections_share_bytes),
          UNIT(test_echo_client_connections_as_separate_clients),
          UNIT(test_echo_client_connections_one_fails), UNIT(test_echo_client_connections_refused),
          UNIT(test_discard_counts_exactly), UNIT(test_echo_client_refused),
          UNIT(test_reqresp_paper_session), UNIT(test_reqresp_rounds_think_times),
          UNIT(test_reqresp_split_nagle_waits_for_delayed_ack), UNIT(test_reqresp_split_nodelay),
          UNIT(test_discard_pause_zero_window))
