/* The TCP half of socket.h: the thesis's calls over RFC 9293 3.10's user interface
 * (OPEN, SEND, RECEIVE, CLOSE, ABORT, STATUS), non-blocking. A descriptor is the slot of
 * the connection block; tcpclose gives it back at once while the block lives on until the
 * connection is over. */
#include "socket.h"

#include <string.h>

#include "tcp_pcb.h"

#define SOCK_MAX_IO 0x7FFFu /* counts are returned as int, which may be 16 bits */

static void abort_children(struct host *h, const struct tcp_pcb *listener)
{
    uint8_t i;
    for (i = 0; i < HOST_CFG(h).tcp_max_pcbs; i++) {
        struct tcp_pcb *c = &h->tcp.pcbs[i];
        if (!c->in_use || c->parent != listener->slot || c->accepted)
            continue;
        if (c->state != TCP_LISTEN && c->state != TCP_CLOSED)
            tcp_send_rst_pcb(h, c);
        tcp_pcb_free(h, c);
    }
}

int tcpsocket(struct host *h)
{
    struct tcp_pcb *pcb;
    tcp_clock_update(h);
    pcb = tcp_pcb_alloc(h);
    if (!pcb)
        return ERR_MEM;
    pcb->has_socket = 1;
    pcb->accepted = 1;
    return pcb->slot;
}

int tcpbind(struct host *h, int s, const struct stack_sockaddr *local)
{
    struct tcp_pcb *pcb = tcp_pcb_get(h, s);
    uint16_t port;
    if (!pcb || !local)
        return ERR_ARG;
    if (pcb->state != TCP_CLOSED || pcb->local_port != 0)
        return ERR_STATE;
    if (local->addr != 0 && !ip_is_local(h, local->addr))
        return ERR_ARG;
    port = local->port;
    if (port == 0) {
        port = tcp_ephemeral_port(h);
        if (port == 0)
            return ERR_MEM;
    } else if (tcp_port_used(h, local->addr, port)) {
        return ERR_USE;
    }
    pcb->local_addr = local->addr;
    pcb->local_port = port;
    return ERR_OK;
}

int tcplisten(struct host *h, int s, int backlog)
{
    struct tcp_pcb *pcb = tcp_pcb_get(h, s);
    if (!pcb)
        return ERR_ARG;
    if (pcb->state != TCP_CLOSED || pcb->remote_port != 0)
        return ERR_STATE;
    if (pcb->local_port == 0) {
        pcb->local_port = tcp_ephemeral_port(h);
        if (pcb->local_port == 0)
            return ERR_MEM;
    }
    pcb->backlog = (uint8_t)(backlog < 1 ? 1 : backlog > 255 ? 255 : backlog);
    tcp_pcb_listening(h, pcb);
    tcp_set_state(h, pcb, TCP_LISTEN);
    return ERR_OK;
}

int tcpaccept(struct host *h, int s)
{
    struct tcp_pcb *l = tcp_pcb_get(h, s), *best = NULL;
    uint8_t i;
    if (!l)
        return ERR_ARG;
    if (l->state != TCP_LISTEN)
        return ERR_STATE;
    tcp_clock_update(h);
    for (i = 0; i < HOST_CFG(h).tcp_max_pcbs; i++) {
        struct tcp_pcb *c = &h->tcp.pcbs[i];
        if (c->in_use && c->parent == l->slot && !c->accepted && c->state != TCP_SYN_RECEIVED &&
            c->state != TCP_LISTEN &&
            (!best || (int32_t)(c->accept_order - best->accept_order) < 0))
            best = c;
    }
    if (!best)
        return ERR_WOULDBLOCK;
    best->accepted = 1;
    best->has_socket = 1;
    best->parent = TCP_NO_PARENT;
    return best->slot;
}

