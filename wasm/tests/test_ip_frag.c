/* Fragmentation (RFC 791 2.3, 3.2) and reassembly (RFC 791 3.2, RFC 815, RFC 1122 3.3.2).
 *
 * The datagram used throughout: 1428 bytes = 20 header + 1408 data, over MTU 576. Data per
 * fragment is the largest multiple of 8 that fits 576 - 20 = 556, i.e. 552; so the pieces
 * carry 552, 552 and 304 bytes at offsets 0, 552 (69 units) and 1104 (138 units), and are
 * 572, 572 and 324 bytes long. */
#include "fake_net.h"
#include "icmp.h"
#include "socket.h"
#include "test_host.h"
#include "unit.h"

#define A_ADDR IP4(10, 0, 7, 1)
#define B_ADDR IP4(10, 0, 7, 2)
#define DATA   1408
#define ID     0x5151

static struct th T;
static uint8_t whole[1428]; /* the datagram, header + UDP header + pattern */

static uint8_t pattern(uint16_t i)
{
    return (uint8_t)(i * 7u + 3u);
}

/* A UDP datagram from A:4000 to B:5000 with 1400 data bytes, checksum left out (0). */
static void build_whole(void)
{
    uint16_t i;
    th_ip(whole, 1428, ID, 0, 64, IP_PROTO_UDP, A_ADDR, B_ADDR);
    wr16(whole + 20, 4000);
    wr16(whole + 22, 5000);
    wr16(whole + 24, 1408);
    wr16(whole + 26, 0);
    for (i = 0; i < 1400; i++)
        whole[28 + i] = pattern(i);
}

/* Fragment of `whole` as datagram `id`: data bytes [off, off + n), MF as given. Returns
 * its length. */
static uint16_t piece_of(uint8_t *out, uint16_t id, uint16_t off, uint16_t n, int mf)
{
    th_ip(out, (uint16_t)(20 + n), id, (uint16_t)((mf ? IP_FLAG_MF : 0) | (off / 8)), 64,
          IP_PROTO_UDP, A_ADDR, B_ADDR);
    memcpy(out + 20, whole + 20 + off, n);
    return (uint16_t)(20 + n);
}

static uint16_t piece(uint8_t *out, uint16_t off, uint16_t n, int mf)
{
    return piece_of(out, ID, off, n, mf);
}

static void feed_id(uint16_t id, uint16_t off, uint16_t n, int mf, stack_time_t now)
{
    uint8_t f[600];
    uint16_t len = piece_of(f, id, off, n, mf);
    th_input(&T, f, len, now);
}

static void feed(uint16_t off, uint16_t n, int mf, stack_time_t now)
{
    feed_id(ID, off, n, mf, now);
}

/* All three pieces of datagram `id`, in order, from `now` on, 1 us apart. */
static void feed_whole(uint16_t id, stack_time_t now)
{
    feed_id(id, 0, 552, 1, now);
    feed_id(id, 552, 552, 1, now + 1);
    feed_id(id, 1104, 304, 0, now + 2);
}

static int sock;
static struct fake_net rnet;

/* A test on the fake network: the network is released even when a CHECK fails half-way
 * (CHECK returns from the body only), so LeakSanitizer reports the failure, not a leak. */
#define NET_TEST(name, netp)       \
    static void name##_body(void); \
    static void name(void)         \
    {                              \
        name##_body();             \
        fake_net_free(netp);       \
    }                              \
    static void name##_body(void)

static int start_b(struct host_config *cfg)
{
    struct stack_sockaddr any = { 0, 5000 };
    struct host_config def;
    if (!cfg) {
        host_config_default(&def);
        cfg = &def;
    }
    build_whole();
    if (th_start(&T, cfg, B_ADDR, 576) != 0)
        return -1;
    sock = udpsocket(&T.h);
    return udpbind(&T.h, sock, &any);
}

/* The reassembled datagram reached the socket intact. */
static int delivered_ok(void)
{
    static uint8_t buf[1500];
    struct stack_sockaddr src;
    int n = udprecvfrom(&T.h, sock, &src, buf, sizeof buf);
    return n == 1400 && src.addr == A_ADDR && src.port == 4000 &&
           memcmp(buf, whole + 28, 1400) == 0 &&
           udprecvfrom(&T.h, sock, &src, buf, sizeof buf) == ERR_WOULDBLOCK;
}

