/* Congestion control (tcp_cc.h): RFC 5681 Reno, RFC 6582 NewReno, lwIP-style growth as
 * in the NFC paper, fixed window, none. Expected values are worked out in the comments
 * from the RFC formulas. */
#include "host_config.h"
#include "tcp_cc.h"
#include "unit.h"

static void cfg_for(struct host_config *cfg, enum tcp_cc_kind kind)
{
    host_config_default(cfg);
    cfg->tcp_cc = kind;
}

static void test_initial_window_by_mss(void)
{
    /* RFC 5681 3.1: SMSS > 2190: 2 SMSS; 1095 < SMSS <= 2190: 3 SMSS; else 4 SMSS. */
    struct host_config cfg;
    struct tcp_cc cc;
    cfg_for(&cfg, TCP_CC_RENO);
    tcp_cc_init(&cc, &cfg, 536);
    CHECK_EQ(cc.cwnd, 2144); /* 4 x 536 */
    CHECK_EQ(cc.ssthresh, 0xFFFFFFFFu);
    CHECK_EQ(cc.in_recovery, 0);
    CHECK_EQ(cc.dupacks, 0);
    tcp_cc_init(&cc, &cfg, 1095);
    CHECK_EQ(cc.cwnd, 4380); /* 4 x 1095 */
    tcp_cc_init(&cc, &cfg, 1096);
    CHECK_EQ(cc.cwnd, 3288); /* 3 x 1096 */
    tcp_cc_init(&cc, &cfg, 1460);
    CHECK_EQ(cc.cwnd, 4380); /* 3 x 1460 */
    tcp_cc_init(&cc, &cfg, 2190);
    CHECK_EQ(cc.cwnd, 6570); /* 3 x 2190 */
    tcp_cc_init(&cc, &cfg, 2191);
    CHECK_EQ(cc.cwnd, 4382); /* 2 x 2191 */
    tcp_cc_init(&cc, &cfg, 9000);
    CHECK_EQ(cc.cwnd, 18000); /* 2 x 9000 */
    CHECK_EQ(tcp_cc_window(&cc, &cfg), 18000);
}

static void test_initial_window_configured_and_capped(void)
{
    struct host_config cfg;
    struct tcp_cc cc;
    cfg_for(&cfg, TCP_CC_NEWRENO);
    cfg.tcp_initial_cwnd = 4096; /* the NFC paper, Table 5.1 */
    tcp_cc_init(&cc, &cfg, 1024);
    CHECK_EQ(cc.cwnd, 4096);
    /* The cap applies to the IW too: 3 x 1460 = 4380 > 3000. */
    cfg.tcp_initial_cwnd = 0;
    cfg.tcp_max_cwnd = 3000;
    tcp_cc_init(&cc, &cfg, 1460);
    CHECK_EQ(cc.cwnd, 3000);
}

static void test_slow_start_rfc5681(void)
{
    /* SMSS 1000, IW 4000. Eq. 2: cwnd += min(N, SMSS). */
    struct host_config cfg;
    struct tcp_cc cc;
    cfg_for(&cfg, TCP_CC_RENO);
    tcp_cc_init(&cc, &cfg, 1000);
    CHECK_EQ(cc.cwnd, 4000);
    CHECK_EQ(tcp_cc_on_ack(&cc, &cfg, 1000, 1001, 1000, 4000), TCP_CC_NOTHING);
    CHECK_EQ(cc.cwnd, 5000); /* + min(1000, 1000) */
    tcp_cc_on_ack(&cc, &cfg, 1000, 3001, 2000, 5000);
    CHECK_EQ(cc.cwnd, 6000); /* stretch ACK of 2000: + min(2000, 1000) */
    tcp_cc_on_ack(&cc, &cfg, 1000, 3501, 500, 5000);
    CHECK_EQ(cc.cwnd, 6500); /* + min(500, 1000) */
    CHECK_EQ(cc.acked_ca, 0);
}

