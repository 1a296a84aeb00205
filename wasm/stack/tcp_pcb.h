/* The TCP connection block (RFC 9293 3.3.1, "Transmission Control Block") and the helpers
 * the tcp*.c files share. Not for applications: they use socket.h.
 *
 * Sequence variables follow RFC 9293's names. Two additions, as in BSD:
 *   snd_max   highest sequence number sent so far. After a retransmission timeout snd_nxt
 *             goes back to snd_una (go-back-N) while snd_max remembers how far we had got;
 *             an ACK is acceptable up to snd_max.
 *   snd_buf_seq  sequence number of the first byte in the send ring (iss + 1 until the
 *             first data is acknowledged; SYN and FIN use sequence space, not ring space).
 */
#ifndef STACK_TCP_PCB_H
#define STACK_TCP_PCB_H

#include <stdint.h>

#include "host.h"
#include "tcp.h"
#include "tcp_cc.h"
#include "tcp_ring.h"
#include "tcp_rto.h"

#define TCP_NO_PARENT 0xFF
#define TCP_OPT_TS_LEN 12     /* NOP, NOP, kind 8, len 10, TSval, TSecr (RFC 7323 App. A) */
#define TCP_OPT_SACKOK_LEN 4  /* NOP, NOP, kind 4, len 2: SACK-permitted (RFC 2018 2) */
#define TCP_OPT_MAX_LEN 40    /* the data offset allows 60 - 20 bytes of options */
#define TCP_SACK_MAX_BLOCKS 4 /* 2 + 8 n <= 40 (RFC 2018 3) */

/* States in which data may be sent or re-sent (RFC 9293 3.10.2 SEND, and retransmission
 * of what was sent before our FIN). */
static inline int tcp_data_state(uint8_t s)
{
    return s == TCP_ESTABLISHED || s == TCP_CLOSE_WAIT || s == TCP_FIN_WAIT_1 ||
           s == TCP_CLOSING || s == TCP_LAST_ACK;
}

/* Options of a received segment (RFC 9293 3.2, RFC 7323). */
struct tcp_opts {
    uint8_t has_mss, has_ts;
    uint16_t mss;
    uint32_t ts_val, ts_ecr;
#if STACK_SACK
    uint8_t sack_perm;     /* SACK-permitted, kind 4 (RFC 2018 2) */
    uint8_t n_sack;        /* SACK blocks, kind 5 (RFC 2018 3) */
    uint32_t sack_l[TCP_SACK_MAX_BLOCKS], sack_r[TCP_SACK_MAX_BLOCKS];
#endif
};

/* A received segment, validated, with its fields read once. */
struct tcp_seg {
    uint32_t src, dst;
    uint16_t sport, dport;
    uint32_t seq, ack;
    uint16_t wnd;
    uint8_t flags;
    uint8_t netif;
    uint8_t *data;
    uint32_t len; /* payload bytes */
    struct tcp_opts opts;
};

struct tcp_pcb {
    uint8_t in_use;
    uint8_t slot;          /* index in the table; also the socket descriptor */
    uint8_t state;         /* enum tcp_state */
    uint8_t has_socket;    /* the application holds a descriptor (until tcpclose) */
    uint8_t parent;        /* listener slot for a connection not yet accepted */
    uint8_t accepted;      /* handed to the application by tcpaccept (or active open) */
    uint8_t backlog;       /* LISTEN: connections it may hold before accept */
    uint8_t passive;       /* created from a listener (SYN_RECEIVED goes back to LISTEN) */
    int8_t error;          /* ERR_RST, ERR_TIMEOUT, or 0 */
    uint8_t netif;
    uint32_t accept_order; /* when it was established, for tcpaccept's order */

    uint32_t local_addr, remote_addr;
    uint16_t local_port, remote_port;

    /* send sequence space, RFC 9293 3.3.1 */
    uint32_t iss, snd_una, snd_nxt, snd_max, snd_wl1, snd_wl2;
    uint32_t snd_wnd, max_snd_wnd;
    uint32_t snd_buf_seq;
    uint32_t snd_sml;      /* end of the last short segment sent (Nagle, Minshall) */
    uint16_t mss;          /* effective send MSS (without options) */
    uint16_t rcv_mss;      /* the MSS we announced */
    uint8_t fin_queued;    /* the application closed: FIN follows the queued data */
    uint8_t force_one;     /* send one segment even if the window says no (after an RTO) */
    uint8_t retx_pending;  /* fast or partial-ACK retransmission of snd_una's segment due */
    uint8_t retx_cause;    /* enum tcp_retx_cause of retransmissions being sent */
    uint8_t probe_out;     /* a zero-window probe byte is outstanding */
    uint8_t quiet_once;    /* the next re-sent segment is not a retransmission (a probe
                              byte after the window opened, a simultaneous-open SYN-ACK) */
    uint32_t retx_timer_id;
#if STACK_EIFEL
    /* Eifel (cfg.tcp_eifel): armed by a timeout, judged by the next ACK of new data */
    uint8_t eifel_armed;
    uint32_t eifel_ts;        /* RetransmitTS: the TSval of the retransmission (RFC 3522) */
    uint32_t eifel_pipe_prev; /* max(FlightSize, ssthresh) before the timeout (RFC 4015) */
#endif
    struct tcp_ring snd;

