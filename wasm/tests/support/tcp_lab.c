#include "tcp_lab.h"

#include <stdlib.h>
#include <string.h>

/* A failed CHECK returns from the test before its lab_free(): the lab still alive is freed
 * by the next lab_init() or at exit, so LeakSanitizer reports only real leaks. */
static struct {
    void *mem, *frames, *ev;
} lab_live;

static void lab_free_live(void)
{
    free(lab_live.mem);
    free(lab_live.frames);
    free(lab_live.ev);
    memset(&lab_live, 0, sizeof lab_live);
}

static int lab_output(void *ctx, uint8_t netif, const uint8_t *dgram, uint16_t len)
{
    struct tcp_lab *L = ctx;
    struct lab_frame *f;
    (void)netif;
    if (L->n_frames == L->cap_frames) {
        uint32_t cap = L->cap_frames ? L->cap_frames * 2u : 64u;
        struct lab_frame *g = realloc(L->frames, cap * sizeof *g);
        if (!g)
            return -1;
        L->frames = g;
        lab_live.frames = g;
        L->cap_frames = cap;
    }
    f = &L->frames[L->n_frames++];
    f->t = L->h.now;
    f->len = len > LAB_MAX_FRAME ? LAB_MAX_FRAME : len;
    memcpy(f->data, dgram, f->len);
    return 0;
}

static void lab_trace(void *ctx, const struct host *h, const struct trace_event *ev)
{
    struct tcp_lab *L = ctx;
    (void)h;
    if (L->n_ev == L->cap_ev) {
        uint32_t cap = L->cap_ev ? L->cap_ev * 2u : 256u;
        struct trace_event *g = realloc(L->ev, cap * sizeof *g);
        if (!g)
            return;
        L->ev = g;
        lab_live.ev = g;
        L->cap_ev = cap;
    }
    L->ev[L->n_ev++] = *ev;
}

int lab_init(struct tcp_lab *L, const struct host_config *cfg, uint16_t mtu, stack_time_t t0)
{
    size_t need = host_mem_required(cfg);
    static int registered;
    if (!registered) {
        atexit(lab_free_live);
        registered = 1;
    }
    lab_free_live();
    memset(L, 0, sizeof *L);
    L->mem = malloc(need);
    lab_live.mem = L->mem;
    if (!L->mem)
        return -1;
    if (host_init(&L->h, cfg, L->mem, need, t0) != ERR_OK)
        return -1;
    host_set_tracer(&L->h, lab_trace, L);
    if (host_add_netif(&L->h, LAB_ME, 0xFFFFFF00u, mtu, lab_output, L) != 0)
        return -1;
    L->my_port = 80;
    L->peer_port = 40000;
    return 0;
}

void lab_free(struct tcp_lab *L)
{
    if (L->mem == lab_live.mem)
        memset(&lab_live, 0, sizeof lab_live);
    free(L->mem);
    free(L->frames);
    free(L->ev);
    memset(L, 0, sizeof *L);
}

void lab_in(struct tcp_lab *L, stack_time_t t, const struct tseg_spec *s)
{
    uint8_t buf[LAB_MAX_FRAME + 64];
    struct tseg_spec c = *s;
    uint16_t n;
    if (!c.src)
        c.src = LAB_PEER;
    if (!c.dst)
        c.dst = LAB_ME;
    if (!c.sport)
        c.sport = L->peer_port;
    if (!c.dport)
        c.dport = L->my_port;
    lab_run(L, t);
    n = tseg_build(buf, &c);
    host_input(&L->h, 0, buf, n, t);
}

void lab_seg(struct tcp_lab *L, stack_time_t t, uint8_t flags, uint32_t seq, uint32_t ack,
             uint16_t wnd, const void *data, uint16_t len)
{
    struct tseg_spec s;
    memset(&s, 0, sizeof s);
    s.flags = flags;
    s.seq = seq;
    s.ack = ack;
    s.wnd = wnd;
    s.data = data;
    s.len = len;
    lab_in(L, t, &s);
}

void lab_run(struct tcp_lab *L, stack_time_t t)
{
    stack_time_t d;
    int guard = 100000;
    while (guard-- > 0 && host_next_deadline(&L->h, &d) && time_after_eq(t, d)) {
        if (time_before(d, L->h.now))
            d = L->h.now;
        host_poll(&L->h, d);
    }
    if (time_after_eq(t, L->h.now))
        host_poll(&L->h, t);
}

int lab_next(struct tcp_lab *L, struct tseg *out)
{
    struct lab_frame *f;
    if (L->next >= L->n_frames)
        return 0;
    f = &L->frames[L->next++];
    if (tseg_parse(f->data, f->len, out) < 0)
        memset(out, 0, sizeof *out);
    out->t = f->t;
    return 1;
}

uint32_t lab_pending(const struct tcp_lab *L)
{
    return L->n_frames - L->next;
}

void lab_skip(struct tcp_lab *L)
{
    L->next = L->n_frames;
}

uint32_t lab_count(const struct tcp_lab *L, enum trace_kind kind)
{
    uint32_t i, n = 0;
    for (i = 0; i < L->n_ev; i++)
        if (L->ev[i].kind == (uint16_t)kind)
            n++;
    return n;
}

const struct trace_event *lab_event(const struct tcp_lab *L, enum trace_kind kind, uint32_t n)
{
    uint32_t i;
    for (i = 0; i < L->n_ev; i++)
        if (L->ev[i].kind == (uint16_t)kind && n-- == 0)
            return &L->ev[i];
    return NULL;
}

void lab_clear_trace(struct tcp_lab *L)
{
    L->n_ev = 0;
}

int lab_deadline(const struct tcp_lab *L, stack_time_t *t)
{
    return host_next_deadline(&L->h, t);
}
