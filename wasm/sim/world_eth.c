/* The world's Ethernet ends: each host on an Ethernet link gets an Ethernet interface
 * (Ethernet II and ARP, wasm/stack/host_eth.h), each bridge end on one an ARP interface of
 * its own (arp.h) that answers for the hosts behind the bridge (proxy ARP) and asks on
 * their behalf, as the NFC paper's PTx does ("Who has 192.168.1.202? Tell 192.168.1.102").
 *
 * MAC addresses: eth_mac_from_index(node), node numbered as in a link's ends (hosts, then
 * bridges): 02:00:00:00:00:01 for the first host. */
#include "world_internal.h"

#include <stdlib.h>

#include "bytes.h"
#include "ip.h"

#if ARP_TAG_NONE != TREC_NONE
#error "a bridge's ARP frames must reach the trace with no parent"
#endif

int world_link_is_eth(const struct world *w, uint8_t link)
{
    return w->links[link].cfg.type == WORLD_LINK_ETHERNET;
}

int world_eth_host_netif(struct world *w, uint8_t i, uint32_t addr, uint32_t mask, uint16_t mtu)
{
    struct world_host *wh = &w->hosts[i];
    struct arp_config cfg;
    uint8_t mac[ETH_ADDR_LEN];
    size_t mem;
    arp_config_default(&cfg);
    mem = ARP_MEM(mtu, cfg.queue_len);
    eth_mac_from_index(mac, i);
    wh->arp_mem = malloc(mem);
    if (!wh->arp_mem)
        return ERR_MEM;
    return host_add_eth_netif(&wh->h, addr, mask, mtu, mac, &cfg, &wh->eth, wh->arp_mem, mem,
                              world_netif_output, &w->ends[wh->link][wh->dir]);
}

/* A frame of the bridge's: a datagram it forwards (its tag is the frame that brought it),
 * or its ARP's own (ARP_TAG_NONE, which is TREC_NONE: no parent). */
static int world_eth_bridge_out(void *ctx, const uint8_t *frame, uint16_t len, uint32_t parent)
{
    struct world_bridge_eth *b = ctx;
    world_frame_send(b->w, b->link, b->dir, b->node, frame, len, parent);
    return 0;
}

/* The bridge's ARP decisions are recorded as its node's events, as a host's are. */
static void world_eth_bridge_report(void *ctx, enum trace_kind kind, uint32_t a, uint32_t b,
                                    uint32_t c, uint32_t d)
{
    struct world_bridge_eth *be = ctx;
    struct trace_event ev = { 0 };
    ev.time = (stack_time_t)be->w->now;
    ev.kind = (uint16_t)kind;
    ev.conn = TRACE_NO_CONN;
    ev.netif = 0xFF;
    ev.a = a;
    ev.b = b;
    ev.c = c;
    ev.d = d;
    world_event_write(be->w, be->node, be->w->next_event++, &ev, TREC_NONE);
}

/* Proxy ARP: the bridge answers for every host on its other links. */
static int world_eth_bridge_proxies(struct world *w, struct world_bridge_eth *be)
{
    uint8_t l, h;
    for (l = 0; l < w->cfg.n_links; l++) {
        const struct world_link_config *c = &w->cfg.links[l];
        if (l == be->link || (c->a != be->node && c->b != be->node))
            continue;
        for (h = 0; h < w->cfg.n_hosts; h++)
            if ((c->a == h || c->b == h) && arp_add_proxy(&be->arp, w->cfg.hosts[h].addr) != 0)
                return ERR_MEM;
    }
    return ERR_OK;
}

static int world_eth_bridge_end(struct world *w, uint8_t node, uint8_t link)
{
    struct world_bridge_eth *be = NULL;
    const struct world_link_config *c = &w->cfg.links[link];
    struct arp_config cfg;
    uint8_t mac[ETH_ADDR_LEN], i;
    size_t mem;
    int rc;
    for (i = 0; i < WORLD_MAX_BRIDGE_ETH && !be; i++)
        if (!w->bridge_eth[i].w)
            be = &w->bridge_eth[i];
    if (!be)
        return ERR_MEM;
    be->w = w;
    be->node = node;
    be->link = link;
    be->dir = c->a == node ? LINK_DIR_AB : LINK_DIR_BA;
    arp_config_default(&cfg);
    mem = ARP_MEM(c->eth.mtu, cfg.queue_len);
    be->mem = malloc(mem);
    if (!be->mem)
        return ERR_MEM;
    eth_mac_from_index(mac, node);
    rc = arp_init(&be->arp, &cfg, mac, 0, c->eth.mtu, be->mem, mem, world_eth_bridge_out,
                  world_eth_bridge_report, be);
    return rc != ERR_OK ? rc : world_eth_bridge_proxies(w, be);
}

