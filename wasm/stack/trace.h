/* The tracer hook: every decision the stack takes, reported as it is taken.
 *
 * The stack does not know who listens. The simulator records events into the trace the UI
 * shows; tests assert on them; the firmware leaves the hook empty. An event carries up to
 * four values whose meaning depends on its kind (the third column below). Times are the
 * `now` of the call that caused the event, in microseconds.
 */
#ifndef STACK_TRACE_H
#define STACK_TRACE_H

#include <stdint.h>
#include "stack_opts.h"
#include "stack_time.h"

struct host;

/* X(kind, name, meaning of a, b, c, d) */
#define TRACE_KINDS(X) \
    X(TRACE_TCP_STATE, "tcp.state", "a=old state, b=new state (enum tcp_state)") \
    X(TRACE_TCP_ERROR, "tcp.error", "a=error (enum stack_err): reset, timeout") \
    X(TRACE_RTO_ARM, "tcp.rto.arm", "a=RTO us incl. backoff, b=timer id, c=snd_una") \
    X(TRACE_RTO_RESTART, "tcp.rto.restart", "a=RTO us incl. backoff, b=timer id, c=snd_una") \
    X(TRACE_RTO_STOP, "tcp.rto.stop", "a=timer id (everything outstanding was ACKed)") \
    X(TRACE_RTO_EXPIRE, "tcp.rto.expire", "a=RTO us that ran out, b=timer id, c=backoff count after") \
    X(TRACE_RTO_SPURIOUS, "tcp.rto.spurious", "a=TSecr of the first ACK after the timeout, b=TSval of the retransmission (RFC 3522: a < b, the original arrived), c=cwnd restored, d=ssthresh restored") \
    X(TRACE_RETRANSMIT, "tcp.retransmit", "a=seq, b=len, c=cause (enum tcp_retx_cause), d=timer id for RTO causes, dup ACK count otherwise") \
    X(TRACE_RTT_SAMPLE, "tcp.rtt.sample", "a=measured RTT us, b=segment length, c=1 if from timestamps") \
    X(TRACE_RTO_VALUE, "tcp.rto.value", "a=RTO us the timer uses (floor and cap applied, no backoff), b=srtt us, c=rttvar us, d=the estimator's own value; after each RTT sample") \
    X(TRACE_RTO_INITIAL, "tcp.rto.initial", "a=RTO us the timer uses, d=the estimator's own value; as the connection arms its first timer, before any RTT sample (RFC 6298 2.1)") \
    X(TRACE_CWND, "tcp.cwnd", "a=new cwnd, b=old cwnd") \
    X(TRACE_SSTHRESH, "tcp.ssthresh", "a=new ssthresh, b=old ssthresh") \
    X(TRACE_DUPACK, "tcp.dupack", "a=ack number, b=dup ACK count") \
    X(TRACE_RECOVERY_ENTER, "tcp.recovery.enter", "a=recover (snd_nxt), b=cwnd, c=ssthresh") \
    X(TRACE_RECOVERY_EXIT, "tcp.recovery.exit", "a=ack number, b=cwnd") \
    X(TRACE_DELACK_ARM, "tcp.delack.arm", "a=delay us, b=rcv_nxt") \
    X(TRACE_DELACK_FIRE, "tcp.delack.fire", "a=rcv_nxt") \
    X(TRACE_DELACK_CANCEL, "tcp.delack.cancel", "a=rcv_nxt (ACK sent with data or at once)") \
    X(TRACE_SND_WND, "tcp.snd_wnd", "a=peer's new window, b=old") \
    X(TRACE_RCV_WND, "tcp.rcv_wnd", "a=window we now advertise, b=previous, c=1 if a window update was sent") \
    X(TRACE_PERSIST_ARM, "tcp.persist.arm", "a=delay us, b=backoff count") \
    X(TRACE_ZERO_WINDOW_PROBE, "tcp.zwp", "a=probe seq, b=backoff count") \
    X(TRACE_CHANNEL_WAIT, "tcp.channel_wait", "a=seq held, b=len, c=netif (interface busy)") \
    X(TRACE_OOO_QUEUE, "tcp.ooo", "a=seq, b=len, c=ranges held") \
    X(TRACE_DROP, "drop", "a=reason (enum drop_reason), b=protocol, c=length") \
    X(TRACE_IP_FRAG, "ip.frag", "a=datagram id, b=fragments sent, c=total length") \
    X(TRACE_IP_REASS, "ip.reass", "a=datagram id, b=fragments used, c=total length") \
    X(TRACE_ICMP_SENT, "icmp.sent", "a=type, b=code")

#define TRACE_KIND_ENUM(kind, name, doc) kind,
enum trace_kind {
    TRACE_KINDS(TRACE_KIND_ENUM)
    TRACE_KIND_COUNT
};
#undef TRACE_KIND_ENUM

/* Why a segment was sent again: the enum, the name the page switches on (the world
 * description's retx_cause_names) and the words people read (retx_causes). */
#define TCP_RETX_CAUSES(X)                                                                  \
    X(TCP_RETX_RTO, "rto", "RTO expired")               /* RFC 6298 5.4 */                 \
    X(TCP_RETX_SYN_RTO, "syn_rto", "SYN RTO expired")   /* SYN or SYN-ACK timer */         \
    X(TCP_RETX_FAST, "fast", "fast retransmit")         /* dup ACK threshold, RFC 5681 3.2 */ \
    X(TCP_RETX_PARTIAL_ACK, "partial_ack", "NewReno partial ACK") /* RFC 6582 3.2 step 3 */ \
    X(TCP_RETX_FIN_RTO, "fin_rto", "FIN RTO expired")   /* FIN timer */                    \
    X(TCP_RETX_SACK_LOSS, "sack_loss", "SACK loss recovery") /* NextSeg() hole, RFC 6675 4 */

#define TCP_RETX_CAUSE_ENUM(cause, name, text) cause,
enum tcp_retx_cause {
    TCP_RETX_CAUSES(TCP_RETX_CAUSE_ENUM)
    TCP_RETX_CAUSE_COUNT
};
#undef TCP_RETX_CAUSE_ENUM

#define TRACE_NO_CONN 0xFF

struct trace_event {
    stack_time_t time;
    uint16_t kind;   /* enum trace_kind */
    uint8_t conn;    /* TCP connection slot, TRACE_NO_CONN when not about one */
    uint8_t netif;   /* interface index, 0xFF when not about one */
    uint16_t lport;  /* TCP/UDP ports of the connection, 0 when none */
    uint16_t rport;
    uint32_t a, b, c, d;
};

typedef void (*trace_fn)(void *ctx, const struct host *h, const struct trace_event *ev);

struct trace_hook {
    trace_fn fn;
    void *ctx;
};

/* Delivers *ev (its time set to the host's now) to the hook, if one is set. */
void trace_emit(struct host *h, struct trace_event *ev);

/* Shorthand for events not tied to a connection. */
void trace_simple(struct host *h, enum trace_kind kind, uint32_t a, uint32_t b, uint32_t c);

/* "tcp.rto.expire" */
const char *trace_kind_name(enum trace_kind k);
/* "RTO expired" / "fast retransmit" ... for people. */
const char *tcp_retx_cause_text(enum tcp_retx_cause c);
/* "rto" / "fast" ...: what the page switches on. */
const char *tcp_retx_cause_name(enum tcp_retx_cause c);

#endif