    /* receive sequence space */
    uint32_t irs, rcv_nxt;
    uint32_t rcv_adv;      /* right edge of the window last advertised */
    uint16_t rcv_wnd_last; /* window field of the last segment sent */
    uint8_t fin_rcvd;
    uint8_t ooo_fin;       /* a FIN arrived out of order, at ooo_fin_seq */
    uint32_t ooo_fin_seq;
    uint32_t last_ack_sent;
    struct tcp_ring rcv;
    struct tcp_ooo ooo;

    /* acknowledgements */
    uint8_t ack_now;       /* send an ACK at the next output */
    uint8_t delack;        /* delayed-ACK timer running */
    uint32_t unacked_bytes; /* received since our last ACK */
    uint32_t rcv_seg_max;  /* largest segment received: "full-sized" for delayed ACK */
    stack_time_t delack_at;

    /* retransmission timer, RFC 6298 */
    uint8_t rto_running;
    uint8_t backoff;       /* RTO doublings in force (Karn: until a valid sample) */
    uint8_t retries;       /* consecutive expiries without progress */
    stack_time_t rto_at;
    uint32_t rto_value;    /* the value armed, us */
    uint32_t rto_id;

    /* persist timer, RFC 9293 3.8.6.1 */
    uint8_t persist;
    uint8_t persist_backoff;
    stack_time_t persist_at;

    /* TIME_WAIT (and orphaned FIN_WAIT_2) timer */
    uint8_t tw;
    stack_time_t tw_at;

    /* RTT measurement: one timed segment (RFC 6298 3) or timestamps (RFC 7323 4) */
    uint8_t rtt_timing;
    uint32_t rtt_seq;
    stack_time_t rtt_start;
    uint32_t rtt_tick_start;
    uint16_t rtt_dgram_len;
    struct tcp_rto est;
    struct tcp_cc cc;
    uint8_t cc_ready;

    /* timestamps, RFC 7323 */
    uint8_t ts_ok;
    uint32_t ts_recent;

#if STACK_SACK
    /* SACK, RFC 2018: both ends offered it on their SYN */
    uint8_t sack_ok;
    /* receiver: one sequence number inside each out-of-order block, most recently
       received first, the order SACK blocks are reported in (RFC 2018 4) */
    uint8_t sack_recent_n;
    uint32_t sack_recent[TCP_OOO_MAX_RANGES];
    /* sender: the scoreboard, ranges [l, r) above snd_una the peer SACKed, disjoint,
       sorted; kept until cumulatively acknowledged or an RTO (RFC 2018 8, RFC 6675 5.1) */
    uint8_t sb_n;
    uint32_t sb_l[TCP_SACK_SB_MAX], sb_r[TCP_SACK_SB_MAX];
    /* RFC 6675 loss recovery: in it, RecoveryPoint, HighRxt (here: just past the
       highest byte retransmitted) */
    uint8_t sack_rec;
    uint8_t sack_rto_hold; /* an RTO ended a recovery: none until snd_una passes recover */
    uint32_t sack_recover, sack_rxt_high;
#endif

    /* statistics for tcpstatus */
    uint32_t retransmits_rto, retransmits_fast;
    uint32_t bytes_acked, bytes_received;
};

/* SACK is in use on this connection (RFC 2018 2: both ends offered it). */
static inline int tcp_sack_on(const struct tcp_pcb *pcb)
{
#if STACK_SACK
    return pcb->sack_ok;
#else
    (void)pcb;
    return 0;
#endif
}

/* tcp.c */
struct tcp_pcb *tcp_pcb_get(const struct host *h, int s);
struct tcp_pcb *tcp_pcb_alloc(struct host *h);
void tcp_pcb_free(struct host *h, struct tcp_pcb *pcb);
/* The block becomes a listener: with pooled rings (cfg.tcp_buf_pairs) it gives its pair
 * back, for the connections it will create. */
