/* The retransmission timer, RFC 6298: arming, restart on new ACKs, expiry, backoff doubling
 * and its cap, Karn's rule, the coarse ticks of lwIP's slow timer, giving up after
 * cfg.tcp_max_retries, and sequence numbers that wrap around 2^32 on the way.
 *
 * The handshake (SYN at 0, SYN-ACK at 10 ms) gives one RTT sample of 10 ms: RFC 6298 2.2
 * then sets SRTT 10 ms, RTTVAR 5 ms, RTO = 10 + 4 x 5 = 30 ms, raised to the 1 s floor
 * (cfg.tcp_rto_min_ms). So every data segment below starts with a 1 s RTO. */
#include "tcp_pcb.h"
#include "tcp_tests.h"

static const char payload[100] =
    "0123456789abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/* Data at `t`, never acknowledged: returns the instants of the segments that carried it. */
static int retransmission_times(struct tcp_lab *L, int sock, stack_time_t t, stack_time_t until,
                                stack_time_t *at, int max)
{
    struct tseg g;
    int n = 0;
    lab_run(L, t);
    if (tcpsend(&L->h, sock, payload, 100) != 100)
        return -1;
    lab_run(L, until);
    while (n < max && lab_next(L, &g)) {
        if (g.seq != 1001 || g.len != 100 || memcmp(g.data, payload, 100) != 0)
            return -1;
        at[n++] = g.t;
    }
    return n;
}

static void test_rto_backoff_doubles(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    stack_time_t at[8];
    const struct trace_event *e;
    int sock;
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 4096, 1460);
    CHECK(sock >= 0);
    lab_clear_trace(&L);
    /* RFC 6298 5.5: 1 s, then 2, 4, 8 s: sent at 0.1 s, again at 1.1, 3.1, 7.1, 15.1 s */
    CHECK_EQ(retransmission_times(&L, sock, MS(100), MS(16000), at, 8), 5);
    CHECK_EQ(at[0], MS(100));
    CHECK_EQ(at[1], MS(1100));
    CHECK_EQ(at[2], MS(3100));
    CHECK_EQ(at[3], MS(7100));
    CHECK_EQ(at[4], MS(15100));
    CHECK_EQ(lab_count(&L, TRACE_RETRANSMIT), 4);
    e = lab_event(&L, TRACE_RETRANSMIT, 0);
    CHECK_EQ(e->a, 1001);
    CHECK_EQ(e->b, 100);
    CHECK_EQ(e->c, TCP_RETX_RTO);
    CHECK_EQ(e->d, lab_event(&L, TRACE_RTO_EXPIRE, 0)->b); /* the timer that expired */
    CHECK_EQ(lab_event(&L, TRACE_RTO_EXPIRE, 0)->a, 1000000);
    CHECK_EQ(lab_event(&L, TRACE_RTO_EXPIRE, 0)->c, 1); /* backoff count after */
    CHECK_EQ(lab_event(&L, TRACE_RTO_ARM, 1)->a, 2000000);
    CHECK_EQ(lab_event(&L, TRACE_RTO_ARM, 2)->a, 4000000);
    CHECK_EQ(lab_event(&L, TRACE_RTO_ARM, 3)->a, 8000000);
    CHECK(lab_event(&L, TRACE_RTO_ARM, 1)->b > lab_event(&L, TRACE_RTO_ARM, 0)->b);
    {
        struct tcp_info info;
        CHECK_EQ(tcpstatus(&L.h, sock, &info), ERR_OK);
        CHECK_EQ(info.retransmits_rto, 4);
        CHECK_EQ(info.rto_us, 16000000);
    }
    lab_free(&L);
}

static void test_rto_value_traced_with_floor(void)
{
    /* The handshake's 10 ms sample: SRTT 10 ms, RTTVAR 5 ms, estimate 10 + 4 x 5 = 30 ms
     * (RFC 6298 2.2), used as 1 s (the floor, 2.4). The trace gives both. */
    struct host_config cfg;
    struct tcp_lab L;
    const struct trace_event *e;
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    CHECK(tt_open_active(&L, 0, MS(10), 4096, 1460) >= 0);
    /* first, as the SYN's timer is armed: the initial RTO (RFC 6298 2.1), once */
    CHECK_EQ(lab_count(&L, TRACE_RTO_INITIAL), 1);
    e = lab_event(&L, TRACE_RTO_INITIAL, 0);
    CHECK_EQ(e->time, 0);
    CHECK_EQ(e->a, 1000000);
    CHECK_EQ(e->d, 1000000);
    CHECK_EQ(lab_count(&L, TRACE_RTO_VALUE), 1);
    e = lab_event(&L, TRACE_RTO_VALUE, 0);
    CHECK_EQ(e->a, 1000000);
    CHECK_EQ(e->b, 10000);
    CHECK_EQ(e->c, 5000);
    CHECK_EQ(e->d, 30000);
    lab_free(&L);
}