static void test_lwip_growth_paper_table_5_1(void)
{
    /* NFC paper Table 5.1: MSS 1024, initial cwnd 4096, +1024 per ACK, max 8096.
     * 4096 -> 5120 -> 6144 -> 7168 -> 8192 capped to 8096 -> stays 8096. The increment
     * does not depend on the bytes acked (a 100 B ACK still adds 1024). */
    struct host_config cfg;
    struct tcp_cc cc;
    cfg_for(&cfg, TCP_CC_NEWRENO);
    cfg.tcp_initial_cwnd = 4096;
    cfg.tcp_max_cwnd = 8096;
    cfg.tcp_cwnd_inc = 1024;
    tcp_cc_init(&cc, &cfg, 1024);
    CHECK_EQ(cc.cwnd, 4096);
    tcp_cc_on_ack(&cc, &cfg, 1024, 1025, 1024, 4096);
    CHECK_EQ(cc.cwnd, 5120);
    tcp_cc_on_ack(&cc, &cfg, 1024, 1125, 100, 4096);
    CHECK_EQ(cc.cwnd, 6144);
    tcp_cc_on_ack(&cc, &cfg, 1024, 2149, 1024, 4096);
    CHECK_EQ(cc.cwnd, 7168);
    tcp_cc_on_ack(&cc, &cfg, 1024, 3173, 1024, 4096);
    CHECK_EQ(cc.cwnd, 8096);
    tcp_cc_on_ack(&cc, &cfg, 1024, 4197, 1024, 4096);
    CHECK_EQ(cc.cwnd, 8096);
    CHECK_EQ(tcp_cc_window(&cc, &cfg), 8096);
}

static void test_lwip_congestion_avoidance(void)
{
    /* lwIP in CA: cwnd += mss * mss / cwnd per ACK, rounded down. MSS 1024, cwnd =
     * ssthresh = 4096 (so CA: cwnd is not < ssthresh):
     *   1048576 / 4096 = 256    -> 4352
     *   1048576 / 4352 = 240.9  -> 240 -> 4592
     *   1048576 / 4592 = 228.3  -> 228 -> 4820 */
    struct host_config cfg;
    struct tcp_cc cc;
    cfg_for(&cfg, TCP_CC_RENO);
    cfg.tcp_initial_cwnd = 4096;
    cfg.tcp_cwnd_inc = 1024;
    tcp_cc_init(&cc, &cfg, 1024);
    cc.ssthresh = 4096;
    tcp_cc_on_ack(&cc, &cfg, 1024, 1025, 1024, 4096);
    CHECK_EQ(cc.cwnd, 4352);
    tcp_cc_on_ack(&cc, &cfg, 1024, 2049, 1024, 4096);
    CHECK_EQ(cc.cwnd, 4592);
    tcp_cc_on_ack(&cc, &cfg, 1024, 3073, 1024, 4096);
    CHECK_EQ(cc.cwnd, 4820);
}

static void test_congestion_avoidance_byte_counting(void)
{
    /* RFC 5681 3.1: cwnd grows by SMSS once cwnd bytes have been acknowledged.
     * SMSS 1000; an RTO with 8000 in flight gives ssthresh = 4000, cwnd = 1000; slow
     * start back: 2000, 3000, 4000 (3 ACKs of 1000). cwnd = ssthresh: CA. */
    struct host_config cfg;
    struct tcp_cc cc;
    int i;
    uint32_t ack = 1;
    cfg_for(&cfg, TCP_CC_RENO);
    tcp_cc_init(&cc, &cfg, 1000);
    tcp_cc_on_rto(&cc, &cfg, 1000, 8001, 8000);
    CHECK_EQ(cc.ssthresh, 4000);
    CHECK_EQ(cc.cwnd, 1000);
    for (i = 0; i < 3; i++) {
        ack += 1000;
        tcp_cc_on_ack(&cc, &cfg, 1000, ack, 1000, 4000);
    }
    CHECK_EQ(cc.cwnd, 4000);
    /* 3 ACKs of 1000: 3000 counted < 4000, no growth; the 4th reaches 4000:
     * cwnd 5000, count 4000 - 4000 = 0. */
    for (i = 0; i < 3; i++) {
        ack += 1000;
        tcp_cc_on_ack(&cc, &cfg, 1000, ack, 1000, 4000);
        CHECK_EQ(cc.cwnd, 4000);
    }
    CHECK_EQ(cc.acked_ca, 3000);
    ack += 1000;
    tcp_cc_on_ack(&cc, &cfg, 1000, ack, 1000, 4000);
    CHECK_EQ(cc.cwnd, 5000);
    CHECK_EQ(cc.acked_ca, 0);
    /* Stretch ACKs of 3000 at cwnd 5000: 3000; then 6000 >= 5000: cwnd 6000, count
     * 6000 - 5000 = 1000 carried over. */
    ack += 3000;
    tcp_cc_on_ack(&cc, &cfg, 1000, ack, 3000, 5000);
    CHECK_EQ(cc.cwnd, 5000);
    ack += 3000;
    tcp_cc_on_ack(&cc, &cfg, 1000, ack, 3000, 5000);
    CHECK_EQ(cc.cwnd, 6000);
    CHECK_EQ(cc.acked_ca, 1000);
}

