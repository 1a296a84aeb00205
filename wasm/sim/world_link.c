/* One interface over the link models (serial, NFC, ethernet, external): build with the
 * storage each needs, submit, next event, take, and the signals a link gives its ends
 * (queue length, NFC module busy/free), and an NFC link's pauses into the trace. */
#include "world_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint16_t world_link_mtu(const struct world_link_config *c)
{
    switch (c->type) {
    case WORLD_LINK_NFC: return c->nfc.mtu;
    case WORLD_LINK_ETHERNET: return c->eth.mtu;
    default: return c->serial.mtu;
    }
}

static const char *world_framing_name(uint8_t f)
{
    return f == LINK_SERIAL_CSLIP ? "CSLIP" : f == LINK_SERIAL_SLIP6 ? "SLIP6" : "SLIP";
}

void world_link_describe(const struct world_link_config *c, char *buf, size_t cap)
{
    switch (c->type) {
    case WORLD_LINK_SERIAL:
        snprintf(buf, cap, "serial %s, %u baud, %u bits per character",
                 world_framing_name(c->serial.framing), (unsigned)c->serial.baud,
                 (unsigned)c->serial.bits_per_char);
        break;
    case WORLD_LINK_NFC:
        snprintf(buf, cap, "NFC, %u-byte chunks every %u us, UART %u baud",
                 (unsigned)c->nfc.chunk_bytes, (unsigned)c->nfc.slot_period_us,
                 (unsigned)c->nfc.uart_baud);
        break;
    case WORLD_LINK_ETHERNET:
        snprintf(buf, cap, "ethernet, %llu bit/s, %u us delay", (unsigned long long)c->eth.rate_bps,
                 (unsigned)c->eth.delay_us);
        break;
    default:
        snprintf(buf, cap, "external serial port, %s", world_framing_name(c->serial.framing));
        break;
    }
}

/* The same link as JSON fields named as the scenario names them (schema.json), its defaults
 * applied: the page's "On the wire" view and link labels read them here, so the page needs
 * no copy of the schema's defaults in its first download. */
void world_link_describe_config(const struct world_link_config *c, char *buf, size_t cap)
{
    static const char *const framing[] = { "slip", "cslip", "slip6" };
    const char *f = framing[c->serial.framing];
    switch (c->type) {
    case WORLD_LINK_SERIAL:
        snprintf(buf, cap,
                 "{\"framing\":\"%s\",\"leading_end\":%s,\"baud\":%u,\"bits_per_char\":%u}", f,
                 c->serial.leading_end ? "true" : "false", (unsigned)c->serial.baud,
                 (unsigned)c->serial.bits_per_char);
        break;
    case WORLD_LINK_NFC:
        snprintf(buf, cap,
                 "{\"chunk_bytes\":%u,\"chunk_overhead\":%u,\"pkt_overhead\":%u,"
                 "\"slot_period_us\":%u,\"slot_air_us\":%u,\"uart_baud\":%u,"
                 "\"uart_bits_per_char\":%u}",
                 (unsigned)c->nfc.chunk_bytes, (unsigned)c->nfc.chunk_overhead,
                 (unsigned)c->nfc.pkt_overhead, (unsigned)c->nfc.slot_period_us,
                 (unsigned)c->nfc.slot_air_us, (unsigned)c->nfc.uart_baud,
                 (unsigned)c->nfc.uart_bits_per_char);
        break;
    case WORLD_LINK_ETHERNET:
        snprintf(buf, cap, "{\"rate_bps\":%llu,\"delay_us\":%u}",
                 (unsigned long long)c->eth.rate_bps, (unsigned)c->eth.delay_us);
        break;
    default: snprintf(buf, cap, "{\"framing\":\"%s\"}", f); break;
    }
}

static int world_serial_build(struct world_link *l)
{
    const struct link_serial_config *c = &l->cfg.serial;
    uint32_t n = c->qlen + 32u, mem = LINK_SERIAL_DIR_MEM(c->mtu, n > 255 ? 255 : n);
    uint8_t nf[2];
    struct link_serial_frame *ring[2];
    uint8_t *bufs[2];
    uint32_t lens[2];
    uint8_t *p;
    if (n > 255)
        n = 255;
    p = malloc(2 * (n * sizeof(struct link_serial_frame) + mem));
    if (!p)
        return ERR_MEM;
    l->storage = p;
    nf[0] = nf[1] = (uint8_t)n;
    ring[0] = (struct link_serial_frame *)(void *)p;
    ring[1] = ring[0] + n;
    bufs[0] = (uint8_t *)(ring[1] + n);
    bufs[1] = bufs[0] + mem;
    lens[0] = lens[1] = mem;
    return link_serial_init(&l->serial, c, ring, nf, bufs, lens);
}