int tcpconnect(struct host *h, int s, const struct stack_sockaddr *remote)
{
    struct tcp_pcb *pcb = tcp_pcb_get(h, s);
    if (!pcb || !remote || remote->addr == 0 || remote->port == 0)
        return ERR_ARG;
    /* RFC 1122 4.2.3.14: an OPEN to a broadcast or multicast address must be refused. */
    if (remote->addr == 0xFFFFFFFFu || (remote->addr >> 28) == 0xE)
        return ERR_ARG;
    if (pcb->state == TCP_LISTEN)
        return ERR_STATE;
    if (pcb->state != TCP_CLOSED || pcb->remote_port != 0 || pcb->error)
        return ERR_ISCONN;
    tcp_clock_update(h);
    pcb->remote_addr = remote->addr;
    pcb->remote_port = remote->port;
    if (tcp_pcb_route(h, pcb) != ERR_OK) {
        pcb->remote_port = 0;
        return ERR_RTE;
    }
    if (pcb->local_port == 0) {
        pcb->local_port = tcp_ephemeral_port(h);
        if (pcb->local_port == 0) {
            pcb->remote_port = 0;
            return ERR_MEM;
        }
    }
    /* RFC 9293 3.10.1 OPEN (active): ISS, <SEQ=ISS><CTL=SYN>, SYN_SENT. */
    pcb->iss = tcp_new_iss(h);
    pcb->snd_una = pcb->snd_nxt = pcb->snd_max = pcb->iss;
    pcb->snd_buf_seq = pcb->iss + 1;
    pcb->snd_sml = pcb->iss;
    tcp_set_state(h, pcb, TCP_SYN_SENT);
    tcp_output(h, pcb);
    return ERR_OK;
}

int tcpsend(struct host *h, int s, const void *buf, uint32_t len)
{
    struct tcp_pcb *pcb = tcp_pcb_get(h, s);
    uint32_t n;
    if (!pcb || (!buf && len))
        return ERR_ARG;
    if (pcb->error)
        return pcb->error;
    if (pcb->fin_queued)
        return ERR_CLSD;
    switch (pcb->state) {
    case TCP_SYN_SENT:
    case TCP_SYN_RECEIVED:
    case TCP_ESTABLISHED:
    case TCP_CLOSE_WAIT: break;
    case TCP_CLOSED: return ERR_CONN;
    case TCP_LISTEN: return ERR_STATE;
    default: return ERR_CLSD;
    }
    if (len == 0)
        return 0;
    tcp_clock_update(h);
    n = tcp_ring_write(&pcb->snd, buf, len > SOCK_MAX_IO ? SOCK_MAX_IO : len);
    if (n == 0)
        return ERR_WOULDBLOCK;
    tcp_output(h, pcb);
    return (int)n;
}

int tcprecv(struct host *h, int s, void *buf, uint32_t len)
{
    struct tcp_pcb *pcb = tcp_pcb_get(h, s);
    if (!pcb || (!buf && len))
        return ERR_ARG;
    tcp_clock_update(h);
    if (pcb->rcv.len > 0 && len > 0) {
        uint32_t n = tcp_ring_read(&pcb->rcv, buf, len > SOCK_MAX_IO ? SOCK_MAX_IO : len);
        tcp_rcv_window_check(h, pcb);
        return (int)n;
    }
    if (pcb->fin_rcvd || len == 0)
        return 0; /* end of stream after all data (RFC 9293 3.10.3: "connection closing") */
    if (pcb->error)
        return pcb->error;
    if (pcb->state == TCP_CLOSED)
        return ERR_CONN;
    if (pcb->state == TCP_LISTEN)
        return ERR_STATE;
    return ERR_WOULDBLOCK;
}

int tcpabort(struct host *h, int s)
{
    struct tcp_pcb *pcb = tcp_pcb_get(h, s);
    if (!pcb)
        return ERR_ARG;
    tcp_clock_update(h);
    /* RFC 9293 3.10.5 ABORT: a reset in the synchronized states before CLOSING; then the
     * connection block is deleted. */
    switch (pcb->state) {
    case TCP_LISTEN: abort_children(h, pcb); break;
    case TCP_SYN_RECEIVED:
    case TCP_ESTABLISHED:
    case TCP_FIN_WAIT_1:
    case TCP_FIN_WAIT_2:
    case TCP_CLOSE_WAIT: tcp_send_rst_pcb(h, pcb); break;
    default: break;
    }
    pcb->has_socket = 0;
    tcp_pcb_free(h, pcb);
    return ERR_OK;
}

