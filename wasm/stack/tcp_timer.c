/* TCP timers: retransmission (RFC 6298), persist (RFC 9293 3.8.6.1), delayed ACK
 * (RFC 1122 4.2.3.2), TIME_WAIT (RFC 9293 3.6), and the coarse ticks of lwIP.
 *
 * Coarse timers: with cfg.tcp_timer_tick_ms = T > 0 the RTO, persist and TIME_WAIT timers
 * are only looked at on tick instants k*T of host time, as lwIP's tcp_slowtmr(). A timer
 * of d microseconds becomes n = ceil(d / T) ticks; armed at t it fires at
 * (floor(t / T) + n) * T, so it can go off up to one tick early or late against d. The
 * delayed-ACK timer does the same on cfg.tcp_fast_tick_ms (lwIP's tcp_fasttmr: with
 * d <= the fast tick, the ACK goes at the next fast tick).
 *
 * The RTO the core arms is the estimator's value (tcp_rto.h) for the segment at hand,
 * floored at cfg.tcp_rto_min_ms, doubled once per expiry still in force (RFC 6298 5.5),
 * capped at cfg.tcp_rto_max_ms, the same for every estimator. Karn's rule (RFC 6298 5.7
 * and 3): the backed-off value stays until a valid sample arrives. */
#include "tcp_pcb.h"

static stack_time_t tick_deadline(stack_time_t base, uint32_t tick_ms, uint32_t delay_us)
{
    uint32_t T = STACK_MS(tick_ms);
    uint32_t n = (delay_us + T - 1u) / T;
    if (n == 0)
        n = 1;
    return base + n * T;
}

stack_time_t tcp_slow_deadline(struct host *h, uint32_t delay_us)
{
    tcp_clock_update(h);
    if (!HOST_CFG(h).tcp_timer_tick_ms)
        return h->now + delay_us;
    return tick_deadline(h->tcp.slow_at, HOST_CFG(h).tcp_timer_tick_ms, delay_us);
}

stack_time_t tcp_fast_deadline(struct host *h, uint32_t delay_us)
{
    tcp_clock_update(h);
    if (!HOST_CFG(h).tcp_fast_tick_ms)
        return h->now + delay_us;
    return tick_deadline(h->tcp.fast_at, HOST_CFG(h).tcp_fast_tick_ms, delay_us);
}

/* Floor, then `doublings` times double, then cap. */
static uint32_t rto_bound(const struct host *h, uint32_t v, uint8_t doublings)
{
    uint32_t lo = STACK_MS(HOST_CFG(h).tcp_rto_min_ms);
    uint32_t hi = STACK_MS(HOST_CFG(h).tcp_rto_max_ms);
    uint8_t i;
    if (v < lo)
        v = lo;
    for (i = 0; i < doublings && v < hi; i++)
        v = v > hi / 2u ? hi : v * 2u;
    return v > hi ? hi : v;
}

uint32_t tcp_rto_current_us(const struct host *h, const struct tcp_pcb *pcb, uint16_t dgram_len)
{
    return rto_bound(h, tcp_rto_estimate_us(&pcb->est, &HOST_CFG(h), dgram_len), pcb->backoff);
}

uint16_t tcp_una_dgram_len(const struct host *h, const struct tcp_pcb *pcb)
{
    uint32_t off, avail, len, out;
    if (pcb->state == TCP_SYN_SENT || pcb->state == TCP_SYN_RECEIVED)
        return (uint16_t)(IP_HLEN + TCP_HLEN + tcp_syn_opt_len(h, pcb));
    off = pcb->snd_una - pcb->snd_buf_seq;
    avail = off < pcb->snd.len ? pcb->snd.len - off : 0;
    out = pcb->snd_max - pcb->snd_una;
    len = tcp_seg_max(h, pcb);
    if (len > avail)
        len = avail;
    if (len > out)
        len = out;
    return (uint16_t)(IP_HLEN + TCP_HLEN + tcp_opt_len(pcb) + len);
}

void tcp_rto_start(struct host *h, struct tcp_pcb *pcb, uint16_t dgram_len, int restart)
{
    uint32_t v = tcp_rto_current_us(h, pcb, dgram_len);
    if (pcb->rto_id == 0) /* the connection's first timer: its initial RTO (RFC 6298 2.1) */
        tcp_trace(h, pcb, TRACE_RTO_INITIAL, v, 0, 0,
                  tcp_rto_estimate_us(&pcb->est, &HOST_CFG(h), dgram_len));
    pcb->rto_running = 1;
    pcb->rto_value = v;
    pcb->rto_id = ++h->tcp.next_timer_id;
    pcb->rto_at = tcp_slow_deadline(h, v);
    tcp_trace(h, pcb, restart ? TRACE_RTO_RESTART : TRACE_RTO_ARM, v, pcb->rto_id, pcb->snd_una, 0);
}

