/* ICMP: echo (RFC 792, RFC 1122 3.2.2.6), validation (RFC 1122 3.2.2), and the cases in
 * which no error may be sent (RFC 1122 3.2.2). */
#include "icmp.h"
#include "socket.h"
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

/* An echo request A -> B: id 0x1234, seq 1, `n` data bytes 0, 1, 2, ... */
static uint16_t echo_request(uint8_t *d, uint16_t n, uint32_t src, uint32_t dst)
{
    uint16_t i;
    th_ip(d, (uint16_t)(28 + n), 0x0101, 0, 64, IP_PROTO_ICMP, src, dst);
    d[20] = ICMP_ECHO_REQUEST;
    d[21] = 0;
    wr16(d + 22, 0);
    wr16(d + 24, 0x1234);
    wr16(d + 26, 1);
    for (i = 0; i < n; i++)
        d[28 + i] = (uint8_t)i;
    wr16(d + 22, inet_chksum(d + 20, (uint16_t)(8 + n)));
    return (uint16_t)(28 + n);
}

static void test_echo_request_gets_reply_with_same_data(void)
{
    uint8_t d[128];
    const uint8_t *o;
    uint32_t sum;
    uint16_t len = echo_request(d, 56, A_ADDR, B_ADDR);
    CHECK(start_b() == 0);
    th_input(&T, d, len, 5);
    CHECK_EQ(T.n_frames, 1);
    o = T.frame[0];
    CHECK_EQ(T.len[0], 84);
    CHECK_EQ(rd32(o + 12), B_ADDR);
    CHECK_EQ(rd32(o + 16), A_ADDR);
    CHECK_EQ(o[9], IP_PROTO_ICMP);
    CHECK_EQ(inet_chksum(o, 20), 0);
    CHECK_EQ(o[20], ICMP_ECHO_REPLY);
    CHECK_EQ(o[21], 0);
    CHECK_MEM(o + 24, d + 24, 4 + 56); /* identifier, sequence number, data */
    /* RFC 1624: only the type changed, 8 -> 0, in the high byte of the first word, so
     * the checksum grows by 0x0800 (end-around carry). */
    sum = rd16(d + 22) + 0x0800u;
    sum = (sum & 0xFFFFu) + (sum >> 16);
    CHECK_EQ(rd16(o + 22), sum);
    CHECK_EQ(T.h.icmp.in_echo, 1);
    th_free(&T);
}

static void test_fragmented_request_gets_fragmented_reply(void)
{
    static uint8_t d[1500];
    uint8_t f[600];
    uint16_t offs[3] = { 0, 552, 1104 }, lens[3] = { 552, 552, 304 }, i;
    echo_request(d, 1400, A_ADDR, B_ADDR);
    CHECK(start_b() == 0);
    for (i = 0; i < 3; i++) {
        th_ip(f, (uint16_t)(20 + lens[i]), 0x0101,
              (uint16_t)((i < 2 ? IP_FLAG_MF : 0) | (offs[i] / 8)), 64, IP_PROTO_ICMP, A_ADDR,
              B_ADDR);
        memcpy(f + 20, d + 20 + offs[i], lens[i]);
        th_input(&T, f, (uint16_t)(20 + lens[i]), i);
    }
    CHECK_EQ(T.n_frames, 3);
    CHECK_EQ(T.len[0], 572);
    CHECK_EQ(T.len[1], 572);
    CHECK_EQ(T.len[2], 324);
    CHECK_EQ(T.frame[0][20], ICMP_ECHO_REPLY);
    CHECK_MEM(T.frame[0] + 24, d + 24, 552 - 4);
    CHECK_MEM(T.frame[1] + 20, d + 20 + 552, 552);
    CHECK_MEM(T.frame[2] + 20, d + 20 + 1104, 304);
    th_free(&T);
}

/* A request reassembled from fragments and larger than the datagrams B builds (its
 * ip_max_datagram, 576) is answered whole (RFC 1122 3.2.2.6): the reply is built where the
 * request lies. 8000 data bytes: a 8028-byte datagram, 15 fragments each way over MTU 576
 * (14 of 552 data bytes and one of 280). */
