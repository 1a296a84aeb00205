/* UDP, RFC 768 and RFC 1122 section 4.1: input, output and the sockets' receive queues.
 * The socket calls themselves (udpsocket, udpbind, ...) are in socket_udp.c.
 *
 * Input checks the length and, when the sender computed one, the checksum (RFC 768: a
 * zero checksum field means none was computed; RFC 1122 4.1.3.4: one that is present
 * MUST be verified). A datagram for a port nobody listens on is answered with an ICMP
 * port unreachable (RFC 1122 4.1.3.1; icmp.c leaves out broadcasts). Output always
 * computes the checksum (RFC 1122 4.1.3.4: it MUST be possible and SHOULD be the
 * default), and sends a computed 0 as 0xFFFF, its other one's complement form (RFC 768).
 */
#include "udp.h"

#include <string.h>

#include "bytes.h"
#include "host.h"
#include "icmp.h"
#include "inet_chksum.h"
#include "udp_pcb.h"

#define UDP_EPHEMERAL_FIRST 49152u /* RFC 6335 6: the dynamic ports, 49152-65535 */
#define UDP_EPHEMERAL_COUNT 16384u

size_t udp_mem_required(const struct host_config *cfg)
{
    return host_arena_cost((size_t)cfg->udp_max_pcbs * sizeof(struct udp_pcb)) +
           (size_t)cfg->udp_max_pcbs * host_arena_cost(cfg->udp_rcv_buf);
}

int udp_init(struct host *h, struct host_arena *arena)
{
    uint8_t i;
    h->udp.next_port = (uint16_t)(UDP_EPHEMERAL_FIRST + host_random(h) % UDP_EPHEMERAL_COUNT);
    if (HOST_CFG(h).udp_max_pcbs == 0)
        return ERR_OK;
    h->udp.pcbs = host_arena_take(arena, (size_t)HOST_CFG(h).udp_max_pcbs * sizeof(struct udp_pcb));
    if (!h->udp.pcbs)
        return ERR_MEM;
    for (i = 0; i < HOST_CFG(h).udp_max_pcbs; i++) {
        h->udp.pcbs[i].ring = host_arena_take(arena, HOST_CFG(h).udp_rcv_buf);
        if (!h->udp.pcbs[i].ring && HOST_CFG(h).udp_rcv_buf)
            return ERR_MEM;
    }
    return ERR_OK;
}

void udp_poll(struct host *h)
{
    (void)h; /* UDP has no timers */
}

void udp_next_deadline(const struct host *h, stack_time_t *deadline, int *has)
{
    (void)h;
    (void)deadline;
    (void)has;
}

struct udp_pcb *udp_pcb_get(struct host *h, int s)
{
    if (s < 0 || s >= HOST_CFG(h).udp_max_pcbs || !h->udp.pcbs[s].used)
        return NULL;
    return &h->udp.pcbs[s];
}

int udp_port_taken(const struct host *h, const struct udp_pcb *self, uint32_t addr, uint16_t port)
{
    uint8_t i;
    for (i = 0; i < HOST_CFG(h).udp_max_pcbs; i++) {
        const struct udp_pcb *p = &h->udp.pcbs[i];
        if (p == self || !p->used || !p->bound || p->local_port != port)
            continue;
        if (addr == 0 || p->local_addr == 0 || p->local_addr == addr)
            return 1;
    }
    return 0;
}

uint16_t udp_ephemeral_port(struct host *h, uint32_t addr)
{
    uint16_t tries;
    for (tries = 0; tries < UDP_EPHEMERAL_COUNT; tries++) {
        uint16_t port = h->udp.next_port;
        h->udp.next_port = (uint16_t)(port == 65535u ? UDP_EPHEMERAL_FIRST : port + 1u);
        if (!udp_port_taken(h, NULL, addr, port))
            return port;
    }
    return 0;
}

/* Copies n bytes in or out of the ring at `pos`, wrapping at `cap`. */
static void ring_put(uint8_t *ring, uint16_t cap, uint16_t pos, const uint8_t *src, uint16_t n)
{
    uint16_t first = (uint16_t)(cap - pos) < n ? (uint16_t)(cap - pos) : n;
    memcpy(ring + pos, src, first);
    memcpy(ring, src + first, (size_t)(n - first));
}

static void ring_get(const uint8_t *ring, uint16_t cap, uint16_t pos, uint8_t *dst, uint16_t n)
{
    uint16_t first = (uint16_t)(cap - pos) < n ? (uint16_t)(cap - pos) : n;
    memcpy(dst, ring + pos, first);
    memcpy(dst + first, ring, (size_t)(n - first));
}

static uint16_t ring_at(uint16_t cap, uint16_t pos, uint16_t add)
{
    uint32_t p = (uint32_t)pos + add;
    return (uint16_t)(p >= cap ? p - cap : p);
}

static int udp_enqueue(struct host *h, struct udp_pcb *pcb, const struct ip_rx *rx,
                       const uint8_t *u, uint16_t dlen)
{
    uint16_t cap = HOST_CFG(h).udp_rcv_buf;
    uint16_t tail = ring_at(cap, pcb->head, pcb->fill);
    uint8_t hdr[UDP_REC_HDR];
    if ((uint32_t)UDP_REC_HDR + dlen > (uint32_t)(cap - pcb->fill))
        return 0;
    wr16(hdr, dlen);
    wr32(hdr + 2, rx->src);
    wr16(hdr + 6, rd16(u + UDP_OFF_SRC_PORT));
    ring_put(pcb->ring, cap, tail, hdr, UDP_REC_HDR);
    ring_put(pcb->ring, cap, ring_at(cap, tail, UDP_REC_HDR), u + UDP_HLEN, dlen);
    pcb->fill = (uint16_t)(pcb->fill + UDP_REC_HDR + dlen);
    pcb->queued++;
    return 1;
}

