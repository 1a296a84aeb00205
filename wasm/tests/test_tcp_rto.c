/* RTO estimators (tcp_rto.h): RFC 6298, lwIP's Van Jacobson ticks, fixed, and the NFC
 * paper's Algorithm 1. Every expected value is worked out by hand in the comment above
 * it, from the RFC, from lwIP's tcp_receive() code, or from the paper's equations. */
#include "host_config.h"
#include "tcp_rto.h"
#include "tcp_rto_alg1.h"
#include "unit.h"

static struct tcp_rtt_sample sample(uint32_t rtt_us, uint32_t ticks, uint16_t len)
{
    struct tcp_rtt_sample s;
    s.rtt_us = rtt_us;
    s.ticks = ticks;
    s.dgram_len = len;
    return s;
}

static void feed(struct tcp_rto *e, const struct host_config *cfg, uint32_t rtt_us,
                 uint32_t ticks, uint16_t len)
{
    struct tcp_rtt_sample s = sample(rtt_us, ticks, len);
    tcp_rto_sample(e, cfg, &s);
}

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

/* ---- Algorithm 1 (NFC paper) ------------------------------------------------------- */

/* The defaults are the paper's 11.2 kbps link: UART 115200 baud at 10 bits per byte
 * (11.52 B/ms), 10 B of packet per 10 ms slot, 12 ms worst slot wait, RTT_WiFi 1000 ms,
 * rounding to 500 ms, window of 4. */
static void alg1_cfg(struct host_config *cfg)
{
    host_config_default(cfg);
    cfg->tcp_rto = TCP_RTO_NFC_ALG1;
    /* Sizes below are NFC packet sizes; the paper-figure tests put the default 16-byte
     * framing back and pass the IP datagram. */
    cfg->tcp_nfc.frame_overhead = 0;
}

static void test_alg1_model_1080_at_11k2(void)
{
    /* Eq. 5.2-5.6, 1080 B, 11.2 kbps:
     *   t_UART = 1080 / 11.52 = 93.75 ms; t_NFC = 1080 / 10 x 10 = 1080 ms;
     *   t_UARTchunk = 10 / 11.52 = 0.8680556 ms; wait 12 ms;
     *   RTT_NFC = 2 x 1186.6180556 = 2373.2361111 ms; RTT = 3373.2361111 ms.
     * Rounded to the nearest us: 2373236 and 3373236 us (paper: 2373.24, 3373.24 ms).
     * Line 20: ceil(3373236 / 500000) = 7 -> 3.5 s (paper: 3.5 s). */
    struct host_config cfg;
    struct tcp_rto e;
    alg1_cfg(&cfg);
    cfg.tcp_nfc.frame_overhead = 16; /* Table 5.2: a 1064-byte datagram (MSS 1024 + 40) is
                                        the paper's 1080-byte NFC packet */
    tcp_rto_init(&e, &cfg);
    CHECK_EQ(tcp_rto_alg1_nfc_us(&cfg.tcp_nfc, 1080), 2373236);
    CHECK_EQ(tcp_rto_alg1_model_us(&cfg.tcp_nfc, 1064), 3373236);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 1064), 3500000);
}

static void test_alg1_model_1080_at_24k(void)
{
    /* 24 kbps: 26 B of packet per slot.
     *   t_UART = 93.75 ms; t_NFC = 1080 / 26 x 10 = 415.3846154 ms (41.54 slots, not
     *   rounded); t_UARTchunk = 26 / 11.52 = 2.2569444 ms; wait 12 ms;
     *   RTT_NFC = 2 x 523.3915598 = 1046.7831197 ms; RTT = 2046.7831197 ms
     *   -> 1046783 and 2046783 us (paper: 1046.78, 2046.78 ms).
     * Line 20: ceil(2046783 / 500000) = 5 -> 2.5 s (paper: 2.5 s). */
    struct host_config cfg;
    struct tcp_rto e;
    alg1_cfg(&cfg);
    cfg.tcp_nfc.chunk_payload = 26;
    cfg.tcp_nfc.frame_overhead = 16;
    tcp_rto_init(&e, &cfg);
    CHECK_EQ(tcp_rto_alg1_nfc_us(&cfg.tcp_nfc, 1080), 1046783);
    CHECK_EQ(tcp_rto_alg1_model_us(&cfg.tcp_nfc, 1064), 2046783);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 1064), 2500000);
}

