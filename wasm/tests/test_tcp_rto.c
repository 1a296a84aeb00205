/* RTO estimators (tcp_rto.h): RFC 6298, lwIP's Van Jacobson ticks and fixed (the NFC
 * paper's Algorithm 1 is in test_tcp_rto_alg1.c). Every expected value is worked out by hand in the comment above
 * it, from the RFC, from lwIP's tcp_receive() code, or from the paper's equations. */
#include "rto_tests.h"
#include "unit.h"

/* ---- RFC 6298 ---------------------------------------------------------------------- */

static void test_rfc6298_initial_rto(void)
{
    /* RFC 6298 2.1: before any sample, RTO = the configured initial value (1 s). */
    struct host_config cfg;
    struct tcp_rto e;
    host_config_default(&cfg);
    tcp_rto_init(&e, &cfg);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 1080), 1000000);
    CHECK_EQ(tcp_rto_srtt_us(&e, &cfg), 0);
    CHECK_EQ(tcp_rto_rttvar_us(&e, &cfg), 0);
    cfg.tcp_rto_initial_ms = 3000;
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 40), 3000000);
}

static void test_rfc6298_sequence(void)
{
    struct host_config cfg;
    struct tcp_rto e;
    host_config_default(&cfg);
    tcp_rto_init(&e, &cfg);

    /* R = 100 ms (2.2): SRTT = 100000, RTTVAR = 50000,
     * RTO = 100000 + max(1, 4 x 50000) = 300000 us. */
    feed(&e, &cfg, 100000, 0, 1080);
    CHECK_EQ(tcp_rto_srtt_us(&e, &cfg), 100000);
    CHECK_EQ(tcp_rto_rttvar_us(&e, &cfg), 50000);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 1080), 300000);

    /* R = 120 ms (2.3): RTTVAR = 3/4 x 50000 + 1/4 x |100000 - 120000| = 37500 + 5000
     * = 42500; SRTT = 7/8 x 100000 + 1/8 x 120000 = 87500 + 15000 = 102500;
     * RTO = 102500 + 4 x 42500 = 272500 us. */
    feed(&e, &cfg, 120000, 0, 1080);
    CHECK_EQ(tcp_rto_srtt_us(&e, &cfg), 102500);
    CHECK_EQ(tcp_rto_rttvar_us(&e, &cfg), 42500);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 1080), 272500);

    /* R = 80 ms: RTTVAR = 3/4 x 42500 + 1/4 x |102500 - 80000| = 31875 + 5625 = 37500;
     * SRTT = 7/8 x 102500 + 1/8 x 80000 = 89687.5 + 10000 = 99687.5 (kept exactly in
     * eighths; reported as 99687); RTO = 99687.5 + 150000 = 249687.5, and the SRTT
     * term is rounded up to the microsecond: 249688 us. */
    feed(&e, &cfg, 80000, 0, 1080);
    CHECK_EQ(tcp_rto_srtt_us(&e, &cfg), 99687);
    CHECK_EQ(e.srtt_frac8, 4);
    CHECK_EQ(tcp_rto_rttvar_us(&e, &cfg), 37500);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 1080), 249688);

    /* R = 300 ms: exactly, RTTVAR = 3/4 x 37500 + 1/4 x |99687.5 - 300000|
     * = 28125 + 50078.125 = 78203.125 and SRTT = 7/8 x 99687.5 + 37500
     * = 87226.5625 + 37500 = 124726.5625. The fixed point (SRTT x 8, RTTVAR x 4, each
     * rounded down once per update) holds:
     *   4 RTTVAR = (6 x 150000 + |797500 - 2400000|) / 8 = 2502500 / 8 = 312812.5
     *              -> 312812 quarters, RTTVAR reported 78203;
     *   8 SRTT   = 7 x 797500 / 8 + 300000 = 697812.5 + 300000 -> 997812 eighths,
     *              SRTT = 124726.5, reported 124726.
     * RTO = ceil(124726.5) + 312812 = 124727 + 312812 = 437539 us (the real-number RFC
     * value is 437539.0625: the fixed point is 1/16 us under it). */
    feed(&e, &cfg, 300000, 0, 1080);
    CHECK_EQ(tcp_rto_srtt_us(&e, &cfg), 124726);
    CHECK_EQ(tcp_rto_rttvar_us(&e, &cfg), 78203);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 1080), 437539);
}

static void test_rfc6298_zero_sample_uses_granularity(void)
{
    /* R = 0: SRTT = 0, RTTVAR = 0, RTO = 0 + max(G, 0) = G = 1 us (the TCP core then
     * applies the 1 s floor of 2.4). */
    struct host_config cfg;
    struct tcp_rto e;
    host_config_default(&cfg);
    tcp_rto_init(&e, &cfg);
    feed(&e, &cfg, 0, 0, 40);
    CHECK_EQ(tcp_rto_srtt_us(&e, &cfg), 0);
    CHECK_EQ(tcp_rto_rttvar_us(&e, &cfg), 0);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 40), 1);
}

