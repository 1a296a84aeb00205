/* TCP, RFC 9293, with RFC 5681/6582 congestion control, RFC 6298 timers and RFC 7323
 * timestamps. This header is the module's face to the host; applications use socket.h. */
#ifndef STACK_TCP_H
#define STACK_TCP_H

#include <stddef.h>
#include <stdint.h>

#include "ip.h"
#include "stack_time.h"

#define TCP_OFF_SRC_PORT 0
#define TCP_OFF_DST_PORT 2
#define TCP_OFF_SEQ      4
#define TCP_OFF_ACK      8
#define TCP_OFF_DATAOFF  12 /* data offset (4 bits) in 32-bit words */
#define TCP_OFF_FLAGS    13
#define TCP_OFF_WND      14
#define TCP_OFF_CHKSUM   16
#define TCP_OFF_URG      18
#define TCP_HLEN         20

#define TCP_FIN 0x01
#define TCP_SYN 0x02
#define TCP_RST 0x04
#define TCP_PSH 0x08
#define TCP_ACK 0x10
#define TCP_URG 0x20

#define TCP_DEFAULT_MSS 536    /* RFC 9293 3.7.1: assumed when the peer sends no MSS option */
#define TCP_MAX_WINDOW  65535u /* no window scaling: buffers stay below 64 KB */

/* Wrap-safe sequence comparisons, RFC 9293 3.4 (the full TCP's and the responder's). */
static inline int tcp_seq_lt(uint32_t a, uint32_t b)
{
    return (int32_t)(a - b) < 0;
}
static inline int tcp_seq_leq(uint32_t a, uint32_t b)
{
    return (int32_t)(a - b) <= 0;
}
static inline int tcp_seq_gt(uint32_t a, uint32_t b)
{
    return (int32_t)(a - b) > 0;
}
static inline int tcp_seq_geq(uint32_t a, uint32_t b)
{
    return (int32_t)(a - b) >= 0;
}

/* RFC 9293 section 3.3.2. */
enum tcp_state {
    TCP_CLOSED,
    TCP_LISTEN,
    TCP_SYN_SENT,
    TCP_SYN_RECEIVED,
    TCP_ESTABLISHED,
    TCP_FIN_WAIT_1,
    TCP_FIN_WAIT_2,
    TCP_CLOSE_WAIT,
    TCP_CLOSING,
    TCP_LAST_ACK,
    TCP_TIME_WAIT
};

struct tcp_pcb; /* tcp_pcb.h */

struct tcp_host_state {
    struct tcp_pcb *pcbs; /* cfg.tcp_max_pcbs entries */
    uint8_t *bufs;        /* with cfg.tcp_buf_pairs: the pairs of rings, one after another */
    uint16_t next_port;   /* next ephemeral port to try */
    STACK_COUNTER segs_in, segs_out, rst_sent;
    uint32_t next_timer_id; /* RTO timer instances, per host, increasing (trace.h) */
    uint32_t accept_counter;
    uint8_t free_first; /* the connection tcp_netif_free() serves first, in turn */
    /* Clocks derived from h->now, advanced at every entry (the 32-bit microsecond clock
     * wraps every 71.6 minutes; these do not lose their phase when it does). */
    stack_time_t clk_last; /* h->now at the last update */
    uint32_t clk_ms;       /* 1 + milliseconds since tcp_init: the RFC 7323 TSval clock */
    uint32_t clk_rem_us;
    stack_time_t slow_at; /* latest slow-timer tick instant <= now (cfg.tcp_timer_tick_ms) */
    uint32_t slow_ticks;  /* slow ticks counted since the stack started (differences only) */
    stack_time_t fast_at; /* latest fast-timer tick instant <= now (cfg.tcp_fast_tick_ms) */
    /* cfg.tcp_timer_on_demand: whether the trains run, and since when none is active. */
    uint8_t ticks_running, ticks_idle;
    stack_time_t ticks_idle_at;
    /* Test and replay hook: the ISS of the next connection (tcp_set_next_iss). */
    uint8_t iss_forced;
    uint32_t iss_next;
};

size_t tcp_mem_required(const struct host_config *cfg);
int tcp_init(struct host *h, struct host_arena *arena);
void tcp_poll(struct host *h);
void tcp_next_deadline(const struct host *h, stack_time_t *deadline, int *has);
void tcp_input(struct host *h, struct ip_rx *rx);
/* Interface `netif` is free again: send what channel sensing held back. */
void tcp_netif_free(struct host *h, uint8_t netif);

/* TCP small queues (cfg.tcp_small_queues): may new data go to interface `netif` now? */
int tcp_small_queue_room(const struct host *h, uint8_t netif);

/* The next connection opened (active or passive) uses `iss` as its initial sequence
 * number instead of one from host_random(): for tests (sequence wrap-around) and for
 * replaying a capture. */
void tcp_set_next_iss(struct host *h, uint32_t iss);

/* Connections with something still to exchange (a handshake, unacknowledged data or an
 * unacknowledged FIN of ours); listeners, FIN_WAIT_2 and TIME_WAIT do not count. */
uint8_t tcp_count_busy(const struct host *h);

/* Connections not over yet for the peer: every state but LISTEN, CLOSED and TIME_WAIT (in
 * FIN_WAIT_2 the peer's FIN is still to come and to be acknowledged). A program that owns
 * a host and exits waits for 0 first, or it leaves the peer retransmitting its FIN. */
uint8_t tcp_count_open(const struct host *h);

/* The connection (socket descriptor, for tcpstatus) between our port lport and
 * raddr:rport, or -1. A listener matches no connection. The simulator uses it to put the
 * sender's state beside each captured segment. */
int tcp_find_conn(const struct host *h, uint16_t lport, uint32_t raddr, uint16_t rport);

/* "ESTABLISHED" */
const char *tcp_state_name(enum tcp_state s);

#endif
