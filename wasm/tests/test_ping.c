/* The ping client against the numbers and the text of Linux's ping (iputils).
 *
 * Link model for the fake_net runs: 57600 baud, 10 bits per byte (8N1), 1 ms latency
 * each way, MTU 576, as the Arduino seed (reference/seed-numbers.md section 1) without
 * SLIP's END bytes. A datagram of L bytes takes floor(L * 10 * 10^6 / 57600) us to send,
 * so for `ping -s P` (L = P + 28) the RTT is 2 * (floor(L * 10^7 / 57600) + 1000):
 *   P = 0:    L = 28:  4861.1 -> 4861 us,  RTT  11722 us
 *   P = 56:   L = 84:  14583.3 -> 14583,   RTT  31166 us ("31.2 ms")
 *   P = 548:  L = 576: 100000 exactly,     RTT 202000 us ("202 ms")
 *   P = 1400: L = 1428 in fragments 572 + 572 + 324: 99305.5 -> 99305 twice and 56250;
 *             the last piece reaches B at 254860 + 1000 = 255860, B's three pieces take
 *             254860 more and the last arrives at 255860 + 254860 + 1000 = 511720 us.
 */
#include <stdio.h>

#include "fake_net.h"
#include "icmp.h"
#include "ping.h"
#include "test_host.h"
#include "unit.h"

#define A_ADDR IP4(10, 0, 7, 1)
#define B_ADDR IP4(10, 0, 7, 2)

static struct fake_net net;

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

static int pair_start(uint32_t rate, uint8_t bits, uint32_t delay)
{
    struct host_config cfg;
    host_config_default(&cfg);
    fake_net_init(&net, 11);
    if (fake_net_add_host(&net, &cfg) != 0 || fake_net_add_host(&net, &cfg) != 1 ||
        fake_net_connect(&net, 0, A_ADDR, 1, B_ADDR, 576, rate, delay) != 0)
        return -1;
    net.links[0].bits_per_byte = bits;
    net.ctx = &net.hosts[0];
    return 0;
}

static int a_done(void *ctx)
{
    return ping_done((const struct host *)ctx);
}

static void check_run(uint16_t payload, uint32_t rtt, const char *line1, const char *summary)
{
    struct ping_event ev;
    char text[256];
    uint16_t seq;
    CHECK(pair_start(57600, 10, 1000) == 0);
    CHECK_EQ(ping_start(&net.hosts[0], B_ADDR, 0x4d2, payload, 3, 1000, 10000), ERR_OK);
    CHECK(fake_net_run(&net, 10000000u, a_done));
    CHECK_EQ(net.now, 2000000u + rtt); /* done with the third reply */
    for (seq = 1; seq <= 3; seq++) {
        CHECK(ping_next_event(&net.hosts[0], &ev));
        CHECK_EQ(ev.kind, PING_EV_REPLY);
        CHECK_EQ(ev.seq, seq);
        CHECK_EQ(ev.rtt_us, rtt);
        CHECK_EQ(ev.bytes, payload + 8);
        CHECK_EQ(ev.ttl, 64);
        CHECK_EQ(ev.from, B_ADDR);
        if (seq == 1) {
            ping_format_event(&ev, text, sizeof text);
            CHECK(strcmp(text, line1) == 0);
        }
    }
    CHECK(!ping_next_event(&net.hosts[0], &ev));
    ping_format_summary(&net.hosts[0], text, sizeof text);
    if (strcmp(text, summary) != 0)
        printf("    got: %s", text);
    CHECK(strcmp(text, summary) == 0);
    CHECK_EQ(net.hosts[1].icmp.in_echo, 3);
}

NET_TEST(test_ping_payload_0, &net)
{
    /* No room for the timestamp: Linux prints no time and no rtt line. */
    check_run(0, 11722, "8 bytes from 10.0.7.2: icmp_seq=1 ttl=64",
              "--- 10.0.7.2 ping statistics ---\n"
              "3 packets transmitted, 3 received, 0% packet loss, time 2000ms\n\n");
    fake_net_free(&net);
}

NET_TEST(test_ping_payload_56, &net)
{
    check_run(56, 31166, "64 bytes from 10.0.7.2: icmp_seq=1 ttl=64 time=31.2 ms",
              "--- 10.0.7.2 ping statistics ---\n"
              "3 packets transmitted, 3 received, 0% packet loss, time 2000ms\n"
              "rtt min/avg/max/mdev = 31.166/31.166/31.166/0.000 ms\n");
    fake_net_free(&net);
}

