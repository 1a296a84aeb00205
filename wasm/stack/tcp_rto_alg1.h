/* The NFC bridge paper's Algorithm 1, the part of tcp_rto.c that lives in its own file.
 *
 * Internal to the RTO module: the TCP core calls tcp_rto_sample() and
 * tcp_rto_estimate_us() (tcp_rto.h), which dispatch here for TCP_RTO_NFC_ALG1.
 */
#ifndef STACK_TCP_RTO_ALG1_H
#define STACK_TCP_RTO_ALG1_H

#include <stdint.h>

#include "tcp_rto.h"

/* RTT_NFC of Eq. 5.2 for a packet of `size` bytes, microseconds, rounded to the nearest
 * microsecond (halves up), saturated at UINT32_MAX. */
uint32_t tcp_rto_alg1_nfc_us(const struct tcp_nfc_model *m, uint16_t size);

/* Algorithm 1 line 24 (Eq. 5.7): pushes r = measured / modelled RTT into the window. */
void tcp_rto_alg1_sample(struct tcp_rto *e, const struct host_config *cfg,
                         const struct tcp_rtt_sample *s);

/* Algorithm 1 lines 12-20: the RTO of a packet of `dgram_len` bytes. */
uint32_t tcp_rto_alg1_estimate_us(const struct tcp_rto *e, const struct host_config *cfg,
                                  uint16_t dgram_len);

/* The largest r in the window, thousandths (1000 when the window is empty: line 10). */
uint32_t tcp_rto_alg1_r_milli(const struct tcp_rto *e, const struct host_config *cfg);

#endif