static void test_fragments_1428_bytes_over_mtu_576(void)
{
    struct host_config cfg;
    struct trace_event ev;
    uint16_t i;
    uint8_t *p;
    host_config_default(&cfg);
    CHECK(th_start(&T, &cfg, A_ADDR, 576) == 0);
    p = ip_tx_payload(&T.h);
    for (i = 0; i < DATA; i++)
        p[i] = pattern(i);
    CHECK_EQ(ip_output(&T.h, 0, B_ADDR, 253, DATA, 0), ERR_OK);
    CHECK_EQ(T.n_frames, 3);
    CHECK_EQ(T.len[0], 572);
    CHECK_EQ(T.len[1], 572);
    CHECK_EQ(T.len[2], 324);
    for (i = 0; i < 3; i++) {
        CHECK_EQ(rd16(T.frame[i] + 2), T.len[i]);
        CHECK_EQ(rd16(T.frame[i] + 4), rd16(T.frame[0] + 4)); /* one identification */
        CHECK_EQ(T.frame[i][9], 253);
        CHECK_EQ(rd32(T.frame[i] + 16), B_ADDR);
        CHECK_EQ(inet_chksum(T.frame[i], 20), 0);
    }
    CHECK_EQ(rd16(T.frame[0] + 6), 0x2000 | 0);  /* MF, offset 0 */
    CHECK_EQ(rd16(T.frame[1] + 6), 0x2000 | 69); /* MF, 552 / 8 */
    CHECK_EQ(rd16(T.frame[2] + 6), 138);         /* last: no MF, 1104 / 8 */
    for (i = 0; i < DATA; i++) {
        uint16_t f = (uint16_t)(i / 552u);
        CHECK_EQ(T.frame[f][20 + i % 552u], pattern(i));
    }
    CHECK_EQ(T.h.ip.counters.frag_datagrams, 1);
    CHECK_EQ(T.h.ip.counters.frag_created, 3);
    CHECK_EQ(T.h.netifs[0].tx_frames, 3);
    CHECK_EQ(T.h.netifs[0].tx_bytes, 572 + 572 + 324);
    CHECK_EQ(th_events(&T, TRACE_IP_FRAG, &ev), 1);
    CHECK_EQ(ev.a, rd16(T.frame[0] + 4));
    CHECK_EQ(ev.b, 3);
    CHECK_EQ(ev.c, 1428);
    th_free(&T);
}

static void test_df_or_fragmentation_off_refuses(void)
{
    struct host_config cfg;
    host_config_default(&cfg);
    CHECK(th_start(&T, &cfg, A_ADDR, 576) == 0);
    CHECK_EQ(ip_output(&T.h, 0, B_ADDR, 253, 600, 1), ERR_MTU);
    CHECK_EQ(T.h.stats.drops[DROP_IP_DF], 1);
    CHECK_EQ(T.n_frames, 0);
    CHECK_EQ(ip_output(&T.h, 0, B_ADDR, 253, 556, 1), ERR_OK); /* exactly 576: fits */
    th_free(&T);

    cfg.ip_frag = 0;
    CHECK(th_start(&T, &cfg, A_ADDR, 576) == 0);
    CHECK_EQ(ip_output(&T.h, 0, B_ADDR, 253, 600, 0), ERR_MTU);
    CHECK_EQ(T.h.stats.drops[DROP_IP_DF], 1);
    CHECK_EQ(T.n_frames, 0);
    th_free(&T);
}

static void test_reassembles_in_order(void)
{
    struct trace_event ev;
    CHECK(start_b(NULL) == 0);
    feed(0, 552, 1, 10);
    feed(552, 552, 1, 20);
    CHECK_EQ(udprecvfrom(&T.h, sock, NULL, NULL, 0), ERR_WOULDBLOCK);
    feed(1104, 304, 0, 30);
    CHECK(delivered_ok());
    CHECK_EQ(T.h.ip.counters.reass_ok, 1);
    CHECK_EQ(th_events(&T, TRACE_IP_REASS, &ev), 1);
    CHECK_EQ(ev.a, ID);
    CHECK_EQ(ev.b, 3);
    CHECK_EQ(ev.c, 1428);
    th_free(&T);
}

static void test_reassembles_in_reverse_order(void)
{
    stack_time_t when;
    CHECK(start_b(NULL) == 0);
    feed(1104, 304, 0, 10);
    CHECK(host_next_deadline(&T.h, &when));
    CHECK_EQ(when, 10 + 15000000u); /* 15 s from the first fragment to arrive */
    feed(552, 552, 1, 20);
    feed(0, 552, 1, 30);
    CHECK(delivered_ok());
    /* The slot is free again; what remains is the memory of the datagram, for one
     * reassembly timeout from its completion. */
    CHECK(host_next_deadline(&T.h, &when));
    CHECK_EQ(when, 30 + 15000000u);
    host_poll(&T.h, when);
    CHECK(!host_next_deadline(&T.h, &when));
    th_free(&T);
}

