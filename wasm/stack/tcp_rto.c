/* Retransmission-timeout estimators (tcp_rto.h): RFC 6298, Van Jacobson on coarse ticks as
 * lwIP, fixed, and the NFC paper's Algorithm 1 (tcp_rto_alg1.c).
 *
 * Pure arithmetic on struct tcp_rto; backoff, the floor, the cap and Karn's rule are the
 * TCP core's (tcp_timer.c). Integer arithmetic only, safe with a 16-bit int.
 */
#include "tcp_rto.h"

#include "tcp_rto_alg1.h"

#define VJ_DEFAULT_TICK_MS 500u   /* lwIP's TCP_SLOW_INTERVAL */
#define VJ_MAX_TICKS       65535u /* clamp of a tick count (lwIP's s16_t would wrap) */

static uint32_t sat32(uint64_t v)
{
    return v > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)v;
}

static uint32_t ms_to_us(uint32_t ms)
{
    return sat32((uint64_t)ms * 1000u);
}

/* The tick lwIP's estimator counts in, ms: the slow timer, or 500 ms when timers are
 * exact (tcp_timer_tick_ms == 0). */
static uint32_t vj_tick_ms(const struct host_config *cfg)
{
    return cfg->tcp_timer_tick_ms ? cfg->tcp_timer_tick_ms : VJ_DEFAULT_TICK_MS;
}

void tcp_rto_init(struct tcp_rto *e, const struct host_config *cfg)
{
    uint32_t initial_ticks;
    uint8_t i;

    e->has_sample = 0;
    e->srtt_us = 0;
    e->rttvar_us = 0;
    e->srtt_frac8 = 0;
    e->rttvar_frac4 = 0;
    /* lwIP's tcp_alloc(): sa = 0, sv = rto = 3000 / TCP_SLOW_INTERVAL ticks; the initial
     * RTO here is cfg.tcp_rto_initial_ms (RFC 6298 2.1) instead of lwIP's 3000. Integer
     * division, as lwIP's: 1200 ms on 500 ms ticks is 2 ticks. */
    initial_ticks = cfg->tcp_rto_initial_ms / vj_tick_ms(cfg);
    e->sa = 0;
    e->sv = (int32_t)(initial_ticks > VJ_MAX_TICKS ? VJ_MAX_TICKS : initial_ticks);
    for (i = 0; i < TCP_RTO_ALG1_MAX_WINDOW; i++) {
        e->r_milli[i] = 0;
    }
    e->r_count = 0;
    e->r_next = 0;
}

/* RFC 6298 section 2, with SRTT kept in eighths and RTTVAR in quarters of a microsecond
 * (the scaling of Van Jacobson's paper, Linux and BSD). Each update computes the exact
 * scaled value as a fraction and rounds it down once: SRTT is low by less than 1/8 us
 * and RTTVAR by less than 1/4 us after that step, and since old errors are multiplied
 * by 7/8 and 3/4 the totals stay within 1 us (SRTT) and 2 us (RTTVAR) of the real-number
 * values. Whenever the RFC's arithmetic gives multiples of 1/8 us (SRTT) and 1/4 us
 * (RTTVAR), in particular whole microseconds, the result is exact. */
static void rfc6298_sample(struct tcp_rto *e, uint32_t r)
{
    uint64_t r8 = (uint64_t)r * 8u;
    uint64_t srtt8, rttvar4;

    if (!e->has_sample) {
        /* 2.2: SRTT <- R, RTTVAR <- R/2 (exact in quarters). */
        srtt8 = r8;
        rttvar4 = (uint64_t)r * 2u;
    } else {
        uint64_t old8 = (uint64_t)e->srtt_us * 8u + e->srtt_frac8;
        uint64_t old4 = (uint64_t)e->rttvar_us * 4u + e->rttvar_frac4;
        uint64_t dev8 = old8 > r8 ? old8 - r8 : r8 - old8; /* 8 |SRTT - R'| */
        /* 2.3, in this order (RTTVAR uses the SRTT before this update):
         *   RTTVAR <- 3/4 RTTVAR + 1/4 |SRTT - R'|, i.e. 4 RTTVAR' = (6 x 4RTTVAR +
         *   8|SRTT - R'|) / 8;
         *   SRTT <- 7/8 SRTT + 1/8 R', i.e. 8 SRTT' = (7 x 8SRTT) / 8 + R'. */
        rttvar4 = (6u * old4 + dev8) / 8u;
        srtt8 = (7u * old8) / 8u + r;
    }
    /* Both stay below 2^32 whole microseconds: SRTT is a mean of 32-bit samples, RTTVAR
     * a mean of R/2 and of 32-bit differences. */
    e->srtt_us = (uint32_t)(srtt8 / 8u);
    e->srtt_frac8 = (uint8_t)(srtt8 % 8u);
    e->rttvar_us = (uint32_t)(rttvar4 / 4u);
    e->rttvar_frac4 = (uint8_t)(rttvar4 % 4u);
    e->has_sample = 1;
}

