/* The ping client: ICMP echo requests from this host, replies matched and timed, the
 * statistics and the output lines of Linux's ping (iputils), RFC 792 echo / echo reply.
 *
 * One run at a time per host; its state lives in the host (h->icmp.ping). Usage:
 *
 *     ping_start(h, IP4(10,0,7,2), 0x1234, 56, 15, 1000, 10000);   first request sent now
 *     ... host_input()/host_poll() as usual: ping_poll() runs from ip_poll() ...
 *     while (ping_next_event(h, &ev)) { ping_format_event(h, &ev, line, sizeof line); }
 *     if (ping_done(h)) ping_format_summary(h, text, sizeof text);
 *
 * Like Linux ping: the sequence numbers start at 1; the payload begins with the send time
 * as a 16-byte struct timeval of x86-64 Linux (tv_sec and tv_usec, 64-bit little-endian,
 * from h->now) when it has room for it (payload >= 16), and byte i of the payload is
 * otherwise (uint8_t)i, which is iputils' default fill (..., 0x10, 0x11, ... after the
 * timestamp). Times are printed only when the payload holds the timestamp, as Linux does;
 * the RTT is nevertheless measured for every reply (from the send time kept per sequence
 * number) and reported in the events and ping_get_stats().
 *
 * Memory is bounded: the send time and the received flag of the last PING_HISTORY
 * sequence numbers (a reply to an older one is not counted, as if lost), and a queue of
 * PING_EVENTS events for the caller (the oldest is overwritten when it is not drained).
 */
#ifndef STACK_PING_H
#define STACK_PING_H

#include <stddef.h>
#include <stdint.h>

#include "ip.h"
#include "stack_opts.h"
#include "stack_time.h"

struct host;

#ifndef PING_HISTORY
#define PING_HISTORY 64 /* sequence numbers remembered; a power of two */
#endif
#ifndef PING_EVENTS
#define PING_EVENTS 8
#endif

#define PING_TIMESTAMP_LEN 16 /* sizeof(struct timeval) on x86-64 Linux */

enum ping_event_kind {
    PING_EV_REPLY,    /* echo reply for a sequence number not answered yet */
    PING_EV_DUP,      /* a further reply for the same sequence number ("(DUP!)") */
    PING_EV_ERROR,    /* ICMP error quoting one of our requests (icmp_type/icmp_code) */
    PING_EV_SEND_FAIL /* ip_output refused the request (err) */
};

struct ping_event {
    uint8_t kind;      /* enum ping_event_kind */
    uint8_t ttl;       /* reply: TTL of the reply datagram */
    uint8_t timing;    /* reply: the payload holds a timestamp, so Linux prints time= */
    uint8_t icmp_type; /* error: type and code of the ICMP error */
    uint8_t icmp_code;
    int8_t err; /* send failure: enum stack_err */
    uint16_t seq;
    uint16_t bytes;  /* reply: ICMP message length (8 + payload), Linux's "64 bytes" */
    uint16_t mtu;    /* error: next-hop MTU of a "fragmentation needed" (RFC 1191) */
    uint32_t from;   /* reply/error: source of the message */
    uint32_t rtt_us; /* reply: round-trip time */
};

struct ping_stats {
    uint32_t transmitted, received, duplicates, errors;
    uint32_t time_ms; /* first to last request sent, rounded, Linux's "time 14014ms" */
    uint8_t timing;   /* payload >= 16: Linux prints the rtt line */
    uint32_t min_us, avg_us, max_us, mdev_us; /* over replies and duplicates, as iputils */
    uint32_t pipe;    /* most requests outstanding when a reply came (Linux "pipe N") */
    uint32_t ewma_us; /* Linux's rtt EWMA (the "ipg/ewma" of flood pings) */
};

#if STACK_PING
enum ping_phase { PING_IDLE, PING_RUNNING, PING_DONE };

struct ping_state {
    uint8_t phase; /* enum ping_phase */
    uint32_t dst;
    uint16_t id;
    uint16_t payload;
    uint32_t count; /* 0 = until ping_stop() */
    uint32_t interval_us;
    uint32_t timeout_us;
    stack_time_t start, last_send, next_send, finish_at;
    uint32_t transmitted, received, duplicates, errors, unmatched;
    uint32_t tmin, tmax;
    uint64_t tsum, tsum2; /* sums of RTT and RTT squared, microseconds */
    uint64_t ewma8;       /* iputils' rts->rtt: 8 x EWMA */
    uint32_t pipe;
    stack_time_t sent_at[PING_HISTORY];
    uint8_t got[(PING_HISTORY + 7) / 8];
    struct ping_event events[PING_EVENTS];
    uint8_t ev_head, ev_count;
    uint32_t ev_lost;
};

