/* Ethernet II (RFC 894) and ARP (RFC 826, RFC 1122 2.3.2) on a host's Ethernet interface,
 * and proxy ARP as the simulator's bridge uses it: hand-built frames in, timers driven by
 * hand, the frames the host sends read back. */
#include "arp.h"
#include "eth.h"
#include "host_eth.h"
#include "test_host.h"
#include "unit.h"

#define ME   IP4(192, 168, 1, 202)
#define PEER IP4(192, 168, 1, 102)

static const uint8_t my_mac[6] = { 0x02, 0x12, 0x34, 0x56, 0x78, 0xcd };
static const uint8_t peer_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x07 };

static struct th T;
static struct host_eth E;
static uint8_t arp_mem[ARP_MEM(1500, ARP_QUEUE_MAX)];

static int start(const struct arp_config *cfg)
{
    struct host_config hc;
    struct arp_config def;
    host_config_default(&hc);
    if (!cfg) {
        arp_config_default(&def);
        cfg = &def;
    }
    memset(&T, 0, sizeof T);
    if (host_init(&T.h, &hc, T.mem, sizeof T.mem, 0) != ERR_OK)
        return -1;
    host_set_tracer(&T.h, th_tracer, &T);
    return host_add_eth_netif(&T.h, ME, 0xFFFFFF00u, 1500, my_mac, cfg, &E, arp_mem, sizeof arp_mem,
                              th_output, &T);
}

/* A UDP-protocol datagram of n payload bytes from the host to dst, at time now. */
static void send_dgram(uint32_t dst, uint16_t n, stack_time_t now)
{
    T.h.now = now;
    memset(ip_tx_payload(&T.h), 0xAB, n);
    (void)ip_output(&T.h, 0, dst, IP_PROTO_UDP, n, 0);
}

/* An ARP packet in an Ethernet frame, padded to 60 bytes as it arrives off the wire. */
static uint16_t arp_frame(uint8_t *f, uint16_t op, const uint8_t *dst, const uint8_t *sha,
                          uint32_t spa, const uint8_t *tha, uint32_t tpa)
{
    uint8_t *p = f + ETH_HDR_LEN;
    eth_header_write(f, dst, sha, ETH_TYPE_ARP);
    wr16(p, 1);
    wr16(p + 2, ETH_TYPE_IPV4);
    p[4] = 6;
    p[5] = 4;
    wr16(p + 6, op);
    memcpy(p + 8, sha, 6);
    wr32(p + 14, spa);
    memcpy(p + 18, tha, 6);
    wr32(p + 24, tpa);
    return eth_pad(f, ETH_HDR_LEN + ARP_PKT_LEN);
}

static void reply_from_peer(stack_time_t now)
{
    uint8_t f[64];
    uint16_t n = arp_frame(f, ARP_OP_REPLY, my_mac, peer_mac, PEER, my_mac, ME);
    th_input(&T, f, n, now);
}

static void test_miss_sends_a_request_and_queues(void)
{
    const uint8_t *f;
    CHECK_EQ(start(NULL), 0);
    send_dgram(PEER, 100, 1000);
    CHECK_EQ(T.n_frames, 1);
    f = T.frame[0];
    CHECK_EQ(T.len[0], 42); /* not padded: the NIC pads (eth.h) */
    CHECK_MEM(f, eth_broadcast, 6);
    CHECK_MEM(f + 6, my_mac, 6);
    CHECK_EQ(rd16(f + 12), ETH_TYPE_ARP);
    CHECK_EQ(rd16(f + 14 + 6), ARP_OP_REQUEST);
    CHECK_EQ(rd32(f + 14 + 14), ME);   /* Tell 192.168.1.202 */
    CHECK_EQ(rd32(f + 14 + 24), PEER); /* Who has 192.168.1.102? */
    CHECK_EQ(th_events(&T, TRACE_ARP_QUEUE, NULL), 1);
    CHECK(arp_find(&E.arp, PEER) && arp_find(&E.arp, PEER)->state == ARP_PENDING);
}

