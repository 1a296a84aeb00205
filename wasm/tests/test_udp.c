/* UDP (RFC 768, RFC 1122 4.1) and its socket calls (the thesis's udpsocket ... udpclose),
 * and the echo (RFC 862) and discard (RFC 863) services. */
#include "app_udp_services.h"
#include "fake_net.h"
#include "icmp.h"
#include "socket.h"
#include "test_host.h"
#include "udp.h"
#include "udp_pcb.h"
#include "unit.h"

#define A_ADDR IP4(10, 0, 7, 1)
#define B_ADDR IP4(10, 0, 7, 2)

static struct th T;

static int start_b(uint16_t rcv_buf)
{
    struct host_config cfg;
    host_config_default(&cfg);
    if (rcv_buf)
        cfg.udp_rcv_buf = rcv_buf;
    return th_start(&T, &cfg, B_ADDR, 576);
}

/* A datagram A:sport -> B:dport with n data bytes of `fill`, checksum computed unless
 * `no_sum`. Returns the IP length. */
static uint16_t udp_dgram(uint8_t *d, uint16_t sport, uint16_t dport, uint16_t n, uint8_t fill,
                          int no_sum)
{
    uint16_t ulen = (uint16_t)(8 + n), c;
    th_ip(d, (uint16_t)(20 + ulen), 7, 0, 64, IP_PROTO_UDP, A_ADDR, B_ADDR);
    wr16(d + 20, sport);
    wr16(d + 22, dport);
    wr16(d + 24, ulen);
    wr16(d + 26, 0);
    memset(d + 28, fill, n);
    if (!no_sum) {
        c = inet_fold(inet_sum(inet_pseudo_sum(A_ADDR, B_ADDR, IP_PROTO_UDP, ulen), d + 20, ulen));
        wr16(d + 26, c ? c : 0xFFFF);
    }
    return (uint16_t)(20 + ulen);
}

static int bind_port(uint16_t port)
{
    struct stack_sockaddr a = { 0, 0 };
    int s = udpsocket(&T.h);
    a.port = port;
    if (s < 0)
        return s;
    return udpbind(&T.h, s, &a) == ERR_OK ? s : -100;
}

static void test_bind_conflicts_and_ephemeral_ports(void)
{
    struct stack_sockaddr any7 = { 0, 7 }, mine7 = { B_ADDR, 7 }, other = { IP4(10, 0, 9, 9), 8 },
                          any0 = { 0, 0 };
    int s1, s2, s3, s4;
    CHECK(start_b(0) == 0);
    s1 = udpsocket(&T.h);
    s2 = udpsocket(&T.h);
    CHECK(s1 >= 0 && s2 >= 0 && s1 != s2);
    CHECK_EQ(udpbind(&T.h, s1, &any7), ERR_OK);
    CHECK_EQ(udpbind(&T.h, s2, &any7), ERR_USE);
    CHECK_EQ(udpbind(&T.h, s2, &mine7), ERR_USE);  /* the wildcard already holds it */
    CHECK_EQ(udpbind(&T.h, s2, &other), ERR_ARG);  /* not one of our addresses */
    CHECK_EQ(udpbind(&T.h, s1, &any0), ERR_STATE); /* bound already */
    CHECK_EQ(udpbind(&T.h, s2, &any0), ERR_OK);
    CHECK(T.h.udp.pcbs[s2].local_port >= 49152u);
    s3 = udpsocket(&T.h);
    CHECK_EQ(udpbind(&T.h, s3, &any0), ERR_OK);
    CHECK(T.h.udp.pcbs[s3].local_port >= 49152u);
    CHECK(T.h.udp.pcbs[s3].local_port != T.h.udp.pcbs[s2].local_port);
    s4 = udpsocket(&T.h);
    CHECK(s4 >= 0);
    CHECK_EQ(udpsocket(&T.h), ERR_MEM); /* 4 sockets by default */
    CHECK_EQ(udpclose(&T.h, s1), ERR_OK);
    CHECK_EQ(udpbind(&T.h, s4, &any7), ERR_OK); /* port 7 is free again */
    CHECK_EQ(udpclose(&T.h, s1), ERR_ARG);
    CHECK_EQ(udpbind(&T.h, 9, &any7), ERR_ARG);
    th_free(&T);
}

