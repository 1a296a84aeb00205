/* A host: one instance of the whole stack.
 *
 * All state lives here and is passed to every call, so one wasm module can run many hosts
 * and every test starts from a fresh one. Memory for connection tables and buffers is
 * handed over once, at host_init(), and carved up there: protocol code never allocates.
 *
 * Driving a host (smoltcp's model):
 *   host_input(h, netif, datagram, len, now)   a datagram arrived on an interface
 *   host_poll(h, now)                          run whatever timers are due
 *   host_next_deadline(h)                      when host_poll must be called next
 * Applications call the socket API (socket.h) between these.
 */
#ifndef STACK_HOST_H
#define STACK_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "drop_reason.h"
#include "host_config.h"
#include "netif.h"
#include "stack_err.h"
#include "stack_opts.h"
#include "stack_time.h"
#include "trace.h"

#include "icmp.h"
#include "ip.h"
#include "tcp.h"
#include "tcp_responder.h"
#include "udp.h"

/* The configuration the modules read. Normally the host's own copy, taken at host_init().
 * A build for a small target can fix it at compile time instead: with STACK_FIXED_CONFIG
 * defined (stack_opts.h) the build provides, in one of its files,
 *     const struct host_config stack_fixed_config = { ... };
 * and every module reads that constant. With link-time optimisation each setting then
 * folds to a constant and the code of the options that are off is left out (the Arduino
 * firmware needs this to fit in 32 KB of flash), and the host carries no copy (101 bytes
 * of the Uno's 2 KB of RAM). host_mem_required() and host_init() then ignore their `cfg`
 * argument's contents and use the constant. */
#ifdef STACK_FIXED_CONFIG
extern const struct host_config stack_fixed_config;
#define HOST_CFG(h) (*((void)(h), &stack_fixed_config))
#else
#define HOST_CFG(h) ((h)->cfg)
#endif

/* Does host h run the TCP responder (tcp_responder.h) instead of the full TCP? Fixed by
 * STACK_TCP_RESPONDER (stack_opts.h) when only one of them is built. */
#if STACK_TCP_RESPONDER == 2
#define HOST_TCP_RESPONDER(h) ((void)(h), 1)
#elif STACK_TCP_RESPONDER
#define HOST_TCP_RESPONDER(h) (HOST_CFG(h).tcp_responder != 0)
#else
#define HOST_TCP_RESPONDER(h) ((void)(h), 0)
#endif

/* The memory given at host_init(), cut into pieces by the modules' *_init(). */
struct host_arena {
    uint8_t *base;
    size_t size;
    size_t used;
};

struct host_stats {
    STACK_COUNTER drops[DROP_REASON_COUNT];
};

struct host {
#ifndef STACK_FIXED_CONFIG
    struct host_config cfg;  /* read through HOST_CFG(h) */
#endif
    stack_time_t now;        /* the `now` of the current call */
    uint32_t rng;            /* xorshift32 state, from cfg.seed */
    struct trace_hook tracer;

    struct netif netifs[STACK_MAX_NETIFS];
    uint8_t n_netifs;

    uint8_t *txbuf;          /* where outgoing datagrams are built: ip_max_datagram bytes */
    uint16_t txbuf_len;

    struct ip_state ip;
    struct icmp_state icmp;  /* counters and the ping client (ping.h) */
    struct udp_state udp;
#if STACK_TCP_RESPONDER != 2
    struct tcp_host_state tcp;     /* the full TCP; unused on a responder host */
#endif
#if STACK_TCP_RESPONDER
    struct tcp_responder_state responder;
#endif
    struct host_stats stats;
};

/* Bytes of memory host_init() needs for this configuration. */
size_t host_mem_required(const struct host_config *cfg);

/* Starts a host with its configuration (copied) and `mem_len` bytes at `mem`, which must
 * stay valid as long as the host is used. Returns ERR_OK, ERR_ARG for an impossible
 * configuration, ERR_MEM if mem_len < host_mem_required(cfg). A responder host
 * (HOST_TCP_RESPONDER) has no TCP sockets: its copy of the configuration says
 * tcp_max_pcbs 0, so every socket call finds no free block. */
int host_init(struct host *h, const struct host_config *cfg, void *mem, size_t mem_len,
              stack_time_t now);

void host_set_tracer(struct host *h, trace_fn fn, void *ctx);

/* Adds an interface; returns its index (0, 1, ...) or ERR_MEM / ERR_ARG. A route to its
 * subnet is added with it. */
int host_add_netif(struct host *h, uint32_t addr, uint32_t netmask, uint16_t mtu,
                   netif_output_fn output, void *output_ctx);

/* A datagram arrived on interface `netif`. The buffer may be modified by the call. */
void host_input(struct host *h, uint8_t netif, uint8_t *dgram, uint16_t len, stack_time_t now);

/* Runs the timers that are due at `now`. */
void host_poll(struct host *h, stack_time_t now);

/* Sets *when to the earliest instant at which host_poll() has something to do and
 * returns 1; returns 0 when no timer is pending. */
int host_next_deadline(const struct host *h, stack_time_t *when);

/* The link of interface `netif` became free or busy (channel sensing). */
void host_set_netif_busy(struct host *h, uint8_t netif, int busy, stack_time_t now);

/* `unsent` of the host's frames on interface `netif` are not yet sent out (TCP small
 * queues); the count is the link owner's, raised as frames are handed over and set as
 * they leave. */
void host_set_netif_unsent(struct host *h, uint8_t netif, uint8_t unsent, stack_time_t now);

/* A TCP datagram arrived (called by IP): to the full TCP or the responder. */
void host_tcp_input(struct host *h, struct ip_rx *rx);

/* Counts a drop and reports it to the tracer. */
void host_drop(struct host *h, enum drop_reason reason, uint8_t proto, uint16_t len);

/* Deterministic pseudo-random numbers from the host's seed (xorshift32). */
uint32_t host_random(struct host *h);

/* For module *_init(): `size` bytes from the arena, 8-byte aligned, zeroed; NULL if the
 * arena is exhausted. */
void *host_arena_take(struct host_arena *a, size_t size);

/* What host_arena_take() consumes for `size` bytes, for the modules' *_mem_required(). */
static inline size_t host_arena_cost(size_t size)
{
    return (size + 7u) & ~(size_t)7u;
}

#endif