/* After an RTO the sender goes back to snd_una (go-back-N) and snd_nxt falls below
 * snd_max. A pure ACK must still carry snd_max (BSD's tcp_output rule): with snd_nxt it
 * would lie below what the peer may already hold, the peer would drop it as an old
 * duplicate without reading its ACK field and answer with its own ACK: an ACK war that
 * the echo test with 10 % loss ran into. */
static void test_pure_ack_after_go_back_n_carries_snd_max(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    int sock;
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 4096, 100); /* peer MSS 100 */
    CHECK(sock >= 0);
    lab_run(&L, MS(100));
    CHECK_EQ(tcpsend(&L.h, sock, payload, 100), 100);
    CHECK_EQ(tcpsend(&L.h, sock, payload, 100), 100);
    CHECK_EQ(tcpsend(&L.h, sock, payload, 100), 100);
    CHECK_EQ(lab_pending(&L), 3); /* 1001, 1101, 1201: snd_max 1301 */
    lab_skip(&L);
    lab_run(&L, MS(1100)); /* RTO (1 s floor): 1001 again, cwnd 1 MSS: snd_nxt 1101 */
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, 1001);
    CHECK_EQ(lab_pending(&L), 0);
    /* The peer, which did get all three, sends 10 bytes acknowledging only 1001 (its ACK
     * of the rest was lost). Our ACK of them must say seq 1301. */
    lab_seg(&L, MS(1150), TCP_ACK | TCP_PSH, 5001, 1001, 4096, "0123456789", 10);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.flags, TCP_ACK);
    CHECK_EQ(g.len, 0);
    CHECK_EQ(g.ack, 5011);
    CHECK_EQ(g.seq, 1301);
    lab_free(&L);
}

static void test_rto_backoff_cap(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    stack_time_t at[8];
    int sock;
    tt_config(&cfg);
    cfg.tcp_rto_max_ms = 5000; /* RFC 6298 2.5: a maximum may be placed on RTO */
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 4096, 1460);
    CHECK(sock >= 0);
    /* 1, 2, 4, then 5, 5 s: 0.1, 1.1, 3.1, 7.1, 12.1, 17.1 s */
    CHECK_EQ(retransmission_times(&L, sock, MS(100), MS(17500), at, 8), 6);
    CHECK_EQ(at[3], MS(7100));
    CHECK_EQ(at[4], MS(12100));
    CHECK_EQ(at[5], MS(17100));
    lab_free(&L);
}

static void test_restart_on_new_ack(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    static uint8_t data[2920];
    int sock;
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 8192, 1460);
    CHECK(sock >= 0);
    lab_run(&L, MS(100));
    CHECK_EQ(tcpsend(&L.h, sock, data, sizeof data), 2920);
    CHECK_EQ(lab_pending(&L), 2); /* 1001 and 2461, 1460 each */
    lab_skip(&L);
    /* RFC 6298 5.3: the ACK of the first restarts the timer for the second: it expires
     * 1 s after the ACK (1.4 s), not 1 s after the first was sent (1.1 s). */
    lab_seg(&L, MS(400), TCP_ACK, 5001, 2461, 8192, NULL, 0);
    CHECK_EQ(lab_event(&L, TRACE_RTO_RESTART, 0)->time, MS(400));
    lab_run(&L, MS(1399));
    CHECK_EQ(lab_pending(&L), 0);
    lab_run(&L, MS(1400));
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(1400));
    CHECK_EQ(g.seq, 2461);
    CHECK_EQ(g.len, 1460);
    /* RFC 6298 5.2: all acknowledged, the timer stops */
    lab_seg(&L, MS(1450), TCP_ACK, 5001, 3921, 8192, NULL, 0);
    CHECK_EQ(lab_event(&L, TRACE_RTO_STOP, 1)->time, MS(1450));
    {
        stack_time_t d;
        CHECK(!lab_deadline(&L, &d));
    }
    lab_free(&L);
}