static void test_sendto_bytes_and_checksum(void)
{
    /* B:7 -> A:5000, "hi". Checksum by hand: pseudo-header 0a00 + 0702 + 0a00 + 0701 +
     * 0011 + 000a = 221e; header 0007 + 1388 + 000a = 1399; data 6869; total 9e20;
     * complement 61df. */
    struct stack_sockaddr dst = { A_ADDR, 5000 };
    const uint8_t *o;
    int s = -1;
    CHECK(start_b(0) == 0);
    s = bind_port(7);
    CHECK(s >= 0);
    CHECK_EQ(udpsendto(&T.h, s, &dst, "hi", 2), 2);
    CHECK_EQ(T.n_frames, 1);
    o = T.frame[0];
    CHECK_EQ(T.len[0], 30);
    CHECK_EQ(o[9], IP_PROTO_UDP);
    CHECK_EQ(rd32(o + 12), B_ADDR);
    CHECK_EQ(rd32(o + 16), A_ADDR);
    CHECK_EQ(rd16(o + 20), 7);
    CHECK_EQ(rd16(o + 22), 5000);
    CHECK_EQ(rd16(o + 24), 10);
    CHECK_EQ(rd16(o + 26), 0x61df);
    CHECK_MEM(o + 28, "hi", 2);
    /* Data ca 48 makes the sum ffff (35b7 + ca48): the checksum would be 0, which means
     * "none", so it goes out as ffff (RFC 768). */
    CHECK_EQ(udpsendto(&T.h, s, &dst, "\xca\x48", 2), 2);
    CHECK_EQ(rd16(T.frame[1] + 26), 0xFFFF);
    CHECK_EQ(T.h.udp.out_datagrams, 2);
    dst.port = 0;
    CHECK_EQ(udpsendto(&T.h, s, &dst, "hi", 2), ERR_ARG);
    dst.port = 1;
    {
        static uint8_t big[1473]; /* 1500 - 20 - 8 = 1472 fit */
        CHECK_EQ(udpsendto(&T.h, s, &dst, big, 1473), ERR_ARG);
        CHECK_EQ(udpsendto(&T.h, s, &dst, big, 1472), 1472); /* fragmented below */
        CHECK_EQ(T.n_frames, 2 + 3);
    }
    th_free(&T);
}

static void test_sendto_unbound_picks_ephemeral_port(void)
{
    struct stack_sockaddr dst = { A_ADDR, 53 };
    int s;
    CHECK(start_b(0) == 0);
    s = udpsocket(&T.h);
    CHECK_EQ(udpsendto(&T.h, s, &dst, "q", 1), 1);
    CHECK(rd16(T.frame[0] + 20) >= 49152u);
    CHECK_EQ(rd16(T.frame[0] + 20), T.h.udp.pcbs[s].local_port);
    th_free(&T);
}

static void test_recvfrom_truncates_and_discards_the_rest(void)
{
    uint8_t d[64], buf[16];
    struct stack_sockaddr src;
    uint16_t len;
    int s;
    CHECK(start_b(0) == 0);
    s = bind_port(5000);
    CHECK(s >= 0);
    CHECK_EQ(udprecvfrom(&T.h, s, &src, buf, sizeof buf), ERR_WOULDBLOCK);
    len = udp_dgram(d, 4000, 5000, 10, 0x41, 1); /* no checksum: the data is set after */
    memcpy(d + 28, "0123456789", 10);
    th_input(&T, d, len, 1);
    CHECK_EQ(udp_next_len(&T.h, s), 10);
    memset(buf, 0, sizeof buf);
    CHECK_EQ(udprecvfrom(&T.h, s, &src, buf, 4), 4);
    CHECK_MEM(buf, "0123\0", 5);
    CHECK_EQ(src.addr, A_ADDR);
    CHECK_EQ(src.port, 4000);
    CHECK_EQ(udprecvfrom(&T.h, s, &src, buf, sizeof buf), ERR_WOULDBLOCK); /* rest gone */
    th_free(&T);
}