int world_eth_bridges_build(struct world *w)
{
    uint8_t l;
    int rc = ERR_OK;
    for (l = 0; l < w->cfg.n_links && rc == ERR_OK; l++) {
        const struct world_link_config *c = &w->cfg.links[l];
        if (c->type != WORLD_LINK_ETHERNET)
            continue;
        if (!world_node_is_host(w, c->a) && c->a != WORLD_NODE_NONE)
            rc = world_eth_bridge_end(w, c->a, l);
        if (rc == ERR_OK && !world_node_is_host(w, c->b) && c->b != WORLD_NODE_NONE)
            rc = world_eth_bridge_end(w, c->b, l);
    }
    return rc;
}

void world_eth_free(struct world *w)
{
    uint8_t i;
    for (i = 0; i < WORLD_MAX_BRIDGE_ETH; i++)
        free(w->bridge_eth[i].mem);
    for (i = 0; i < WORLD_MAX_HOSTS; i++)
        free(w->hosts[i].arp_mem);
}

static struct world_bridge_eth *world_eth_bridge(struct world *w, uint8_t node, uint8_t link)
{
    uint8_t i;
    for (i = 0; i < WORLD_MAX_BRIDGE_ETH; i++)
        if (w->bridge_eth[i].w && w->bridge_eth[i].node == node && w->bridge_eth[i].link == link)
            return &w->bridge_eth[i];
    return NULL;
}

int world_eth_bridge_input(struct world *w, uint8_t node, uint8_t link, const uint8_t *frame,
                           uint16_t len, uint16_t *ip_len)
{
    struct world_bridge_eth *be = world_eth_bridge(w, node, link);
    uint16_t type, tot;
    if (!be || len < ETH_HDR_LEN || !eth_for_us(frame, be->arp.mac))
        return 0;
    type = rd16(frame + ETH_OFF_TYPE);
    if (type == ETH_TYPE_ARP) {
        arp_input(&be->arp, (stack_time_t)w->now, frame + ETH_HDR_LEN,
                  (uint16_t)(len - ETH_HDR_LEN));
        return 0;
    }
    if (type != ETH_TYPE_IPV4 || len < ETH_HDR_LEN + IP_HLEN)
        return 0;
    /* The padding stays behind: the datagram goes on as long as its total length says. */
    tot = rd16(frame + ETH_HDR_LEN + IP_OFF_LEN);
    *ip_len = tot >= IP_HLEN && tot <= len - ETH_HDR_LEN ? tot : (uint16_t)(len - ETH_HDR_LEN);
    return 1;
}

void world_eth_bridge_send(struct world *w, uint8_t node, uint8_t link, const uint8_t *dgram,
                           uint16_t len, uint32_t parent)
{
    struct world_bridge_eth *be = world_eth_bridge(w, node, link);
    if (be && len >= IP_HLEN)
        (void)arp_output(&be->arp, (stack_time_t)w->now, rd32(dgram + IP_OFF_DST), dgram, len,
                         parent);
}

void world_eth_poll(struct world *w)
{
    uint8_t i;
    for (i = 0; i < WORLD_MAX_BRIDGE_ETH; i++)
        if (w->bridge_eth[i].w)
            arp_poll(&w->bridge_eth[i].arp, (stack_time_t)w->now);
}

uint64_t world_eth_deadline(const struct world *w)
{
    stack_time_t when = 0, now32 = (stack_time_t)w->now;
    int has = 0;
    uint8_t i;
    for (i = 0; i < WORLD_MAX_BRIDGE_ETH; i++)
        if (w->bridge_eth[i].w)
            arp_next_deadline(&w->bridge_eth[i].arp, &when, &has);
    if (!has)
        return WORLD_NEVER;
    return time_before(when, now32) ? w->now : w->now + (uint32_t)(when - now32);
}