static void test_reply_releases_the_queue_then_hits(void)
{
    struct trace_event ev;
    CHECK_EQ(start(NULL), 0);
    send_dgram(PEER, 100, 1000);
    send_dgram(PEER, 200, 1100);
    CHECK_EQ(T.n_frames, 1); /* one request, two datagrams waiting */
    reply_from_peer(2000);
    CHECK_EQ(T.n_frames, 3);
    CHECK_EQ(T.len[1], 14 + 120); /* in the order they were sent */
    CHECK_EQ(T.len[2], 14 + 220);
    CHECK_MEM(T.frame[1], peer_mac, 6);
    CHECK_EQ(rd16(T.frame[1] + 12), ETH_TYPE_IPV4);
    CHECK_EQ(th_events(&T, TRACE_ARP_LEARN, &ev), 1);
    CHECK_EQ(ev.a, PEER);
    CHECK_EQ(ev.b, 0x0200);
    CHECK_EQ(ev.c, 0x00000007);
    send_dgram(PEER, 10, 3000); /* cache hit: no request */
    CHECK_EQ(T.n_frames, 4);
    CHECK_EQ(T.len[3], 14 + 30);
    CHECK_MEM(T.frame[3], peer_mac, 6);
}

static void test_retries_then_gives_up(void)
{
    struct trace_event ev;
    stack_time_t t = 0, when;
    int i;
    CHECK_EQ(start(NULL), 0);
    send_dgram(PEER, 100, 0);
    for (i = 1; i < ARP_MAX_TRIES_DEFAULT; i++) {
        CHECK(host_next_deadline(&T.h, &when));
        CHECK(when <= STACK_MS(ARP_RETRY_MS_DEFAULT) * (uint32_t)i);
        host_poll(&T.h, STACK_MS(ARP_RETRY_MS_DEFAULT) * (uint32_t)i - 1); /* not yet */
        CHECK_EQ(T.n_frames, (uint32_t)i);
        t = STACK_MS(ARP_RETRY_MS_DEFAULT) * (uint32_t)i;
        host_poll(&T.h, t);
        CHECK_EQ(T.n_frames, (uint32_t)i + 1);
    }
    CHECK_EQ(th_events(&T, TRACE_ARP_REQUEST, &ev), ARP_MAX_TRIES_DEFAULT);
    CHECK_EQ(ev.b, ARP_MAX_TRIES_DEFAULT);
    host_poll(&T.h, t + STACK_MS(ARP_RETRY_MS_DEFAULT));
    CHECK_EQ(T.n_frames, ARP_MAX_TRIES_DEFAULT); /* no sixth request */
    CHECK_EQ(T.h.stats.drops[DROP_ARP_NO_REPLY], 1);
    CHECK_EQ(th_events(&T, TRACE_ARP_FAIL, &ev), 1);
    CHECK_EQ(ev.c, 1);
    CHECK(arp_find(&E.arp, PEER) == NULL);
}

static void test_queue_bound_drops_with_a_reason(void)
{
    struct arp_config cfg;
    arp_config_default(&cfg);
    cfg.queue_len = 2;
    CHECK_EQ(start(&cfg), 0);
    send_dgram(PEER, 100, 0);
    send_dgram(PEER, 100, 10);
    CHECK_EQ(T.h.stats.drops[DROP_ARP_QUEUE_FULL], 0);
    send_dgram(PEER, 100, 20);
    CHECK_EQ(T.h.stats.drops[DROP_ARP_QUEUE_FULL], 1);
    reply_from_peer(30);
    CHECK_EQ(T.n_frames, 3); /* the request and the two that waited */
}

static void test_entry_times_out(void)
{
    struct arp_config cfg;
    arp_config_default(&cfg);
    cfg.cache_timeout_ms = 60000;
    CHECK_EQ(start(&cfg), 0);
    send_dgram(PEER, 10, 0);
    reply_from_peer(1000);
    host_poll(&T.h, 1000 + STACK_MS(60000) - 1);
    CHECK(arp_find(&E.arp, PEER) != NULL);
    host_poll(&T.h, 1000 + STACK_MS(60000));
    CHECK(arp_find(&E.arp, PEER) == NULL);
    CHECK_EQ(th_events(&T, TRACE_ARP_EXPIRE, NULL), 1);
    send_dgram(PEER, 10, 1000 + STACK_MS(60001)); /* asked again */
    CHECK_EQ(T.n_frames, 3);
    CHECK_EQ(rd16(T.frame[2] + 12), ETH_TYPE_ARP);
}