static uint32_t rfc6298_rto(const struct tcp_rto *e, const struct host_config *cfg)
{
    uint64_t srtt8, k_rttvar, srtt_up;

    if (!e->has_sample) {
        return ms_to_us(cfg->tcp_rto_initial_ms); /* 2.1 */
    }
    /* 2.2/2.3: RTO <- SRTT + max(G, K x RTTVAR), K = 4, G = 1 us. K x RTTVAR is the
     * stored quarter count itself; SRTT is rounded up to the microsecond. */
    srtt8 = (uint64_t)e->srtt_us * 8u + e->srtt_frac8;
    srtt_up = (srtt8 + 7u) / 8u;
    k_rttvar = (uint64_t)e->rttvar_us * 4u + e->rttvar_frac4;
    if (k_rttvar < 1u) {
        k_rttvar = 1u;
    }
    return sat32(srtt_up + k_rttvar);
}

/* Van Jacobson's estimator as lwIP's tcp_receive() runs it (SIGCOMM '88, Appendix A):
 *   m -= sa >> 3; sa += m; if (m < 0) m = -m; m -= sv >> 2; sv += m; rto = (sa >> 3) + sv
 * sa is 8 x SRTT and sv 4 x mean deviation, in ticks. Note lwIP's first sample is not
 * special: sa starts at 0, so SRTT climbs from 0 towards the samples. sa and sv never go
 * negative (each update adds a non-negative amount to 7/8 sa or 3/4 sv), so the shifts
 * are of non-negative values. */
static void vj_sample(struct tcp_rto *e, const struct host_config *cfg,
                      const struct tcp_rtt_sample *s)
{
    uint32_t ticks = s->ticks;
    int32_t m;

    if (cfg->tcp_timer_tick_ms == 0) {
        /* Exact timers: the core counts no ticks, so count whole 500 ms periods. */
        ticks = s->rtt_us / ((uint32_t)VJ_DEFAULT_TICK_MS * 1000u);
    }
    if (ticks > VJ_MAX_TICKS) {
        ticks = VJ_MAX_TICKS;
    }
    m = (int32_t)ticks;
    m -= e->sa >> 3;
    e->sa += m;
    if (m < 0) {
        m = -m;
    }
    m -= e->sv >> 2;
    e->sv += m;
    e->has_sample = 1;
}

static uint32_t vj_rto(const struct tcp_rto *e, const struct host_config *cfg)
{
    uint64_t ticks = (uint64_t)(uint32_t)((e->sa >> 3) + e->sv);
    return sat32(ticks * vj_tick_ms(cfg) * 1000u);
}

void tcp_rto_sample(struct tcp_rto *e, const struct host_config *cfg,
                    const struct tcp_rtt_sample *s)
{
    switch (cfg->tcp_rto) {
    case TCP_RTO_VJ_TICKS: vj_sample(e, cfg, s); break;
    case TCP_RTO_NFC_ALG1: tcp_rto_alg1_sample(e, cfg, s); break;
    /* TCP_RTO_FIXED: the RTO ignores samples, but SRTT/RTTVAR are still kept, by
     * RFC 6298, so that the trace can show them. */
    case TCP_RTO_FIXED:
    case TCP_RTO_RFC6298:
    default: rfc6298_sample(e, s->rtt_us); break;
    }
}

uint32_t tcp_rto_estimate_us(const struct tcp_rto *e, const struct host_config *cfg,
                             uint16_t dgram_len)
{
    switch (cfg->tcp_rto) {
    case TCP_RTO_VJ_TICKS: return vj_rto(e, cfg);
    case TCP_RTO_FIXED: return ms_to_us(cfg->tcp_rto_initial_ms);
    case TCP_RTO_NFC_ALG1: return tcp_rto_alg1_estimate_us(e, cfg, dgram_len);
    case TCP_RTO_RFC6298:
    default: return rfc6298_rto(e, cfg);
    }
}

int tcp_rto_follows_lwip(const struct host_config *cfg)
{
    return cfg->tcp_rto == TCP_RTO_VJ_TICKS || cfg->tcp_rto == TCP_RTO_NFC_ALG1;
}

uint32_t tcp_rto_srtt_us(const struct tcp_rto *e, const struct host_config *cfg)
{
    if (!e->has_sample) {
        return 0;
    }
    if (cfg->tcp_rto == TCP_RTO_VJ_TICKS) {
        /* sa is 8 x SRTT in ticks; rounded down. */
        return sat32((uint64_t)(uint32_t)e->sa * vj_tick_ms(cfg) * 1000u / 8u);
    }
    /* RFC 6298 (and FIXED): the whole microseconds of SRTT; Algorithm 1: the last
     * measured RTT. */
    return e->srtt_us;
}

uint32_t tcp_rto_rttvar_us(const struct tcp_rto *e, const struct host_config *cfg)
{
    if (!e->has_sample) {
        return 0;
    }
    switch (cfg->tcp_rto) {
    case TCP_RTO_VJ_TICKS:
        /* sv is 4 x mean deviation in ticks; rounded down. */
        return sat32((uint64_t)(uint32_t)e->sv * vj_tick_ms(cfg) * 1000u / 4u);
    case TCP_RTO_NFC_ALG1: return 0; /* Algorithm 1 keeps no variation, only the ratio r */
    default: return e->rttvar_us;
    }
}