static void test_reassembles_with_duplicates(void)
{
    struct trace_event ev;
    CHECK(start_b(NULL) == 0);
    feed(552, 552, 1, 10);
    feed(552, 552, 1, 11);
    feed(0, 552, 1, 12);
    feed(552, 552, 1, 13);
    feed(1104, 304, 0, 14);
    CHECK(delivered_ok());
    CHECK_EQ(T.h.stats.drops[DROP_IP_REASS_OVERLAP], 0);
    CHECK_EQ(th_events(&T, TRACE_IP_REASS, &ev), 1);
    CHECK_EQ(ev.b, 3); /* fragments that brought something new */
    /* Late duplicates of a datagram already delivered are dropped; they take no slot. */
    feed(1104, 304, 0, 15);
    feed(0, 552, 1, 16);
    CHECK_EQ(T.h.stats.drops[DROP_IP_REASS_DONE], 2);
    CHECK_EQ(T.h.ip.counters.reass_ok, 1);
    CHECK_EQ(T.h.ip.counters.reass_fail, 0);
    feed_whole(ID + 1, 17);
    feed_whole(ID + 2, 20);
    CHECK_EQ(T.h.ip.counters.reass_ok, 3);
    CHECK_EQ(T.h.stats.drops[DROP_IP_REASS_EVICTED], 0);
    th_free(&T);
}

static void test_overlap_identical_accepted_different_dropped(void)
{
    uint8_t f[600];
    uint16_t len;
    CHECK(start_b(NULL) == 0);
    feed(0, 552, 1, 10);
    /* Re-cut: [544, 1104) overlaps the first piece's last 8 bytes with the same data. */
    feed(544, 560, 1, 11);
    CHECK_EQ(T.h.stats.drops[DROP_IP_REASS_OVERLAP], 0);
    /* [1096, 1400) claims other bytes for [1096, 1104): dropped, nothing changes. */
    len = piece(f, 1096, 312, 0);
    f[20] ^= 0xFF;
    th_input(&T, f, len, 12);
    CHECK_EQ(T.h.stats.drops[DROP_IP_REASS_OVERLAP], 1);
    CHECK_EQ(udprecvfrom(&T.h, sock, NULL, NULL, 0), ERR_WOULDBLOCK);
    /* A last fragment that would end the datagram before bytes already held: dropped. */
    feed(8, 8, 0, 13);
    CHECK_EQ(T.h.stats.drops[DROP_IP_REASS_OVERLAP], 2);
    feed(1104, 304, 0, 14);
    CHECK(delivered_ok());
    th_free(&T);
}

static void test_timeout_drops_and_sends_time_exceeded(void)
{
    const uint8_t *o;
    stack_time_t when;
    CHECK(start_b(NULL) == 0);
    feed(0, 552, 1, 1000);
    feed(1104, 304, 0, 2000);
    CHECK(host_next_deadline(&T.h, &when));
    CHECK_EQ(when, 1000 + 15000000u);
    host_poll(&T.h, 1000 + 15000000u - 1);
    CHECK_EQ(T.h.stats.drops[DROP_IP_REASS_TIMEOUT], 0);
    host_poll(&T.h, 1000 + 15000000u);
    CHECK_EQ(T.h.stats.drops[DROP_IP_REASS_TIMEOUT], 1);
    CHECK_EQ(T.h.ip.counters.reass_fail, 1);
    CHECK(!host_next_deadline(&T.h, &when));
    /* RFC 792 time exceeded, code 1, quoting fragment zero's header and 8 data bytes. */
    CHECK_EQ(T.n_frames, 1);
    o = T.frame[0];
    CHECK_EQ(T.len[0], 56);
    CHECK_EQ(rd32(o + 16), A_ADDR);
    CHECK_EQ(o[20], ICMP_TIME_EXCEEDED);
    CHECK_EQ(o[21], ICMP_EXC_FRAGTIME);
    CHECK_EQ(rd32(o + 24), 0);
    {
        uint8_t first[600];
        piece(first, 0, 552, 1);
        CHECK_MEM(o + 28, first, 28);
    }
    CHECK_EQ(inet_chksum(o + 20, 36), 0);
    /* The late missing piece now starts a new datagram: nothing is delivered. */
    feed(552, 552, 1, 15002000u);
    CHECK_EQ(udprecvfrom(&T.h, sock, NULL, NULL, 0), ERR_WOULDBLOCK);
    th_free(&T);
}