static void test_karn_no_sample_from_retransmission(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    const struct trace_event *e;
    int sock;
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 4096, 1460);
    CHECK(sock >= 0);
    CHECK_EQ(lab_count(&L, TRACE_RTT_SAMPLE), 1); /* the handshake's 10 ms */
    lab_run(&L, MS(100));
    CHECK_EQ(tcpsend(&L.h, sock, payload, 100), 100);
    lab_run(&L, MS(1100)); /* retransmitted at 1.1 s */
    /* The ACK at 1.2 s may be for either transmission: no sample (RFC 6298 3, Karn). */
    lab_seg(&L, MS(1200), TCP_ACK, 5001, 1101, 4096, NULL, 0);
    CHECK_EQ(lab_count(&L, TRACE_RTT_SAMPLE), 1);
    /* and the backed-off RTO stays for the next segment (RFC 6298 5.7 / Karn) */
    lab_run(&L, MS(1300));
    CHECK_EQ(tcpsend(&L.h, sock, payload, 10), 10);
    e = lab_event(&L, TRACE_RTO_ARM, lab_count(&L, TRACE_RTO_ARM) - 1);
    CHECK_EQ(e->time, MS(1300));
    CHECK_EQ(e->a, 2000000);
    /* its ACK, 50 ms later, is a valid sample; the backoff ends */
    lab_seg(&L, MS(1350), TCP_ACK, 5001, 1111, 4096, NULL, 0);
    CHECK_EQ(lab_count(&L, TRACE_RTT_SAMPLE), 2);
    e = lab_event(&L, TRACE_RTT_SAMPLE, 1);
    CHECK_EQ(e->a, 50000);
    CHECK_EQ(e->b, 10);
    CHECK_EQ(e->c, 0);
    lab_run(&L, MS(1400));
    CHECK_EQ(tcpsend(&L.h, sock, payload, 10), 10);
    e = lab_event(&L, TRACE_RTO_ARM, lab_count(&L, TRACE_RTO_ARM) - 1);
    CHECK_EQ(e->a, 1000000);
    lab_free(&L);
}

/* Data sent at 1.3 s on 500 ms ticks placed at phase_ms: the times of the send and of its
 * three timeouts (1 s, 2 s, 4 s). */
static void coarse_schedule(uint32_t phase_ms, stack_time_t first, stack_time_t second,
                            stack_time_t third)
{
    struct host_config cfg;
    struct tcp_lab L;
    stack_time_t at[8];
    int sock;
    tt_config(&cfg);
    cfg.tcp_timer_tick_ms = 500;
    cfg.tcp_timer_phase_ms = phase_ms;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 4096, 1460);
    CHECK(sock >= 0);
    CHECK_EQ(retransmission_times(&L, sock, MS(1300), MS(8500), at, 8), 4);
    CHECK_EQ(at[0], MS(1300));
    CHECK_EQ(at[1], first);
    CHECK_EQ(at[2], second);
    CHECK_EQ(at[3], third);
    lab_free(&L);
}

static void test_coarse_slow_timer_ticks(void)
{
    /* Sent at 1.3 s with a 1 s RTO = 2 ticks of 500 ms: lwIP counts ticks from the one
     * before, so it fires at (floor(1.3 / 0.5) + 2) x 0.5 = 2.0 s, not 2.3 s. Then
     * 2 s = 4 ticks from 2.0 s: 4.0 s; 4 s = 8 ticks: 8.0 s. */
    coarse_schedule(0, MS(2000), MS(4000), MS(8000));
}

static void test_coarse_timer_started_late_in_a_tick(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    stack_time_t at[4];
    int sock;
    tt_config(&cfg);
    cfg.tcp_timer_tick_ms = 500;
    cfg.tcp_rto_min_ms = 300;
    cfg.tcp_rto_initial_ms = 1200;
    /* the host starts at 20 s: ticks stay on k x 500 ms of host time */
    CHECK(lab_init(&L, &cfg, 1500, MS(20000)) == 0);
    sock = tt_open_active(&L, MS(20000), MS(10), 4096, 1460);
    CHECK(sock >= 0);
    /* RTT 10 ms: RTO 30 ms, floored at 300 ms: n = ceil(300 / 500) = 1 tick. Sent at
     * 20.499 s, it fires at the next tick, 20.5 s, 1 ms later. */
    CHECK_EQ(retransmission_times(&L, sock, MS(20499), MS(20501), at, 4), 2);
    CHECK_EQ(at[0], MS(20499));
    CHECK_EQ(at[1], MS(20500));
    lab_free(&L);
}