static void test_request_larger_than_own_datagrams_answered_whole(void)
{
    static uint8_t d[8028], back[8008];
    uint8_t f[600];
    struct host_config cfg;
    uint16_t off, i;
    host_config_default(&cfg);
    cfg.ip_max_datagram = 576;
    cfg.ip_reass_max = 8028;
    CHECK(th_start(&T, &cfg, B_ADDR, 576) == 0);
    echo_request(d, 8000, A_ADDR, B_ADDR);
    for (off = 0; off < 8008; off = (uint16_t)(off + 552)) {
        uint16_t n = 8008 - off < 552 ? (uint16_t)(8008 - off) : 552;
        th_ip(f, (uint16_t)(20 + n), 0x0101,
              (uint16_t)((off + n < 8008 ? IP_FLAG_MF : 0) | (off / 8)), 64, IP_PROTO_ICMP, A_ADDR,
              B_ADDR);
        memcpy(f + 20, d + 20 + off, n);
        th_input(&T, f, (uint16_t)(20 + n), off);
    }
    CHECK_EQ(T.h.stats.drops[DROP_IP_REASS_TOO_BIG], 0);
    CHECK_EQ(T.n_frames, 15);
    for (i = 0; i < 15; i++) {
        uint16_t fo = rd16(T.frame[i] + 6), n = (uint16_t)(T.len[i] - 20);
        CHECK_EQ(rd32(T.frame[i] + 12), B_ADDR);
        CHECK_EQ(inet_chksum(T.frame[i], 20), 0);
        CHECK_EQ((fo & IP_FLAG_MF) != 0, i < 14);
        memcpy(back + (fo & IP_OFFSET_MASK) * 8u, T.frame[i] + 20, n);
    }
    CHECK_EQ(back[0], ICMP_ECHO_REPLY);
    CHECK_MEM(back + 4, d + 24, 8004); /* identifier, sequence number, all the data */
    CHECK_EQ(inet_chksum(back, 8008), 0);
    th_free(&T);
}

static void test_bad_messages_are_dropped_with_reason(void)
{
    uint8_t d[128];
    uint16_t len;
    CHECK(start_b() == 0);
    len = echo_request(d, 8, A_ADDR, B_ADDR);
    d[30] ^= 1;
    th_input(&T, d, len, 1);
    CHECK_EQ(T.h.stats.drops[DROP_ICMP_CHKSUM], 1);

    th_ip(d, 24, 1, 0, 64, IP_PROTO_ICMP, A_ADDR, B_ADDR); /* 4 bytes of ICMP */
    th_input(&T, d, 24, 2);
    CHECK_EQ(T.h.stats.drops[DROP_ICMP_SHORT], 1);

    len = echo_request(d, 8, A_ADDR, B_ADDR);
    d[20] = 13; /* timestamp request: not handled */
    wr16(d + 22, 0);
    wr16(d + 22, inet_chksum(d + 20, 16));
    th_input(&T, d, len, 3);
    CHECK_EQ(T.h.stats.drops[DROP_ICMP_TYPE], 1);

    len = echo_request(d, 8, A_ADDR, B_ADDR);
    d[20] = ICMP_ECHO_REPLY; /* a reply nobody is waiting for */
    wr16(d + 22, 0);
    wr16(d + 22, inet_chksum(d + 20, 16));
    th_input(&T, d, len, 4);
    CHECK_EQ(T.h.stats.drops[DROP_ICMP_TYPE], 2);
    CHECK_EQ(T.n_frames, 0);
    th_free(&T);
}

static void test_incoming_unreachable_for_udp_is_counted_not_acted_on(void)
{
    uint8_t d[64];
    CHECK(start_b() == 0);
    th_ip(d, 56, 1, 0, 64, IP_PROTO_ICMP, A_ADDR, B_ADDR);
    memset(d + 20, 0, 36);
    d[20] = ICMP_DEST_UNREACH;
    d[21] = ICMP_UNREACH_PORT;
    th_ip(d + 28, 28, 9, 0, 64, IP_PROTO_UDP, B_ADDR, A_ADDR); /* what we had sent */
    wr16(d + 22, inet_chksum(d + 20, 36));
    th_input(&T, d, 56, 1);
    CHECK_EQ(T.h.stats.drops[DROP_ICMP_TYPE], 1);
    CHECK_EQ(T.n_frames, 0); /* and above all, no error about an error */
    th_free(&T);
}

