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

/* X(kind, name, the names of fields a, b, c, d, what they mean). A field named _b, _c or
 * _d is not used by that kind. The names are the one list of what each field holds: the
 * simulator's C reads them through TRACE_FIELD below, the page through
 * web/src/core/engine/trace_fields.ts, which scripts/gen-trace-fields.ts generates from here
 * (a test keeps the two equal). */
#define TRACE_KINDS(X)                                                                             \
    X(TRACE_TCP_STATE, "tcp.state", old_state, new_state, _c, _d, "enum tcp_state")                \
    X(TRACE_TCP_ERROR, "tcp.error", error, _b, _c, _d, "enum stack_err: reset, timeout")           \
    X(TRACE_RTO_ARM, "tcp.rto.arm", rto_us, timer, snd_una, _d,                                    \
      "the RTO in us, backoff included; the timer's id")                                           \
    X(TRACE_RTO_RESTART, "tcp.rto.restart", rto_us, timer, snd_una, _d, "as tcp.rto.arm")          \
    X(TRACE_RTO_STOP, "tcp.rto.stop", timer, _b, _c, _d, "everything outstanding was ACKed")       \
    X(TRACE_RTO_EXPIRE, "tcp.rto.expire", rto_us, timer, backoff, _d,                              \
      "the RTO that ran out; the backoff count after it")                                          \
    X(TRACE_RTO_SPURIOUS, "tcp.rto.spurious", ts_ecr, ts_val, cwnd, ssthresh,                      \
      "TSecr of the first ACK after the timeout, TSval of the retransmission (RFC 3522: ts_ecr < " \
      "ts_val, the original arrived); cwnd and ssthresh restored")                                 \
    X(TRACE_RETRANSMIT, "tcp.retransmit", seq, len, cause, timer_or_dupacks,                       \
      "cause: enum tcp_retx_cause; then the timer id for RTO causes, the dup ACK count otherwise") \
    X(TRACE_RTT_SAMPLE, "tcp.rtt.sample", rtt_us, seg_len, from_ts, _d,                            \
      "the measured RTT; from_ts is 1 if timestamps gave it")                                      \
    X(TRACE_RTO_VALUE, "tcp.rto.value", rto_us, srtt_us, rttvar_us, estimate_us,                   \
      "after each RTT sample: the RTO the timer uses (floor and cap applied, no backoff) and the " \
      "estimator's own value")                                                                     \
    X(TRACE_RTO_INITIAL, "tcp.rto.initial", rto_us, _b, _c, estimate_us,                           \
      "as the connection arms its first timer, before any RTT sample (RFC 6298 2.1)")              \
    X(TRACE_CWND, "tcp.cwnd", cwnd, old_cwnd, _c, _d, "bytes")                                     \
    X(TRACE_SSTHRESH, "tcp.ssthresh", ssthresh, old_ssthresh, _c, _d, "bytes")                     \
    X(TRACE_DUPACK, "tcp.dupack", ack, dupacks, _c, _d, "the ACK number and the dup ACK count")    \
    X(TRACE_RECOVERY_ENTER, "tcp.recovery.enter", recover, cwnd, ssthresh, _d,                     \
      "recover is snd_nxt at entry")                                                               \
    X(TRACE_RECOVERY_EXIT, "tcp.recovery.exit", ack, cwnd, _c, _d, "the ACK that ended recovery")  \
    X(TRACE_DELACK_ARM, "tcp.delack.arm", delay_us, rcv_nxt, _c, _d, "")                           \
    X(TRACE_DELACK_FIRE, "tcp.delack.fire", rcv_nxt, _b, _c, _d, "")                               \
    X(TRACE_DELACK_CANCEL, "tcp.delack.cancel", rcv_nxt, _b, _c, _d,                               \
      "the ACK went with data or at once")                                                         \
    X(TRACE_SND_WND, "tcp.snd_wnd", wnd, old_wnd, _c, _d, "the peer's window")                     \
    X(TRACE_RCV_WND, "tcp.rcv_wnd", wnd, old_wnd, update_sent, _d,                                 \
      "the window we advertise; update_sent is 1 if a window update went")                         \
    X(TRACE_PERSIST_ARM, "tcp.persist.arm", delay_us, backoff, _c, _d, "")                         \
    X(TRACE_ZERO_WINDOW_PROBE, "tcp.zwp", seq, backoff, _c, _d, "the probe's sequence number")     \
    X(TRACE_CHANNEL_WAIT, "tcp.channel_wait", seq, len, netif, _d,                                 \
      "a segment held: the interface is busy")                                                     \
    X(TRACE_OOO_QUEUE, "tcp.ooo", seq, len, ranges, _d,                                            \
      "an out-of-order segment queued; ranges now held")                                           \
    X(TRACE_DROP, "drop", reason, protocol, length, _d, "reason: enum drop_reason")                \
    X(TRACE_IP_FRAG, "ip.frag", id, fragments, total_len, _d, "a datagram fragmented on output")   \
    X(TRACE_IP_REASS, "ip.reass", id, fragments, total_len, _d, "a datagram reassembled on input") \
    X(TRACE_ICMP_SENT, "icmp.sent", type, code, _c, _d, "")                                        \
    X(TRACE_ARP_REQUEST, "arp.request", ip, tries, sender_ip, _d,                                  \
      "a request asking for ip (tries: 1 the first); sender_ip: the address it says to tell")      \
    X(TRACE_ARP_REPLY, "arp.reply", ip, to_ip, proxy, _d,                                          \
      "ip's MAC given to to_ip; proxy is 1 when ip is not the interface's own (proxy ARP)")        \
    X(TRACE_ARP_LEARN, "arp.learn", ip, mac_hi, mac_lo, created,                                   \
      "ip is at mac_hi:mac_lo (first 2 and last 4 bytes); created is 0 for a refreshed entry")     \
    X(TRACE_ARP_QUEUE, "arp.queue", ip, waiting, length, _d,                                       \
      "a datagram waits for ip's MAC; waiting: datagrams now queued")                              \
    X(TRACE_ARP_EXPIRE, "arp.expire", ip, _b, _c, _d, "the cache entry timed out")                 \
    X(TRACE_ARP_FAIL, "arp.fail", ip, tries, dropped, _d,                                          \
      "no reply after tries requests; dropped: datagrams that waited")

