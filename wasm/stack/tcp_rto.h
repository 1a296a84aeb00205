/* Retransmission-timeout estimators.
 *
 * An estimator turns RTT samples into an RTO for the next segment. It does not apply
 * backoff, the floor, the cap or Karn's rule: the TCP core does that (tcp_timer.c), the
 * same way for every estimator, so swapping estimators changes only the estimate.
 *
 *  TCP_RTO_RFC6298   RFC 6298 section 2: SRTT and RTTVAR from every sample, K = 4,
 *                    alpha 1/8, beta 1/4, clock granularity G = 1 us.
 *  TCP_RTO_VJ_TICKS  Van Jacobson's integer estimator (SIGCOMM '88, Appendix A) counted in
 *                    slow-timer ticks, as lwIP's tcp_in.c does: sa = 8 x SRTT and
 *                    sv = 4 x mean deviation, in ticks; RTO = (sa >> 3) + sv ticks.
 *  TCP_RTO_FIXED     always cfg.tcp_rto_initial_ms.
 *  TCP_RTO_NFC_ALG1  the NFC bridge paper's Algorithm 1: the RTO of each packet is computed
 *                    from its size with the link model of Eq. 5.1-5.6, scaled by the
 *                    largest recent ratio r = measured / modelled RTT (Eq. 5.7-5.9), with
 *                    RTT_WiFi floored at tcp_nfc.rtt_wifi_ms and the sum rounded up to
 *                    tcp_nfc.round_ms (line 20 of the algorithm).
 */
#ifndef STACK_TCP_RTO_H
#define STACK_TCP_RTO_H

#include <stdint.h>

#include "host_config.h"
#include "stack_opts.h"

/* One RTT measurement, already filtered by Karn's rule. */
struct tcp_rtt_sample {
    uint32_t rtt_us;    /* time from sending the timed segment to its ACK */
    uint32_t ticks;     /* slow-timer ticks that elapsed meanwhile (lwIP counts these; 0
                            when cfg.tcp_timer_tick_ms is 0) */
    uint16_t dgram_len; /* IP datagram length of the timed segment */
};

struct tcp_rto {
    uint8_t has_sample;
    /* TCP_RTO_RFC6298, microseconds (whole part; Algorithm 1 keeps its last measured RTT
       in srtt_us) */
    uint32_t srtt_us;
    uint32_t rttvar_us;
    /* TCP_RTO_RFC6298 fixed-point remainders, added for precision: SRTT is kept in eighths
       and RTTVAR in quarters of a microsecond, as Linux/BSD scale them (SRTT x 8 =
       srtt_us x 8 + srtt_frac8, RTTVAR x 4 = rttvar_us x 4 + rttvar_frac4). */
    uint8_t srtt_frac8;   /* 0..7 */
    uint8_t rttvar_frac4; /* 0..3 */
    /* TCP_RTO_VJ_TICKS, ticks, lwIP's scaling */
    int32_t sa;
    int32_t sv;
    /* TCP_RTO_NFC_ALG1: recent r factors in thousandths, a ring */
    uint32_t r_milli[TCP_RTO_ALG1_MAX_WINDOW];
    uint8_t r_count;
    uint8_t r_next;
};

void tcp_rto_init(struct tcp_rto *e, const struct host_config *cfg);

/* Feeds one valid sample. */
void tcp_rto_sample(struct tcp_rto *e, const struct host_config *cfg,
                    const struct tcp_rtt_sample *s);

/* The estimator's RTO, in microseconds, for a segment whose IP datagram is `dgram_len`
 * bytes (only Algorithm 1 looks at the size). Before backoff, floor and cap. */
uint32_t tcp_rto_estimate_us(const struct tcp_rto *e, const struct host_config *cfg,
                             uint16_t dgram_len);

/* Whether the estimator follows lwIP's rules around it (TCP_RTO_VJ_TICKS copies lwIP's
 * estimator; the NFC paper built Algorithm 1 into lwIP), where they differ from RFC 6298:
 *  - an ACK of new data ends the backoff (lwIP tcp_in.c: nrtx = 0, rto = (sa >> 3) + sv);
 *    RFC 6298 5.7 keeps the doubled RTO until a new RTT sample (Karn);
 *  - the SYN-ACK gives the active opener no RTT sample (lwIP measures only in
 *    tcp_receive(), which SYN_SENT does not call); RFC 6298 allows the sample. The paper's
 *    Fig. 5.10 shows it: the appliance's first data is re-sent 4.6 s after it was sent,
 *    within the 5 s initial RTO's last tick, where a SYN-ACK sample would have made 4 s.
 *    Nor does SYN_SENT stop the timing (rttest), so the first ACK in ESTABLISHED that
 *    passes the ISS gives a sample from the SYN, unless a retransmission re-timed first;
 *  - a retransmission is timed (tcp_rexmit_rto() and tcp_rexmit() clear rttest, and
 *    tcp_output_segment() sets it for the next segment out, the retransmitted one): no
 *    Karn's rule, and an ACK of the original gives a sample shorter than the round trip. */
int tcp_rto_follows_lwip(const struct host_config *cfg);

/* Smoothed RTT and variation to report (0 before the first sample). For the VJ estimator
 * these are converted from ticks; Algorithm 1 reports the last measured RTT as srtt. */
uint32_t tcp_rto_srtt_us(const struct tcp_rto *e, const struct host_config *cfg);
uint32_t tcp_rto_rttvar_us(const struct tcp_rto *e, const struct host_config *cfg);

/* Algorithm 1's link model, Eq. 5.1-5.6: the modelled RTT of a datagram of `dgram_len`
 * bytes (carried as dgram_len + tcp_nfc.frame_overhead bytes by the NFC module), in
 * microseconds (RTT_NFC + RTT_WiFi, no r scaling, no rounding). The paper
 * divides size by chunk payload without rounding (Eq. 5.5); this does the same, which is
 * what reproduces its 2046.78 ms at 24 kbps. */
uint32_t tcp_rto_alg1_model_us(const struct tcp_nfc_model *m, uint16_t dgram_len);

#endif