NET_TEST(test_ping_payload_548, &net)
{
    check_run(548, 202000, "556 bytes from 10.0.7.2: icmp_seq=1 ttl=64 time=202 ms",
              "--- 10.0.7.2 ping statistics ---\n"
              "3 packets transmitted, 3 received, 0% packet loss, time 2000ms\n"
              "rtt min/avg/max/mdev = 202.000/202.000/202.000/0.000 ms\n");
    CHECK_EQ(net.hosts[0].ip.counters.frag_created, 0); /* 576 bytes: exactly the MTU */
    fake_net_free(&net);
}

NET_TEST(test_ping_payload_1400_fragmented, &net)
{
    check_run(1400, 511720, "1408 bytes from 10.0.7.2: icmp_seq=1 ttl=64 time=512 ms",
              "--- 10.0.7.2 ping statistics ---\n"
              "3 packets transmitted, 3 received, 0% packet loss, time 2000ms\n"
              "rtt min/avg/max/mdev = 511.720/511.720/511.720/0.000 ms\n");
    CHECK_EQ(net.hosts[0].ip.counters.frag_created, 9);
    CHECK_EQ(net.hosts[1].ip.counters.reass_ok, 3);
    CHECK_EQ(net.hosts[1].ip.counters.frag_created, 9);
    CHECK_EQ(net.hosts[0].ip.counters.reass_ok, 3);
    fake_net_free(&net);
}

NET_TEST(test_pipe_when_rtt_exceeds_interval, &net)
{
    /* 576-byte requests every 100 ms on a link that needs 100 ms per frame: each reply
     * comes 202 ms after its request; when the first arrives the third is already out. */
    char text[256];
    CHECK(pair_start(57600, 10, 1000) == 0);
    CHECK_EQ(ping_start(&net.hosts[0], B_ADDR, 1, 548, 3, 100, 10000), ERR_OK);
    CHECK(fake_net_run(&net, 10000000u, a_done));
    ping_format_summary(&net.hosts[0], text, sizeof text);
    CHECK(strcmp(text, "--- 10.0.7.2 ping statistics ---\n"
                       "3 packets transmitted, 3 received, 0% packet loss, time 200ms\n"
                       "rtt min/avg/max/mdev = 202.000/202.000/202.000/0.000 ms, pipe 3\n") == 0);
    fake_net_free(&net);
}

NET_TEST(test_flood_prints_ipg_and_ewma, &net)
{
    /* Interval 0: the next request leaves when a reply comes. 2 ms RTT, so requests at
     * 0, 2 and 4 ms: ipg = 4000 / 2 = 2000 us; the EWMA of equal samples is the sample. */
    char text[256];
    CHECK(pair_start(0, 8, 1000) == 0);
    CHECK_EQ(ping_start(&net.hosts[0], B_ADDR, 1, 56, 3, 0, 10000), ERR_OK);
    CHECK(fake_net_run(&net, 10000000u, a_done));
    ping_format_summary(&net.hosts[0], text, sizeof text);
    CHECK(strcmp(text, "--- 10.0.7.2 ping statistics ---\n"
                       "3 packets transmitted, 3 received, 0% packet loss, time 4ms\n"
                       "rtt min/avg/max/mdev = 2.000/2.000/2.000/0.000 ms, "
                       "ipg/ewma 2.000/2.000 ms\n") == 0);
    fake_net_free(&net);
}

/* ---- one host, replies made by hand ---- */

static struct th T;

static int a_start(void)
{
    struct host_config cfg;
    host_config_default(&cfg);
    return th_start(&T, &cfg, A_ADDR, 576);
}

/* Answers captured request `i` at time `at`, as B would. */
static void answer(uint32_t i, stack_time_t at)
{
    uint8_t r[TH_FRAME];
    uint16_t len = T.len[i];
    memcpy(r, T.frame[i], len);
    th_ip(r, len, 0x9999, 0, 64, IP_PROTO_ICMP, B_ADDR, A_ADDR);
    r[20] = ICMP_ECHO_REPLY;
    wr16(r + 22, 0);
    wr16(r + 22, inet_chksum(r + 20, (uint16_t)(len - 20)));
    th_input(&T, r, len, at);
}

static void test_request_carries_timestamp_and_linux_pattern(void)
{
    const uint8_t *m;
    static const uint8_t tv[16] = { 1, 0, 0, 0, 0, 0, 0, 0, 0x47, 0x94, 0x03, 0, 0, 0, 0, 0 };
    uint16_t i;
    CHECK(a_start() == 0);
    host_poll(&T.h, 1234567u); /* tv_sec 1, tv_usec 234567 = 0x039447 */
    CHECK_EQ(ping_start(&T.h, B_ADDR, 0xBEEF, 56, 1, 1000, 1000), ERR_OK);
    CHECK_EQ(T.n_frames, 1);
    CHECK_EQ(T.len[0], 84);
    m = T.frame[0] + 20;
    CHECK_EQ(m[0], ICMP_ECHO_REQUEST);
    CHECK_EQ(rd16(m + 4), 0xBEEF);
    CHECK_EQ(rd16(m + 6), 1); /* iputils counts from 1 */
    CHECK_MEM(m + 8, tv, 16);
    for (i = 16; i < 56; i++)
        CHECK_EQ(m[8 + i], i); /* 0x10, 0x11, ... */
    CHECK_EQ(inet_chksum(m, 64), 0);
    th_free(&T);

    CHECK(a_start() == 0); /* below 16 bytes the fill covers everything */
    CHECK_EQ(ping_start(&T.h, B_ADDR, 1, 5, 1, 1000, 1000), ERR_OK);
    CHECK_MEM(T.frame[0] + 28, "\0\1\2\3\4", 5);
    th_free(&T);
}

