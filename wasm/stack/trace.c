#include "trace.h"
#include "host.h"

#define TRACE_KIND_NAME(kind, name, doc) name,
static const char *const trace_names[] = { TRACE_KINDS(TRACE_KIND_NAME) };

void trace_emit(struct host *h, struct trace_event *ev)
{
    if (!STACK_TRACE || !h->tracer.fn)
        return;
    ev->time = h->now;
    h->tracer.fn(h->tracer.ctx, h, ev);
}

void trace_simple(struct host *h, enum trace_kind kind, uint32_t a, uint32_t b, uint32_t c)
{
    struct trace_event ev = { 0 };
    if (!STACK_TRACE || !h->tracer.fn)
        return;
    ev.kind = (uint16_t)kind;
    ev.conn = TRACE_NO_CONN;
    ev.netif = 0xFF;
    ev.a = a;
    ev.b = b;
    ev.c = c;
    trace_emit(h, &ev);
}

const char *trace_kind_name(enum trace_kind k)
{
    return (unsigned)k < TRACE_KIND_COUNT ? trace_names[k] : "unknown";
}

const char *tcp_retx_cause_text(enum tcp_retx_cause c)
{
    switch (c) {
    case TCP_RETX_RTO: return "RTO expired";
    case TCP_RETX_SYN_RTO: return "SYN RTO expired";
    case TCP_RETX_FAST: return "fast retransmit";
    case TCP_RETX_PARTIAL_ACK: return "NewReno partial ACK";
    case TCP_RETX_FIN_RTO: return "FIN RTO expired";
    case TCP_RETX_SACK_LOSS: return "SACK loss recovery";
    }
    return "unknown";
}