/* Starts a run: `count` echo requests (0 = until ping_stop) of `payload` data bytes to
 * `dst` with identifier `id`, one every `interval_ms` (0: flood, a request every poll),
 * the first at once. After the last request the run waits for replies as iputils does:
 * twice the longest RTT (at least one interval) if any reply came, else `timeout_ms`
 * (Linux's -W). Returns ERR_OK, ERR_ARG (payload too large for the transmit buffer,
 * dst 0), ERR_STATE (a run is going on). A previous run's results are discarded. */
int ping_start(struct host *h, uint32_t dst, uint16_t id, uint16_t payload, uint32_t count,
               uint32_t interval_ms, uint32_t timeout_ms);

/* Ends the run now (Linux's ^C): no more requests, replies no longer counted. */
void ping_stop(struct host *h);

/* 1 once the run has finished (all replies in, or the wait after the last one over). */
int ping_done(const struct host *h);

/* Timers: send the next request, end the run. Called from ip_poll(). */
void ping_poll(struct host *h);
void ping_next_deadline(const struct host *h, stack_time_t *deadline, int *has);

/* An echo reply (icmp points at the ICMP header, len bytes, checksum verified). Returns 1
 * if it was ours, 0 if no run is waiting for it (the caller counts the drop). */
int ping_input_reply(struct host *h, const struct ip_rx *rx, const uint8_t *icmp, uint16_t len);

/* An ICMP error (destination unreachable, time exceeded) whose quoted datagram starts at
 * quote (qlen bytes): 1 if it is about one of our requests, else 0. */
int ping_input_error(struct host *h, const struct ip_rx *rx, uint8_t type, uint8_t code,
                     uint16_t mtu, const uint8_t *quote, uint16_t qlen);

#else
/* No client: nothing to keep, to time, or to match replies and errors against. */
struct ping_state {
    uint8_t unused;
};

static inline void ping_poll(struct host *h)
{
    (void)h;
}

static inline void ping_next_deadline(const struct host *h, stack_time_t *deadline, int *has)
{
    (void)h;
    (void)deadline;
    (void)has;
}

static inline int ping_input_reply(struct host *h, const struct ip_rx *rx, const uint8_t *icmp,
                                   uint16_t len)
{
    (void)h;
    (void)rx;
    (void)icmp;
    (void)len;
    return 0;
}

static inline int ping_input_error(struct host *h, const struct ip_rx *rx, uint8_t type,
                                   uint8_t code, uint16_t mtu, const uint8_t *quote, uint16_t qlen)
{
    (void)h;
    (void)rx;
    (void)type;
    (void)code;
    (void)mtu;
    (void)quote;
    (void)qlen;
    return 0;
}
#endif

/* Takes the oldest event not yet taken: 1, or 0 when there is none. */
int ping_next_event(struct host *h, struct ping_event *ev);

void ping_get_stats(const struct host *h, struct ping_stats *st);

/* Linux's line for an event, without the newline:
 *   "64 bytes from 10.0.7.2: icmp_seq=1 ttl=64 time=31.4 ms"
 *   "From 10.0.1.2 icmp_seq=3 Time to live exceeded"
 * Returns the length written (the text is cut to fit len - 1 and always terminated). */
size_t ping_format_event(const struct ping_event *ev, char *buf, size_t len);

/* Linux's closing block, from "---" to its final newline (Linux prints an empty line
 * before it; that is left to the caller):
 *   "--- 10.0.7.2 ping statistics ---\n"
 *   "15 packets transmitted, 15 received, 0% packet loss, time 14014ms\n"
 *   "rtt min/avg/max/mdev = 31.037/31.361/31.963/0.315 ms\n" */
size_t ping_format_summary(const struct host *h, char *buf, size_t len);

/* Linux's first line: "PING 10.0.7.2 (10.0.7.2) 56(84) bytes of data." */
size_t ping_format_header(const struct host *h, char *buf, size_t len);

/* Pieces of the above, for tests and other tools: the RTT as Linux prints it after
 * "time=" ("31.4", "202", "0.999"), the loss percentage as printf's %g ("6.66667"), and
 * iputils' integer square root (Newton's method, which answers s+1 for s*s+2s). */
size_t ping_format_rtt(uint32_t us, char *buf, size_t len);
size_t ping_format_loss(uint32_t transmitted, uint32_t received, char *buf, size_t len);
uint32_t ping_llsqrt(uint64_t a);

#endif