static void test_reno_fast_retransmit_and_recovery(void)
{
    /* SMSS 1000, cwnd 10000, 10000 bytes in flight, snd_nxt 50000. */
    struct host_config cfg;
    struct tcp_cc cc;
    cfg_for(&cfg, TCP_CC_RENO);
    cfg.tcp_initial_cwnd = 10000;
    tcp_cc_init(&cc, &cfg, 1000);
    CHECK_EQ(tcp_cc_on_dupack(&cc, &cfg, 1000, 50000, 10000), TCP_CC_NOTHING);
    CHECK_EQ(tcp_cc_on_dupack(&cc, &cfg, 1000, 50000, 10000), TCP_CC_NOTHING);
    CHECK_EQ(cc.cwnd, 10000);
    CHECK_EQ(cc.dupacks, 2);
    /* 3rd: eq. 4 ssthresh = max(10000 / 2, 2 x 1000) = 5000; cwnd = 5000 + 3 x 1000
     * = 8000 (RFC 5681 3.2 steps 2-3). */
    CHECK_EQ(tcp_cc_on_dupack(&cc, &cfg, 1000, 50000, 10000), TCP_CC_FAST_RETRANSMIT);
    CHECK_EQ(cc.ssthresh, 5000);
    CHECK_EQ(cc.cwnd, 8000);
    CHECK_EQ(cc.in_recovery, 1);
    CHECK_EQ(cc.recover, 50000);
    /* Step 4, inflation: +SMSS per further dup ACK: 9000, 10000. */
    CHECK_EQ(tcp_cc_on_dupack(&cc, &cfg, 1000, 50000, 10000), TCP_CC_NOTHING);
    CHECK_EQ(cc.cwnd, 9000);
    CHECK_EQ(tcp_cc_on_dupack(&cc, &cfg, 1000, 50000, 10000), TCP_CC_NOTHING);
    CHECK_EQ(cc.cwnd, 10000);
    /* Step 6, deflation: the first new ACK (even a partial one) sets cwnd = ssthresh
     * = 5000 and ends recovery; Reno asks for nothing more. */
    CHECK_EQ(tcp_cc_on_ack(&cc, &cfg, 1000, 42000, 2000, 10000), TCP_CC_NOTHING);
    CHECK_EQ(cc.cwnd, 5000);
    CHECK_EQ(cc.in_recovery, 0);
    CHECK_EQ(cc.dupacks, 0);
    /* Then CA (cwnd = ssthresh): a 1000 B ACK is counted, cwnd unchanged. */
    tcp_cc_on_ack(&cc, &cfg, 1000, 43000, 1000, 8000);
    CHECK_EQ(cc.cwnd, 5000);
    CHECK_EQ(cc.acked_ca, 1000);
}

static void test_reno_small_flight_ssthresh_floor(void)
{
    /* 3000 in flight: ssthresh = max(1500, 2 x 1000) = 2000, cwnd = 2000 + 3000 = 5000. */
    struct host_config cfg;
    struct tcp_cc cc;
    cfg_for(&cfg, TCP_CC_RENO);
    tcp_cc_init(&cc, &cfg, 1000);
    tcp_cc_on_dupack(&cc, &cfg, 1000, 7000, 3000);
    tcp_cc_on_dupack(&cc, &cfg, 1000, 7000, 3000);
    CHECK_EQ(tcp_cc_on_dupack(&cc, &cfg, 1000, 7000, 3000), TCP_CC_FAST_RETRANSMIT);
    CHECK_EQ(cc.ssthresh, 2000);
    CHECK_EQ(cc.cwnd, 5000);
}

