#include "trace.h"
#include "host.h"

#define TRACE_KIND_NAME(kind, name, a, b, c, d, doc) name,
static const char *const trace_names[] = { TRACE_KINDS(TRACE_KIND_NAME) };
#define TCP_RETX_CAUSE_NAME(cause, name, text) name,
static const char *const retx_cause_names[] = { TCP_RETX_CAUSES(TCP_RETX_CAUSE_NAME) };
#define TCP_RETX_CAUSE_TEXT(cause, name, text) text,
static const char *const retx_cause_texts[] = { TCP_RETX_CAUSES(TCP_RETX_CAUSE_TEXT) };

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
    return (unsigned)c < TCP_RETX_CAUSE_COUNT ? retx_cause_texts[c] : "unknown";
}

const char *tcp_retx_cause_name(enum tcp_retx_cause c)
{
    return (unsigned)c < TCP_RETX_CAUSE_COUNT ? retx_cause_names[c] : "unknown";
}