static void test_coarse_timer_phase(void)
{
    /* Ticks at 0.2 + k x 0.5 s: the tick before 1.3 s is 1.2 s, so 2 ticks: 2.2 s, then 4
     * ticks: 4.2 s, 8 ticks: 8.2 s. */
    coarse_schedule(200, MS(2200), MS(4200), MS(8200));
}

/* lwIP's tcp_timer_needed() (cfg.tcp_timer_on_demand): the trains start one fast tick
 * after the connection opens, whatever tcp_timer_phase_ms says. SYN at 1.137 s: ticks
 * at 1.387 + k x 0.5 s, so data sent at 1.3 s (tick before: 0.887) times out after
 * 2 ticks at 1.887 s, then 4 ticks: 3.887 s, 8 ticks: 7.887 s. From boot at phase
 * 0.2 s the same data goes at 2.2, 4.2 and 8.2 s. */
static void test_timer_on_demand_starts_with_the_connection(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    stack_time_t at[8];
    int sock;
    tt_config(&cfg);
    cfg.tcp_timer_tick_ms = 500;
    cfg.tcp_fast_tick_ms = 250;
    cfg.tcp_timer_phase_ms = 200;
    cfg.tcp_timer_on_demand = 1;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, MS(1137), MS(10), 4096, 1460);
    CHECK(sock >= 0);
    CHECK_EQ(retransmission_times(&L, sock, MS(1300), MS(8500), at, 8), 4);
    CHECK_EQ(at[1], MS(1887));
    CHECK_EQ(at[2], MS(3887));
    CHECK_EQ(at[3], MS(7887));
    lab_free(&L);
}

/* A connection opened at 0.1 s (ticks at 0.35 + k x 0.25 s) is reset at 1.0 s. lwIP's
 * timer stops at its next expiry, 1.1 s: a connection opened at 1.05 s keeps the old
 * trains (data at 1.3 s times out at 1.85 s), one opened at 1.2 s starts new ones at
 * 1.45 + k x 0.5 s (1.95 s). */
static void on_demand_after_reset(stack_time_t reopen, stack_time_t expect)
{
    struct host_config cfg;
    struct tcp_lab L;
    stack_time_t at[4];
    int sock;
    tt_config(&cfg);
    cfg.tcp_timer_tick_ms = 500;
    cfg.tcp_fast_tick_ms = 250;
    cfg.tcp_timer_on_demand = 1;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, MS(100), MS(10), 4096, 1460);
    CHECK(sock >= 0);
    lab_seg(&L, MS(1000), TCP_RST, PEER_ISS + 1, 0, 0, NULL, 0);
    CHECK_EQ(tt_state(&L, sock), TCP_CLOSED);
    CHECK_EQ(tcpclose(&L.h, sock), ERR_OK);
    sock = tt_open_active(&L, reopen, MS(10), 4096, 1460);
    CHECK(sock >= 0);
    CHECK_EQ(retransmission_times(&L, sock, MS(1300), MS(2500), at, 4), 2);
    CHECK_EQ(at[1], expect);
    lab_free(&L);
}

static void test_timer_on_demand_runs_until_an_idle_expiry(void)
{
    on_demand_after_reset(MS(1050), MS(1850));
    on_demand_after_reset(MS(1200), MS(1950));
}

