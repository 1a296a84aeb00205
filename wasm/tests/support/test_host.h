/* Test helpers for one host driven by hand: a netif output that records every datagram
 * the host sends, a tracer that records every event, and a builder for IPv4 headers.
 * Header-only (static inline), for the tests of ip, ip_frag, icmp, ping and udp.
 */
#ifndef TEST_HOST_H
#define TEST_HOST_H

#include <string.h>

#include "bytes.h"
#include "host.h"
#include "inet_chksum.h"

#define TH_MAX_FRAMES 16
#define TH_FRAME      1600
#define TH_MAX_EVENTS 64
#define TH_MEM        262144 /* static, so a test that fails half-way leaks nothing */

struct th {
    struct host h;
    uint8_t mem[TH_MEM];
    uint32_t n_frames; /* all frames sent; the first TH_MAX_FRAMES are kept */
    uint16_t len[TH_MAX_FRAMES];
    uint8_t frame[TH_MAX_FRAMES][TH_FRAME];
    int refuse; /* make the link refuse frames */
    uint32_t n_events;
    struct trace_event ev[TH_MAX_EVENTS];
};

static inline int th_output(void *ctx, uint8_t netif, const uint8_t *d, uint16_t len)
{
    struct th *t = ctx;
    (void)netif;
    if (t->refuse)
        return -1;
    if (t->n_frames < TH_MAX_FRAMES && len <= TH_FRAME) {
        memcpy(t->frame[t->n_frames], d, len);
        t->len[t->n_frames] = len;
    }
    t->n_frames++;
    return 0;
}

static inline void th_tracer(void *ctx, const struct host *h, const struct trace_event *ev)
{
    struct th *t = ctx;
    (void)h;
    if (t->n_events < TH_MAX_EVENTS)
        t->ev[t->n_events] = *ev;
    t->n_events++;
}

/* A host with one interface (addr/24, mtu) whose output is recorded. 0 on success. */
static inline int th_start(struct th *t, const struct host_config *cfg, uint32_t addr, uint16_t mtu)
{
    memset(t, 0, sizeof *t);
    if (host_mem_required(cfg) > TH_MEM ||
        host_init(&t->h, cfg, t->mem, sizeof t->mem, 0) != ERR_OK)
        return -1;
    host_set_tracer(&t->h, th_tracer, t);
    return host_add_netif(&t->h, addr, 0xFFFFFF00u, mtu, th_output, t) == 0 ? 0 : -1;
}

/* Nothing to release (the memory is in the structure); kept so tests read symmetrically. */
static inline void th_free(struct th *t)
{
    (void)t;
}

/* Events of one kind recorded so far; *last gets the latest of them when not NULL. */
static inline uint32_t th_events(const struct th *t, enum trace_kind kind, struct trace_event *last)
{
    uint32_t i, n = 0;
    for (i = 0; i < t->n_events && i < TH_MAX_EVENTS; i++) {
        if (t->ev[i].kind == kind) {
            n++;
            if (last)
                *last = t->ev[i];
        }
    }
    return n;
}

/* Writes a 20-byte IPv4 header with a correct checksum at b. */
static inline void th_ip(uint8_t *b, uint16_t total, uint16_t id, uint16_t frag, uint8_t ttl,
                         uint8_t proto, uint32_t src, uint32_t dst)
{
    b[0] = 0x45;
    b[1] = 0;
    wr16(b + 2, total);
    wr16(b + 4, id);
    wr16(b + 6, frag);
    b[8] = ttl;
    b[9] = proto;
    wr16(b + 10, 0);
    wr32(b + 12, src);
    wr32(b + 16, dst);
    wr16(b + 10, inet_chksum(b, 20));
}

/* Feeds a datagram to interface 0 at time `now` (copied first: input may modify it). */
static inline void th_input(struct th *t, const uint8_t *d, uint16_t len, stack_time_t now)
{
    uint8_t copy[TH_FRAME];
    memcpy(copy, d, len);
    host_input(&t->h, 0, copy, len, now);
}

#endif