static void test_dupack_threshold_configurable(void)
{
    /* Threshold 2: the 2nd dup ACK triggers. 6000 in flight: ssthresh 3000, cwnd 6000. */
    struct host_config cfg;
    struct tcp_cc cc;
    cfg_for(&cfg, TCP_CC_RENO);
    cfg.tcp_dupack_thresh = 2;
    tcp_cc_init(&cc, &cfg, 1000);
    CHECK_EQ(tcp_cc_on_dupack(&cc, &cfg, 1000, 9000, 6000), TCP_CC_NOTHING);
    CHECK_EQ(tcp_cc_on_dupack(&cc, &cfg, 1000, 9000, 6000), TCP_CC_FAST_RETRANSMIT);
    CHECK_EQ(cc.ssthresh, 3000);
    CHECK_EQ(cc.cwnd, 6000);
}

/* NewReno into recovery: SMSS 1000, cwnd 10000, snd_una 40000, snd_nxt 50000, 10000 in
 * flight. 3 dup ACKs: ssthresh 5000, cwnd 8000, recover 50000; 2 more: cwnd 10000. */
static void newreno_enter(struct host_config *cfg, struct tcp_cc *cc)
{
    cfg_for(cfg, TCP_CC_NEWRENO);
    cfg->tcp_initial_cwnd = 10000;
    tcp_cc_init(cc, cfg, 1000);
    tcp_cc_on_dupack(cc, cfg, 1000, 50000, 10000);
    tcp_cc_on_dupack(cc, cfg, 1000, 50000, 10000);
    tcp_cc_on_dupack(cc, cfg, 1000, 50000, 10000);
    tcp_cc_on_dupack(cc, cfg, 1000, 50000, 10000);
    tcp_cc_on_dupack(cc, cfg, 1000, 50000, 10000);
}

static void test_newreno_partial_then_full_ack(void)
{
    struct host_config cfg;
    struct tcp_cc cc;
    newreno_enter(&cfg, &cc);
    CHECK_EQ(cc.ssthresh, 5000);
    CHECK_EQ(cc.cwnd, 10000);
    CHECK_EQ(cc.recover, 50000);
    CHECK_EQ(cc.in_recovery, 1);

    /* Partial ACK to 42000 (2000 acked < recover): RFC 6582 3.2 step 3: cwnd = 10000
     * - 2000 + 1000 (at least one SMSS acked) = 9000; retransmit; stay in recovery. */
    CHECK_EQ(tcp_cc_on_ack(&cc, &cfg, 1000, 42000, 2000, 10000), TCP_CC_PARTIAL_ACK_RETRANSMIT);
    CHECK_EQ(cc.cwnd, 9000);
    CHECK_EQ(cc.in_recovery, 1);
    CHECK_EQ(cc.dupacks, 0);

    /* Partial ACK of 500 (< SMSS): 9000 - 500 = 8500, nothing added back. */
    CHECK_EQ(tcp_cc_on_ack(&cc, &cfg, 1000, 42500, 500, 8000), TCP_CC_PARTIAL_ACK_RETRANSMIT);
    CHECK_EQ(cc.cwnd, 8500);

    /* A dup ACK in recovery inflates by SMSS: 9500 (RFC 5681 3.2 step 4), no new fast
     * retransmit. */
    CHECK_EQ(tcp_cc_on_dupack(&cc, &cfg, 1000, 50000, 7500), TCP_CC_NOTHING);
    CHECK_EQ(cc.cwnd, 9500);

    /* Full ACK to 50000 = recover, 7500 acked, 7500 in flight before it, so nothing left
     * outstanding. Option (1): cwnd = min(5000, max(0, 1000) + 1000) = 2000. */
    CHECK_EQ(tcp_cc_on_ack(&cc, &cfg, 1000, 50000, 7500, 7500), TCP_CC_NOTHING);
    CHECK_EQ(cc.cwnd, 2000);
    CHECK_EQ(cc.in_recovery, 0);

    /* cwnd 2000 < ssthresh 5000: slow start, +1000. */
    tcp_cc_on_ack(&cc, &cfg, 1000, 51000, 1000, 1000);
    CHECK_EQ(cc.cwnd, 3000);
}

static void test_newreno_full_ack_with_data_outstanding(void)
{
    /* As above, but 6000 bytes sent past recover during recovery: the full ACK to 50000
     * acks 10000 of 16000 in flight, 6000 left. Option (1): cwnd = min(5000, max(6000,
     * 1000) + 1000) = min(5000, 7000) = 5000. */
    struct host_config cfg;
    struct tcp_cc cc;
    newreno_enter(&cfg, &cc);
    CHECK_EQ(tcp_cc_on_ack(&cc, &cfg, 1000, 50000, 10000, 16000), TCP_CC_NOTHING);
    CHECK_EQ(cc.cwnd, 5000);
    CHECK_EQ(cc.in_recovery, 0);
    /* Beyond recover counts as full too (ack 50000 + 1000 > recover). */
    newreno_enter(&cfg, &cc);
    CHECK_EQ(tcp_cc_on_ack(&cc, &cfg, 1000, 51000, 11000, 16000), TCP_CC_NOTHING);
    CHECK_EQ(cc.in_recovery, 0);
}