static void test_vj_tick_sample_counts_ticks(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tcp_rto ref;
    struct tcp_rtt_sample s;
    const struct tcp_pcb *pcb;
    int sock;
    tt_config(&cfg);
    cfg.tcp_timer_tick_ms = 500;
    cfg.tcp_rto = TCP_RTO_VJ_TICKS;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 4096, 1460);
    CHECK(sock >= 0);
    lab_run(&L, MS(1300));
    CHECK_EQ(tcpsend(&L.h, sock, payload, 100), 100);
    lab_seg(&L, MS(1600), TCP_ACK, 5001, 1101, 4096, NULL, 0);
    pcb = &L.h.tcp.pcbs[sock];
    /* One sample, as lwIP takes it: the SYN-ACK gives none and leaves the SYN timed, so
     * the data's ACK measures from the SYN (0 -> 1.6 s: floor(1600/500) - 0 = 3 ticks),
     * on the SYN's datagram (20 + 20 + the MSS option's 4 bytes). Fed by hand: */
    CHECK_EQ(lab_count(&L, TRACE_RTT_SAMPLE), 1);
    CHECK_EQ(lab_event(&L, TRACE_RTT_SAMPLE, 0)->a, 1600000);
    tcp_rto_init(&ref, &cfg);
    s.rtt_us = 1600000;
    s.ticks = 3;
    s.dgram_len = 44;
    tcp_rto_sample(&ref, &cfg, &s);
    CHECK_EQ(pcb->est.sa, ref.sa);
    CHECK_EQ(pcb->est.sv, ref.sv);
    CHECK_EQ(tcp_rto_estimate_us(&pcb->est, &cfg, 140), tcp_rto_estimate_us(&ref, &cfg, 140));
    /* and the check can tell: timing the data alone (1.3 -> 1.6 s, 1 tick) differs */
    tcp_rto_init(&ref, &cfg);
    s.rtt_us = 300000;
    s.ticks = 1;
    s.dgram_len = 140;
    tcp_rto_sample(&ref, &cfg, &s);
    CHECK(pcb->est.sa != ref.sa || pcb->est.sv != ref.sv);
    lab_free(&L);
}

static void test_lwip_rules_with_vj_ticks(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    const struct trace_event *e;
    int sock;
    tt_config(&cfg);
    cfg.tcp_timer_tick_ms = 500;
    cfg.tcp_rto = TCP_RTO_VJ_TICKS;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 4096, 1460);
    CHECK(sock >= 0);
    /* lwIP's active opener takes no sample from the SYN-ACK (tcp_rto.h) */
    CHECK_EQ(lab_count(&L, TRACE_RTT_SAMPLE), 0);
    lab_run(&L, MS(100));
    CHECK_EQ(tcpsend(&L.h, sock, payload, 100), 100);
    lab_run(&L, MS(1000)); /* 2 ticks: retransmitted at 1.0 s, the RTO doubled */
    CHECK_EQ(lab_count(&L, TRACE_RETRANSMIT), 1);
    lab_seg(&L, MS(1200), TCP_ACK, 5001, 1101, 4096, NULL, 0);
    /* No Karn's rule: the timeout at 1.0 s ended the SYN's measurement and lwIP times the
     * retransmission sent then, so this ACK gives 200 ms, 0 ticks (tcp_rto.h) */
    CHECK_EQ(lab_count(&L, TRACE_RTT_SAMPLE), 1);
    CHECK_EQ(lab_event(&L, TRACE_RTT_SAMPLE, 0)->a, 200000);
    /* but the ACK of new data ends the backoff, as lwIP's tcp_receive() does: the next
     * segment's RTO is 1 s again, where RFC 6298 5.7 keeps 2 s
     * (test_karn_no_sample_from_retransmission) */
    lab_run(&L, MS(1300));
    CHECK_EQ(tcpsend(&L.h, sock, payload, 10), 10);
    e = lab_event(&L, TRACE_RTO_ARM, lab_count(&L, TRACE_RTO_ARM) - 1);
    CHECK_EQ(e->time, MS(1300));
    CHECK_EQ(e->a, 1000000);
    lab_free(&L);
}

static void test_data_retries_exhausted(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    stack_time_t at[8];
    char buf[4];
    int sock;
    tt_config(&cfg);
    cfg.tcp_max_retries = 3;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 4096, 1460);
    CHECK(sock >= 0);
    /* three retransmissions (1.1, 3.1, 7.1 s), then the fourth expiry (15.1 s) gives up */
    CHECK_EQ(retransmission_times(&L, sock, MS(100), MS(30000), at, 8), 4);
    CHECK_EQ(at[3], MS(7100));
    CHECK_EQ(tt_state(&L, sock), TCP_CLOSED);
    CHECK(tt_state_change(&L, 2, TCP_ESTABLISHED, TCP_CLOSED));
    CHECK_EQ(lab_event(&L, TRACE_TCP_STATE, 2)->time, MS(15100));
    CHECK_EQ((int32_t)lab_event(&L, TRACE_TCP_ERROR, 0)->a, ERR_TIMEOUT);
    CHECK_EQ(tcprecv(&L.h, sock, buf, sizeof buf), ERR_TIMEOUT);
    CHECK_EQ(tcpsend(&L.h, sock, buf, 1), ERR_TIMEOUT);
    CHECK_EQ(L.h.tcp.rst_sent, 0);
    CHECK_EQ(tcpclose(&L.h, sock), ERR_OK);
    lab_free(&L);
}