void tcp_rto_stop(struct host *h, struct tcp_pcb *pcb)
{
    if (!pcb->rto_running)
        return;
    pcb->rto_running = 0;
    tcp_trace(h, pcb, TRACE_RTO_STOP, pcb->rto_id, 0, 0, 0);
}

/* RFC 6298 section 5.4-5.6: the retransmission timer expired. */
void tcp_rto_on_timeout(struct host *h, struct tcp_pcb *pcb)
{
    int syn = pcb->state == TCP_SYN_SENT || pcb->state == TCP_SYN_RECEIVED;
    /* RFC 1122 4.2.3.5 (R2) and RFC 9293 3.8.3: give up after the configured number of
     * retransmissions; SYNs have their own, smaller limit. */
    uint8_t limit = syn ? HOST_CFG(h).tcp_syn_retries : HOST_CFG(h).tcp_max_retries;
    uint32_t id = pcb->rto_id;

    pcb->rto_running = 0;
    if (pcb->retries >= limit) {
        tcp_trace(h, pcb, TRACE_RTO_EXPIRE, pcb->rto_value, id, pcb->backoff, 0);
        tcp_conn_fail(h, pcb, ERR_TIMEOUT);
        return;
    }
    pcb->retries++;
    /* RFC 6298 5.5: back off the timer (doubling, applied by rto_bound). */
    if (pcb->backoff < 31)
        pcb->backoff++;
    tcp_trace(h, pcb, TRACE_RTO_EXPIRE, pcb->rto_value, id, pcb->backoff, 0);
    pcb->retx_timer_id = id;
    pcb->retx_cause = TCP_RETX_RTO;
    pcb->retx_pending = 0;
    pcb->rtt_timing = 0; /* Karn: the timed segment is being retransmitted */
#if STACK_EIFEL
    if (HOST_CFG(h).tcp_eifel && pcb->ts_ok && !syn && !pcb->eifel_armed) {
        /* RFC 3522 2: remember the TSval the retransmission carries (this instant's);
         * RFC 4015 3.1 step 1: and pipe_prev, before the window is cut */
        uint32_t flight = pcb->snd_max - pcb->snd_una;
        pcb->eifel_armed = 1;
        pcb->eifel_ts = h->tcp.clk_ms;
        pcb->eifel_pipe_prev = flight > pcb->cc.ssthresh ? flight : pcb->cc.ssthresh;
    }
#endif
    if (!syn && pcb->cc_ready)
        tcp_cc_rto(h, pcb);
#if STACK_SACK
    /* RFC 2018 8: after a timeout the SACKed bits are forgotten (the data stays in the
     * ring until cumulatively acknowledged); RFC 6675 5.1: recovery ends, and no new one
     * starts before the RecoveryPoint the RTO set is acknowledged. */
    pcb->sack_rto_hold = pcb->sack_rec;
    tcp_sack_clear(pcb);
#endif
    /* RFC 6298 5.4: retransmit the earliest unacknowledged segment; then go back N from
     * snd_una as the (now one-segment) congestion window opens, as BSD and Linux do. */
    pcb->snd_nxt = syn ? pcb->iss : pcb->snd_una;
    pcb->force_one = 1;
    pcb->probe_out = 0;
    tcp_output(h, pcb);
}

/* RFC 9293 3.8.6.1 / RFC 1122 4.2.2.17: the persist timer probes a zero window, backing
 * off exponentially from the current RTO up to the RTO cap, and never gives up while the
 * peer answers. */
void tcp_persist_start(struct host *h, struct tcp_pcb *pcb)
{
    uint32_t est = tcp_rto_estimate_us(&pcb->est, &HOST_CFG(h), tcp_una_dgram_len(h, pcb));
    uint32_t v = rto_bound(h, est, pcb->persist_backoff);
    pcb->persist = 1;
    pcb->persist_at = tcp_slow_deadline(h, v);
    tcp_trace(h, pcb, TRACE_PERSIST_ARM, v, pcb->persist_backoff, 0, 0);
}

void tcp_persist_stop(struct tcp_pcb *pcb)
{
    pcb->persist = 0;
    pcb->persist_backoff = 0;
}

static void persist_fire(struct host *h, struct tcp_pcb *pcb)
{
    pcb->persist = 0;
    tcp_send_probe(h, pcb);
    if (pcb->persist_backoff < 31)
        pcb->persist_backoff++;
    tcp_timers_update(h, pcb);
}

void tcp_delack_start(struct host *h, struct tcp_pcb *pcb)
{
    if (pcb->delack)
        return;
    pcb->delack = 1;
    pcb->delack_at = tcp_fast_deadline(h, STACK_MS(HOST_CFG(h).tcp_delack_ms));
    tcp_trace(h, pcb, TRACE_DELACK_ARM, pcb->delack_at - h->now, pcb->rcv_nxt, 0, 0);
}

