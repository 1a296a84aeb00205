/* Congestion control (tcp_cc.h): none, fixed window, Reno (RFC 5681) and NewReno
 * (RFC 6582).
 *
 * Choices this file makes, beyond the RFCs' letter:
 *  - cwnd never exceeds cfg.tcp_max_cwnd when that is set, whatever sets it (growth,
 *    fast-recovery inflation, the IW itself): the cap is lwIP's TCP_WND-like limit of the
 *    NFC paper (Table 5.1: max cwnd 8096).
 *  - cfg.tcp_cwnd_inc != 0 selects lwIP's growth (tcp_in.c, tcp_receive()): in slow start
 *    cwnd += tcp_cwnd_inc per new ACK whatever it acknowledges (the paper's +1024); in
 *    congestion avoidance cwnd += SMSS x SMSS / cwnd per new ACK, rounded down (lwIP's
 *    rule, RFC 5681 eq. 3). With 0, RFC 5681 3.1: slow start cwnd += min(acked, SMSS)
 *    (eq. 2), congestion avoidance by byte counting (+SMSS once cwnd bytes are acked).
 *  - NewReno full ACK (RFC 6582 3.2 step 3) uses option (1):
 *    cwnd = min(ssthresh, max(FlightSize, SMSS) + SMSS), FlightSize being what is still
 *    outstanding after the ACK. It needs no burst avoidance, unlike option (2).
 *  - NewReno partial ACK never deflates cwnd below one SMSS (RFC 6582 sets no floor; a
 *    large partial ACK could otherwise take cwnd to zero).
 *  - FIXED and NONE count duplicate ACKs and still ask for a fast retransmit at the
 *    threshold: fast retransmit is loss recovery (RFC 5681 3.2), which a sender without
 *    congestion control can do too; only the window stays as it is.
 *  - A zero MSS is taken as 536 (RFC 9293 3.7.1's default send MSS), a zero dup ACK
 *    threshold as 3 (RFC 5681 3.2).
 */
#include "tcp_cc.h"
#include "tcp.h" /* TCP_DEFAULT_MSS */

#define CC_UNLIMITED 0xFFFFFFFFu

static uint32_t smss_of(uint16_t mss)
{
    return mss ? (uint32_t)mss : (uint32_t)TCP_DEFAULT_MSS;
}

/* a covers b: a >= b in sequence space (RFC 9293 3.4, modulo 2^32). */
static int seq_geq(uint32_t a, uint32_t b)
{
    return (int32_t)(a - b) >= 0;
}

static uint32_t add_sat(uint32_t a, uint32_t b)
{
    return a > CC_UNLIMITED - b ? CC_UNLIMITED : a + b;
}

static uint32_t capped(const struct host_config *cfg, uint32_t cwnd)
{
    if (cfg->tcp_max_cwnd != 0 && cwnd > cfg->tcp_max_cwnd) {
        return cfg->tcp_max_cwnd;
    }
    return cwnd;
}

/* RFC 5681 3.1 eq. 4: ssthresh = max(FlightSize / 2, 2 x SMSS). */
static uint32_t loss_ssthresh(uint32_t flight, uint32_t smss)
{
    uint32_t half = flight / 2u;
    uint32_t two = smss * 2u;
    return half > two ? half : two;
}

static int cc_adapts(const struct host_config *cfg)
{
    return cfg->tcp_cc == TCP_CC_RENO || cfg->tcp_cc == TCP_CC_NEWRENO;
}

/* RFC 5681 3.1: IW = 2 SMSS above 2190 bytes, 3 SMSS above 1095, else 4 SMSS; or
 * cfg.tcp_initial_cwnd. */
static uint32_t initial_window(const struct host_config *cfg, uint32_t smss)
{
    if (cfg->tcp_initial_cwnd != 0)
        return cfg->tcp_initial_cwnd;
    if (smss > 2190u)
        return 2u * smss;
    if (smss > 1095u)
        return 3u * smss;
    return 4u * smss;
}

