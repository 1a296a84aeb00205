/* ARP: see arp.h. */
#include "arp.h"

#include <string.h>

#include "bytes.h"
#include "ip.h"
#include "stack_err.h"

/* RFC 826 packet layout for Ethernet (hardware 1) and IPv4 (protocol 0x0800). */
#define ARP_OFF_HTYPE      0
#define ARP_OFF_PTYPE      2
#define ARP_OFF_HLEN       4
#define ARP_OFF_PLEN       5
#define ARP_OFF_OP         6
#define ARP_OFF_SHA        8
#define ARP_OFF_SPA        14
#define ARP_OFF_THA        18
#define ARP_OFF_TPA        24
#define ARP_HTYPE_ETHERNET 1u

void arp_config_default(struct arp_config *cfg)
{
    cfg->cache_timeout_ms = ARP_CACHE_TIMEOUT_MS_DEFAULT;
    cfg->retry_ms = ARP_RETRY_MS_DEFAULT;
    cfg->max_tries = ARP_MAX_TRIES_DEFAULT;
    cfg->queue_len = ARP_QUEUE_LEN_DEFAULT;
    cfg->gratuitous = ARP_GRATUITOUS_DEFAULT;
}

int arp_init(struct arp_if *a, const struct arp_config *cfg, const uint8_t mac[ETH_ADDR_LEN],
             uint32_t ip, uint16_t mtu, uint8_t *mem, size_t mem_len, arp_output_fn output,
             arp_report_fn report, void *ctx)
{
    if (cfg->queue_len > ARP_QUEUE_MAX || cfg->max_tries == 0 || mtu < 68 || !output ||
        cfg->cache_timeout_ms > STACK_MAX_DELAY_MS || cfg->retry_ms > STACK_MAX_DELAY_MS)
        return ERR_ARG;
    if (mem == NULL || mem_len < ARP_MEM(mtu, cfg->queue_len))
        return ERR_MEM;
    memset(a, 0, sizeof *a);
    a->cfg = *cfg;
    memcpy(a->mac, mac, ETH_ADDR_LEN);
    a->ip = ip;
    a->mtu = mtu;
    a->frame = mem;
    a->qmem = mem + mtu + ETH_HDR_LEN;
    a->output = output;
    a->report = report;
    a->ctx = ctx;
    return ERR_OK;
}

int arp_add_proxy(struct arp_if *a, uint32_t ip)
{
    if (a->n_proxy >= ARP_PROXY_MAX)
        return ERR_MEM;
    a->proxy[a->n_proxy++] = ip;
    return ERR_OK;
}

static void arp_report(struct arp_if *a, enum trace_kind kind, uint32_t x, uint32_t y, uint32_t z,
                       uint32_t w)
{
    if (a->report)
        a->report(a->ctx, kind, x, y, z, w);
}

static void arp_drop(struct arp_if *a, enum drop_reason reason, uint16_t len)
{
    arp_report(a, TRACE_DROP, (uint32_t)reason, 0, len, 0);
}

/* The cache slot holding ip, or ARP_TABLE_SIZE. */
static uint8_t arp_index(const struct arp_if *a, uint32_t ip)
{
    uint8_t i;
    for (i = 0; i < ARP_TABLE_SIZE; i++)
        if (a->cache[i].state != ARP_FREE && a->cache[i].ip == ip)
            break;
    return i;
}

const struct arp_entry *arp_find(const struct arp_if *a, uint32_t ip)
{
    uint8_t i = arp_index(a, ip);
    return i < ARP_TABLE_SIZE ? &a->cache[i] : NULL;
}

static struct arp_entry *arp_lookup(struct arp_if *a, uint32_t ip)
{
    uint8_t i = arp_index(a, ip);
    return i < ARP_TABLE_SIZE ? &a->cache[i] : NULL;
}

/* A slot for a new entry: a free one, else the stable entry closest to expiry (it would
 * be asked for again anyway); NULL if every entry is being resolved. */
static struct arp_entry *arp_slot(struct arp_if *a)
{
    struct arp_entry *best = NULL;
    uint8_t i;
    for (i = 0; i < ARP_TABLE_SIZE; i++) {
        struct arp_entry *e = &a->cache[i];
        if (e->state == ARP_FREE)
            return e;
        if (e->state == ARP_STABLE && (!best || time_before(e->when, best->when)))
            best = e;
    }
    return best;
}

