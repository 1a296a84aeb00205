/* Congestion control: none, fixed window (the mTCP seed), Reno (RFC 5681) and NewReno
 * (RFC 6582).
 *
 * Pure functions over struct tcp_cc: the TCP core decides what is a new ACK and what is a
 * duplicate ACK (RFC 5681 section 2 definition), calls these, acts on the returned action
 * (retransmit the first unacknowledged segment) and traces any cwnd/ssthresh change by
 * comparing before and after.
 */
#ifndef STACK_TCP_CC_H
#define STACK_TCP_CC_H

#include <stdint.h>

#include "host_config.h"

enum tcp_cc_action {
    TCP_CC_NOTHING,
    TCP_CC_FAST_RETRANSMIT,       /* dup ACK threshold reached: resend snd_una's segment (RFC
                               5681 3.2 step 2, RFC 6582 3.2 step 2) */
    TCP_CC_PARTIAL_ACK_RETRANSMIT /* NewReno: partial ACK in recovery, resend the next
                                     unacknowledged segment (RFC 6582 3.2 step 3) */
};

struct tcp_cc {
    uint32_t cwnd;       /* bytes */
    uint32_t ssthresh;   /* bytes */
    uint32_t recover;    /* NewReno: snd_nxt when recovery began */
    uint32_t acked_ca;   /* bytes acked in congestion avoidance since cwnd last grew */
    uint8_t dupacks;     /* consecutive duplicate ACKs */
    uint8_t in_recovery; /* in fast recovery */
    uint8_t rto_hold;    /* NewReno: set by an RTO until an ACK reaches `recover`; while
                             set, duplicate ACKs cannot start fast retransmit (RFC 6582
                             3.2 step 2: the cumulative ACK must cover more than recover) */
};

/* Starts a connection's window once the MSS is known (RFC 5681 3.1: IW; or
 * cfg.tcp_initial_cwnd). ssthresh starts "arbitrarily high" (the peer's window limits). */
void tcp_cc_init(struct tcp_cc *cc, const struct host_config *cfg, uint16_t mss);

/* An ACK advanced snd_una to `ack` by `acked` bytes. `flight` = bytes outstanding before
 * this ACK. Resets the dup ACK count; grows cwnd (slow start or congestion avoidance, at
 * most cfg.tcp_max_cwnd); ends or continues recovery. */
enum tcp_cc_action tcp_cc_on_ack(struct tcp_cc *cc, const struct host_config *cfg, uint16_t mss,
                                 uint32_t ack, uint32_t acked, uint32_t flight);

/* A duplicate ACK. `snd_nxt` and `flight` are taken at this moment. At the threshold:
 * ssthresh = max(flight / 2, 2 SMSS), cwnd = ssthresh + 3 SMSS, enter recovery (Reno,
 * NewReno; NewReno only if the ACK covers more than `recover`, RFC 6582 3.2 step 2).
 * Past it, inflate cwnd by SMSS. Nothing for NONE and FIXED except counting. */
enum tcp_cc_action tcp_cc_on_dupack(struct tcp_cc *cc, const struct host_config *cfg, uint16_t mss,
                                    uint32_t snd_nxt, uint32_t flight);

/* The retransmission timer expired: ssthresh = max(flight / 2, 2 SMSS), cwnd = 1 SMSS
 * (RFC 5681 3.1 eq. 4 and "loss window"), recovery abandoned. `snd_nxt` is recorded as
 * `recover` (RFC 6582 4.1). */
void tcp_cc_on_rto(struct tcp_cc *cc, const struct host_config *cfg, uint16_t mss, uint32_t snd_nxt,
                   uint32_t flight);

/* A timeout proved spurious (Eifel, RFC 4015 3.2 step 6): cwnd = FlightSize +
 * min(bytes acked, IW), ssthresh = pipe_prev (max(FlightSize, ssthresh) before the
 * timeout); the RTO's hold on fast retransmit ends. */
void tcp_cc_on_spurious_rto(struct tcp_cc *cc, const struct host_config *cfg, uint16_t mss,
                            uint32_t flight, uint32_t acked, uint32_t pipe_prev);

/* RFC 6675 5 step 4.2: SACK-based loss recovery begins: ssthresh = cwnd =
 * max(FlightSize / 2, 2 SMSS), recover = snd_nxt, in recovery (no inflation: the sender
 * counts the pipe instead). */
void tcp_cc_on_sack_loss(struct tcp_cc *cc, const struct host_config *cfg, uint16_t mss,
                         uint32_t snd_nxt, uint32_t flight);
/* RFC 6675 5: recovery ends when the cumulative ACK reaches the recovery point; cwnd
 * stays at ssthresh. */
void tcp_cc_on_sack_exit(struct tcp_cc *cc);
/* Reno or NewReno: the kinds that react to loss (and so use RFC 6675 with SACK). */
int tcp_cc_adapts(const struct host_config *cfg);

/* The window the sender may use now: cwnd, the fixed window, or no limit (UINT32_MAX)
 * for TCP_CC_NONE. */
uint32_t tcp_cc_window(const struct tcp_cc *cc, const struct host_config *cfg);

#endif
