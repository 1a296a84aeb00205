#include "host.h"

#include <string.h>

#if STACK_ETHERNET
#include "host_eth.h"
#endif

void *host_arena_take(struct host_arena *a, size_t size)
{
    size_t cost = host_arena_cost(size);
    void *p;
    if (cost > a->size - a->used)
        return NULL;
    p = a->base + a->used;
    a->used += cost;
    memset(p, 0, size);
    return p;
}

static int config_valid(const struct host_config *cfg)
{
    if (cfg->ip_max_datagram < 68 || cfg->ip_ttl == 0)
        return 0; /* RFC 791: every host must handle 68-byte datagrams */
    if (cfg->tcp_rto_min_ms == 0 || cfg->tcp_rto_max_ms < cfg->tcp_rto_min_ms)
        return 0;
    if (cfg->tcp_rto_max_ms > STACK_MAX_DELAY_MS || cfg->tcp_time_wait_ms > STACK_MAX_DELAY_MS)
        return 0;
    if (cfg->tcp_dupack_thresh == 0)
        return 0;
    if (cfg->tcp_responder_conns == 0 &&
        (STACK_TCP_RESPONDER == 2 || (STACK_TCP_RESPONDER && cfg->tcp_responder)))
        return 0;
    return 1;
}

/* The TCP a host runs: the full TCP or the responder (HOST_TCP_RESPONDER). With
 * STACK_TCP_RESPONDER 2 the full TCP is not referenced at all, so it is not linked. */
static size_t host_tcp_mem_required(const struct host_config *cfg)
{
#if STACK_TCP_RESPONDER == 2
    return tcp_responder_mem_required(cfg);
#elif STACK_TCP_RESPONDER
    return cfg->tcp_responder ? tcp_responder_mem_required(cfg) : tcp_mem_required(cfg);
#else
    return tcp_mem_required(cfg);
#endif
}

static int host_tcp_init(struct host *h, struct host_arena *arena)
{
#if STACK_TCP_RESPONDER == 2
    return tcp_responder_init(h, arena);
#else
#if STACK_TCP_RESPONDER
    if (HOST_TCP_RESPONDER(h)) {
#ifndef STACK_FIXED_CONFIG
        h->cfg.tcp_max_pcbs = 0; /* no sockets: every socket call finds no free block */
#endif
        return tcp_responder_init(h, arena);
    }
#endif
    return tcp_init(h, arena);
#endif
}

void host_tcp_input(struct host *h, struct ip_rx *rx)
{
#if STACK_TCP_RESPONDER == 2
    tcp_responder_input(h, rx);
#else
#if STACK_TCP_RESPONDER
    if (HOST_TCP_RESPONDER(h)) {
        tcp_responder_input(h, rx);
        return;
    }
#endif
    tcp_input(h, rx);
#endif
}

size_t host_mem_required(const struct host_config *cfg)
{
#ifdef STACK_FIXED_CONFIG
    cfg = &stack_fixed_config;
#endif
    return host_arena_cost(cfg->ip_max_datagram) + ip_mem_required(cfg) + udp_mem_required(cfg) +
           host_tcp_mem_required(cfg);
}

int host_init(struct host *h, const struct host_config *cfg, void *mem, size_t mem_len,
              stack_time_t now)
{
    struct host_arena arena;
    int err;

    memset(h, 0, sizeof *h);
#ifdef STACK_FIXED_CONFIG
    cfg = &stack_fixed_config;
#endif
    if (!config_valid(cfg))
        return ERR_ARG;
    if (mem_len < host_mem_required(cfg))
        return ERR_MEM;
#ifndef STACK_FIXED_CONFIG
    h->cfg = *cfg;
#endif
    h->now = now;
    h->rng = cfg->seed ? cfg->seed : 0x9E3779B9u; /* xorshift must not start at 0 */

    arena.base = mem;
    arena.size = mem_len;
    arena.used = 0;
    h->txbuf = host_arena_take(&arena, cfg->ip_max_datagram);
    h->txbuf_len = cfg->ip_max_datagram;
    if (!h->txbuf)
        return ERR_MEM;
    if ((err = ip_init(h, &arena)) != ERR_OK)
        return err;
    if ((err = udp_init(h, &arena)) != ERR_OK)
        return err;
    return host_tcp_init(h, &arena);
}