/* An ARP packet (op, target hardware and protocol addresses) in a frame to dst. */
static int arp_send(struct arp_if *a, uint16_t op, const uint8_t *dst, uint32_t spa,
                    const uint8_t *tha, uint32_t tpa)
{
    uint8_t *f = a->frame, *p = a->frame + ETH_HDR_LEN;
    eth_header_write(f, dst, a->mac, ETH_TYPE_ARP);
    wr16(p + ARP_OFF_HTYPE, ARP_HTYPE_ETHERNET);
    wr16(p + ARP_OFF_PTYPE, ETH_TYPE_IPV4);
    p[ARP_OFF_HLEN] = ETH_ADDR_LEN;
    p[ARP_OFF_PLEN] = 4;
    wr16(p + ARP_OFF_OP, op);
    memcpy(p + ARP_OFF_SHA, a->mac, ETH_ADDR_LEN);
    wr32(p + ARP_OFF_SPA, spa);
    memcpy(p + ARP_OFF_THA, tha, ETH_ADDR_LEN);
    wr32(p + ARP_OFF_TPA, tpa);
    return a->output(a->ctx, f, ETH_HDR_LEN + ARP_PKT_LEN, ARP_TAG_NONE);
}

/* A request for e's address: broadcast, target hardware address zero (unknown). */
static void arp_request(struct arp_if *a, stack_time_t now, struct arp_entry *e)
{
    static const uint8_t unknown[ETH_ADDR_LEN] = { 0 };
    e->tries++;
    e->when = now + STACK_MS(a->cfg.retry_ms);
    arp_report(a, TRACE_ARP_REQUEST, e->ip, e->tries, e->asker, 0);
    (void)arp_send(a, ARP_OP_REQUEST, eth_broadcast, e->asker, unknown, e->ip);
}

static int arp_send_dgram(struct arp_if *a, const uint8_t *mac, const uint8_t *dgram, uint16_t len,
                          uint32_t tag)
{
    eth_header_write(a->frame, mac, a->mac, ETH_TYPE_IPV4);
    memmove(a->frame + ETH_HDR_LEN, dgram, len);
    return a->output(a->ctx, a->frame, (uint16_t)(len + ETH_HDR_LEN), tag);
}

static uint8_t arp_queued_count(const struct arp_if *a)
{
    uint8_t i, n = 0;
    for (i = 0; i < a->cfg.queue_len; i++)
        n += a->queue[i].len != 0;
    return n;
}

/* RFC 1122 2.3.2.2: the datagram waits for the answer, if there is room. */
static void arp_enqueue(struct arp_if *a, uint32_t next_hop, const uint8_t *dgram, uint16_t len,
                        uint32_t tag)
{
    uint8_t i;
    for (i = 0; i < a->cfg.queue_len; i++)
        if (a->queue[i].len == 0) {
            memcpy(a->qmem + (size_t)i * a->mtu, dgram, len);
            a->queue[i].next_hop = next_hop;
            a->queue[i].tag = tag;
            a->queue[i].len = len;
            a->queue[i].seq = a->next_seq++;
            arp_report(a, TRACE_ARP_QUEUE, next_hop, arp_queued_count(a), len, 0);
            return;
        }
    arp_drop(a, DROP_ARP_QUEUE_FULL, len);
}

int arp_output(struct arp_if *a, stack_time_t now, uint32_t next_hop, const uint8_t *dgram,
               uint16_t len, uint32_t tag)
{
    struct arp_entry *e;
    if (len > a->mtu) { /* a bridge forwarding from a link of a larger MTU */
        arp_drop(a, DROP_ETH_OVERSIZE, len);
        return 0;
    }
    e = arp_lookup(a, next_hop);
    if (e && e->state == ARP_STABLE)
        return arp_send_dgram(a, e->mac, dgram, len, tag);
    if (!e) {
        e = arp_slot(a);
        if (!e) { /* every entry is being resolved: nothing to wait in */
            arp_drop(a, DROP_ARP_QUEUE_FULL, len);
            return 0;
        }
        memset(e, 0, sizeof *e);
        e->state = ARP_PENDING;
        e->ip = next_hop;
        e->asker = a->ip ? a->ip : (len >= IP_HLEN ? rd32(dgram + IP_OFF_SRC) : 0);
        arp_enqueue(a, next_hop, dgram, len, tag);
        arp_request(a, now, e);
        return 0;
    }
    arp_enqueue(a, next_hop, dgram, len, tag);
    return 0;
}

/* The oldest datagram waiting for ip (slots are reused out of order, so the order is the
 * queueing sequence), or NULL. */
static struct arp_queued *arp_oldest(struct arp_if *a, uint32_t ip)
{
    struct arp_queued *best = NULL;
    uint8_t i;
    for (i = 0; i < a->cfg.queue_len; i++) {
        struct arp_queued *q = &a->queue[i];
        if (q->len != 0 && q->next_hop == ip && (!best || (int32_t)(q->seq - best->seq) < 0))
            best = q;
    }
    return best;
}