void tcp_cc_init(struct tcp_cc *cc, const struct host_config *cfg, uint16_t mss)
{
    uint32_t iw = initial_window(cfg, smss_of(mss));
    cc->cwnd = cfg->tcp_cc == TCP_CC_NONE ? CC_UNLIMITED : capped(cfg, iw);
    cc->ssthresh = CC_UNLIMITED; /* RFC 5681 3.1: "arbitrarily high" */
    cc->recover = 0;
    cc->acked_ca = 0;
    cc->dupacks = 0;
    cc->in_recovery = 0;
    cc->rto_hold = 0; /* RFC 6582 3.2 step 1: recover = ISS, which any ACK covers */
}

/* Slow start or congestion avoidance on a new ACK outside recovery. */
static void grow(struct tcp_cc *cc, const struct host_config *cfg, uint32_t smss, uint32_t acked)
{
    if (cc->cwnd < cc->ssthresh) {
        /* RFC 5681 3.1 eq. 2: cwnd += min(N, SMSS); or lwIP's fixed increment. */
        uint32_t inc = cfg->tcp_cwnd_inc ? cfg->tcp_cwnd_inc : (acked < smss ? acked : smss);
        cc->cwnd = add_sat(cc->cwnd, inc);
    } else if (cfg->tcp_cwnd_inc) {
        /* lwIP: cwnd += mss * mss / cwnd per ACK (RFC 5681 eq. 3). smss^2 < 2^32. */
        uint32_t inc = cc->cwnd ? smss * smss / cc->cwnd : smss;
        cc->cwnd = add_sat(cc->cwnd, inc);
    } else {
        /* RFC 5681 3.1: count the bytes acknowledged; once they reach cwnd, cwnd grows
         * by SMSS and the count restarts from what exceeded cwnd. */
        cc->acked_ca = add_sat(cc->acked_ca, acked);
        if (cc->acked_ca >= cc->cwnd) {
            cc->acked_ca -= cc->cwnd;
            cc->cwnd = add_sat(cc->cwnd, smss);
        }
    }
    cc->cwnd = capped(cfg, cc->cwnd);
}

enum tcp_cc_action tcp_cc_on_ack(struct tcp_cc *cc, const struct host_config *cfg, uint16_t mss,
                                 uint32_t ack, uint32_t acked, uint32_t flight)
{
    uint32_t smss = smss_of(mss);

    cc->dupacks = 0;
    if (cc->rto_hold && seq_geq(ack, cc->recover)) {
        cc->rto_hold = 0; /* everything sent before the timeout is acknowledged */
    }
    if (!cc_adapts(cfg)) {
        return TCP_CC_NOTHING;
    }
    if (cc->in_recovery) {
        if (cfg->tcp_cc == TCP_CC_RENO) {
            /* RFC 5681 3.2 step 6: the first ACK of new data deflates cwnd to ssthresh
             * and ends fast recovery. */
            cc->cwnd = capped(cfg, cc->ssthresh);
            cc->in_recovery = 0;
            cc->acked_ca = 0;
            return TCP_CC_NOTHING;
        }
        if (seq_geq(ack, cc->recover)) {
            /* RFC 6582 3.2 step 3, full acknowledgment: everything up to and including
             * the highest sequence number sent before recovery (recover - 1) is acked.
             * Option (1): cwnd = min(ssthresh, max(FlightSize, SMSS) + SMSS). */
            uint32_t left = flight > acked ? flight - acked : 0u;
            uint32_t w = add_sat(left > smss ? left : smss, smss);
            cc->cwnd = capped(cfg, w < cc->ssthresh ? w : cc->ssthresh);
            cc->in_recovery = 0;
            cc->acked_ca = 0;
            return TCP_CC_NOTHING;
        }
        /* RFC 6582 3.2 step 3, partial acknowledgment: deflate by the amount acked, add
         * back one SMSS if at least one SMSS was acked, stay in recovery and retransmit
         * the first unacknowledged segment. */
        cc->cwnd = cc->cwnd > acked ? cc->cwnd - acked : 0u;
        if (acked >= smss) {
            cc->cwnd = add_sat(cc->cwnd, smss);
        }
        if (cc->cwnd < smss) {
            cc->cwnd = smss;
        }
        cc->cwnd = capped(cfg, cc->cwnd);
        return TCP_CC_PARTIAL_ACK_RETRANSMIT;
    }
    grow(cc, cfg, smss, acked);
    return TCP_CC_NOTHING;
}