static void test_stats_as_iputils(void)
{
    /* RTTs 1, 2 and 4 ms. avg = 7000 / 3 = 2333 us. iputils' variance:
     * (21e6 - 7000^2 / 3) / 3 = 1555555.6 -> 1555555; sqrt = 1247.2 -> 1247 us
     * (the population standard deviation of {1, 2, 4} is sqrt(14/9) = 1.2472 ms). */
    char text[256];
    struct ping_stats st;
    CHECK(a_start() == 0);
    CHECK_EQ(ping_start(&T.h, B_ADDR, 7, 56, 3, 1000, 5000), ERR_OK);
    answer(0, 1000);
    host_poll(&T.h, 1000000u);
    answer(1, 1002000u);
    host_poll(&T.h, 2000000u);
    CHECK(!ping_done(&T.h));
    answer(2, 2004000u);
    CHECK(ping_done(&T.h));
    ping_get_stats(&T.h, &st);
    CHECK_EQ(st.min_us, 1000);
    CHECK_EQ(st.avg_us, 2333);
    CHECK_EQ(st.max_us, 4000);
    CHECK_EQ(st.mdev_us, 1247);
    ping_format_summary(&T.h, text, sizeof text);
    CHECK(strcmp(text, "--- 10.0.7.2 ping statistics ---\n"
                       "3 packets transmitted, 3 received, 0% packet loss, time 2000ms\n"
                       "rtt min/avg/max/mdev = 1.000/2.333/4.000/1.247 ms\n") == 0);
    th_free(&T);
}

static void test_duplicates_counted_and_marked(void)
{
    /* As above plus a second reply to seq 2 after 2.5 ms. iputils adds duplicates to the
     * RTT sums: total 4, tsum 9500, avg 2375; tsum2 = 27.25e6; variance
     * (27250000 - 9500^2 / 4) / 4 = 1171875; sqrt = 1082.5 -> 1082. */
    struct ping_event ev;
    char text[256];
    CHECK(a_start() == 0);
    CHECK_EQ(ping_start(&T.h, B_ADDR, 7, 56, 3, 1000, 5000), ERR_OK);
    answer(0, 1000);
    host_poll(&T.h, 1000000u);
    answer(1, 1002000u);
    answer(1, 1002500u);
    host_poll(&T.h, 2000000u);
    answer(2, 2004000u);
    CHECK(ping_next_event(&T.h, &ev));
    CHECK(ping_next_event(&T.h, &ev));
    CHECK(ping_next_event(&T.h, &ev));
    CHECK_EQ(ev.kind, PING_EV_DUP);
    ping_format_event(&ev, text, sizeof text);
    CHECK(strcmp(text, "64 bytes from 10.0.7.2: icmp_seq=2 ttl=64 time=2.50 ms (DUP!)") == 0);
    ping_format_summary(&T.h, text, sizeof text);
    CHECK(strcmp(text, "--- 10.0.7.2 ping statistics ---\n"
                       "3 packets transmitted, 3 received, +1 duplicates, 0% packet loss, "
                       "time 2000ms\n"
                       "rtt min/avg/max/mdev = 1.000/2.375/4.000/1.082 ms\n") == 0);
    th_free(&T);
}

static void test_loss_and_the_wait_after_the_last_request(void)
{
    /* Seq 3 unanswered. iputils waits 2 x the longest RTT, at least one interval, after the
     * last request: max(4 ms, 1000 ms) -> done at 3.0 s. Variance of {1000, 2000}:
     * (5e6 - 9e6 / 2) / 2 = 250000, sqrt 500. */
    char text[256];
    stack_time_t when;
    CHECK(a_start() == 0);
    CHECK_EQ(ping_start(&T.h, B_ADDR, 7, 56, 3, 1000, 5000), ERR_OK);
    answer(0, 1000);
    host_poll(&T.h, 1000000u);
    answer(1, 1002000u);
    host_poll(&T.h, 2000000u);
    CHECK(host_next_deadline(&T.h, &when));
    CHECK_EQ(when, 3000000u);
    host_poll(&T.h, 2999999u);
    CHECK(!ping_done(&T.h));
    host_poll(&T.h, 3000000u);
    CHECK(ping_done(&T.h));
    ping_format_summary(&T.h, text, sizeof text);
    CHECK(strcmp(text, "--- 10.0.7.2 ping statistics ---\n"
                       "3 packets transmitted, 2 received, 33.3333% packet loss, time 2000ms\n"
                       "rtt min/avg/max/mdev = 1.000/1.500/2.000/0.500 ms\n") == 0);
    th_free(&T);
}