int32_t udp_dequeue(struct host *h, struct udp_pcb *pcb, uint32_t *src, uint16_t *sport,
                    uint8_t *buf, uint16_t len)
{
    uint16_t cap = HOST_CFG(h).udp_rcv_buf;
    uint8_t hdr[UDP_REC_HDR];
    uint16_t dlen, n;
    if (!pcb->queued)
        return ERR_WOULDBLOCK;
    ring_get(pcb->ring, cap, pcb->head, hdr, UDP_REC_HDR);
    dlen = rd16(hdr);
    n = dlen < len ? dlen : len; /* the rest of the datagram is lost, as the thesis says */
    if (n)
        ring_get(pcb->ring, cap, ring_at(cap, pcb->head, UDP_REC_HDR), buf, n);
    pcb->head = ring_at(cap, pcb->head, (uint16_t)(UDP_REC_HDR + dlen));
    pcb->fill = (uint16_t)(pcb->fill - UDP_REC_HDR - dlen);
    pcb->queued--;
    if (src)
        *src = rd32(hdr + 2);
    if (sport)
        *sport = rd16(hdr + 6);
    return n;
}

int32_t udp_next_len(struct host *h, int s)
{
    struct udp_pcb *pcb = udp_pcb_get(h, s);
    uint8_t hdr[2];
    if (!pcb)
        return ERR_ARG;
    if (!pcb->queued)
        return ERR_WOULDBLOCK;
    ring_get(pcb->ring, HOST_CFG(h).udp_rcv_buf, pcb->head, hdr, 2);
    return rd16(hdr);
}

/* The socket bound to the exact address wins over one bound to any address. */
static struct udp_pcb *udp_lookup(struct host *h, uint32_t dst, uint16_t port)
{
    struct udp_pcb *any = NULL;
    uint8_t i;
    for (i = 0; i < HOST_CFG(h).udp_max_pcbs; i++) {
        struct udp_pcb *p = &h->udp.pcbs[i];
        if (!p->used || !p->bound || p->local_port != port)
            continue;
        if (p->local_addr == dst)
            return p;
        if (p->local_addr == 0 && !any)
            any = p;
    }
    return any;
}

void udp_input(struct host *h, struct ip_rx *rx)
{
    const uint8_t *u = rx->dgram + rx->hlen;
    uint16_t plen = (uint16_t)(rx->len - rx->hlen), ulen;
    struct udp_pcb *pcb;

    if (plen < UDP_HLEN || (ulen = rd16(u + UDP_OFF_LEN)) < UDP_HLEN || ulen > plen) {
        host_drop(h, DROP_UDP_SHORT, IP_PROTO_UDP, rx->len);
        return;
    }
    if (rd16(u + UDP_OFF_CHKSUM) != 0 && !HOST_CFG(h).skip_checksum_check) {
        uint32_t sum = inet_pseudo_sum(rx->src, rx->dst, IP_PROTO_UDP, ulen);
        if (inet_fold(inet_sum(sum, u, ulen)) != 0) {
            host_drop(h, DROP_UDP_CHKSUM, IP_PROTO_UDP, rx->len);
            return;
        }
    }
    h->udp.in_datagrams++;
    pcb = udp_lookup(h, rx->dst, rd16(u + UDP_OFF_DST_PORT));
    if (!pcb) {
        host_drop(h, DROP_UDP_NO_PORT, IP_PROTO_UDP, rx->len);
        icmp_send_unreachable(h, rx, ICMP_UNREACH_PORT);
        return;
    }
    if (!udp_enqueue(h, pcb, rx, u, (uint16_t)(ulen - UDP_HLEN))) {
        pcb->rx_dropped++;
        host_drop(h, DROP_UDP_RCVBUF_FULL, IP_PROTO_UDP, rx->len);
        return;
    }
    pcb->rx_datagrams++;
}

int udp_output(struct host *h, struct udp_pcb *pcb, uint32_t dst, uint16_t dport, uint16_t len)
{
    uint8_t *u = ip_tx_payload(h);
    uint16_t ulen = (uint16_t)(len + UDP_HLEN);
    uint32_t src = pcb->local_addr ? pcb->local_addr : ip_src_for(h, dst);
    uint16_t c;
    int err;

    wr16(u + UDP_OFF_SRC_PORT, pcb->local_port);
    wr16(u + UDP_OFF_DST_PORT, dport);
    wr16(u + UDP_OFF_LEN, ulen);
    wr16(u + UDP_OFF_CHKSUM, 0);
    c = inet_fold(inet_sum(inet_pseudo_sum(src, dst, IP_PROTO_UDP, ulen), u, ulen));
    wr16(u + UDP_OFF_CHKSUM, c ? c : 0xFFFFu);
    err = ip_output(h, pcb->local_addr, dst, IP_PROTO_UDP, ulen, 0);
    if (err == ERR_OK) {
        h->udp.out_datagrams++;
        pcb->tx_datagrams++;
    }
    return err;
}