static void test_newreno_partial_ack_floor(void)
{
    /* Partial ACK of 9500 at cwnd 8000 (entered with 3 dup ACKs only): 8000 - 9500 is
     * below zero, taken as 0, + 1000 (a full SMSS was acked) = 1000. */
    struct host_config cfg;
    struct tcp_cc cc;
    cfg_for(&cfg, TCP_CC_NEWRENO);
    cfg.tcp_initial_cwnd = 10000;
    tcp_cc_init(&cc, &cfg, 1000);
    tcp_cc_on_dupack(&cc, &cfg, 1000, 50000, 10000);
    tcp_cc_on_dupack(&cc, &cfg, 1000, 50000, 10000);
    tcp_cc_on_dupack(&cc, &cfg, 1000, 50000, 10000);
    CHECK_EQ(cc.cwnd, 8000);
    CHECK_EQ(tcp_cc_on_ack(&cc, &cfg, 1000, 49500, 9500, 10000), TCP_CC_PARTIAL_ACK_RETRANSMIT);
    CHECK_EQ(cc.cwnd, 1000);
    /* From cwnd 1200, a partial ACK of 500 (< SMSS, nothing added back): 700, floored
     * at 1000. */
    cc.cwnd = 1200;
    CHECK_EQ(tcp_cc_on_ack(&cc, &cfg, 1000, 49600, 100, 500), TCP_CC_PARTIAL_ACK_RETRANSMIT);
    CHECK_EQ(cc.cwnd, 1100); /* 1200 - 100 */
    CHECK_EQ(tcp_cc_on_ack(&cc, &cfg, 1000, 49900, 300, 400), TCP_CC_PARTIAL_ACK_RETRANSMIT);
    CHECK_EQ(cc.cwnd, 1000); /* 1100 - 300 = 800, floored */
}

static void test_newreno_recover_wraps(void)
{
    /* recover = 0xFFFFF000 + 0x2000 wraps to 0x1000: an ACK of 0xFFFFF800 is partial,
     * one of 0x1000 is full (sequence space modulo 2^32). */
    struct host_config cfg;
    struct tcp_cc cc;
    cfg_for(&cfg, TCP_CC_NEWRENO);
    tcp_cc_init(&cc, &cfg, 1000);
    tcp_cc_on_dupack(&cc, &cfg, 1000, 0x1000u, 8192);
    tcp_cc_on_dupack(&cc, &cfg, 1000, 0x1000u, 8192);
    CHECK_EQ(tcp_cc_on_dupack(&cc, &cfg, 1000, 0x1000u, 8192), TCP_CC_FAST_RETRANSMIT);
    CHECK_EQ(tcp_cc_on_ack(&cc, &cfg, 1000, 0xFFFFF800u, 2048, 8192),
             TCP_CC_PARTIAL_ACK_RETRANSMIT);
    CHECK_EQ(tcp_cc_on_ack(&cc, &cfg, 1000, 0x1000u, 6144, 6144), TCP_CC_NOTHING);
    CHECK_EQ(cc.in_recovery, 0);
}

static void test_rto_collapses_window(void)
{
    /* RFC 5681 3.1: ssthresh = max(8000 / 2, 2000) = 4000, cwnd = LW = 1 SMSS = 1000;
     * recovery abandoned, recover = snd_nxt (RFC 6582 3.2 step 4). */
    struct host_config cfg;
    struct tcp_cc cc;
    newreno_enter(&cfg, &cc);
    tcp_cc_on_rto(&cc, &cfg, 1000, 60000, 8000);
    CHECK_EQ(cc.ssthresh, 4000);
    CHECK_EQ(cc.cwnd, 1000);
    CHECK_EQ(cc.in_recovery, 0);
    CHECK_EQ(cc.dupacks, 0);
    CHECK_EQ(cc.recover, 60000);
    /* Small flight: max(500, 2000) = 2000. */
    tcp_cc_on_rto(&cc, &cfg, 1000, 61000, 1000);
    CHECK_EQ(cc.ssthresh, 2000);
    CHECK_EQ(cc.cwnd, 1000);
}

