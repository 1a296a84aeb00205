/* Shared by the RTO estimator tests: one sample, fed to an estimator. */
#ifndef RTO_TESTS_H
#define RTO_TESTS_H

#include "host_config.h"
#include "tcp_rto.h"

static inline struct tcp_rtt_sample sample(uint32_t rtt_us, uint32_t ticks, uint16_t len)
{
    struct tcp_rtt_sample s;
    s.rtt_us = rtt_us;
    s.ticks = ticks;
    s.dgram_len = len;
    return s;
}

static inline void feed(struct tcp_rto *e, const struct host_config *cfg, uint32_t rtt_us,
                        uint32_t ticks, uint16_t len)
{
    struct tcp_rtt_sample s = sample(rtt_us, ticks, len);
    tcp_rto_sample(e, cfg, &s);
}

#endif
