/* What the TCP responder's two files share (not the stack's API: tcp_responder.h is):
 * tcp_responder.c, the connections and their segments, and tcp_responder_window.c, the
 * window each is offered (busy periods, one MSS each when several are busy, and the turns
 * of tcp_responder.h). */
#ifndef STACK_TCP_RESPONDER_INT_H
#define STACK_TCP_RESPONDER_INT_H

#include <stdint.h>

#include "host.h"
#include "tcp_responder.h"

/* An answer's headers: no IP options, and no TCP options but a SYN-ACK's MSS. */
#define RSP_HDRS (IP_HLEN + TCP_HLEN)

/* An answer's fields. Its data, `n` bytes from rx->dgram + `from`, are moved into place. */
struct rsp_ans {
    uint32_t seq, ack;
    uint16_t from, n;
    uint16_t wnd;
    uint16_t mss; /* a SYN-ACK's MSS option, else 0 */
    uint8_t flags;
};

static inline uint8_t rsp_state_of(const struct tcp_responder_conn *c)
{
    return (uint8_t)(c->flags & TCP_RESPONDER_F_STATE);
}

/* An entry is in use from SYN_RECEIVED on (rsp_open() fills it as LISTEN just before). */
static inline int rsp_in_use(uint8_t state)
{
    return state != TCP_CLOSED && state != TCP_LISTEN;
}

/* An answer's TCP header at t, its checksum 0 for now (tcp_responder.c). */
void rsp_header(uint8_t *t, uint16_t sport, uint16_t dport, const struct rsp_ans *a, uint16_t opt);

/* What the segment an answer goes to did with the window (rsp_offer). */
enum rsp_use {
    RSP_USE_PART,   /* left some of it, or took no text */
    RSP_USE_FILLED, /* took all of it */
    RSP_USE_NEW     /* a SYN: a new connection, which has had no turn yet */
};

/* tcp_responder_window.c: */
uint16_t rsp_mss(const struct host *h, uint8_t netif);
uint16_t rsp_wnd_alone(const struct host *h, uint8_t netif);
void rsp_busy(struct host *h, struct tcp_responder_conn *c);
uint16_t rsp_wnd(const struct host *h, const struct tcp_responder_conn *c, uint8_t netif);
uint16_t rsp_offer(struct host *h, struct tcp_responder_conn *c, uint16_t wnd, enum rsp_use use);
uint16_t rsp_rcv_wnd(const struct host *h, const struct tcp_responder_conn *c, uint8_t netif);
void rsp_turn_closed(struct host *h, uint8_t i, int was_in_use);

#endif