void tcp_pcb_listening(struct host *h, struct tcp_pcb *pcb);
void tcp_set_state(struct host *h, struct tcp_pcb *pcb, enum tcp_state s);
void tcp_trace(struct host *h, const struct tcp_pcb *pcb, enum trace_kind kind, uint32_t a,
               uint32_t b, uint32_t c, uint32_t d);
uint32_t tcp_new_iss(struct host *h);
int tcp_port_used(const struct host *h, uint32_t addr, uint16_t port);
uint16_t tcp_ephemeral_port(struct host *h);
void tcp_clock_update(struct host *h);
/* Connection over with an error: traced, state CLOSED, freed if no one holds it. */
void tcp_conn_fail(struct host *h, struct tcp_pcb *pcb, int err);
/* Connection over normally: CLOSED, freed if no one holds it. */
void tcp_conn_done(struct host *h, struct tcp_pcb *pcb);
/* Sets the route, interface and our MSS for remote_addr. */
int tcp_pcb_route(struct host *h, struct tcp_pcb *pcb);
/* The segment MSS and the congestion window once the peer's MSS is known. */
void tcp_pcb_set_mss(struct host *h, struct tcp_pcb *pcb, const struct tcp_opts *o);
/* Unsent bytes in the send ring. */
uint32_t tcp_snd_unsent(const struct tcp_pcb *pcb);
/* Listeners: connections it holds toward its backlog. */
uint8_t tcp_backlog_used(const struct host *h, const struct tcp_pcb *listener);

/* tcp_out.c */
void tcp_output(struct host *h, struct tcp_pcb *pcb);
void tcp_ack_now(struct host *h, struct tcp_pcb *pcb);
/* Zero-window probe, RFC 9293 3.8.6.1. */
void tcp_send_probe(struct host *h, struct tcp_pcb *pcb);
/* RFC 9293 3.10.7.1: a reset answering a segment that has no connection. */
void tcp_send_rst_reply(struct host *h, const struct tcp_seg *seg);
/* A reset on an established connection (ABORT, RFC 9293 3.10.5). */
void tcp_send_rst_pcb(struct host *h, struct tcp_pcb *pcb);
/* The application read data: send a window update if the window grew enough. */
void tcp_rcv_window_check(struct host *h, struct tcp_pcb *pcb);

/* tcp_opts.c */
/* Bytes of TCP options on a non-SYN segment (without SACK blocks). */
uint16_t tcp_opt_len(const struct tcp_pcb *pcb);
/* Bytes of TCP options on our SYN or SYN-ACK. */
uint16_t tcp_syn_opt_len(const struct host *h, const struct tcp_pcb *pcb);
/* Largest payload of one segment. */
uint16_t tcp_seg_max(const struct host *h, const struct tcp_pcb *pcb);
/* Writes the options of any segment we send (flags, `len` data bytes); returns their
 * length. */
uint16_t tcp_opts_write(struct host *h, const struct tcp_pcb *pcb, uint8_t *p, uint8_t flags,
                        uint16_t len);
/* Parses options; returns 0, or -1 when they are malformed. */
int tcp_opts_parse(const uint8_t *p, uint16_t len, struct tcp_opts *o);

/* tcp_timer.c */
stack_time_t tcp_slow_deadline(struct host *h, uint32_t delay_us);
stack_time_t tcp_fast_deadline(struct host *h, uint32_t delay_us);
uint32_t tcp_rto_current_us(const struct host *h, const struct tcp_pcb *pcb,
                            uint16_t dgram_len);
uint16_t tcp_una_dgram_len(const struct host *h, const struct tcp_pcb *pcb);
void tcp_rto_start(struct host *h, struct tcp_pcb *pcb, uint16_t dgram_len, int restart);
void tcp_rto_stop(struct host *h, struct tcp_pcb *pcb);
void tcp_rto_on_timeout(struct host *h, struct tcp_pcb *pcb);
void tcp_persist_start(struct host *h, struct tcp_pcb *pcb);
void tcp_persist_stop(struct tcp_pcb *pcb);
void tcp_delack_start(struct host *h, struct tcp_pcb *pcb);
void tcp_delack_cancel(struct host *h, struct tcp_pcb *pcb);
void tcp_timewait_start(struct host *h, struct tcp_pcb *pcb);
void tcp_timers_stop(struct host *h, struct tcp_pcb *pcb);
void tcp_timers_poll(struct host *h, struct tcp_pcb *pcb);
void tcp_timers_deadline(const struct tcp_pcb *pcb, stack_time_t *deadline, int *has);
/* After output or input: arm RTO or persist as what is outstanding requires. */
void tcp_timers_update(struct host *h, struct tcp_pcb *pcb);
/* An RTT sample (already filtered by Karn's rule) for the estimator, traced. */
void tcp_rtt_sample(struct host *h, struct tcp_pcb *pcb, uint32_t rtt_us, uint32_t ticks,
                    uint16_t dgram_len, int from_ts);