static void test_alg1_small_packets(void)
{
    struct host_config cfg;
    struct tcp_rto e;
    alg1_cfg(&cfg);
    tcp_rto_init(&e, &cfg);

    /* 60 B: t_UART = 60 / 11.52 = 5.2083333 ms; t_NFC = 6 slots = 60 ms;
     * t_UARTchunk = 0.8680556 ms; wait 12 ms; RTT_NFC = 2 x 78.0763889 = 156.1527778 ms
     * -> 156153 us; RTT = 1156153 us; RTO = ceil(1156153 / 500000) = 3 -> 1.5 s. */
    CHECK_EQ(tcp_rto_alg1_nfc_us(&cfg.tcp_nfc, 60), 156153);
    CHECK_EQ(tcp_rto_alg1_model_us(&cfg.tcp_nfc, 60), 1156153);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 60), 1500000);

    /* 44 B (a SYN with the MSS option): 2 x (44 + 10) x 10 / 115200 s = 9.375 ms;
     * 2 x 4.4 slots x 10 ms = 88 ms; 2 x 12 = 24 ms; RTT_NFC = 121.375 ms exactly;
     * RTT = 1121375 us; RTO 1.5 s. */
    CHECK_EQ(tcp_rto_alg1_model_us(&cfg.tcp_nfc, 44), 1121375);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 44), 1500000);

    /* 17 B, where the rounding meets a half: 2 x (17 + 10) x 10 / 115200 s
     * = 4.6875 ms; 2 x 1.7 slots x 10 ms = 34 ms; 24 ms; RTT_NFC = 62.6875 ms...
     * in us 4687.5 + 34000 + 24000 = 62687.5 -> 62688 (halves round up). */
    CHECK_EQ(tcp_rto_alg1_nfc_us(&cfg.tcp_nfc, 17), 62688);
}

static void test_alg1_degenerate_models(void)
{
    struct host_config cfg;
    alg1_cfg(&cfg);

    /* No UART (baud 0): only the slots and the wait: 2 x 1080 ms + 2 x 12 ms = 2184 ms. */
    cfg.tcp_nfc.uart_baud = 0;
    CHECK_EQ(tcp_rto_alg1_nfc_us(&cfg.tcp_nfc, 1080), 2184000);

    /* No slots (chunk 0): only the UART for the packet and the wait:
     * 2 x 1080 x 10 / 115200 s = 187.5 ms, + 24 ms = 211.5 ms. */
    alg1_cfg(&cfg);
    cfg.tcp_nfc.chunk_payload = 0;
    CHECK_EQ(tcp_rto_alg1_nfc_us(&cfg.tcp_nfc, 1080), 211500);

    /* 1 B chunks of 65535 ms slots for 65535 B: 2 x 65535 x 65535 ms, far past 2^32 us:
     * saturated, and so is the RTO. */
    alg1_cfg(&cfg);
    cfg.tcp_nfc.chunk_payload = 1;
    cfg.tcp_nfc.slot_ms = 65535;
    CHECK_EQ(tcp_rto_alg1_model_us(&cfg.tcp_nfc, 65535), 4294967295u);
    {
        struct tcp_rto e;
        tcp_rto_init(&e, &cfg);
        CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 65535), 4294967295u);
    }
}

static void test_alg1_slow_sample_scales_both_parts(void)
{
    /* The 1080 B packet (modelled 3373236 us) measured at 5059854 us:
     * r = 5059854 / 3373236 = 1.5 exactly (3373236 x 1.5 = 5059854).
     * 60 B: (156153 + 1000000) x 1.5 = 1734229.5 us -> ceil to 500 ms: 2.0 s.
     *   (Scaling only RTT_NFC would give 234229.5 + 1000000 -> 1.5 s.)
     * 1080 B: 3373236 x 1.5 = 5059854 -> ceil(10.12) = 11 -> 5.5 s. */
    struct host_config cfg;
    struct tcp_rto e;
    alg1_cfg(&cfg);
    tcp_rto_init(&e, &cfg);
    feed(&e, &cfg, 5059854, 0, 1080);
    CHECK_EQ(tcp_rto_alg1_r_milli(&e, &cfg), 1500);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 60), 2000000);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 1080), 5500000);
    /* Reported: srtt is the last measured RTT, rttvar 0. */
    CHECK_EQ(tcp_rto_srtt_us(&e, &cfg), 5059854);
    CHECK_EQ(tcp_rto_rttvar_us(&e, &cfg), 0);
}