static void test_rfc6298_keeps_sub_microsecond_rttvar(void)
{
    /* R = 1 us: SRTT = 1, RTTVAR = 0.5, RTO = 1 + max(1, 4 x 0.5) = 3 us. A whole-
     * microsecond RTTVAR would have lost the half and given 1 + max(1, 0) = 2. */
    struct host_config cfg;
    struct tcp_rto e;
    host_config_default(&cfg);
    tcp_rto_init(&e, &cfg);
    feed(&e, &cfg, 1, 0, 40);
    CHECK_EQ(tcp_rto_srtt_us(&e, &cfg), 1);
    CHECK_EQ(tcp_rto_rttvar_us(&e, &cfg), 0);
    CHECK_EQ(e.rttvar_frac4, 2);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 40), 3);
}

static void test_rfc6298_huge_samples_saturate(void)
{
    struct host_config cfg;
    struct tcp_rto e;
    host_config_default(&cfg);

    /* First sample R = 2^32 - 1: SRTT = R, RTTVAR = R/2 = 2147483647.5 (reported
     * 2147483647), RTO = 3R does not fit: saturated at 2^32 - 1. */
    tcp_rto_init(&e, &cfg);
    feed(&e, &cfg, 0xFFFFFFFFu, 0, 40);
    CHECK_EQ(tcp_rto_srtt_us(&e, &cfg), 4294967295u);
    CHECK_EQ(tcp_rto_rttvar_us(&e, &cfg), 2147483647u);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 40), 4294967295u);

    /* 100 ms, then R = 2^32 - 1 = 4294967295:
     * RTTVAR = 3/4 x 50000 + 1/4 x (4294967295 - 100000) = 37500 + 1073716823.75
     *        = 1073754323.75 -> 1073754323;
     * SRTT = 7/8 x 100000 + 4294967295 / 8 = 87500 + 536870911.875 = 536958411.875
     *      -> 536958411; RTO = SRTT + 4 RTTVAR > 2^32: saturated. */
    tcp_rto_init(&e, &cfg);
    feed(&e, &cfg, 100000, 0, 40);
    feed(&e, &cfg, 0xFFFFFFFFu, 0, 40);
    CHECK_EQ(tcp_rto_srtt_us(&e, &cfg), 536958411u);
    CHECK_EQ(tcp_rto_rttvar_us(&e, &cfg), 1073754323u);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 40), 4294967295u);
}

/* ---- Van Jacobson on ticks, as lwIP ------------------------------------------------ */

static void test_vj_ticks_sequence(void)
{
    /* lwIP's tcp_receive(): m -= sa>>3; sa += m; if (m < 0) m = -m; m -= sv>>2; sv += m;
     * rto = (sa>>3) + sv. Initial RTO 1000 ms, tick 500 ms: sa = 0, sv = 1000/500 = 2. */
    struct host_config cfg;
    struct tcp_rto e;
    host_config_default(&cfg);
    cfg.tcp_rto = TCP_RTO_VJ_TICKS;
    cfg.tcp_timer_tick_ms = 500;
    tcp_rto_init(&e, &cfg);
    CHECK_EQ(e.sa, 0);
    CHECK_EQ(e.sv, 2);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 40), 1000000); /* (0 + 2) x 500 ms */
    CHECK_EQ(tcp_rto_srtt_us(&e, &cfg), 0);

    /* m = 2: m = 2 - 0 = 2, sa = 2; m = 2 - (2>>2 = 0) = 2, sv = 4;
     * rto = (2>>3 = 0) + 4 = 4 ticks = 2000 ms. */
    feed(&e, &cfg, 1000000, 2, 40);
    CHECK_EQ(e.sa, 2);
    CHECK_EQ(e.sv, 4);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 40), 2000000);

    /* m = 2: m = 2 - (2>>3 = 0) = 2, sa = 4; m = 2 - (4>>2 = 1) = 1, sv = 5;
     * rto = 0 + 5 = 5 ticks = 2500 ms. */
    feed(&e, &cfg, 1000000, 2, 40);
    CHECK_EQ(e.sa, 4);
    CHECK_EQ(e.sv, 5);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 40), 2500000);

    /* m = 2: m = 2 - 0 = 2, sa = 6; m = 2 - (5>>2 = 1) = 1, sv = 6;
     * rto = (6>>3 = 0) + 6 = 6 ticks = 3000 ms. */
    feed(&e, &cfg, 1000000, 2, 40);
    CHECK_EQ(e.sa, 6);
    CHECK_EQ(e.sv, 6);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 40), 3000000);

    /* m = 2: m = 2 - 0 = 2, sa = 8; m = 2 - (6>>2 = 1) = 1, sv = 7;
     * rto = (8>>3 = 1) + 7 = 8 ticks = 4000 ms. */
    feed(&e, &cfg, 1000000, 2, 40);
    CHECK_EQ(e.sa, 8);
    CHECK_EQ(e.sv, 7);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 40), 4000000);

    /* m = 2: m = 2 - (8>>3 = 1) = 1, sa = 9; m = 1 - (7>>2 = 1) = 0, sv = 7;
     * rto = (9>>3 = 1) + 7 = 8 ticks = 4000 ms. */
    feed(&e, &cfg, 1000000, 2, 40);
    CHECK_EQ(e.sa, 9);
    CHECK_EQ(e.sv, 7);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 40), 4000000);

    /* m = 0 (the negative branch): m = 0 - (9>>3 = 1) = -1, sa = 8; m = 1;
     * m = 1 - (7>>2 = 1) = 0, sv = 7; rto = 1 + 7 = 8 ticks = 4000 ms. */
    feed(&e, &cfg, 100000, 0, 40);
    CHECK_EQ(e.sa, 8);
    CHECK_EQ(e.sv, 7);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 40), 4000000);

    /* m = 10: m = 10 - (8>>3 = 1) = 9, sa = 17; m = 9 - (7>>2 = 1) = 8, sv = 15;
     * rto = (17>>3 = 2) + 15 = 17 ticks = 8500 ms. Reported: SRTT = 17/8 ticks
     * = 17 x 500000 / 8 = 1062500 us; RTTVAR = 15/4 ticks = 1875000 us. */
    feed(&e, &cfg, 5000000, 10, 40);
    CHECK_EQ(e.sa, 17);
    CHECK_EQ(e.sv, 15);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 40), 8500000);
    CHECK_EQ(tcp_rto_srtt_us(&e, &cfg), 1062500);
    CHECK_EQ(tcp_rto_rttvar_us(&e, &cfg), 1875000);
}

