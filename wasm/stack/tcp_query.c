/* Questions a host's owner asks about TCP as a whole (not about one socket). */
#include "host.h"
#include "tcp_pcb.h"

/* A connection is busy while it has a handshake, data or our FIN still unacknowledged:
 * every state from SYN_SENT to LAST_ACK except FIN_WAIT_2 (our side is done) and
 * TIME_WAIT (both sides are done, RFC 9293 3.3.2). */
static int tcp_state_busy(uint8_t s)
{
    return s != TCP_CLOSED && s != TCP_LISTEN && s != TCP_FIN_WAIT_2 && s != TCP_TIME_WAIT;
}

uint8_t tcp_count_busy(const struct host *h)
{
    uint8_t i, n = 0;
    for (i = 0; i < HOST_CFG(h).tcp_max_pcbs; i++)
        if (h->tcp.pcbs[i].in_use && tcp_state_busy(h->tcp.pcbs[i].state))
            n++;
    return n;
}

uint8_t tcp_count_open(const struct host *h)
{
    uint8_t i, n = 0;
    for (i = 0; i < HOST_CFG(h).tcp_max_pcbs; i++) {
        uint8_t s = h->tcp.pcbs[i].state;
        if (h->tcp.pcbs[i].in_use && s != TCP_CLOSED && s != TCP_LISTEN && s != TCP_TIME_WAIT)
            n++;
    }
    return n;
}

int tcp_find_conn(const struct host *h, uint16_t lport, uint32_t raddr, uint16_t rport)
{
    uint8_t i;
    for (i = 0; i < HOST_CFG(h).tcp_max_pcbs; i++) {
        const struct tcp_pcb *p = &h->tcp.pcbs[i];
        if (p->in_use && p->state != TCP_LISTEN && p->local_port == lport &&
            p->remote_port == rport && p->remote_addr == raddr)
            return i;
    }
    return -1;
}