/* The datagrams waiting for ip, oldest first: sent to mac, or dropped (mac NULL). */
static uint8_t arp_flush(struct arp_if *a, uint32_t ip, const uint8_t *mac)
{
    struct arp_queued *q;
    uint8_t n = 0;
    while ((q = arp_oldest(a, ip)) != NULL) {
        size_t i = (size_t)(q - a->queue);
        if (mac)
            (void)arp_send_dgram(a, mac, a->qmem + (size_t)i * a->mtu, q->len, q->tag);
        else
            arp_drop(a, DROP_ARP_NO_REPLY, q->len);
        q->len = 0;
        n++;
    }
    return n;
}

static void arp_learn(struct arp_if *a, stack_time_t now, struct arp_entry *e, uint32_t ip,
                      const uint8_t *mac, int created)
{
    e->ip = ip;
    memcpy(e->mac, mac, ETH_ADDR_LEN);
    e->state = ARP_STABLE;
    e->tries = 0;
    e->when = now + STACK_MS(a->cfg.cache_timeout_ms);
    arp_report(a, TRACE_ARP_LEARN, ip, rd16(mac), rd32(mac + 2), (uint32_t)created);
    (void)arp_flush(a, ip, mac);
}

static int arp_answers_for(const struct arp_if *a, uint32_t ip)
{
    uint8_t i;
    if (a->ip && ip == a->ip)
        return 1;
    for (i = 0; i < a->n_proxy; i++)
        if (a->proxy[i] == ip)
            return 1;
    return 0;
}

void arp_input(struct arp_if *a, stack_time_t now, const uint8_t *pkt, uint16_t len)
{
    uint32_t spa, tpa;
    uint16_t op;
    struct arp_entry *e;
    int for_us;
    if (len < ARP_PKT_LEN || rd16(pkt + ARP_OFF_HTYPE) != ARP_HTYPE_ETHERNET ||
        rd16(pkt + ARP_OFF_PTYPE) != ETH_TYPE_IPV4 || pkt[ARP_OFF_HLEN] != ETH_ADDR_LEN ||
        pkt[ARP_OFF_PLEN] != 4) {
        arp_drop(a, DROP_ARP_BAD, len);
        return;
    }
    op = rd16(pkt + ARP_OFF_OP);
    spa = rd32(pkt + ARP_OFF_SPA);
    tpa = rd32(pkt + ARP_OFF_TPA);
    for_us = arp_answers_for(a, tpa);
    /* RFC 826: update the sender's entry if we have one ("merge"), whatever the target. */
    e = arp_lookup(a, spa);
    if (e)
        arp_learn(a, now, e, spa, pkt + ARP_OFF_SHA, 0);
    else if (for_us && spa != 0 && (e = arp_slot(a)) != NULL)
        arp_learn(a, now, e, spa, pkt + ARP_OFF_SHA, 1);
    if (!for_us || (op != ARP_OP_REQUEST && op != ARP_OP_REPLY)) {
        if (op != ARP_OP_REQUEST && op != ARP_OP_REPLY)
            arp_drop(a, DROP_ARP_BAD, len);
        return;
    }
    if (op == ARP_OP_REQUEST && spa != tpa) {
        arp_report(a, TRACE_ARP_REPLY, tpa, spa, tpa != a->ip, 0);
        (void)arp_send(a, ARP_OP_REPLY, pkt + ARP_OFF_SHA, tpa, pkt + ARP_OFF_SHA, spa);
    }
}

void arp_poll(struct arp_if *a, stack_time_t now)
{
    uint8_t i;
    for (i = 0; i < ARP_TABLE_SIZE; i++) {
        struct arp_entry *e = &a->cache[i];
        if (e->state == ARP_FREE || time_before(now, e->when))
            continue;
        if (e->state == ARP_STABLE) {
            arp_report(a, TRACE_ARP_EXPIRE, e->ip, 0, 0, 0);
            e->state = ARP_FREE;
        } else if (e->tries >= a->cfg.max_tries) {
            uint8_t n = arp_flush(a, e->ip, NULL);
            arp_report(a, TRACE_ARP_FAIL, e->ip, e->tries, n, 0);
            e->state = ARP_FREE;
        } else {
            arp_request(a, now, e);
        }
    }
}

void arp_next_deadline(const struct arp_if *a, stack_time_t *when, int *has)
{
    uint8_t i;
    for (i = 0; i < ARP_TABLE_SIZE; i++)
        if (a->cache[i].state != ARP_FREE)
            time_earliest(when, has, a->cache[i].when);
}

void arp_announce(struct arp_if *a)
{
    static const uint8_t unknown[ETH_ADDR_LEN] = { 0 };
    if (!a->cfg.gratuitous || a->ip == 0)
        return;
    arp_report(a, TRACE_ARP_REQUEST, a->ip, 1, a->ip, 0);
    (void)arp_send(a, ARP_OP_REQUEST, eth_broadcast, a->ip, unknown, a->ip);
}