static void test_alg1_r_rounds_up(void)
{
    /* Measured = model: r = 1.000. One us more: 3373237000 / 3373236 = 1000.0003 ->
     * 1001 thousandths. 1080 B then: 3373236 x 1.001 = 3376609.2 -> still 3.5 s. */
    struct host_config cfg;
    struct tcp_rto e;
    alg1_cfg(&cfg);
    tcp_rto_init(&e, &cfg);
    feed(&e, &cfg, 3373236, 0, 1080);
    CHECK_EQ(tcp_rto_alg1_r_milli(&e, &cfg), 1000);
    tcp_rto_init(&e, &cfg);
    feed(&e, &cfg, 3373237, 0, 1080);
    CHECK_EQ(tcp_rto_alg1_r_milli(&e, &cfg), 1001);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 1080), 3500000);
}

static void test_alg1_fast_sample_floors_wifi(void)
{
    /* The 1080 B packet measured at 2.7 s: r = 2700000 / 3373236 = 0.80042 -> 0.801
     * (3373236 x 0.800 = 2698588.8, the rest 1411.2 / 3373.236 = 0.418 thousandths, up).
     * r < 1: RTT_NFC stays, RTT_WiFi = max(1000 ms, 0.801 x 1000 ms) = 1000 ms.
     * 60 B: 156153 + 1000000 = 1156153 -> 1.5 s. (Scaling RTT_WiFi without the floor:
     * 156153 + 801000 = 957153 -> 1.0 s; scaling both: 926078.6 -> 1.0 s.)
     * 1080 B: 2373236 + 1000000 -> 3.5 s. */
    struct host_config cfg;
    struct tcp_rto e;
    alg1_cfg(&cfg);
    tcp_rto_init(&e, &cfg);
    feed(&e, &cfg, 2700000, 0, 1080);
    CHECK_EQ(tcp_rto_alg1_r_milli(&e, &cfg), 801);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 60), 1500000);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 1080), 3500000);
}

static void test_alg1_wifi_floor_is_rtt_wifi(void)
{
    /* rtt_wifi_ms = 2000: the 1080 B model is 2373236 + 2000000 = 4373236 us; measured
     * 2186618 us, r = 0.5 exactly. RTT_WiFi = max(2000 ms, 0.5 x 2000 ms) = 2000 ms (the
     * floor is rtt_wifi_ms; the paper's literal max(1000, ...) would give 1000 ms).
     * 60 B: 156153 + 2000000 = 2156153 -> ceil(4.31) = 5 -> 2.5 s. */
    struct host_config cfg;
    struct tcp_rto e;
    alg1_cfg(&cfg);
    cfg.tcp_nfc.rtt_wifi_ms = 2000;
    tcp_rto_init(&e, &cfg);
    CHECK_EQ(tcp_rto_alg1_model_us(&cfg.tcp_nfc, 1080), 4373236);
    feed(&e, &cfg, 2186618, 0, 1080);
    CHECK_EQ(tcp_rto_alg1_r_milli(&e, &cfg), 500);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 60), 2500000);
}