static void test_timeout_without_first_fragment_sends_nothing(void)
{
    CHECK(start_b(NULL) == 0);
    feed(552, 552, 1, 0);
    host_poll(&T.h, 15000000u);
    CHECK_EQ(T.h.stats.drops[DROP_IP_REASS_TIMEOUT], 1);
    CHECK_EQ(T.n_frames, 0);
    th_free(&T);
}

/* RFC 815's answer to full buffers: a new datagram evicts the oldest incomplete one. */
static void test_slots_full_evicts_oldest(void)
{
    CHECK(start_b(NULL) == 0); /* 2 slots by default */
    feed_id(ID, 0, 552, 1, 1);
    feed_id(ID + 1, 0, 552, 1, 2);
    feed_id(ID + 2, 0, 552, 1, 3);
    CHECK_EQ(T.h.stats.drops[DROP_IP_REASS_EVICTED], 1);
    CHECK_EQ(T.h.stats.drops[DROP_IP_REASS_FULL], 0);
    CHECK_EQ(T.h.ip.counters.reass_fail, 1);
    /* ID was the one evicted: ID + 1 still completes, ID's other pieces do not. */
    feed_id(ID + 1, 552, 552, 1, 4);
    feed_id(ID + 1, 1104, 304, 0, 5);
    CHECK(delivered_ok());
    feed_id(ID, 552, 552, 1, 6);
    feed_id(ID, 1104, 304, 0, 7);
    CHECK_EQ(udprecvfrom(&T.h, sock, NULL, NULL, 0), ERR_WOULDBLOCK);
    CHECK_EQ(T.h.ip.counters.reass_ok, 1);
    th_free(&T);
}

/* Two fragments whose companions never come (the interop test's strays) no longer hold
 * both slots for the reassembly timeout: the next datagrams are delivered at once. */
static void test_two_strays_do_not_block(void)
{
    CHECK(start_b(NULL) == 0);
    feed_id(0x7001, 0, 552, 1, 1000);
    feed_id(0x7002, 552, 552, 1, 2000);
    feed_whole(ID, 3000);
    CHECK(delivered_ok());
    /* The first stray was evicted for it; the second keeps its slot, the other one
     * serves the datagrams that follow. */
    feed_whole(ID + 1, 4000);
    CHECK(delivered_ok());
    CHECK_EQ(T.h.stats.drops[DROP_IP_REASS_EVICTED], 1);
    CHECK_EQ(T.h.ip.counters.reass_ok, 2);
    /* An eviction sends no time exceeded (the first stray was a fragment zero); the
     * second stray times out, without fragment zero, so without one either. */
    host_poll(&T.h, 2000 + 15000000u);
    CHECK_EQ(T.h.stats.drops[DROP_IP_REASS_TIMEOUT], 1);
    CHECK_EQ(T.n_frames, 0);
    th_free(&T);
}

/* The memory of completed datagrams lasts one reassembly timeout and holds the last
 * IP_REASS_DONE_MAX of them. */
static void test_done_memory_expires_and_is_bounded(void)
{
    uint16_t i;
    CHECK(start_b(NULL) == 0);
    feed_whole(ID, 1000);
    CHECK(delivered_ok());
    feed_id(ID, 1104, 304, 0, 1000 + 15000000u - 1);
    CHECK_EQ(T.h.stats.drops[DROP_IP_REASS_DONE], 1);
    host_poll(&T.h, 1002 + 15000000u); /* one timeout after the completion */
    feed_whole(ID, 1003 + 15000000u);  /* the same key is a new datagram again */
    CHECK(delivered_ok());
    CHECK_EQ(T.h.stats.drops[DROP_IP_REASS_DONE], 1);
    /* IP_REASS_DONE_MAX more completions push ID out of the memory. */
    for (i = 1; i <= IP_REASS_DONE_MAX; i++) {
        feed_whole((uint16_t)(ID + i), 16000000u + i * 10u);
        CHECK(delivered_ok());
    }
    feed_id(ID + 1, 0, 552, 1, 16001000u); /* still remembered */
    CHECK_EQ(T.h.stats.drops[DROP_IP_REASS_DONE], 2);
    feed_whole(ID, 16002000u); /* forgotten: delivered again */
    CHECK(delivered_ok());
    th_free(&T);
}