static void test_sequence_wraparound(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    struct tseg_spec s;
    struct stack_sockaddr to = { LAB_PEER, 80 };
    struct tcp_info info;
    static uint8_t data[1000], back[200];
    uint32_t i;
    int sock;
    for (i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 7u + 3u);
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    tcp_set_next_iss(&L.h, 0xFFFFFF00u); /* 256 below 2^32 */
    sock = tcpsocket(&L.h);
    CHECK_EQ(tcpconnect(&L.h, sock, &to), ERR_OK);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, 0xFFFFFF00u);
    L.my_port = g.sport;
    L.peer_port = 80;
    memset(&s, 0, sizeof s);
    s.flags = TCP_SYN | TCP_ACK;
    s.seq = 0xFFFFFFF0u; /* the peer wraps too */
    s.ack = 0xFFFFFF01u;
    s.wnd = 4096;
    s.mss = 300;
    lab_in(&L, MS(10), &s);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.ack, 0xFFFFFFF1u);
    CHECK_EQ(tt_state(&L, sock), TCP_ESTABLISHED);
    /* MSS 300: IW = 4 x 300 = 1200 (RFC 5681 3.1) covers the 1000 bytes: four segments,
     * the second straddling 2^32: 0xFFFFFF01 + 300 = 0x2D, + 300 = 0x159, + 300 = 0x285. */
    lab_run(&L, MS(100));
    CHECK_EQ(tcpsend(&L.h, sock, data, sizeof data), 1000);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, 0xFFFFFF01u);
    CHECK_EQ(g.len, 300);
    CHECK_MEM(g.data, data, 300);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, 0x2Du);
    CHECK_EQ(g.len, 300);
    CHECK_MEM(g.data, data + 300, 300);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, 0x159u);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.seq, 0x285u);
    CHECK_EQ(g.len, 100);
    CHECK_EQ(g.flags, TCP_ACK | TCP_PSH);
    CHECK_MEM(g.data, data + 900, 100);
    /* the first is acknowledged across the wrap; the rest is lost: after 1 s the RTO
     * resends from 0x2D, reading the ring past the wrap */
    lab_seg(&L, MS(20) + MS(100), TCP_ACK, 0xFFFFFFF1u, 0x2Du, 4096, NULL, 0);
    CHECK_EQ(tcpstatus(&L.h, sock, &info), ERR_OK);
    CHECK_EQ(info.snd_una, 0x2Du);
    lab_run(&L, MS(1120));
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(1120));
    CHECK_EQ(g.seq, 0x2Du);
    CHECK_EQ(g.len, 300);
    CHECK_MEM(g.data, data + 300, 300);
    lab_seg(&L, MS(1130), TCP_ACK, 0xFFFFFFF1u, 0x2E9u, 4096, NULL, 0);
    CHECK_EQ(tcpstatus(&L.h, sock, &info), ERR_OK);
    CHECK_EQ(info.snd_una, 0x2E9u);
    CHECK_EQ(info.bytes_acked, 1000);
    /* receiving across the wrap: 100 bytes at 0xFFFFFFF1, ACK 0x55 */
    lab_skip(&L);
    lab_seg(&L, MS(1200), TCP_ACK | TCP_PSH, 0xFFFFFFF1u, 0x2E9u, 4096, data, 100);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.ack, 0x55u);
    CHECK_EQ(g.seq, 0x2E9u);
    CHECK_EQ(tcprecv(&L.h, sock, back, sizeof back), 100);
    CHECK_MEM(back, data, 100);
    lab_free(&L);
}

