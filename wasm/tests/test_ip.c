/* IPv4 input validation (RFC 791 3.1, RFC 1122 3.2.1), unknown protocols (RFC 1122
 * 3.2.2.1), forwarding across a router with TTL and checksum update (RFC 1812 5.3.1,
 * RFC 1624), time exceeded and fragmentation needed (RFC 792, RFC 1191). */
#include "fake_net.h"
#include "icmp.h"
#include "ping.h"
#include "test_host.h"
#include "unit.h"

#define A_ADDR IP4(10, 0, 7, 1)
#define B_ADDR IP4(10, 0, 7, 2)

static struct th T;

static int start_b(void)
{
    struct host_config cfg;
    host_config_default(&cfg);
    return th_start(&T, &cfg, B_ADDR, 576);
}

/* A 32-byte datagram A -> B with protocol `proto` and 12 bytes "ABCDEFGHIJKL". */
static void build(uint8_t *d, uint8_t proto)
{
    th_ip(d, 32, 0x1234, 0, 64, proto, A_ADDR, B_ADDR);
    memcpy(d + 20, "ABCDEFGHIJKL", 12);
}

static void refix(uint8_t *d)
{
    wr16(d + 10, 0);
    wr16(d + 10, inet_chksum(d, (uint16_t)((d[0] & 0x0F) * 4)));
}

static void test_validation_drops_each_with_its_reason(void)
{
    uint8_t d[64];
    const uint32_t *drops = T.h.stats.drops;
    CHECK(start_b() == 0);

    build(d, IP_PROTO_UDP);
    th_input(&T, d, 19, 1); /* one byte short of a header */
    CHECK_EQ(drops[DROP_IP_SHORT], 1);

    build(d, IP_PROTO_UDP);
    d[0] = 0x65; /* version 6 */
    refix(d);
    th_input(&T, d, 32, 2);
    CHECK_EQ(drops[DROP_IP_VERSION], 1);

    build(d, IP_PROTO_UDP);
    d[0] = 0x44; /* 16-byte header: below the minimum of 5 words */
    th_input(&T, d, 32, 3);
    d[0] = 0x4F; /* 60-byte header in a 32-byte frame */
    th_input(&T, d, 32, 3);
    CHECK_EQ(drops[DROP_IP_HDRLEN], 2);

    build(d, IP_PROTO_UDP);
    d[10] ^= 0x01;
    th_input(&T, d, 32, 4);
    CHECK_EQ(drops[DROP_IP_CHKSUM], 1);

    th_ip(d, 40, 1, 0, 64, IP_PROTO_UDP, A_ADDR, B_ADDR); /* says 40, frame has 32 */
    th_input(&T, d, 32, 5);
    th_ip(d, 16, 1, 0, 64, IP_PROTO_UDP, A_ADDR, B_ADDR); /* shorter than its header */
    th_input(&T, d, 32, 5);
    CHECK_EQ(drops[DROP_IP_TOTLEN], 2);

    th_ip(d, 32, 1, 0, 64, IP_PROTO_UDP, IP4(127, 0, 0, 1), B_ADDR);
    th_input(&T, d, 32, 6);
    th_ip(d, 32, 1, 0, 64, IP_PROTO_UDP, IP4(224, 0, 0, 1), B_ADDR);
    th_input(&T, d, 32, 6);
    th_ip(d, 32, 1, 0, 64, IP_PROTO_UDP, 0xFFFFFFFFu, B_ADDR);
    th_input(&T, d, 32, 6);
    CHECK_EQ(drops[DROP_IP_BAD_SRC], 3);

    th_ip(d, 32, 1, 0, 64, IP_PROTO_UDP, A_ADDR, IP4(10, 0, 7, 9)); /* forwarding is off */
    th_input(&T, d, 32, 7);
    CHECK_EQ(drops[DROP_IP_NOT_FOR_US], 1);

    CHECK_EQ(T.h.ip.counters.in_datagrams, 1); /* only the last one passed validation */
    CHECK_EQ(T.n_frames, 0);                   /* and nothing was answered */
    th_free(&T);
}

static void test_padding_after_total_length_is_ignored(void)
{
    uint8_t d[64];
    CHECK(start_b() == 0);
    build(d, 99);
    memset(d + 32, 0xEE, 8); /* a link that pads frames */
    th_input(&T, d, 40, 1);
    CHECK_EQ(T.h.stats.drops[DROP_IP_TOTLEN], 0);
    CHECK_EQ(T.h.stats.drops[DROP_IP_PROTO], 1);
    CHECK_EQ(T.len[0], 20 + 8 + 20 + 8); /* the quote ends at the total length */
    th_free(&T);
}