static void test_request_for_us_is_answered(void)
{
    static const uint8_t zero[6] = { 0 };
    uint8_t f[64];
    uint16_t n;
    CHECK_EQ(start(NULL), 0);
    n = arp_frame(f, ARP_OP_REQUEST, eth_broadcast, peer_mac, PEER, zero, ME);
    th_input(&T, f, n, 500);
    CHECK_EQ(T.n_frames, 1);
    CHECK_EQ(T.len[0], 42);
    CHECK_MEM(T.frame[0], peer_mac, 6); /* unicast to the asker */
    CHECK_EQ(rd16(T.frame[0] + 14 + 6), ARP_OP_REPLY);
    CHECK_MEM(T.frame[0] + 14 + 8, my_mac, 6);
    CHECK_EQ(rd32(T.frame[0] + 14 + 14), ME);
    CHECK(arp_find(&E.arp, PEER) != NULL); /* RFC 826: the asker is learned */
    /* A request for another address is not answered and teaches nothing new. */
    n = arp_frame(f, ARP_OP_REQUEST, eth_broadcast, peer_mac, IP4(192, 168, 1, 9), zero,
                  IP4(192, 168, 1, 33));
    th_input(&T, f, n, 600);
    CHECK_EQ(T.n_frames, 1);
    CHECK(arp_find(&E.arp, IP4(192, 168, 1, 9)) == NULL);
}

static void test_padded_ip_frame_is_taken_and_others_dropped(void)
{
    uint8_t f[64];
    memset(f, 0, sizeof f);
    CHECK_EQ(start(NULL), 0);
    /* An ICMP echo request of 28 bytes, padded to 60: IP ignores the padding. */
    eth_header_write(f, my_mac, peer_mac, ETH_TYPE_IPV4);
    th_ip(f + 14, 28, 1, 0, 64, IP_PROTO_ICMP, PEER, ME);
    f[34] = 8;
    wr16(f + 36, inet_chksum(f + 34, 8));
    reply_from_peer(0); /* so the echo reply needs no resolution */
    th_input(&T, f, eth_pad(f, 42), 10);
    CHECK_EQ(T.n_frames, 1);
    CHECK_EQ(T.len[0], 42);
    CHECK_EQ(T.frame[0][14 + 20], 0); /* echo reply */
    f[0] = 0x02;                      /* another station's address */
    f[5] = 0x99;
    th_input(&T, f, 60, 20);
    CHECK_EQ(T.h.stats.drops[DROP_ETH_NOT_FOR_US], 1);
    memcpy(f, my_mac, 6);
    wr16(f + 12, 0x86DD);
    th_input(&T, f, 60, 30);
    CHECK_EQ(T.h.stats.drops[DROP_ETH_TYPE], 1);
    th_input(&T, f, 10, 40);
    CHECK_EQ(T.h.stats.drops[DROP_ETH_SHORT], 1);
}

static void test_pad_to_sixty(void)
{
    uint8_t f[64];
    memset(f, 0x55, sizeof f);
    CHECK_EQ(eth_pad(f, 42), 60);
    CHECK_EQ(f[41], 0x55);
    CHECK_EQ(f[42], 0);
    CHECK_EQ(f[59], 0);
    CHECK_EQ(eth_pad(f, 61), 61);
}

static void test_gratuitous_off_by_default(void)
{
    struct arp_config cfg;
    CHECK_EQ(start(NULL), 0);
    CHECK_EQ(T.n_frames, 0);
    arp_config_default(&cfg);
    cfg.gratuitous = 1;
    CHECK_EQ(start(&cfg), 0);
    CHECK_EQ(T.n_frames, 1);
    CHECK_EQ(rd32(T.frame[0] + 14 + 14), ME);
    CHECK_EQ(rd32(T.frame[0] + 14 + 24), ME);
}

/* A bridge's interface: no address of its own, answering for the hosts behind it. */
static struct {
    uint32_t n;
    uint16_t len[4];
    uint8_t f[4][64];
    uint32_t drops, last_drop, queued;
} B;

static void bridge_report(void *ctx, enum trace_kind kind, uint32_t a, uint32_t b, uint32_t c,
                          uint32_t d)
{
    (void)ctx;
    (void)b;
    (void)c;
    (void)d;
    if (kind == TRACE_DROP) {
        B.drops++;
        B.last_drop = a;
    } else if (kind == TRACE_ARP_QUEUE) {
        B.queued++;
    }
}

static int bridge_out(void *ctx, const uint8_t *frame, uint16_t len, uint32_t tag)
{
    (void)ctx;
    (void)tag;
    if (B.n < 4 && len <= 64) {
        memcpy(B.f[B.n], frame, len);
        B.len[B.n] = len;
    }
    B.n++;
    return 0;
}