#define TRACE_KIND_ENUM(kind, name, a, b, c, d, doc) kind,
enum trace_kind { TRACE_KINDS(TRACE_KIND_ENUM) TRACE_KIND_COUNT };
#undef TRACE_KIND_ENUM

/* Why a segment was sent again: the enum, the name the page switches on (the world
 * description's retx_cause_names) and the words people read (retx_causes). */
#define TCP_RETX_CAUSES(X)                                                                  \
    X(TCP_RETX_RTO, "rto", "RTO expired")             /* RFC 6298 5.4 */                    \
    X(TCP_RETX_SYN_RTO, "syn_rto", "SYN RTO expired") /* SYN or SYN-ACK timer */            \
    X(TCP_RETX_FAST, "fast", "fast retransmit")       /* dup ACK threshold, RFC 5681 3.2 */ \
    X(TCP_RETX_PARTIAL_ACK, "partial_ack", "NewReno partial ACK") /* RFC 6582 3.2 step 3 */ \
    X(TCP_RETX_FIN_RTO, "fin_rto", "FIN RTO expired")             /* FIN timer */           \
    X(TCP_RETX_SACK_LOSS, "sack_loss", "SACK loss recovery")      /* NextSeg() hole, RFC 6675 4 */

#define TCP_RETX_CAUSE_ENUM(cause, name, text) cause,
enum tcp_retx_cause { TCP_RETX_CAUSES(TCP_RETX_CAUSE_ENUM) TCP_RETX_CAUSE_COUNT };
#undef TCP_RETX_CAUSE_ENUM

#define TRACE_NO_CONN 0xFF

/* The fields of each kind by name: TRACE_RETRANSMIT_cause is 2 (field c). Read them with
 * TRACE_FIELD(ev, TRACE_RETRANSMIT_cause). */
#define TRACE_FIELD_SLOTS(kind, name, a, b, c, d, doc) \
    enum { kind##_##a = 0, kind##_##b = 1, kind##_##c = 2, kind##_##d = 3 };
TRACE_KINDS(TRACE_FIELD_SLOTS)
#undef TRACE_FIELD_SLOTS

struct trace_event {
    stack_time_t time;
    uint16_t kind;  /* enum trace_kind */
    uint8_t conn;   /* TCP connection slot, TRACE_NO_CONN when not about one */
    uint8_t netif;  /* interface index, 0xFF when not about one */
    uint16_t lport; /* TCP/UDP ports of the connection, 0 when none */
    uint16_t rport;
    uint32_t a, b, c, d;
};

/* Field `slot` (0..3: a..d) of an event; slot comes from a TRACE_<KIND>_<field> name. */
static inline uint32_t trace_field(const struct trace_event *ev, int slot)
{
    return slot == 0 ? ev->a : slot == 1 ? ev->b : slot == 2 ? ev->c : ev->d;
}
#define TRACE_FIELD(ev, field) trace_field((ev), (field))

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