static void test_alg1_window_keeps_largest_recent(void)
{
    /* r values from the 1080 B packet: 5059854 us -> 1.5, 2700000 us -> 0.801
     * (worked out above). 60 B estimates: r = 1.5 -> 2.0 s; r = 0.801 -> 1.5 s. */
    struct host_config cfg;
    struct tcp_rto e;
    int i;
    alg1_cfg(&cfg); /* window of 4 */
    tcp_rto_init(&e, &cfg);
    feed(&e, &cfg, 5059854, 0, 1080);
    for (i = 0; i < 3; i++) {
        feed(&e, &cfg, 2700000, 0, 1080);
        CHECK_EQ(tcp_rto_alg1_r_milli(&e, &cfg), 1500); /* 1.5 is still among the last 4 */
        CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 60), 2000000);
    }
    feed(&e, &cfg, 2700000, 0, 1080); /* the 5th value pushes 1.5 out */
    CHECK_EQ(tcp_rto_alg1_r_milli(&e, &cfg), 801);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 60), 1500000);

    /* Window of 2: 1.5, 0.801 -> 1.5; one more 0.801 -> 0.801. */
    cfg.tcp_nfc.r_window = 2;
    tcp_rto_init(&e, &cfg);
    feed(&e, &cfg, 5059854, 0, 1080);
    feed(&e, &cfg, 2700000, 0, 1080);
    CHECK_EQ(tcp_rto_alg1_r_milli(&e, &cfg), 1500);
    feed(&e, &cfg, 2700000, 0, 1080);
    CHECK_EQ(tcp_rto_alg1_r_milli(&e, &cfg), 801);
}

static void test_alg1_window_size_is_clamped(void)
{
    struct host_config cfg;
    struct tcp_rto e;
    int i;
    alg1_cfg(&cfg);

    /* r_window 0 acts as 1: only the last value counts. */
    cfg.tcp_nfc.r_window = 0;
    tcp_rto_init(&e, &cfg);
    feed(&e, &cfg, 5059854, 0, 1080);
    CHECK_EQ(tcp_rto_alg1_r_milli(&e, &cfg), 1500);
    feed(&e, &cfg, 2700000, 0, 1080);
    CHECK_EQ(tcp_rto_alg1_r_milli(&e, &cfg), 801);

    /* r_window 200 acts as TCP_RTO_ALG1_MAX_WINDOW (8): 1.5 survives 7 newer values and
     * goes with the 8th. */
    cfg.tcp_nfc.r_window = 200;
    tcp_rto_init(&e, &cfg);
    feed(&e, &cfg, 5059854, 0, 1080);
    for (i = 0; i < TCP_RTO_ALG1_MAX_WINDOW - 1; i++) {
        feed(&e, &cfg, 2700000, 0, 1080);
    }
    CHECK_EQ(tcp_rto_alg1_r_milli(&e, &cfg), 1500);
    feed(&e, &cfg, 2700000, 0, 1080);
    CHECK_EQ(tcp_rto_alg1_r_milli(&e, &cfg), 801);
    CHECK(e.r_count <= TCP_RTO_ALG1_MAX_WINDOW);
}

static void test_alg1_no_rounding_when_round_ms_is_zero(void)
{
    /* round_ms = 0: the RTO is the scaled sum rounded up to the microsecond.
     * r = 1: 1080 B -> 3373236 us. After r = 1.5: 60 B -> 1734229.5 -> 1734230 us. */
    struct host_config cfg;
    struct tcp_rto e;
    alg1_cfg(&cfg);
    cfg.tcp_nfc.round_ms = 0;
    tcp_rto_init(&e, &cfg);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 1080), 3373236);
    feed(&e, &cfg, 5059854, 0, 1080);
    CHECK_EQ(tcp_rto_estimate_us(&e, &cfg, 60), 1734230);
}

UNIT_MAIN(UNIT(test_rfc6298_initial_rto), UNIT(test_rfc6298_sequence),
          UNIT(test_rfc6298_zero_sample_uses_granularity),
          UNIT(test_rfc6298_keeps_sub_microsecond_rttvar),
          UNIT(test_rfc6298_huge_samples_saturate), UNIT(test_vj_ticks_sequence),
          UNIT(test_vj_ticks_initial_values), UNIT(test_vj_exact_timers_count_500ms_ticks),
          UNIT(test_fixed_ignores_samples), UNIT(test_alg1_model_1080_at_11k2),
          UNIT(test_alg1_model_1080_at_24k), UNIT(test_alg1_small_packets),
          UNIT(test_alg1_degenerate_models), UNIT(test_alg1_slow_sample_scales_both_parts),
          UNIT(test_alg1_r_rounds_up), UNIT(test_alg1_fast_sample_floors_wifi),
          UNIT(test_alg1_wifi_floor_is_rtt_wifi), UNIT(test_alg1_window_keeps_largest_recent),
          UNIT(test_alg1_window_size_is_clamped),
          UNIT(test_alg1_no_rounding_when_round_ms_is_zero))