void tcp_delack_cancel(struct host *h, struct tcp_pcb *pcb)
{
    if (!pcb->delack)
        return;
    pcb->delack = 0;
    tcp_trace(h, pcb, TRACE_DELACK_CANCEL, pcb->rcv_nxt, 0, 0, 0);
}

void tcp_timewait_start(struct host *h, struct tcp_pcb *pcb)
{
    pcb->tw = 1;
    pcb->tw_at = tcp_slow_deadline(h, STACK_MS(HOST_CFG(h).tcp_time_wait_ms));
}

void tcp_timers_stop(struct host *h, struct tcp_pcb *pcb)
{
    tcp_rto_stop(h, pcb);
    tcp_delack_cancel(h, pcb);
    pcb->persist = 0;
    pcb->tw = 0;
}

void tcp_timers_update(struct host *h, struct tcp_pcb *pcb)
{
    int outstanding;
    if (!pcb->in_use || !tcp_data_state(pcb->state))
        return;
    outstanding = pcb->snd_max != pcb->snd_una;
    /* RFC 6298 5.2: everything acknowledged, stop the timer. */
    if (!outstanding)
        tcp_rto_stop(h, pcb);
    if (pcb->snd_wnd == 0 && (!outstanding || pcb->probe_out) &&
        (tcp_snd_unsent(pcb) > 0 || pcb->probe_out)) {
        if (pcb->rto_running)
            tcp_rto_stop(h, pcb);
        if (!pcb->persist)
            tcp_persist_start(h, pcb);
        return;
    }
    if (outstanding && !pcb->rto_running && !pcb->persist)
        tcp_rto_start(h, pcb, tcp_una_dgram_len(h, pcb), 0);
}

void tcp_timers_poll(struct host *h, struct tcp_pcb *pcb)
{
    if (pcb->tw && time_after_eq(h->now, pcb->tw_at)) {
        /* RFC 9293 3.6: 2 MSL passed in TIME_WAIT (or an orphaned FIN_WAIT_2 waited as
         * long, as Linux's tcp_fin_timeout): the connection is gone. */
        pcb->tw = 0;
        tcp_conn_done(h, pcb);
        return;
    }
    if (pcb->delack && time_after_eq(h->now, pcb->delack_at)) {
        pcb->delack = 0;
        tcp_trace(h, pcb, TRACE_DELACK_FIRE, pcb->rcv_nxt, 0, 0, 0);
        tcp_ack_now(h, pcb);
    }
    if (pcb->in_use && pcb->rto_running && time_after_eq(h->now, pcb->rto_at))
        tcp_rto_on_timeout(h, pcb);
    if (pcb->in_use && pcb->persist && time_after_eq(h->now, pcb->persist_at))
        persist_fire(h, pcb);
}

void tcp_timers_deadline(const struct tcp_pcb *pcb, stack_time_t *deadline, int *has)
{
    if (pcb->tw)
        time_earliest(deadline, has, pcb->tw_at);
    if (pcb->delack)
        time_earliest(deadline, has, pcb->delack_at);
    if (pcb->rto_running)
        time_earliest(deadline, has, pcb->rto_at);
    if (pcb->persist)
        time_earliest(deadline, has, pcb->persist_at);
}

void tcp_rtt_sample(struct host *h, struct tcp_pcb *pcb, uint32_t rtt_us, uint32_t ticks,
                    uint16_t dgram_len, int from_ts)
{
    struct tcp_rtt_sample s;
    uint32_t hdr = IP_HLEN + TCP_HLEN + tcp_opt_len(pcb);
    s.rtt_us = rtt_us;
    s.ticks = HOST_CFG(h).tcp_timer_tick_ms ? ticks : 0;
    s.dgram_len = dgram_len;
    tcp_rto_sample(&pcb->est, &HOST_CFG(h), &s);
    pcb->backoff = 0; /* Karn: a valid sample ends the backoff */
    tcp_trace(h, pcb, TRACE_RTT_SAMPLE, rtt_us, dgram_len > hdr ? dgram_len - hdr : 0,
              from_ts ? 1u : 0u, 0);
    /* The value the timer will use (floor and cap applied; backoff is 0 again) and, beside
     * it, the estimator's own: a student sees 48 ms estimated and 1 s used. */
    tcp_trace(h, pcb, TRACE_RTO_VALUE, tcp_rto_current_us(h, pcb, dgram_len),
              tcp_rto_srtt_us(&pcb->est, &HOST_CFG(h)), tcp_rto_rttvar_us(&pcb->est, &HOST_CFG(h)),
              tcp_rto_estimate_us(&pcb->est, &HOST_CFG(h), dgram_len));
}