static void test_closed_port_gets_port_unreachable_quoting_datagram(void)
{
    uint8_t d[64], expect[36];
    const uint8_t *o;
    uint16_t len;
    CHECK(start_b(0) == 0);
    len = udp_dgram(d, 4000, 9999, 20, 0x55, 0);
    th_input(&T, d, len, 1);
    CHECK_EQ(T.h.stats.drops[DROP_UDP_NO_PORT], 1);
    CHECK_EQ(T.n_frames, 1);
    o = T.frame[0];
    CHECK_EQ(T.len[0], 56);
    CHECK_EQ(rd32(o + 12), B_ADDR);
    CHECK_EQ(rd32(o + 16), A_ADDR);
    memset(expect, 0, sizeof expect);
    expect[0] = ICMP_DEST_UNREACH;
    expect[1] = ICMP_UNREACH_PORT;
    memcpy(expect + 8, d, 28); /* IP header and the 8-byte UDP header */
    CHECK_MEM(o + 20, expect, 2);
    CHECK_MEM(o + 24, expect + 4, 32);
    CHECK_EQ(inet_chksum(o + 20, 36), 0);
    th_free(&T);
}

static void test_bad_length_and_checksum_dropped(void)
{
    uint8_t d[64];
    uint16_t len;
    int s;
    CHECK(start_b(0) == 0);
    s = bind_port(5000);
    len = udp_dgram(d, 4000, 5000, 10, 0x41, 0);
    d[30] ^= 0x10;
    th_input(&T, d, len, 1);
    CHECK_EQ(T.h.stats.drops[DROP_UDP_CHKSUM], 1);
    len = udp_dgram(d, 4000, 5000, 10, 0x41, 1);
    wr16(d + 24, 19); /* UDP length past the datagram */
    th_input(&T, d, len, 2);
    wr16(d + 24, 7); /* shorter than the header */
    th_input(&T, d, len, 3);
    CHECK_EQ(T.h.stats.drops[DROP_UDP_SHORT], 2);
    len = udp_dgram(d, 4000, 5000, 10, 0x41, 1);
    wr16(d + 24, 12); /* shorter than IP says: the 6 bytes after it are not data */
    th_input(&T, d, len, 4);
    CHECK_EQ(udp_next_len(&T.h, s), 4);
    CHECK_EQ(T.n_frames, 0);
    th_free(&T);
}

static void test_receive_queue_overflow_counted_and_ring_wraps(void)
{
    /* 2048 bytes of queue; each 500-byte datagram takes 508 with its record header:
     * four fit (2032), the fifth is dropped. After one is read, one more fits, wrapping
     * around the end of the ring. */
    uint8_t d[600], buf[600];
    struct stack_sockaddr src;
    uint16_t len;
    int s, i;
    CHECK(start_b(2048) == 0);
    s = bind_port(5000);
    for (i = 0; i < 5; i++) {
        len = udp_dgram(d, (uint16_t)(4000 + i), 5000, 500, (uint8_t)(0x30 + i), 0);
        th_input(&T, d, len, (stack_time_t)i);
    }
    CHECK_EQ(T.h.stats.drops[DROP_UDP_RCVBUF_FULL], 1);
    CHECK_EQ(T.h.udp.pcbs[s].rx_dropped, 1);
    CHECK_EQ(udprecvfrom(&T.h, s, &src, buf, sizeof buf), 500);
    CHECK_EQ(buf[0], 0x30);
    len = udp_dgram(d, 4009, 5000, 500, 0x39, 0);
    th_input(&T, d, len, 9);
    CHECK_EQ(T.h.stats.drops[DROP_UDP_RCVBUF_FULL], 1);
    for (i = 1; i < 5; i++) {
        uint8_t want = (uint8_t)(i < 4 ? 0x30 + i : 0x39);
        uint16_t k;
        CHECK_EQ(udprecvfrom(&T.h, s, &src, buf, sizeof buf), 500);
        CHECK_EQ(src.port, i < 4 ? 4000 + i : 4009);
        for (k = 0; k < 500; k++)
            CHECK_EQ(buf[k], want);
    }
    CHECK_EQ(udprecvfrom(&T.h, s, &src, buf, sizeof buf), ERR_WOULDBLOCK);
    th_free(&T);
}