static void test_nothing_answered_waits_the_timeout(void)
{
    char text[256];
    stack_time_t when;
    CHECK(a_start() == 0);
    CHECK_EQ(ping_start(&T.h, B_ADDR, 7, 56, 3, 1000, 5000), ERR_OK);
    host_poll(&T.h, 1000000u);
    host_poll(&T.h, 2000000u);
    CHECK_EQ(T.n_frames, 3);
    CHECK(host_next_deadline(&T.h, &when));
    CHECK_EQ(when, 7000000u); /* -W 5: 5 s after the last request */
    host_poll(&T.h, 7000000u);
    CHECK(ping_done(&T.h));
    ping_format_summary(&T.h, text, sizeof text);
    CHECK(strcmp(text,
                 "--- 10.0.7.2 ping statistics ---\n"
                 "3 packets transmitted, 0 received, 100% packet loss, time 2000ms\n\n") == 0);
    CHECK(!host_next_deadline(&T.h, &when));
    th_free(&T);
}

static void test_foreign_replies_and_bad_arguments(void)
{
    CHECK(a_start() == 0);
    CHECK_EQ(ping_start(&T.h, B_ADDR, 7, 1473, 1, 1000, 5000), ERR_ARG); /* 1500 - 28 */
    CHECK_EQ(ping_start(&T.h, 0, 7, 56, 1, 1000, 5000), ERR_ARG);
    CHECK_EQ(ping_start(&T.h, B_ADDR, 7, 56, 2, 1000, 5000), ERR_OK);
    CHECK_EQ(ping_start(&T.h, B_ADDR, 7, 56, 2, 1000, 5000), ERR_STATE);
    T.frame[0][24] ^= 0x01; /* another identifier */
    answer(0, 10);
    CHECK_EQ(T.h.stats.drops[DROP_ICMP_TYPE], 1);
    CHECK_EQ(T.h.icmp.ping.received, 0);
    T.frame[0][24] ^= 0x01;
    wr16(T.frame[0] + 26, 9); /* a sequence number never sent */
    answer(0, 20);
    CHECK_EQ(T.h.stats.drops[DROP_ICMP_TYPE], 2);
    ping_stop(&T.h);
    CHECK(ping_done(&T.h));
    th_free(&T);
}

static void test_seed_summary_reproduced(void)
{
    /* The seed's 15 pings (arduino-echo-server.txt), set into the statistics: tsum =
     * 15 x 31361; tsum2 = tsum^2 / 15 + 15 x 315^2, so the variance is 315^2 exactly. */
    struct ping_state *p;
    char text[256];
    CHECK(a_start() == 0);
    p = &T.h.icmp.ping;
    p->phase = PING_DONE;
    p->dst = B_ADDR;
    p->payload = 56;
    p->interval_us = 1000000u;
    p->transmitted = p->received = 15;
    p->start = 0;
    p->last_send = 14014000u;
    p->tmin = 31037;
    p->tmax = 31963;
    p->tsum = 470415u;
    p->tsum2 = 14754173190ull;
    ping_format_summary(&T.h, text, sizeof text);
    CHECK(strcmp(text, "--- 10.0.7.2 ping statistics ---\n"
                       "15 packets transmitted, 15 received, 0% packet loss, time 14014ms\n"
                       "rtt min/avg/max/mdev = 31.037/31.361/31.963/0.315 ms\n") == 0);
    ping_format_header(&T.h, text, sizeof text);
    CHECK(strcmp(text, "PING 10.0.7.2 (10.0.7.2) 56(84) bytes of data.") == 0);
    th_free(&T);
}

UNIT_MAIN(UNIT(test_ping_payload_0), UNIT(test_ping_payload_56), UNIT(test_ping_payload_548),
          UNIT(test_ping_payload_1400_fragmented), UNIT(test_pipe_when_rtt_exceeds_interval),
          UNIT(test_flood_prints_ipg_and_ewma),
          UNIT(test_request_carries_timestamp_and_linux_pattern), UNIT(test_stats_as_iputils),
          UNIT(test_duplicates_counted_and_marked),
          UNIT(test_loss_and_the_wait_after_the_last_request),
          UNIT(test_nothing_answered_waits_the_timeout),
          UNIT(test_foreign_replies_and_bad_arguments), UNIT(test_seed_summary_reproduced))