/* A pause of end b's packet goes in the trace as it is decided; its time is the first
 * paused slot's start, as a grant's (TREC_LINK_NFC_SLOTS) is its first slot's. */
static void world_nfc_paused(void *arg, uint32_t tag, uint64_t slot_start, uint32_t n)
{
    const struct world_nfc_pause_to *to = arg;
    world_link_event(to->w, to->link, LINK_DIR_BA, TREC_LINK_NFC_PAUSE, n, tag, slot_start);
}

static int world_nfc_build(struct world *w, uint8_t index)
{
    struct world_link *l = &w->links[index];
    int rc;
    const struct link_nfc_config *c = &l->cfg.nfc;
    uint32_t n = c->qlen + 8u > 255 ? 255 : c->qlen + 8u, mem = n * c->mtu;
    uint8_t nf[2];
    struct link_nfc_frame *ring[2];
    uint8_t *bufs[2];
    uint32_t lens[2];
    uint8_t *p = malloc(2 * (n * sizeof(struct link_nfc_frame) + mem));
    if (!p)
        return ERR_MEM;
    l->storage = p;
    nf[0] = nf[1] = (uint8_t)n;
    ring[0] = (struct link_nfc_frame *)(void *)p;
    ring[1] = ring[0] + n;
    bufs[0] = (uint8_t *)(ring[1] + n);
    bufs[1] = bufs[0] + mem;
    lens[0] = lens[1] = mem;
    rc = link_nfc_init(&l->nfc, c, ring, nf, bufs, lens);
    l->pause_to.w = w;
    l->pause_to.link = index;
    link_nfc_set_pause_fn(&l->nfc, world_nfc_paused, &l->pause_to);
    return rc;
}

/* The ring holds the queue, the frame on the wire and every frame still inside delay +
 * jitter: at most one per minimum frame time (84 bytes on the wire). The byte buffer holds
 * their bytes: the queue's worth of full frames plus what the delay holds at line rate. */
static int world_eth_build(struct world_link *l)
{
    const struct link_eth_config *c = &l->cfg.eth;
    uint64_t flight_us = (uint64_t)c->delay_us + c->jitter_us;
    uint64_t in_flight = flight_us * c->rate_bps / (84u * 8u * 1000000u) + 1u;
    uint64_t bytes = flight_us * c->rate_bps / 8000000u;
    uint32_t n, mem;
    if (in_flight > 100000u)
        in_flight = 100000u;
    if (bytes > 64u << 20)
        bytes = 64u << 20;
    n = c->qlen + 4u + (uint32_t)in_flight;
    mem = (uint32_t)((c->qlen + 4u) * ((uint64_t)c->mtu + LINK_ETH_HDR) + bytes);
    uint32_t nf[2];
    struct link_eth_frame *ring[2];
    uint8_t *bufs[2];
    uint32_t lens[2];
    uint8_t *p = malloc(2 * (n * sizeof(struct link_eth_frame) + mem));
    if (!p)
        return ERR_MEM;
    l->storage = p;
    nf[0] = nf[1] = n;
    ring[0] = (struct link_eth_frame *)(void *)p;
    ring[1] = ring[0] + n;
    bufs[0] = (uint8_t *)(ring[1] + n);
    bufs[1] = bufs[0] + mem;
    lens[0] = lens[1] = mem;
    return link_eth_init(&l->eth, c, ring, nf, bufs, lens);
}

int world_link_build(struct world *w, uint8_t index, char *err, size_t errlen)
{
    struct world_link *l = &w->links[index];
    int rc;
    l->cfg = w->cfg.links[index];
    switch (l->cfg.type) {
    case WORLD_LINK_SERIAL: rc = world_serial_build(l); break;
    case WORLD_LINK_NFC: rc = world_nfc_build(w, index); break;
    case WORLD_LINK_ETHERNET: rc = world_eth_build(l); break;
    case WORLD_LINK_EXTERNAL: rc = world_port_build(w, l); break;
    default: rc = ERR_ARG;
    }
    if (rc != ERR_OK)
        snprintf(err, errlen, "links.%s: the link model refused its parameters (%s)", l->cfg.name,
                 stack_err_name(rc));
    return rc;
}

void world_link_free(struct world_link *l)
{
    free(l->storage);
    l->storage = NULL;
    sim_buf_free(&l->tx);
}

static uint8_t world_queue_len(const struct world_link *l, uint8_t dir, uint64_t now)
{
    if (l->cfg.type == WORLD_LINK_SERIAL)
        return link_serial_queue_len(&l->serial, dir, now);
    if (l->cfg.type == WORLD_LINK_ETHERNET) {
        uint32_t q = link_eth_queue_len(&l->eth, dir, now);
        return q > 255 ? 255 : (uint8_t)q;
    }
    return 0;
}