/* ---- two hosts: the echo and discard services ---- */

static struct fake_net net;
static struct app_udp_service echo_svc, discard_svc;

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

static int poll_services(void *ctx, struct fake_net *n, stack_time_t *next)
{
    (void)ctx;
    app_udp_service_poll(&echo_svc, &n->hosts[1], next);
    app_udp_service_poll(&discard_svc, &n->hosts[1], next);
    return 0;
}

NET_TEST(test_echo_round_trip_and_discard, &net)
{
    struct host_config cfg;
    struct stack_sockaddr to_echo = { B_ADDR, 7 }, to_discard = { B_ADDR, 9 }, from;
    char buf[64];
    int s;
    host_config_default(&cfg);
    fake_net_init(&net, 5);
    CHECK_EQ(fake_net_add_host(&net, &cfg), 0);
    CHECK_EQ(fake_net_add_host(&net, &cfg), 1);
    CHECK_EQ(fake_net_connect(&net, 0, A_ADDR, 1, B_ADDR, 576, 57600, 1000), 0);
    net.links[0].bits_per_byte = 10;
    CHECK_EQ(app_udp_echo_start(&echo_svc, &net.hosts[1], 0), ERR_OK);
    CHECK_EQ(app_udp_discard_start(&discard_svc, &net.hosts[1], 0), ERR_OK);
    net.poll = poll_services;
    s = udpsocket(&net.hosts[0]);
    CHECK_EQ(udpsendto(&net.hosts[0], s, &to_echo, "hello, echo", 11), 11);
    CHECK_EQ(udpsendto(&net.hosts[0], s, &to_discard, "into the void", 13), 13);
    fake_net_run(&net, 1000000u, NULL);
    CHECK_EQ(udprecvfrom(&net.hosts[0], s, &from, buf, sizeof buf), 11);
    CHECK_MEM(buf, "hello, echo", 11);
    CHECK_EQ(from.addr, B_ADDR);
    CHECK_EQ(from.port, 7);
    CHECK_EQ(udprecvfrom(&net.hosts[0], s, &from, buf, sizeof buf), ERR_WOULDBLOCK);
    CHECK_EQ(echo_svc.datagrams, 1);
    CHECK_EQ(echo_svc.replies, 1);
    CHECK_EQ(discard_svc.datagrams, 1);
    CHECK_EQ(discard_svc.bytes, 13);
    CHECK_EQ(discard_svc.replies, 0);
    /* 39 bytes each way at 5760 bytes/s: 6770.8 -> 6770 us, plus 1000 us; the echo
     * leaves B at 7770 us (the discard datagram, 41 bytes, queues behind it on A's side
     * only) and reaches A at 15540 us. */
    CHECK_EQ(net.links[0].end[1].busy_until, 7770u + 6770u);
    app_udp_service_stop(&echo_svc, &net.hosts[1]);
    app_udp_service_stop(&discard_svc, &net.hosts[1]);
    fake_net_free(&net);
}

UNIT_MAIN(UNIT(test_bind_conflicts_and_ephemeral_ports), UNIT(test_sendto_bytes_and_checksum),
          UNIT(test_sendto_unbound_picks_ephemeral_port),
          UNIT(test_recvfrom_truncates_and_discards_the_rest),
          UNIT(test_closed_port_gets_port_unreachable_quoting_datagram),
          UNIT(test_bad_length_and_checksum_dropped),
          UNIT(test_receive_queue_overflow_counted_and_ring_wraps),
          UNIT(test_echo_round_trip_and_discard))