static void test_newreno_no_fast_retransmit_after_rto_until_recover(void)
{
    /* RFC 6582 3.2 step 2: after an RTO at snd_nxt 60000, dup ACKs whose cumulative ACK
     * is below 60000 do not start fast retransmit and leave ssthresh alone. */
    struct host_config cfg;
    struct tcp_cc cc;
    int i;
    cfg_for(&cfg, TCP_CC_NEWRENO);
    cfg.tcp_initial_cwnd = 10000;
    tcp_cc_init(&cc, &cfg, 1000);
    tcp_cc_on_rto(&cc, &cfg, 1000, 60000, 10000); /* ssthresh 5000, cwnd 1000 */
    for (i = 0; i < 4; i++) {
        CHECK_EQ(tcp_cc_on_dupack(&cc, &cfg, 1000, 60000, 10000), TCP_CC_NOTHING);
    }
    CHECK_EQ(cc.ssthresh, 5000);
    CHECK_EQ(cc.cwnd, 1000);
    CHECK_EQ(cc.in_recovery, 0);
    /* An ACK to 55000 (< recover): slow start 1000 -> 2000, still held. */
    tcp_cc_on_ack(&cc, &cfg, 1000, 55000, 5000, 10000);
    CHECK_EQ(cc.cwnd, 2000);
    for (i = 0; i < 3; i++) {
        CHECK_EQ(tcp_cc_on_dupack(&cc, &cfg, 1000, 60000, 5000), TCP_CC_NOTHING);
    }
    /* The ACK reaches 60000: held no longer; next 3 dup ACKs (snd_nxt 64000, 4000 in
     * flight): ssthresh = max(2000, 2000) = 2000, cwnd 5000. */
    tcp_cc_on_ack(&cc, &cfg, 1000, 60000, 5000, 5000);
    CHECK_EQ(cc.cwnd, 3000);
    tcp_cc_on_dupack(&cc, &cfg, 1000, 64000, 4000);
    tcp_cc_on_dupack(&cc, &cfg, 1000, 64000, 4000);
    CHECK_EQ(tcp_cc_on_dupack(&cc, &cfg, 1000, 64000, 4000), TCP_CC_FAST_RETRANSMIT);
    CHECK_EQ(cc.ssthresh, 2000);
    CHECK_EQ(cc.cwnd, 5000);
    CHECK_EQ(cc.recover, 64000);
}

static void test_reno_has_no_rto_guard(void)
{
    /* Plain Reno (RFC 5681) has no recover variable: 3 dup ACKs after an RTO trigger a
     * fast retransmit. ssthresh = max(1000 / 2, 2000) = 2000, cwnd = 5000. */
    struct host_config cfg;
    struct tcp_cc cc;
    cfg_for(&cfg, TCP_CC_RENO);
    tcp_cc_init(&cc, &cfg, 1000);
    tcp_cc_on_rto(&cc, &cfg, 1000, 60000, 10000);
    tcp_cc_on_dupack(&cc, &cfg, 1000, 60000, 1000);
    tcp_cc_on_dupack(&cc, &cfg, 1000, 60000, 1000);
    CHECK_EQ(tcp_cc_on_dupack(&cc, &cfg, 1000, 60000, 1000), TCP_CC_FAST_RETRANSMIT);
    CHECK_EQ(cc.ssthresh, 2000);
    CHECK_EQ(cc.cwnd, 5000);
}

