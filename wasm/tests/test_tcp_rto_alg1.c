/* The NFC bridge paper's Algorithm 1 (tcp_rto_alg1.h): the link model of Eq. 5.1-5.6 with
 * the paper's figures, the r factor and its window, the RTT_WiFi floor, rounding to the
 * slow timer. Every expected value is worked out by hand from the paper's equations. */
#include "rto_tests.h"
#include "tcp_rto_alg1.h"
#include "unit.h"

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

UNIT_MAIN(UNIT(test_alg1_model_1080_at_11k2), UNIT(test_alg1_model_1080_at_24k),
          UNIT(test_alg1_small_packets), UNIT(test_alg1_degenerate_models),
          UNIT(test_alg1_slow_sample_scales_both_parts), UNIT(test_alg1_r_rounds_up),
          UNIT(test_alg1_fast_sample_floors_wifi), UNIT(test_alg1_wifi_floor_is_rtt_wifi),
          UNIT(test_alg1_window_keeps_largest_recent), UNIT(test_alg1_window_size_is_clamped),
          UNIT(test_alg1_no_rounding_when_round_ms_is_zero))