/* Frames in direction dir not yet sent out: those waiting, and the one on the line. */
static uint8_t world_unsent(const struct world_link *l, uint8_t dir, uint64_t now)
{
    uint8_t q = world_queue_len(l, dir, now), busy = 0;
    if (l->cfg.type == WORLD_LINK_SERIAL)
        busy = l->serial.dir[dir & 1u].line.free_at > now;
    else if (l->cfg.type == WORLD_LINK_ETHERNET)
        busy = l->eth.dir[dir & 1u].free_at > now;
    else
        return q;
    return q < 255 ? (uint8_t)(q + busy) : q;
}

/* Returns ERR_OK, a drop reason (> 0: the link refused it, counted) or a negative error. */
int world_link_submit(struct world *w, uint8_t link, uint8_t dir, const uint8_t *data, uint16_t len,
                      uint32_t id, uint32_t *queue)
{
    struct world_link *l = &w->links[link];
    *queue = world_queue_len(l, dir, w->now);
    switch (l->cfg.type) {
    case WORLD_LINK_SERIAL: return link_serial_submit(&l->serial, dir, w->now, data, len, id);
    case WORLD_LINK_NFC: return link_nfc_submit(&l->nfc, dir, w->now, data, len, id);
    case WORLD_LINK_ETHERNET: return link_eth_submit(&l->eth, dir, w->now, data, len, id, &w->rng);
    default: return world_port_send(w, link, data, len, id);
    }
}

int world_link_next(const struct world_link *l, uint64_t *t)
{
    switch (l->cfg.type) {
    case WORLD_LINK_SERIAL: return link_serial_next_event(&l->serial, t);
    case WORLD_LINK_NFC: return link_nfc_next_event(&l->nfc, t);
    case WORLD_LINK_ETHERNET: return link_eth_next_event(&l->eth, t);
    default: return 0;
    }
}

int world_link_take(struct world *w, uint8_t link, struct link_delivery *d)
{
    struct world_link *l = &w->links[link];
    switch (l->cfg.type) {
    case WORLD_LINK_SERIAL: return link_serial_take(&l->serial, w->now, d);
    case WORLD_LINK_NFC: return link_nfc_take(&l->nfc, w->now, d);
    case WORLD_LINK_ETHERNET: return link_eth_take(&l->eth, w->now, d);
    default: return 0;
    }
}

/* Is end dir's path to the air busy: a packet on its way over the UART to the module, or
 * the module still holding one (link_nfc_module_free_at)? The paper's channel-sensing
 * stack sends only when this is clear. */
int world_nfc_busy(const struct world_link *l, uint8_t dir, uint64_t now)
{
    const struct link_nfc_end *e = &l->nfc.end[dir];
    uint8_t i;
    for (i = 0; i < e->n; i++)
        if (e->ring[i].state == LINK_NFC_QUEUED)
            return 1;
    return link_nfc_module_free_at(&l->nfc, dir) > now;
}

/* Queue lengths as they change; NFC modules turning busy or free, told to the host at that
 * end (its netif busy flag: a host with channel sensing holds its segments meanwhile). */
void world_link_signals(struct world *w, uint8_t link)
{
    struct world_link *l = &w->links[link];
    uint8_t dir;
    for (dir = 0; dir < 2; dir++) {
        uint8_t q = world_queue_len(l, dir, w->now);
        uint8_t from = dir == LINK_DIR_AB ? l->cfg.a : l->cfg.b;
        if (q != l->last_queue[dir]) {
            l->last_queue[dir] = q;
            world_link_event(w, link, dir, TREC_LINK_QUEUE, q, TREC_NONE, w->now);
        }
        if (world_node_is_host(w, from)) {
            uint8_t unsent = world_unsent(l, dir, w->now);
            if (unsent != w->hosts[from].h.netifs[0].unsent) {
                host_set_netif_unsent(&w->hosts[from].h, 0, unsent, (stack_time_t)w->now);
                world_flush(w);
            }
        }
        if (l->cfg.type == WORLD_LINK_NFC) {
            uint8_t node = dir == LINK_DIR_AB ? l->cfg.a : l->cfg.b;
            uint8_t busy = (uint8_t)world_nfc_busy(l, dir, w->now);
            if (busy != l->module_busy[dir]) {
                l->module_busy[dir] = busy;
                world_link_event(w, link, dir, busy ? TREC_LINK_MODULE_BUSY : TREC_LINK_MODULE_FREE,
                                 0, TREC_NONE, w->now);
            }
            if (world_node_is_host(w, node) && w->hosts[node].port_busy != busy) {
                w->hosts[node].port_busy = busy;
                host_set_netif_busy(&w->hosts[node].h, 0, busy, (stack_time_t)w->now);
                world_flush(w);
            }
            if (!busy && !world_node_is_host(w, node))
                world_bridge_release(w, (uint8_t)(node - w->cfg.n_hosts), link, dir);
        }
    }
}