static void test_unknown_protocol_gets_protocol_unreachable(void)
{
    uint8_t d[64], expect[36];
    const uint8_t *o;
    struct trace_event ev;
    CHECK(start_b() == 0);
    build(d, 99);
    th_input(&T, d, 32, 1000);
    CHECK_EQ(T.h.stats.drops[DROP_IP_PROTO], 1);
    CHECK_EQ(T.n_frames, 1);
    o = T.frame[0];
    /* IP: 20 + ICMP 8 + quoted header 20 + 8 data bytes = 56, from B back to A. */
    CHECK_EQ(T.len[0], 56);
    CHECK_EQ(rd16(o + 2), 56);
    CHECK_EQ(o[9], IP_PROTO_ICMP);
    CHECK_EQ(o[8], 64);
    CHECK_EQ(rd32(o + 12), B_ADDR);
    CHECK_EQ(rd32(o + 16), A_ADDR);
    CHECK_EQ(inet_chksum(o, 20), 0);
    /* RFC 792: type 3, code 2, 4 unused bytes, the header as received, 8 data bytes. */
    memset(expect, 0, sizeof expect);
    expect[0] = 3;
    expect[1] = 2;
    memcpy(expect + 8, d, 28);
    CHECK_MEM(o + 20, expect, 2);
    CHECK_MEM(o + 24, expect + 4, 32);
    CHECK_EQ(inet_chksum(o + 20, 36), 0);
    CHECK_EQ(th_events(&T, TRACE_ICMP_SENT, &ev), 1);
    CHECK_EQ(ev.a, 3);
    CHECK_EQ(ev.b, 2);
    th_free(&T);
}

static void test_unreachable_can_be_switched_off(void)
{
    struct host_config cfg;
    uint8_t d[64];
    host_config_default(&cfg);
    cfg.icmp_unreachable = 0;
    CHECK(th_start(&T, &cfg, B_ADDR, 576) == 0);
    build(d, 99);
    th_input(&T, d, 32, 1);
    CHECK_EQ(T.h.stats.drops[DROP_IP_PROTO], 1);
    CHECK_EQ(T.n_frames, 0);
    th_free(&T);
}

/* A (10.0.1.1) -- link 0, MTU 1500 -- R (10.0.1.2 | 10.0.2.1) -- link 1, MTU 576 -- B. */
struct chain {
    struct fake_net net;
    uint32_t n[2];          /* frames seen on link 0 / link 1, direction a -> b */
    uint8_t first[2][1600]; /* the first frame seen there */
    uint16_t first_len[2];
    uint32_t back; /* frames R -> A on link 0 */
    uint8_t back_frame[1600];
    uint16_t back_len;
};

static struct chain C;

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

static void chain_tap(void *ctx, struct fake_net *net, int link, int dir, stack_time_t t,
                      const uint8_t *d, uint16_t len, int fate)
{
    struct chain *c = ctx;
    (void)net;
    (void)t;
    (void)fate;
    if (dir == 0) {
        if (c->n[link]++ == 0) {
            memcpy(c->first[link], d, len);
            c->first_len[link] = len;
        }
    } else if (link == 0) {
        c->back++;
        memcpy(c->back_frame, d, len);
        c->back_len = len;
    }
}

static int chain_start(uint8_t a_ttl)
{
    struct host_config cfg;
    host_config_default(&cfg);
    memset(&C, 0, sizeof C);
    fake_net_init(&C.net, 7);
    cfg.ip_ttl = a_ttl;
    if (fake_net_add_host(&C.net, &cfg) != 0)
        return -1;
    cfg.ip_ttl = 64;
    cfg.ip_forward = 1;
    if (fake_net_add_host(&C.net, &cfg) != 1)
        return -1;
    cfg.ip_forward = 0;
    if (fake_net_add_host(&C.net, &cfg) != 2)
        return -1;
    if (fake_net_connect(&C.net, 0, IP4(10, 0, 1, 1), 1, IP4(10, 0, 1, 2), 1500, 0, 1000) < 0 ||
        fake_net_connect(&C.net, 1, IP4(10, 0, 2, 1), 2, IP4(10, 0, 2, 2), 576, 0, 1000) < 0)
        return -1;
    ip_route_add(&C.net.hosts[0], IP4(10, 0, 2, 0), 0xFFFFFF00u, 0);
    ip_route_add(&C.net.hosts[2], IP4(10, 0, 1, 0), 0xFFFFFF00u, 0);
    C.net.tap = chain_tap;
    C.net.ctx = &C;
    return 0;
}

NET_TEST(test_forwarding_decrements_ttl_and_updates_checksum, &C.net)
{
    struct ping_event ev;
    uint32_t sum;
    CHECK(chain_start(64) == 0);
    CHECK_EQ(ping_start(&C.net.hosts[0], IP4(10, 0, 2, 2), 0x77, 56, 1, 1000, 2000), ERR_OK);
    fake_net_run(&C.net, 3000000u, NULL);
    CHECK_EQ(C.n[0], 1);
    CHECK_EQ(C.n[1], 1);
    CHECK_EQ(C.first[0][8], 64);
    CHECK_EQ(C.first[1][8], 63);
    CHECK_EQ(inet_chksum(C.first[1], 20), 0);
    /* RFC 1624: TTL is the high byte of its 16-bit word, so one less adds 0x0100 to the
     * one's complement checksum (with the end-around carry). */
    sum = rd16(C.first[0] + 10) + 0x0100u;
    sum = (sum & 0xFFFFu) + (sum >> 16);
    CHECK_EQ(rd16(C.first[1] + 10), sum);
    CHECK_MEM(C.first[1] + 12, C.first[0] + 12, 84 - 12); /* the rest is untouched */
    CHECK_EQ(C.net.hosts[1].ip.counters.forwarded, 2);    /* request and reply */
    CHECK(ping_next_event(&C.net.hosts[0], &ev));
    CHECK_EQ(ev.kind, PING_EV_REPLY);
    CHECK_EQ(ev.ttl, 63); /* B's 64, less R's hop */
    /* 84 bytes each way, two hops of 1000 us, infinitely fast links. */
    CHECK_EQ(ev.rtt_us, 4000);
    fake_net_free(&C.net);
}

