/* A host's Ethernet interfaces: see host_eth.h. */
#include "host_eth.h"

#include "bytes.h"

static int host_eth_send(void *ctx, const uint8_t *frame, uint16_t len, uint32_t tag)
{
    struct host_eth *e = ctx;
    struct netif *nif = &e->h->netifs[e->netif];
    (void)tag;
    return nif->output(nif->output_ctx, e->netif, frame, len);
}

/* ARP's decisions become the host's trace events and counted drops. */
static void host_eth_report(void *ctx, enum trace_kind kind, uint32_t a, uint32_t b, uint32_t c,
                            uint32_t d)
{
    struct host_eth *e = ctx;
    struct trace_event ev = { 0 };
    if (kind == TRACE_DROP) {
        host_drop(e->h, (enum drop_reason)a, 0, (uint16_t)c);
        return;
    }
    if (!STACK_TRACE || !e->h->tracer.fn)
        return;
    ev.kind = (uint16_t)kind;
    ev.conn = TRACE_NO_CONN;
    ev.netif = e->netif;
    ev.a = a;
    ev.b = b;
    ev.c = c;
    ev.d = d;
    trace_emit(e->h, &ev);
}

int host_add_eth_netif(struct host *h, uint32_t addr, uint32_t netmask, uint16_t mtu,
                       const uint8_t mac[ETH_ADDR_LEN], const struct arp_config *cfg,
                       struct host_eth *eth, uint8_t *mem, size_t mem_len, netif_output_fn output,
                       void *output_ctx)
{
    int idx, err;
    if (!eth)
        return ERR_ARG;
    /* ARP first: an interface it refuses is not added at all (nor its route). */
    eth->h = h;
    eth->netif = h->n_netifs;
    err =
        arp_init(&eth->arp, cfg, mac, addr, mtu, mem, mem_len, host_eth_send, host_eth_report, eth);
    if (err != ERR_OK)
        return err;
    idx = host_add_netif(h, addr, netmask, mtu, output, output_ctx);
    if (idx < 0)
        return idx;
    h->netifs[idx].eth = eth;
    arp_announce(&eth->arp);
    return idx;
}

void host_eth_input(struct host *h, uint8_t netif, uint8_t *frame, uint16_t len)
{
    struct host_eth *e = h->netifs[netif].eth;
    uint16_t type;
    if (len < ETH_HDR_LEN) {
        host_drop(h, DROP_ETH_SHORT, 0, len);
        return;
    }
    if (!eth_for_us(frame, e->arp.mac)) {
        host_drop(h, DROP_ETH_NOT_FOR_US, 0, len);
        return;
    }
    type = rd16(frame + ETH_OFF_TYPE);
    if (type == ETH_TYPE_IPV4)
        ip_input(h, netif, frame + ETH_HDR_LEN, (uint16_t)(len - ETH_HDR_LEN));
    else if (type == ETH_TYPE_ARP)
        arp_input(&e->arp, h->now, frame + ETH_HDR_LEN, (uint16_t)(len - ETH_HDR_LEN));
    else
        host_drop(h, DROP_ETH_TYPE, 0, len);
}

int host_eth_output(struct host *h, uint8_t netif, const uint8_t *dgram, uint16_t len)
{
    return arp_output(&h->netifs[netif].eth->arp, h->now, rd32(dgram + IP_OFF_DST), dgram, len, 0);
}

void host_eth_poll(struct host *h)
{
    uint8_t i;
    for (i = 0; i < h->n_netifs; i++)
        if (h->netifs[i].eth)
            arp_poll(&h->netifs[i].eth->arp, h->now);
}

void host_eth_next_deadline(const struct host *h, stack_time_t *when, int *has)
{
    uint8_t i;
    for (i = 0; i < h->n_netifs; i++)
        if (h->netifs[i].eth)
            arp_next_deadline(&h->netifs[i].eth->arp, when, has);
}