void host_set_tracer(struct host *h, trace_fn fn, void *ctx)
{
    h->tracer.fn = fn;
    h->tracer.ctx = ctx;
}

int host_add_netif(struct host *h, uint32_t addr, uint32_t netmask, uint16_t mtu,
                   netif_output_fn output, void *output_ctx)
{
    struct netif *nif;
    int err;

    if (h->n_netifs >= STACK_MAX_NETIFS)
        return ERR_MEM;
    if (mtu < 68 || !output)
        return ERR_ARG;
    nif = &h->netifs[h->n_netifs];
    memset(nif, 0, sizeof *nif);
    nif->addr = addr;
    nif->netmask = netmask;
    nif->mtu = mtu;
    nif->index = h->n_netifs;
    nif->output = output;
    nif->output_ctx = output_ctx;
    err = ip_route_add(h, addr & netmask, netmask, nif->index);
    if (err != ERR_OK)
        return err;
    return h->n_netifs++;
}

void host_input(struct host *h, uint8_t netif, uint8_t *dgram, uint16_t len, stack_time_t now)
{
    h->now = now;
    if (netif >= h->n_netifs)
        return;
    h->netifs[netif].rx_frames++;
    h->netifs[netif].rx_bytes += len;
#if STACK_ETHERNET
    if (h->netifs[netif].eth) {
        host_eth_input(h, netif, dgram, len);
        return;
    }
#endif
    ip_input(h, netif, dgram, len);
}

void host_poll(struct host *h, stack_time_t now)
{
    h->now = now;
#if STACK_ETHERNET
    host_eth_poll(h);
#endif
    ip_poll(h);
    udp_poll(h);
#if STACK_TCP_RESPONDER
    if (HOST_TCP_RESPONDER(h)) {
        /* no timers: the window updates owed (tcp_responder.h: turns) */
        while (tcp_responder_pass_turn(h) > 0)
            ;
    }
#endif
#if STACK_TCP_RESPONDER != 2
    if (!HOST_TCP_RESPONDER(h))
        tcp_poll(h);
#endif
}

int host_next_deadline(const struct host *h, stack_time_t *when)
{
    int has = 0;
#if STACK_ETHERNET
    host_eth_next_deadline(h, when, &has);
#endif
    ip_next_deadline(h, when, &has);
    udp_next_deadline(h, when, &has);
#if STACK_TCP_RESPONDER
    if (HOST_TCP_RESPONDER(h) && tcp_responder_turn_owed(h))
        time_earliest(when, &has, h->now); /* a window update to pass on */
#endif
#if STACK_TCP_RESPONDER != 2
    if (!HOST_TCP_RESPONDER(h))
        tcp_next_deadline(h, when, &has);
#endif
    return has;
}

void host_set_netif_busy(struct host *h, uint8_t netif, int busy, stack_time_t now)
{
    h->now = now;
    if (netif >= h->n_netifs)
        return;
    h->netifs[netif].busy = busy ? 1 : 0;
#if STACK_TCP_RESPONDER != 2
    if (!busy && !HOST_TCP_RESPONDER(h)) /* the responder holds no segments */
        tcp_netif_free(h, netif);
#endif
}

void host_set_netif_unsent(struct host *h, uint8_t netif, uint8_t unsent, stack_time_t now)
{
    uint8_t was;
    h->now = now;
    if (netif >= h->n_netifs)
        return;
    was = h->netifs[netif].unsent;
    h->netifs[netif].unsent = unsent;
#if STACK_TCP_RESPONDER != 2
    if (!HOST_TCP_RESPONDER(h) && HOST_CFG(h).tcp_small_queues && unsent < was &&
        tcp_small_queue_room(h, netif))
        tcp_netif_free(h, netif); /* room again: the connections send what they held */
#else
    (void)was;
#endif
}

void host_drop(struct host *h, enum drop_reason reason, uint8_t proto, uint16_t len)
{
    if ((unsigned)reason < DROP_REASON_COUNT)
        h->stats.drops[reason]++;
    trace_simple(h, TRACE_DROP, (uint32_t)reason, proto, len);
}

uint32_t host_random(struct host *h)
{
    /* Marsaglia's xorshift32: tiny, deterministic on every platform. */
    uint32_t x = h->rng;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    h->rng = x;
    return x;
}