NET_TEST(test_ttl_expiry_sends_time_exceeded, &C.net)
{
    struct ping_event ev;
    char line[160];
    CHECK(chain_start(1) == 0);
    CHECK_EQ(ping_start(&C.net.hosts[0], IP4(10, 0, 2, 2), 0x77, 56, 1, 1000, 2000), ERR_OK);
    fake_net_run(&C.net, 3000000u, NULL);
    CHECK_EQ(C.n[1], 0); /* never reached B */
    CHECK_EQ(C.net.hosts[1].stats.drops[DROP_IP_TTL], 1);
    CHECK_EQ(C.back, 1);
    CHECK_EQ(C.back_frame[20], ICMP_TIME_EXCEEDED);
    CHECK_EQ(C.back_frame[21], ICMP_EXC_TTL);
    CHECK_EQ(rd32(C.back_frame + 12), IP4(10, 0, 1, 2)); /* the router's address */
    CHECK_EQ(C.back_frame[28 + 8], 1);                   /* quoted TTL as it arrived */
    CHECK(ping_next_event(&C.net.hosts[0], &ev));
    CHECK_EQ(ev.kind, PING_EV_ERROR);
    ping_format_event(&ev, line, sizeof line);
    CHECK(strcmp(line, "From 10.0.1.2 icmp_seq=1 Time to live exceeded") == 0);
    CHECK(ping_done(&C.net.hosts[0])); /* iputils stops once received + errors = count */
    ping_format_summary(&C.net.hosts[0], line, sizeof line);
    CHECK(strcmp(line, "--- 10.0.2.2 ping statistics ---\n"
                       "1 packets transmitted, 0 received, +1 errors, 100% packet loss, "
                       "time 0ms\n\n") == 0);
    fake_net_free(&C.net);
}

NET_TEST(test_df_too_big_gets_fragmentation_needed_with_mtu, &C.net)
{
    uint8_t d[1000];
    CHECK(chain_start(64) == 0);
    memset(d, 0x5A, sizeof d);
    th_ip(d, 1000, 0x4242, IP_FLAG_DF, 64, IP_PROTO_UDP, IP4(10, 0, 1, 1), IP4(10, 0, 2, 2));
    host_input(&C.net.hosts[1], 0, d, 1000, 0);
    CHECK_EQ(C.net.hosts[1].stats.drops[DROP_IP_DF], 1);
    CHECK_EQ(C.n[1], 0);
    CHECK_EQ(C.back, 1);
    CHECK_EQ(C.back_len, 20 + 8 + 20 + 8);
    CHECK_EQ(C.back_frame[20], ICMP_DEST_UNREACH);
    CHECK_EQ(C.back_frame[21], ICMP_UNREACH_FRAG_NEEDED);
    CHECK_EQ(rd16(C.back_frame + 24), 0);   /* unused */
    CHECK_EQ(rd16(C.back_frame + 26), 576); /* RFC 1191: next-hop MTU */
    CHECK_EQ(C.back_frame[28 + 8], 64);     /* quoted before the TTL was decremented */
    CHECK_EQ(inet_chksum(C.back_frame + 20, 36), 0);
    fake_net_free(&C.net);
}

NET_TEST(test_forwarding_without_route_sends_net_unreachable, &C.net)
{
    uint8_t d[40];
    CHECK(chain_start(64) == 0);
    th_ip(d, 40, 9, 0, 64, IP_PROTO_UDP, IP4(10, 0, 1, 1), IP4(192, 168, 9, 9));
    memset(d + 20, 0, 20);
    host_input(&C.net.hosts[1], 0, d, 40, 0);
    CHECK_EQ(C.net.hosts[1].stats.drops[DROP_IP_NO_ROUTE], 1);
    CHECK_EQ(C.back, 1);
    CHECK_EQ(C.back_frame[20], ICMP_DEST_UNREACH);
    CHECK_EQ(C.back_frame[21], 0);
    fake_net_free(&C.net);
}

UNIT_MAIN(UNIT(test_validation_drops_each_with_its_reason),
          UNIT(test_padding_after_total_length_is_ignored),
          UNIT(test_unknown_protocol_gets_protocol_unreachable),
          UNIT(test_unreachable_can_be_switched_off),
          UNIT(test_forwarding_decrements_ttl_and_updates_checksum),
          UNIT(test_ttl_expiry_sends_time_exceeded),
          UNIT(test_df_too_big_gets_fragmentation_needed_with_mtu),
          UNIT(test_forwarding_without_route_sends_net_unreachable))