static void test_coarse_ticks_round_time_wait_and_persist(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    int sock;
    tt_config(&cfg);
    cfg.tcp_timer_tick_ms = 500;
    cfg.tcp_time_wait_ms = 1000;
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 4096, 1460);
    CHECK(sock >= 0);
    /* persist: the window closes at 0.3 s with data queued; 1 s = 2 ticks from the tick
     * at 0 s: the probe goes at (floor(0.3 / 0.5) + 2) x 0.5 = 1.0 s */
    lab_seg(&L, MS(300), TCP_ACK, 5001, 1001, 0, NULL, 0);
    CHECK_EQ(tcpsend(&L.h, sock, payload, 10), 10);
    lab_run(&L, MS(999));
    CHECK_EQ(lab_pending(&L), 0);
    lab_run(&L, MS(1000));
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(1000));
    CHECK_EQ(g.len, 1);
    /* the window opens: the 10 bytes go and are acknowledged */
    lab_seg(&L, MS(1010), TCP_ACK, 5001, 1001, 4096, NULL, 0);
    lab_seg(&L, MS(1020), TCP_ACK, 5001, 1011, 4096, NULL, 0);
    /* close; TIME_WAIT entered at 1.2 s lasts 1 s = 2 ticks: it ends at
     * (floor(1.2 / 0.5) + 2) x 0.5 = 2.0 s, not 2.2 s */
    CHECK_EQ(tcpclose(&L.h, sock), ERR_OK);
    lab_seg(&L, MS(1200), TCP_FIN | TCP_ACK, 5001, 1012, 4096, NULL, 0);
    CHECK_EQ(lab_event(&L, TRACE_TCP_STATE, lab_count(&L, TRACE_TCP_STATE) - 1)->b, TCP_TIME_WAIT);
    lab_run(&L, MS(1999));
    CHECK_EQ(lab_event(&L, TRACE_TCP_STATE, lab_count(&L, TRACE_TCP_STATE) - 1)->b, TCP_TIME_WAIT);
    lab_run(&L, MS(2000));
    CHECK_EQ(lab_event(&L, TRACE_TCP_STATE, lab_count(&L, TRACE_TCP_STATE) - 1)->b, TCP_CLOSED);
    CHECK_EQ(lab_event(&L, TRACE_TCP_STATE, lab_count(&L, TRACE_TCP_STATE) - 1)->time, MS(2000));
    lab_free(&L);
}

/* The peer offers 64 bytes (the Arduino echo firmware's whole receive ring): the first
 * segment carries 64 of the 100 queued bytes, and so does its retransmission after the RTO.
 * The loss window lets one segment go whatever cwnd says, not past the peer's window
 * (RFC 9293 3.8.6.1); a full segment would be cut down by the peer, or dropped. */
static void test_rto_retransmission_stays_inside_the_peer_window(void)
{
    struct host_config cfg;
    struct tcp_lab L;
    struct tseg g;
    int sock;
    tt_config(&cfg);
    CHECK(lab_init(&L, &cfg, 1500, 0) == 0);
    sock = tt_open_active(&L, 0, MS(10), 64, 536);
    CHECK(sock >= 0);
    lab_run(&L, MS(100));
    CHECK_EQ(tcpsend(&L.h, sock, payload, 100), 100);
    lab_run(&L, MS(1200));
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(100));
    CHECK_EQ(g.seq, 1001);
    CHECK_EQ(g.len, 64);
    CHECK(lab_next(&L, &g));
    CHECK_EQ(g.t, MS(1100));
    CHECK_EQ(g.seq, 1001);
    CHECK_EQ(g.len, 64);
    CHECK(memcmp(g.data, payload, 64) == 0);
    CHECK_EQ(lab_pending(&L), 0);
    lab_free(&L);
}

UNIT_MAIN(UNIT(test_rto_backoff_doubles), UNIT(test_rto_value_traced_with_floor),
          UNIT(test_pure_ack_after_go_back_n_carries_snd_max), UNIT(test_rto_backoff_cap),
          UNIT(test_restart_on_new_ack), UNIT(test_karn_no_sample_from_retransmission),
          UNIT(test_coarse_slow_timer_ticks), UNIT(test_coarse_timer_started_late_in_a_tick),
          UNIT(test_coarse_timer_phase), UNIT(test_timer_on_demand_starts_with_the_connection),
          UNIT(test_timer_on_demand_runs_until_an_idle_expiry),
          UNIT(test_vj_tick_sample_counts_ticks), UNIT(test_lwip_rules_with_vj_ticks),
          UNIT(test_data_retries_exhausted), UNIT(test_sequence_wraparound),
          UNIT(test_coarse_ticks_round_time_wait_and_persist),
          UNIT(test_rto_retransmission_stays_inside_the_peer_window))
