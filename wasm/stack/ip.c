#include "ip.h"

#include <string.h>

#include "bytes.h"
#include "host.h"
#include "icmp.h"
#include "inet_chksum.h"
#include "ip_frag.h"
#if STACK_ETHERNET
#include "host_eth.h"
#endif
#include "ping.h"

size_t ip_mem_required(const struct host_config *cfg)
{
    return ip_frag_mem_required(cfg);
}

int ip_init(struct host *h, struct host_arena *arena)
{
    h->ip.next_id = (uint16_t)host_random(h);
    return ip_frag_init(h, arena);
}

/* The ping client's timers ride along with IP's: ping has no module of its own in the
 * host's poll loop. */
void ip_poll(struct host *h)
{
    ip_reass_poll(h);
    ping_poll(h);
}

void ip_next_deadline(const struct host *h, stack_time_t *deadline, int *has)
{
    ip_reass_next_deadline(h, deadline, has);
    ping_next_deadline(h, deadline, has);
}

int ip_route_add(struct host *h, uint32_t dst, uint32_t mask, uint8_t netif)
{
    struct ip_route *r;
    if (netif >= h->n_netifs && netif != h->n_netifs)
        return ERR_ARG; /* the interface being added may use its own index */
    if (h->ip.n_routes >= STACK_MAX_ROUTES)
        return ERR_MEM;
    r = &h->ip.routes[h->ip.n_routes++];
    r->dst = dst & mask;
    r->mask = mask;
    r->netif = netif;
    return ERR_OK;
}

/* Longest-prefix match over the static table (RFC 1812 5.2.4.3, reduced to what a
 * point-to-point host needs). */
int ip_route(const struct host *h, uint32_t dst)
{
    int best = ERR_RTE;
    uint32_t best_mask = 0;
    uint8_t i;
    for (i = 0; i < h->ip.n_routes; i++) {
        const struct ip_route *r = &h->ip.routes[i];
        if ((dst & r->mask) != r->dst)
            continue;
        if (best == ERR_RTE || r->mask > best_mask) {
            best = r->netif;
            best_mask = r->mask;
        }
    }
    return best;
}

uint32_t ip_src_for(const struct host *h, uint32_t dst)
{
    int nif = ip_route(h, dst);
    return nif < 0 ? 0 : h->netifs[nif].addr;
}

int ip_is_local(const struct host *h, uint32_t addr)
{
    uint8_t i;
    for (i = 0; i < h->n_netifs; i++)
        if (h->netifs[i].addr == addr)
            return 1;
    return 0;
}

/* RFC 1122 3.2.1.3: a source address may not be broadcast, multicast or loopback
 * (class E and 0.0.0.0 are tolerated: 0.0.0.0 is legal during booting). */
static int src_acceptable(uint32_t src)
{
    if (src == 0xFFFFFFFFu)
        return 0;
    if ((src >> 28) == 0xE) /* 224.0.0.0/4 multicast */
        return 0;
    if ((src >> 24) == 127)
        return 0;
    return 1;
}

/* Checks the header once; fills *rx. Returns a drop reason or DROP_NONE. */
static enum drop_reason ip_validate(const struct host *h, uint8_t *dgram, uint16_t len,
                                    struct ip_rx *rx)
{
    uint16_t hlen, totlen;
    if (len < IP_HLEN)
        return DROP_IP_SHORT;
    if ((dgram[IP_OFF_VHL] >> 4) != 4)
        return DROP_IP_VERSION;
    hlen = (uint16_t)((dgram[IP_OFF_VHL] & 0x0F) * 4);
    if (hlen < IP_HLEN || hlen > len)
        return DROP_IP_HDRLEN;
    if (!HOST_CFG(h).skip_checksum_check && inet_chksum(dgram, hlen) != 0)
        return DROP_IP_CHKSUM;
    totlen = rd16(dgram + IP_OFF_LEN);
    /* A link may pad a frame, so bytes past the total length are ignored; a total length
     * past the frame's end means the datagram was truncated. */
    if (totlen < hlen || totlen > len)
        return DROP_IP_TOTLEN;
    rx->dgram = dgram;
    rx->hlen = hlen;
    rx->len = totlen;
    rx->src = rd32(dgram + IP_OFF_SRC);
    rx->dst = rd32(dgram + IP_OFF_DST);
    rx->proto = dgram[IP_OFF_PROTO];
    rx->ttl = dgram[IP_OFF_TTL];
    if (!src_acceptable(rx->src))
        return DROP_IP_BAD_SRC;
    return DROP_NONE;
}