static void test_vj_ticks_initial_values(void)
{
    struct host_config cfg;
    struct tcp_rto e;
    host_config_default(&cfg);
    cfg.tcp_rto = TCP_RTO_VJ_TICKS;

    /* lwIP's own 3000 ms on 500 ms ticks: sv = rto = 6 ticks. */
    cfg.tcp_rto_initial_ms = 3000;
    cfg.tcp_timer_tick_ms = 500;
    tcp_rto_init(&e, &cfg);
    CHECK_EQ(e.sv, 6);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 40), 3000000);

    /* 1200 ms on 500 ms ticks: integer division as lwIP, 2 ticks = 1000 ms. */
    cfg.tcp_rto_initial_ms = 1200;
    tcp_rto_init(&e, &cfg);
    CHECK_EQ(e.sv, 2);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 40), 1000000);

    /* 250 ms ticks: 1200 / 250 = 4 ticks = 1000 ms. */
    cfg.tcp_timer_tick_ms = 250;
    tcp_rto_init(&e, &cfg);
    CHECK_EQ(e.sv, 4);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 40), 1000000);
}

static void test_vj_exact_timers_count_500ms_ticks(void)
{
    /* tcp_timer_tick_ms = 0: the tick is 500 ms and the ticks are counted from rtt_us
     * (the sample's own tick count, 99 here, is not used). Initial 3000 ms: sv = 6.
     * rtt 1.2 s = 2 whole ticks: m = 2, sa = 2; m = 2 - (6>>2 = 1) = 1, sv = 7;
     * rto = 0 + 7 = 7 ticks = 3500 ms. */
    struct host_config cfg;
    struct tcp_rto e;
    host_config_default(&cfg);
    cfg.tcp_rto = TCP_RTO_VJ_TICKS;
    cfg.tcp_rto_initial_ms = 3000;
    tcp_rto_init(&e, &cfg);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 40), 3000000);
    feed(&e, &cfg, 1200000, 99, 40);
    CHECK_EQ(e.sa, 2);
    CHECK_EQ(e.sv, 7);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 40), 3500000);
}

/* ---- Fixed ------------------------------------------------------------------------- */

static void test_fixed_ignores_samples(void)
{
    struct host_config cfg;
    struct tcp_rto e;
    host_config_default(&cfg);
    cfg.tcp_rto = TCP_RTO_FIXED;
    cfg.tcp_rto_initial_ms = 5000;
    tcp_rto_init(&e, &cfg);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 40), 5000000);
    feed(&e, &cfg, 100000, 0, 40);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 40), 5000000);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 1080), 5000000);
    feed(&e, &cfg, 9000000, 0, 1080);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 1080), 5000000);
    /* SRTT is still reported, by RFC 6298: 100000, then 7/8 x 100000 + 1/8 x 9000000
     * = 87500 + 1125000 = 1212500 us. */
    CHECK_EQ(tcp_rto_srtt_us(&e, &cfg), 1212500);
}

UNIT_MAIN(UNIT(test_rfc6298_initial_rto), UNIT(test_rfc6298_sequence),
          UNIT(test_rfc6298_zero_sample_uses_granularity),
          UNIT(test_rfc6298_keeps_sub_microsecond_rttvar), UNIT(test_rfc6298_huge_samples_saturate),
          UNIT(test_vj_ticks_sequence), UNIT(test_vj_ticks_initial_values),
          UNIT(test_vj_exact_timers_count_500ms_ticks), UNIT(test_fixed_ignores_samples))