static void test_bridge_proxy_answers_and_asks_for_others(void)
{
    static const uint8_t zero[6] = { 0 };
    struct arp_config cfg;
    struct arp_if a;
    uint8_t f[64], d[1600];
    uint16_t n;
    memset(&B, 0, sizeof B);
    arp_config_default(&cfg);
    CHECK_EQ(arp_init(&a, &cfg, my_mac, 0, 1500, arp_mem, sizeof arp_mem, bridge_out, bridge_report,
                      NULL),
             ERR_OK);
    CHECK_EQ(arp_add_proxy(&a, PEER), ERR_OK);
    /* The user asks for the appliance behind the bridge: the bridge answers. */
    n = arp_frame(f, ARP_OP_REQUEST, eth_broadcast, peer_mac, ME, zero, PEER);
    arp_input(&a, 0, f + ETH_HDR_LEN, (uint16_t)(n - ETH_HDR_LEN));
    CHECK_EQ(B.n, 1);
    CHECK_EQ(rd32(B.f[0] + 14 + 14), PEER); /* "192.168.1.102 is at" the bridge's MAC */
    CHECK_MEM(B.f[0] + 14 + 8, my_mac, 6);
    /* A datagram from the appliance to an unknown host: "Who has .7? Tell .102". */
    th_ip(d, 40, 1, 0, 64, IP_PROTO_TCP, PEER, IP4(192, 168, 1, 7));
    CHECK_EQ(arp_output(&a, 0, IP4(192, 168, 1, 7), d, 40, 77), 0);
    CHECK_EQ(B.n, 2);
    CHECK_EQ(rd32(B.f[1] + 14 + 14), PEER);
    CHECK_EQ(rd32(B.f[1] + 14 + 24), IP4(192, 168, 1, 7));
    /* A datagram above the interface's MTU (forwarded from a link with a larger one) is
     * dropped with a reason, never copied past the frame buffer. */
    CHECK_EQ(arp_output(&a, 0, IP4(192, 168, 1, 7), d, 1501, 78), 0);
    CHECK_EQ(B.n, 2);
    CHECK_EQ(B.queued, 1);
    CHECK_EQ(B.drops, 1);
    CHECK_EQ(B.last_drop, DROP_ETH_OVERSIZE);
    /* No answer for an address not behind the bridge. */
    n = arp_frame(f, ARP_OP_REQUEST, eth_broadcast, peer_mac, ME, zero, IP4(192, 168, 1, 8));
    arp_input(&a, 0, f + ETH_HDR_LEN, (uint16_t)(n - ETH_HDR_LEN));
    CHECK_EQ(B.n, 2);
}

/* Hostile input: frames of random bytes and lengths, half of them to our MAC with the
 * EtherType of ARP or IPv4, are all taken in (ASan watches) and the broken ones dropped
 * with a reason; a short or foreign frame never reaches ARP or IP. */
static void test_random_frames_are_dropped_with_reasons(void)
{
    uint32_t x = 12345, i, dropped = 0, r;
    uint8_t f[128];
    CHECK_EQ(start(NULL), 0);
    for (i = 0; i < 20000; i++) {
        uint16_t len, k;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        len = (uint16_t)(x % sizeof f);
        for (k = 0; k < len; k++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            f[k] = (uint8_t)x;
        }
        if ((x & 1) && len >= ETH_HDR_LEN)
            eth_header_write(f, my_mac, peer_mac, (x & 2) ? ETH_TYPE_ARP : ETH_TYPE_IPV4);
        th_input(&T, f, len, i);
    }
    CHECK_EQ(T.h.netifs[0].rx_frames, 20000);
    for (r = 0; r < DROP_REASON_COUNT; r++)
        dropped += T.h.stats.drops[r];
    CHECK(T.h.stats.drops[DROP_ETH_SHORT] > 0);
    CHECK(T.h.stats.drops[DROP_ETH_NOT_FOR_US] > 0);
    CHECK(T.h.stats.drops[DROP_ARP_BAD] > 0);
    CHECK(dropped >= 19000); /* random datagrams almost never pass IP's checksum */
}

UNIT_MAIN(UNIT(test_random_frames_are_dropped_with_reasons),
          UNIT(test_miss_sends_a_request_and_queues), UNIT(test_reply_releases_the_queue_then_hits),
          UNIT(test_retries_then_gives_up), UNIT(test_queue_bound_drops_with_a_reason),
          UNIT(test_entry_times_out), UNIT(test_request_for_us_is_answered),
          UNIT(test_padded_ip_frame_is_taken_and_others_dropped), UNIT(test_pad_to_sixty),
          UNIT(test_gratuitous_off_by_default), UNIT(test_bridge_proxy_answers_and_asks_for_others))