static void test_too_big_and_fragmentation_off(void)
{
    struct host_config cfg;
    host_config_default(&cfg);
    cfg.ip_reass_max = 1000;
    CHECK(start_b(&cfg) == 0);
    feed(0, 552, 1, 1);
    feed(1104, 304, 0, 2); /* 20 + 1408 > 1000 */
    CHECK_EQ(T.h.stats.drops[DROP_IP_REASS_TOO_BIG], 1);
    CHECK_EQ(T.h.ip.counters.reass_fail, 1);
    th_free(&T);

    host_config_default(&cfg);
    cfg.ip_frag = 0;
    CHECK(start_b(&cfg) == 0);
    feed(0, 552, 1, 1);
    CHECK_EQ(T.h.stats.drops[DROP_IP_FRAG_OFF], 1);
    th_free(&T);
}

static void test_middle_fragment_not_multiple_of_8(void)
{
    CHECK(start_b(NULL) == 0);
    feed(0, 550, 1, 1);
    CHECK_EQ(T.h.stats.drops[DROP_IP_TOTLEN], 1);
    th_free(&T);
}

/* The router of a chain fragments a 1428-byte datagram for the 576-byte link, and B
 * reassembles it. */
static uint32_t n_link1;
static uint16_t link1_len[4];

static void tap(void *ctx, struct fake_net *net, int link, int dir, stack_time_t t,
                const uint8_t *d, uint16_t len, int fate)
{
    (void)ctx, (void)net, (void)t, (void)fate, (void)d;
    if (link == 1 && dir == 0 && n_link1 < 4)
        link1_len[n_link1++] = len;
}

NET_TEST(test_router_fragments_and_destination_reassembles, &rnet)
{
    struct fake_net *net = &rnet;
    struct host_config cfg;
    struct stack_sockaddr any = { 0, 5000 }, dst = { IP4(10, 0, 2, 2), 5000 }, src;
    static uint8_t msg[1400], got[1500];
    int a_sock, b_sock;
    uint16_t i;

    host_config_default(&cfg);
    fake_net_init(net, 3);
    CHECK_EQ(fake_net_add_host(net, &cfg), 0);
    cfg.ip_forward = 1;
    CHECK_EQ(fake_net_add_host(net, &cfg), 1);
    cfg.ip_forward = 0;
    CHECK_EQ(fake_net_add_host(net, &cfg), 2);
    CHECK(fake_net_connect(net, 0, IP4(10, 0, 1, 1), 1, IP4(10, 0, 1, 2), 1500, 0, 100) >= 0);
    CHECK(fake_net_connect(net, 1, IP4(10, 0, 2, 1), 2, IP4(10, 0, 2, 2), 576, 0, 100) >= 0);
    ip_route_add(&net->hosts[0], IP4(10, 0, 2, 0), 0xFFFFFF00u, 0);
    net->tap = tap;
    n_link1 = 0;
    b_sock = udpsocket(&net->hosts[2]);
    CHECK_EQ(udpbind(&net->hosts[2], b_sock, &any), ERR_OK);
    a_sock = udpsocket(&net->hosts[0]);
    for (i = 0; i < sizeof msg; i++)
        msg[i] = pattern(i);
    CHECK_EQ(udpsendto(&net->hosts[0], a_sock, &dst, msg, sizeof msg), 1400);
    CHECK_EQ(net->hosts[0].ip.counters.frag_created, 0); /* 1428 fits the first link */
    fake_net_run(net, 1000000u, NULL);
    CHECK_EQ(n_link1, 3);
    CHECK_EQ(link1_len[0], 572);
    CHECK_EQ(link1_len[1], 572);
    CHECK_EQ(link1_len[2], 324);
    CHECK_EQ(net->hosts[1].ip.counters.frag_created, 3);
    CHECK_EQ(udprecvfrom(&net->hosts[2], b_sock, &src, got, sizeof got), 1400);
    CHECK_MEM(got, msg, 1400);
    CHECK_EQ(src.addr, IP4(10, 0, 1, 1));
    fake_net_free(net);
}

UNIT_MAIN(UNIT(test_fragments_1428_bytes_over_mtu_576), UNIT(test_df_or_fragmentation_off_refuses),
          UNIT(test_reassembles_in_order), UNIT(test_reassembles_in_reverse_order),
          UNIT(test_reassembles_with_duplicates),
          UNIT(test_overlap_identical_accepted_different_dropped),
          UNIT(test_timeout_drops_and_sends_time_exceeded),
          UNIT(test_timeout_without_first_fragment_sends_nothing),
          UNIT(test_slots_full_evicts_oldest), UNIT(test_two_strays_do_not_block),
          UNIT(test_done_memory_expires_and_is_bounded), UNIT(test_too_big_and_fragmentation_off),
          UNIT(test_middle_fragment_not_multiple_of_8),
          UNIT(test_router_fragments_and_destination_reassembles))