/* RFC 1812 5.3.1: decrement TTL, then send on; ICMP time exceeded when it reaches 0. */
static void ip_forward(struct host *h, struct ip_rx *rx)
{
    int out;
    if (rx->ttl <= 1) {
        host_drop(h, DROP_IP_TTL, rx->proto, rx->len);
        icmp_send_time_exceeded(h, rx);
        return;
    }
    out = ip_route(h, rx->dst);
    if (out < 0) {
        host_drop(h, DROP_IP_NO_ROUTE, rx->proto, rx->len);
        icmp_send_unreachable(h, rx, 0 /* net unreachable */);
        return;
    }
    /* RFC 791 2.3 / RFC 1191: a datagram too big for the next hop that may not be
     * fragmented is answered with "fragmentation needed" and the next-hop MTU (sent
     * before the TTL is touched, so the quote shows the header as it arrived). */
    if (rx->len > h->netifs[out].mtu &&
        ((rd16(rx->dgram + IP_OFF_FRAG) & IP_FLAG_DF) || !HOST_CFG(h).ip_frag)) {
        host_drop(h, DROP_IP_DF, rx->proto, rx->len);
        if (rd16(rx->dgram + IP_OFF_FRAG) & IP_FLAG_DF)
            icmp_send_error(h, rx, ICMP_DEST_UNREACH, ICMP_UNREACH_FRAG_NEEDED, h->netifs[out].mtu);
        return;
    }
    rx->dgram[IP_OFF_TTL] = (uint8_t)(rx->ttl - 1);
    wr16(rx->dgram + IP_OFF_CHKSUM, 0);
    wr16(rx->dgram + IP_OFF_CHKSUM, inet_chksum(rx->dgram, rx->hlen));
    h->ip.counters.forwarded++;
    ip_send_datagram(h, (uint8_t)out, rx->dgram, rx->len);
}

static void ip_deliver(struct host *h, struct ip_rx *rx)
{
    h->ip.counters.in_delivered++;
    switch (rx->proto) {
    case IP_PROTO_ICMP: icmp_input(h, rx); break;
    case IP_PROTO_UDP: udp_input(h, rx); break;
    case IP_PROTO_TCP:
        host_tcp_input(h, rx); /* the full TCP or the responder */
        break;
    default:
        h->ip.counters.in_delivered--;
        host_drop(h, DROP_IP_PROTO, rx->proto, rx->len);
        icmp_send_unreachable(h, rx, ICMP_UNREACH_PROTOCOL);
        break;
    }
}

void ip_input(struct host *h, uint8_t netif, uint8_t *dgram, uint16_t len)
{
    struct ip_rx rx;
    enum drop_reason why = ip_validate(h, dgram, len, &rx);
    if (why != DROP_NONE) {
        host_drop(h, why, len >= IP_HLEN ? dgram[IP_OFF_PROTO] : 0, len);
        return;
    }
    rx.netif = netif;
    h->ip.counters.in_datagrams++;

    if (!ip_is_local(h, rx.dst) && rx.dst != 0xFFFFFFFFu) {
        if (HOST_CFG(h).ip_forward)
            ip_forward(h, &rx);
        else
            host_drop(h, DROP_IP_NOT_FOR_US, rx.proto, rx.len);
        return;
    }
    if (rd16(dgram + IP_OFF_FRAG) & (IP_FLAG_MF | IP_OFFSET_MASK)) {
        if (!ip_reass_input(h, &rx))
            return;
    }
    ip_deliver(h, &rx);
}

uint8_t *ip_tx_payload(struct host *h)
{
    return h->txbuf + IP_HLEN;
}

uint16_t ip_tx_capacity(const struct host *h)
{
    return (uint16_t)(h->txbuf_len - IP_HLEN);
}

int ip_netif_send(struct host *h, uint8_t netif, const uint8_t *dgram, uint16_t len)
{
    struct netif *nif = &h->netifs[netif];
#if STACK_ETHERNET
    if (nif->eth)
        return host_eth_output(h, netif, dgram, len);
#endif
    return nif->output(nif->output_ctx, netif, dgram, len);
}

int ip_send_datagram(struct host *h, uint8_t netif, uint8_t *dgram, uint16_t len)
{
    struct netif *nif = &h->netifs[netif];
    if (len > nif->mtu)
        return ip_frag_output(h, netif, dgram, len);
    nif->tx_frames++;
    nif->tx_bytes += len;
    if (ip_netif_send(h, netif, dgram, len) < 0) {
        host_drop(h, DROP_NETIF_DOWN, dgram[IP_OFF_PROTO], len);
        return ERR_RTE;
    }
    return ERR_OK;
}

int ip_output_at(struct host *h, uint8_t *d, uint32_t src, uint32_t dst, uint8_t proto,
                 uint16_t payload_len, int df)
{
    uint16_t len;
    int out = ip_route(h, dst);
    if (out < 0) {
        host_drop(h, DROP_IP_NO_ROUTE, proto, payload_len);
        return ERR_RTE;
    }
    len = (uint16_t)(payload_len + IP_HLEN);
    if (src == 0)
        src = h->netifs[out].addr;
    d[IP_OFF_VHL] = 0x45;
    d[IP_OFF_TOS] = 0;
    wr16(d + IP_OFF_LEN, len);
    wr16(d + IP_OFF_ID, h->ip.next_id++);
    wr16(d + IP_OFF_FRAG, df ? IP_FLAG_DF : 0);
    d[IP_OFF_TTL] = HOST_CFG(h).ip_ttl;
    d[IP_OFF_PROTO] = proto;
    wr16(d + IP_OFF_CHKSUM, 0);
    wr32(d + IP_OFF_SRC, src);
    wr32(d + IP_OFF_DST, dst);
    wr16(d + IP_OFF_CHKSUM, inet_chksum(d, IP_HLEN));
    h->ip.counters.out_datagrams++;
    return ip_send_datagram(h, (uint8_t)out, d, len);
}

int ip_output(struct host *h, uint32_t src, uint32_t dst, uint8_t proto, uint16_t payload_len,
              int df)
{
    if (payload_len > ip_tx_capacity(h))
        return ERR_ARG;
    return ip_output_at(h, h->txbuf, src, dst, proto, payload_len, df);
}