static void test_fixed_window_never_changes(void)
{
    struct host_config cfg;
    struct tcp_cc cc;
    int i;
    cfg_for(&cfg, TCP_CC_FIXED);
    cfg.tcp_initial_cwnd = 6000;
    tcp_cc_init(&cc, &cfg, 1000);
    CHECK_EQ(tcp_cc_window(&cc, &cfg), 6000);
    for (i = 0; i < 5; i++) {
        tcp_cc_on_ack(&cc, &cfg, 1000, (uint32_t)(1 + 1000 * (i + 1)), 1000, 6000);
    }
    CHECK_EQ(tcp_cc_window(&cc, &cfg), 6000);
    /* Fast retransmit is still asked for at the 3rd dup ACK, once; the window stays. */
    CHECK_EQ(tcp_cc_on_dupack(&cc, &cfg, 1000, 9000, 6000), TCP_CC_NOTHING);
    CHECK_EQ(tcp_cc_on_dupack(&cc, &cfg, 1000, 9000, 6000), TCP_CC_NOTHING);
    CHECK_EQ(tcp_cc_on_dupack(&cc, &cfg, 1000, 9000, 6000), TCP_CC_FAST_RETRANSMIT);
    CHECK_EQ(tcp_cc_on_dupack(&cc, &cfg, 1000, 9000, 6000), TCP_CC_NOTHING);
    CHECK_EQ(cc.in_recovery, 0);
    CHECK_EQ(tcp_cc_window(&cc, &cfg), 6000);
    tcp_cc_on_rto(&cc, &cfg, 1000, 9000, 6000);
    CHECK_EQ(tcp_cc_window(&cc, &cfg), 6000);
    CHECK_EQ(cc.ssthresh, 0xFFFFFFFFu);
    CHECK_EQ(cc.dupacks, 0);
    /* tcp_initial_cwnd 0: the fixed window is the RFC 5681 IW, 4 x 1000. */
    cfg.tcp_initial_cwnd = 0;
    tcp_cc_init(&cc, &cfg, 1000);
    CHECK_EQ(tcp_cc_window(&cc, &cfg), 4000);
}

static void test_none_is_unlimited(void)
{
    struct host_config cfg;
    struct tcp_cc cc;
    cfg_for(&cfg, TCP_CC_NONE);
    tcp_cc_init(&cc, &cfg, 536);
    CHECK_EQ(tcp_cc_window(&cc, &cfg), 0xFFFFFFFFu);
    tcp_cc_on_ack(&cc, &cfg, 536, 537, 536, 536);
    tcp_cc_on_dupack(&cc, &cfg, 536, 2000, 1000);
    tcp_cc_on_dupack(&cc, &cfg, 536, 2000, 1000);
    CHECK_EQ(tcp_cc_on_dupack(&cc, &cfg, 536, 2000, 1000), TCP_CC_FAST_RETRANSMIT);
    tcp_cc_on_rto(&cc, &cfg, 536, 2000, 1000);
    CHECK_EQ(tcp_cc_window(&cc, &cfg), 0xFFFFFFFFu);
}

static void test_cap_applies_to_inflation(void)
{
    /* max cwnd 8096, SMSS 1024, cwnd 8096, 8096 in flight: ssthresh 4048, cwnd = 4048 +
     * 3072 = 7120; inflation 8144 is capped to 8096. */
    struct host_config cfg;
    struct tcp_cc cc;
    cfg_for(&cfg, TCP_CC_NEWRENO);
    cfg.tcp_initial_cwnd = 8096;
    cfg.tcp_max_cwnd = 8096;
    tcp_cc_init(&cc, &cfg, 1024);
    tcp_cc_on_dupack(&cc, &cfg, 1024, 20000, 8096);
    tcp_cc_on_dupack(&cc, &cfg, 1024, 20000, 8096);
    tcp_cc_on_dupack(&cc, &cfg, 1024, 20000, 8096);
    CHECK_EQ(cc.ssthresh, 4048);
    CHECK_EQ(cc.cwnd, 7120);
    tcp_cc_on_dupack(&cc, &cfg, 1024, 20000, 8096);
    CHECK_EQ(cc.cwnd, 8096);
}

UNIT_MAIN(UNIT(test_initial_window_by_mss), UNIT(test_initial_window_configured_and_capped),
          UNIT(test_slow_start_rfc5681), UNIT(test_lwip_growth_paper_table_5_1),
          UNIT(test_lwip_congestion_avoidance), UNIT(test_congestion_avoidance_byte_counting),
          UNIT(test_reno_fast_retransmit_and_recovery), UNIT(test_reno_small_flight_ssthresh_floor),
          UNIT(test_dupack_threshold_configurable), UNIT(test_newreno_partial_then_full_ack),
          UNIT(test_newreno_full_ack_with_data_outstanding), UNIT(test_newreno_partial_ack_floor),
          UNIT(test_newreno_recover_wraps), UNIT(test_rto_collapses_window),
          UNIT(test_newreno_no_fast_retransmit_after_rto_until_recover),
          UNIT(test_reno_has_no_rto_guard), UNIT(test_fixed_window_never_changes),
          UNIT(test_none_is_unlimited), UNIT(test_cap_applies_to_inflation))
