/* A small deterministic network for tests and the demo: up to FAKE_NET_MAX_HOSTS hosts
 * joined by point-to-point links with a rate, a delay, seeded random loss, a drop hook and
 * a tap that sees every frame. Time is virtual (microseconds); fake_net_run() jumps from
 * one event (frame arrival, host deadline) to the next, so a 1 MB transfer takes as long
 * as the computer needs, not the link.
 *
 * This is test scaffolding, not the simulator (wasm/sim has the real link models).
 */
#ifndef FAKE_NET_H
#define FAKE_NET_H

#include <stdint.h>

#include "host.h"

#define FAKE_NET_MAX_HOSTS 3
#define FAKE_NET_MAX_LINKS 3
#define FAKE_NET_MAX_FRAME 2048

struct fake_net;

/* Sees every frame put on a link: dir 0 = from the link's end a to b, 1 = b to a.
 * `fate` is 0 delivered, 1 lost (random), 2 dropped by the drop hook. */
typedef void (*fake_tap_fn)(void *ctx, struct fake_net *net, int link, int dir, stack_time_t t,
                            const uint8_t *dgram, uint16_t len, int fate);
/* Return 1 to drop this frame. `index` counts the frames on this link and direction from 0. */
typedef int (*fake_drop_fn)(void *ctx, int link, int dir, uint32_t index, const uint8_t *dgram,
                            uint16_t len);
/* Called once at the start of fake_net_run() and after every event: the place to run
 * applications. Return 1 and set *next to be called again at that instant even if nothing
 * else happens by then; return 0 when only network events matter. */
typedef int (*fake_poll_fn)(void *ctx, struct fake_net *net, stack_time_t *next);

struct fake_end {
    uint8_t host;
    uint8_t netif;
    stack_time_t busy_until; /* transmitter busy serialising earlier frames */
    uint32_t index;          /* frames sent in this direction */
};

/* Bytes a datagram takes on the wire once framed (SLIP adds ENDs and escapes). */
typedef uint32_t (*fake_wire_len_fn)(const uint8_t *dgram, uint16_t len);

struct fake_link {
    struct fake_end end[2];
    uint32_t delay_us;
    uint32_t rate_bps;         /* 0 = infinitely fast */
    uint32_t loss_ppm;         /* random loss, parts per million, each direction */
    uint8_t bits_per_byte;     /* 0 or 8: plain bytes; 10 for a UART's 8N1 */
    fake_wire_len_fn wire_len; /* NULL: the datagram's own length */
};

struct fake_frame {
    stack_time_t at;
    uint8_t link, dir;
    uint16_t len;
    uint32_t order; /* tie-break: first sent, first delivered */
    uint8_t data[FAKE_NET_MAX_FRAME];
};

/* What a netif's output callback gets as its context: one per link end. */
struct fake_port {
    struct fake_net *net;
    uint8_t link, dir;
};

/* A fake_net must not move in memory after fake_net_init(): hosts point into it. */
struct fake_net {
    struct host hosts[FAKE_NET_MAX_HOSTS];
    void *mem[FAKE_NET_MAX_HOSTS];
    uint8_t n_hosts;
    struct fake_link links[FAKE_NET_MAX_LINKS];
    uint8_t n_links;
    struct fake_port ports[FAKE_NET_MAX_LINKS][2];
    struct fake_frame *frames; /* in flight */
    uint32_t n_frames, cap_frames, order;
    stack_time_t now;
    uint32_t rng;
    fake_tap_fn tap;
    fake_drop_fn drop;
    fake_poll_fn poll;
    void *ctx; /* given to tap, drop and poll */
    stack_time_t app_deadline;
    int has_app_deadline;
    uint32_t delivered, lost;
};

void fake_net_init(struct fake_net *net, uint32_t seed);
void fake_net_free(struct fake_net *net);
/* Adds a host with this configuration; returns its index or a negative error. */
int fake_net_add_host(struct fake_net *net, const struct host_config *cfg);
/* Joins host a (address addr_a) and host b (addr_b) by a link; both get an interface with
 * netmask 255.255.255.0 and this MTU. Returns the link index. */
int fake_net_connect(struct fake_net *net, int a, uint32_t addr_a, int b, uint32_t addr_b,
                     uint16_t mtu, uint32_t rate_bps, uint32_t delay_us);
/* Processes events up to and including `until`, or until done(ctx) returns 1 (checked
 * after each event). Returns 1 if done() said so, 0 if time ran out or nothing is left. */
int fake_net_run(struct fake_net *net, stack_time_t until, int (*done)(void *ctx));

#endif