/* RFC 9293 3.10.4 CLOSE: our FIN follows the data already queued. */
static void queue_fin(struct host *h, struct tcp_pcb *pcb)
{
    switch (pcb->state) {
    case TCP_SYN_RECEIVED:
        pcb->fin_queued = 1; /* the FIN goes once established (RFC 9293 3.10.4) */
        break;
    case TCP_ESTABLISHED:
        pcb->fin_queued = 1; /* FIN after the queued data; FIN_WAIT_1 now */
        tcp_set_state(h, pcb, TCP_FIN_WAIT_1);
        break;
    case TCP_CLOSE_WAIT:
        pcb->fin_queued = 1;
        tcp_set_state(h, pcb, TCP_LAST_ACK);
        break;
    default: break; /* our side is closed or closing already */
    }
    tcp_output(h, pcb);
}

int tcpclose(struct host *h, int s)
{
    struct tcp_pcb *pcb = tcp_pcb_get(h, s);
    if (!pcb)
        return ERR_ARG;
    tcp_clock_update(h);
    switch (pcb->state) {
    case TCP_LISTEN:
        abort_children(h, pcb);
        pcb->has_socket = 0;
        tcp_pcb_free(h, pcb);
        return ERR_OK;
    case TCP_CLOSED:
    case TCP_SYN_SENT:
        /* RFC 9293 3.10.4: CLOSE in SYN_SENT deletes the TCB. */
        pcb->has_socket = 0;
        tcp_pcb_free(h, pcb);
        return ERR_OK;
    default: break;
    }
    if (pcb->rcv.len > 0 && pcb->state != TCP_TIME_WAIT) {
        /* RFC 2525 2.17 (and Linux): closing with unread data loses it, so the peer is
         * told with a reset rather than a FIN. */
        return tcpabort(h, s);
    }
    pcb->has_socket = 0;
    if (pcb->state == TCP_FIN_WAIT_2)
        tcp_timewait_start(h, pcb); /* orphaned: give up after 2 MSL (Linux) */
    else
        queue_fin(h, pcb);
    return ERR_OK;
}

int tcpshutdown(struct host *h, int s)
{
    struct tcp_pcb *pcb = tcp_pcb_get(h, s);
    if (!pcb)
        return ERR_ARG;
    if (pcb->state == TCP_LISTEN || pcb->state == TCP_CLOSED || pcb->state == TCP_SYN_SENT)
        return ERR_CONN;
    tcp_clock_update(h);
    queue_fin(h, pcb);
    return ERR_OK;
}

int tcpstatus(const struct host *h, int s, struct tcp_info *info)
{
    const struct tcp_pcb *pcb = tcp_pcb_get(h, s);
    if (!pcb || !info)
        return ERR_ARG;
    memset(info, 0, sizeof *info);
    info->state = pcb->state;
    info->error = pcb->error;
    info->local.addr = pcb->local_addr;
    info->local.port = pcb->local_port;
    info->remote.addr = pcb->remote_addr;
    info->remote.port = pcb->remote_port;
    if (!pcb->fin_queued && !pcb->error &&
        (pcb->state == TCP_SYN_SENT || pcb->state == TCP_SYN_RECEIVED ||
         pcb->state == TCP_ESTABLISHED || pcb->state == TCP_CLOSE_WAIT))
        info->snd_space = tcp_ring_free(&pcb->snd);
    info->rcv_avail = pcb->rcv.len;
    info->snd_una = pcb->snd_una;
    info->snd_nxt = pcb->snd_nxt;
    info->snd_wnd = pcb->snd_wnd;
    info->rcv_nxt = pcb->rcv_nxt;
    info->rcv_wnd = tcp_seq_gt(pcb->rcv_adv, pcb->rcv_nxt) ? pcb->rcv_adv - pcb->rcv_nxt : 0;
    info->cwnd = pcb->cc_ready ? pcb->cc.cwnd : 0;
    info->ssthresh = pcb->cc_ready ? pcb->cc.ssthresh : 0;
    info->rto_us =
        pcb->rto_running ? pcb->rto_value : tcp_rto_current_us(h, pcb, tcp_una_dgram_len(h, pcb));
    info->srtt_us = tcp_rto_srtt_us(&pcb->est, &HOST_CFG(h));
    info->rttvar_us = tcp_rto_rttvar_us(&pcb->est, &HOST_CFG(h));
    info->mss = tcp_seg_max(h, pcb);
    info->retransmits_rto = pcb->retransmits_rto;
    info->retransmits_fast = pcb->retransmits_fast;
    info->bytes_acked = pcb->bytes_acked;
    info->bytes_received = pcb->bytes_received;
    return ERR_OK;
}
