/* The UDP half of socket.h: the embedded-stack thesis's calls (section 4.1, figure 4.1),
 * non-blocking. Sockets are numbered 0 .. cfg.udp_max_pcbs - 1, apart from TCP's.
 *
 * udpsendto on a socket that was never bound binds it to an ephemeral port first, as BSD
 * sockets do. udprecvfrom copies at most `len` bytes of the oldest datagram and throws the
 * rest away (the thesis: "those excess bytes will be lost forever"), returning the count
 * copied. Counts are returned as int, so lengths are capped at INT_MAX (16-bit int on AVR).
 */
#include <limits.h>
#include <string.h>

#include "host.h"
#include "socket.h"
#include "udp_pcb.h"

int udpsocket(struct host *h)
{
    uint8_t i;
    for (i = 0; i < HOST_CFG(h).udp_max_pcbs; i++) {
        struct udp_pcb *p = &h->udp.pcbs[i];
        if (!p->used) {
            uint8_t *ring = p->ring;
            memset(p, 0, sizeof *p);
            p->ring = ring;
            p->used = 1;
            return i;
        }
    }
    return ERR_MEM;
}

int udpbind(struct host *h, int s, const struct stack_sockaddr *local)
{
    struct udp_pcb *p = udp_pcb_get(h, s);
    uint16_t port;
    if (!p || !local || (local->addr != 0 && !ip_is_local(h, local->addr)))
        return ERR_ARG;
    if (p->bound)
        return ERR_STATE;
    port = local->port;
    if (port == 0) {
        port = udp_ephemeral_port(h, local->addr);
        if (port == 0)
            return ERR_USE;
    } else if (udp_port_taken(h, p, local->addr, port)) {
        return ERR_USE;
    }
    p->local_addr = local->addr;
    p->local_port = port;
    p->bound = 1;
    return ERR_OK;
}

int udpsendto(struct host *h, int s, const struct stack_sockaddr *dst, const void *buf,
              uint32_t len)
{
    struct udp_pcb *p = udp_pcb_get(h, s);
    int err;
    if (!p || !dst || dst->addr == 0 || dst->port == 0 || (!buf && len))
        return ERR_ARG;
    if (len + UDP_HLEN > ip_tx_capacity(h) || len > (uint32_t)INT_MAX)
        return ERR_ARG; /* we do not build datagrams larger than ip_max_datagram */
    if (!p->bound) {
        uint16_t port = udp_ephemeral_port(h, 0);
        if (port == 0)
            return ERR_USE;
        p->local_port = port;
        p->bound = 1;
    }
    if (len)
        memcpy(ip_tx_payload(h) + UDP_HLEN, buf, (size_t)len); /* len fits: checked above */
    err = udp_output(h, p, dst->addr, dst->port, (uint16_t)len);
    return err < 0 ? err : (int)len;
}

int udprecvfrom(struct host *h, int s, struct stack_sockaddr *src, void *buf, uint32_t len)
{
    struct udp_pcb *p = udp_pcb_get(h, s);
    uint32_t addr = 0;
    uint16_t port = 0;
    int32_t n;
    if (!p || (!buf && len))
        return ERR_ARG;
    if (len > (uint32_t)INT_MAX)
        len = (uint32_t)INT_MAX;
    if (len > 0xFFFFu)
        len = 0xFFFFu;
    n = udp_dequeue(h, p, &addr, &port, buf, (uint16_t)len);
    if (n >= 0 && src) {
        src->addr = addr;
        src->port = port;
    }
    return (int)n;
}

int udpclose(struct host *h, int s)
{
    struct udp_pcb *p = udp_pcb_get(h, s);
    if (!p)
        return ERR_ARG;
    p->used = 0;
    p->bound = 0;
    p->fill = p->head = p->queued = 0;
    return ERR_OK;
}