/* A UDP datagram to closed port 9 from `src` to `dst`: each case must get no ICMP. */
static void closed_port(uint32_t src, uint32_t dst)
{
    uint8_t d[64];
    th_ip(d, 36, 1, 0, 64, IP_PROTO_UDP, src, dst);
    wr16(d + 20, 1000);
    wr16(d + 22, 9);
    wr16(d + 24, 16);
    wr16(d + 26, 0);
    memset(d + 28, 0x61, 8);
    th_input(&T, d, 36, 1);
}

static void test_no_error_about_broadcast_or_unspecified_source(void)
{
    CHECK(start_b() == 0);
    closed_port(A_ADDR, B_ADDR);
    CHECK_EQ(T.n_frames, 1); /* the control case: port unreachable */
    closed_port(A_ADDR, 0xFFFFFFFFu);
    closed_port(0, B_ADDR);
    CHECK_EQ(T.h.stats.drops[DROP_UDP_NO_PORT], 3);
    CHECK_EQ(T.n_frames, 1);
    th_free(&T);
}

static void test_no_error_about_errors_fragments_or_subnet_broadcast(void)
{
    uint8_t d[64];
    struct ip_rx rx;
    CHECK(start_b() == 0);
    memset(d, 0, sizeof d);
    rx.dgram = d;
    rx.hlen = 20;
    rx.len = 36;
    rx.src = A_ADDR;
    rx.dst = B_ADDR;
    rx.ttl = 64;
    rx.netif = 0;

    rx.proto = IP_PROTO_ICMP;
    th_ip(d, 36, 1, 0, 64, IP_PROTO_ICMP, A_ADDR, B_ADDR);
    d[20] = ICMP_TIME_EXCEEDED; /* an error message */
    icmp_send_unreachable(&T.h, &rx, ICMP_UNREACH_PROTOCOL);
    CHECK_EQ(T.n_frames, 0);
    d[20] = ICMP_ECHO_REQUEST; /* a query: errors about it are allowed */
    icmp_send_unreachable(&T.h, &rx, ICMP_UNREACH_PROTOCOL);
    CHECK_EQ(T.n_frames, 1);

    rx.proto = IP_PROTO_UDP;
    th_ip(d, 36, 1, 69, 64, IP_PROTO_UDP, A_ADDR, B_ADDR); /* offset 552: not the first */
    icmp_send_unreachable(&T.h, &rx, ICMP_UNREACH_PORT);
    CHECK_EQ(T.n_frames, 1);
    th_ip(d, 36, 1, IP_FLAG_MF, 64, IP_PROTO_UDP, A_ADDR, B_ADDR); /* the first: allowed */
    icmp_send_unreachable(&T.h, &rx, ICMP_UNREACH_PORT);
    CHECK_EQ(T.n_frames, 2);

    th_ip(d, 36, 1, 0, 64, IP_PROTO_UDP, A_ADDR, IP4(10, 0, 7, 255));
    rx.dst = IP4(10, 0, 7, 255); /* our subnet's broadcast address */
    icmp_send_unreachable(&T.h, &rx, ICMP_UNREACH_PORT);
    rx.dst = IP4(224, 0, 0, 9); /* multicast */
    icmp_send_unreachable(&T.h, &rx, ICMP_UNREACH_PORT);
    rx.dst = B_ADDR;
    rx.src = IP4(127, 0, 0, 1); /* loopback source */
    icmp_send_unreachable(&T.h, &rx, ICMP_UNREACH_PORT);
    CHECK_EQ(T.n_frames, 2);
    th_free(&T);
}

static void test_echo_to_broadcast_answered_from_our_address(void)
{
    uint8_t d[64];
    uint16_t len = echo_request(d, 8, A_ADDR, 0xFFFFFFFFu);
    CHECK(start_b() == 0);
    th_input(&T, d, len, 1);
    CHECK_EQ(T.n_frames, 1);
    CHECK_EQ(rd32(T.frame[0] + 12), B_ADDR); /* RFC 1122 3.2.2.6 */
    th_free(&T);
}

UNIT_MAIN(UNIT(test_echo_request_gets_reply_with_same_data),
          UNIT(test_fragmented_request_gets_fragmented_reply),
          UNIT(test_request_larger_than_own_datagrams_answered_whole),
          UNIT(test_bad_messages_are_dropped_with_reason),
          UNIT(test_incoming_unreachable_for_udp_is_counted_not_acted_on),
          UNIT(test_no_error_about_broadcast_or_unspecified_source),
          UNIT(test_no_error_about_errors_fragments_or_subnet_broadcast),
          UNIT(test_echo_to_broadcast_answered_from_our_address))