/* Calls to tcp_cc with the cwnd/ssthresh/recovery changes traced. */
enum tcp_cc_action tcp_cc_ack(struct host *h, struct tcp_pcb *pcb, uint32_t ack,
                              uint32_t acked, uint32_t flight);
enum tcp_cc_action tcp_cc_dupack(struct host *h, struct tcp_pcb *pcb);
void tcp_cc_rto(struct host *h, struct tcp_pcb *pcb);
#if STACK_EIFEL
/* Eifel (cfg.tcp_eifel): the first ACK of new data after a timeout echoed ts_ecr; if that
 * predates the retransmission the timeout was spurious and is undone (RFC 3522, 4015). */
void tcp_eifel_check(struct host *h, struct tcp_pcb *pcb, uint32_t ts_ecr, uint32_t acked);
#endif
/* RFC 6675 5: a duplicate ACK with SACK in use; may enter loss recovery. */
void tcp_cc_sack_dupack(struct host *h, struct tcp_pcb *pcb);
/* RFC 6675 5: the cumulative ACK reached RecoveryPoint. */
void tcp_cc_sack_exit(struct host *h, struct tcp_pcb *pcb, uint32_t ack);

/* tcp_sack.c, receiver: an out-of-order segment starting at seq was queued (RFC 2018 4:
 * its block goes first in the next SACK option). */
void tcp_sack_note_ooo(struct tcp_pcb *pcb, uint32_t seq);
/* The blocks to report now, at most max, in RFC 2018 4 order; 0 without SACK. */
uint8_t tcp_sack_blocks(const struct tcp_pcb *pcb, uint32_t *l, uint32_t *r, uint8_t max);
/* Writes the SACK option into at most `room` bytes; returns its length (0: none). */
uint16_t tcp_sack_write(const struct tcp_pcb *pcb, uint8_t *p, uint16_t room);
/* tcp_sack.c, sender (RFC 6675): the scoreboard takes an ACK's blocks (returns the bytes
 * newly SACKed), forgets what snd_una passed, or everything (an RTO, RFC 2018 8). */
uint32_t tcp_sack_update(struct tcp_pcb *pcb, const struct tcp_opts *o);
void tcp_sack_acked(struct tcp_pcb *pcb);
void tcp_sack_clear(struct tcp_pcb *pcb);
int tcp_sack_is_lost(const struct host *h, const struct tcp_pcb *pcb, uint32_t seq);
uint32_t tcp_sack_pipe(const struct host *h, const struct tcp_pcb *pcb);
int tcp_sack_next_hole(const struct host *h, const struct tcp_pcb *pcb, int lost,
                       uint32_t *seq, uint32_t *len);

/* tcp_in.c, tcp_in_data.c */
/* The ACK of our SYN (or SYN-ACK) arrived: ESTABLISHED (FIN_WAIT_1 if closed meanwhile). */
void tcp_handshake_done(struct host *h, struct tcp_pcb *pcb, const struct tcp_seg *seg);
/* An RTT sample from a timestamp echo (RFC 7323 4). */
void tcp_ts_rtt(struct host *h, struct tcp_pcb *pcb, uint32_t ts_ecr, uint16_t dgram_len);
void tcp_input_listen(struct host *h, struct tcp_pcb *lpcb, struct tcp_seg *seg);
void tcp_input_syn_sent(struct host *h, struct tcp_pcb *pcb, struct tcp_seg *seg);
void tcp_input_established(struct host *h, struct tcp_pcb *pcb, struct tcp_seg *seg);
/* ACK field processing (RFC 9293 3.10.7.4 fifth check); returns 0 to go on, -1 if the
 * segment was consumed (dropped or the connection closed). */
int tcp_process_ack(struct host *h, struct tcp_pcb *pcb, struct tcp_seg *seg);
/* Segment text and FIN (seventh and eighth checks). */
void tcp_process_data(struct host *h, struct tcp_pcb *pcb, struct tcp_seg *seg);
/* Timestamps on a received segment: PAWS and TS.Recent (RFC 7323 4.3, 5.3); returns 0 or
 * -1 when the segment must be dropped. */
int tcp_process_ts(struct host *h, struct tcp_pcb *pcb, const struct tcp_seg *seg);

#endif