enum tcp_cc_action tcp_cc_on_dupack(struct tcp_cc *cc, const struct host_config *cfg, uint16_t mss,
                                    uint32_t snd_nxt, uint32_t flight)
{
    uint32_t smss = smss_of(mss);
    uint8_t thresh = cfg->tcp_dupack_thresh;

    if (cc->dupacks < 0xFFu) {
        cc->dupacks++;
    }
    if (!cc_adapts(cfg)) {
        /* Fast retransmit without a window change (see the top of this file). */
        return cc->dupacks == thresh ? TCP_CC_FAST_RETRANSMIT : TCP_CC_NOTHING;
    }
    if (cc->in_recovery) {
        /* RFC 5681 3.2 step 4: each further duplicate ACK means a segment has left the
         * network: inflate cwnd by SMSS. */
        cc->cwnd = capped(cfg, add_sat(cc->cwnd, smss));
        return TCP_CC_NOTHING;
    }
    if (cc->dupacks != thresh) {
        return TCP_CC_NOTHING;
    }
    if (cfg->tcp_cc == TCP_CC_NEWRENO && cc->rto_hold) {
        /* RFC 6582 3.2 step 2: the duplicate ACKs' cumulative ACK (snd_una) does not
         * cover more than recover (set by the RTO, RFC 6582 3.2 step 4): they come from
         * segments sent before the timeout, not from a new loss. No fast retransmit, no
         * ssthresh change. snd_una only passes recover through tcp_cc_on_ack(), which
         * clears rto_hold then. */
        return TCP_CC_NOTHING;
    }
    /* RFC 5681 3.2 steps 2-3 (RFC 6582 3.2 step 2 records recover): */
    cc->ssthresh = loss_ssthresh(flight, smss);
    cc->cwnd = capped(cfg, add_sat(cc->ssthresh, 3u * smss));
    cc->in_recovery = 1;
    cc->recover = snd_nxt;
    cc->acked_ca = 0;
    return TCP_CC_FAST_RETRANSMIT;
}

void tcp_cc_on_rto(struct tcp_cc *cc, const struct host_config *cfg, uint16_t mss, uint32_t snd_nxt,
                   uint32_t flight)
{
    uint32_t smss = smss_of(mss);

    cc->dupacks = 0;
    cc->in_recovery = 0;   /* RFC 6582 3.2 step 4: exit fast recovery */
    cc->recover = snd_nxt; /* ... and record the highest sequence number sent */
    cc->rto_hold = 1;
    if (!cc_adapts(cfg)) {
        return;
    }
    /* RFC 5681 3.1: ssthresh by eq. 4, cwnd = the loss window, 1 SMSS. */
    cc->ssthresh = loss_ssthresh(flight, smss);
    cc->cwnd = capped(cfg, smss);
    cc->acked_ca = 0;
}

void tcp_cc_on_spurious_rto(struct tcp_cc *cc, const struct host_config *cfg, uint16_t mss,
                            uint32_t flight, uint32_t acked, uint32_t pipe_prev)
{
    uint32_t iw = initial_window(cfg, smss_of(mss));
    cc->rto_hold = 0;
    if (!cc_adapts(cfg))
        return;
    cc->cwnd = capped(cfg, add_sat(flight, acked < iw ? acked : iw));
    cc->ssthresh = pipe_prev;
    cc->acked_ca = 0;
}

void tcp_cc_on_sack_loss(struct tcp_cc *cc, const struct host_config *cfg, uint16_t mss,
                         uint32_t snd_nxt, uint32_t flight)
{
    cc->ssthresh = loss_ssthresh(flight, smss_of(mss));
    cc->cwnd = capped(cfg, cc->ssthresh);
    cc->in_recovery = 1;
    cc->recover = snd_nxt;
    cc->acked_ca = 0;
}

void tcp_cc_on_sack_exit(struct tcp_cc *cc)
{
    cc->in_recovery = 0;
    cc->dupacks = 0;
    cc->acked_ca = 0;
}

int tcp_cc_adapts(const struct host_config *cfg)
{
    return cc_adapts(cfg);
}

uint32_t tcp_cc_window(const struct tcp_cc *cc, const struct host_config *cfg)
{
    if (cfg->tcp_cc == TCP_CC_NONE) {
        return CC_UNLIMITED;
    }
    return cc->cwnd;
}
