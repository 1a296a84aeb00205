/* Shared pieces of the test_tcp_*.c programs: a configuration, and handshakes driven by
 * hand-built segments on the bench of support/tcp_lab.h.
 *
 * Conventions of every TCP test: our host is 10.0.0.1, the peer 10.0.0.2; our ISS is forced
 * to OUR_ISS (tcp_set_next_iss), the peer's is PEER_ISS; times are microseconds from 0. */
#ifndef TCP_TESTS_H
#define TCP_TESTS_H

#include <string.h>

#include "socket.h"
#include "tcp_lab.h"
#include "unit.h"

#define OUR_ISS  1000u
#define PEER_ISS 5000u
#define MS(x)    ((stack_time_t)(x)*1000u)

/* Defaults, with delayed ACKs off so that every test states the ACKs it expects. */
static inline void tt_config(struct host_config *c)
{
    host_config_default(c);
    c->tcp_delack = TCP_DELACK_OFF;
}

/* Active open from our host to the peer's port 80: SYN at t0, SYN-ACK (window wnd, MSS
 * mss or none) at t0 + rtt, our ACK. Returns the socket, or a negative value. The frames
 * are consumed. */
static inline int tt_open_active(struct tcp_lab *L, stack_time_t t0, stack_time_t rtt, uint16_t wnd,
                                 uint16_t mss)
{
    struct tseg_spec s;
    struct tcp_info info;
    struct stack_sockaddr to;
    int sock;
    lab_run(L, t0);
    tcp_set_next_iss(&L->h, OUR_ISS);
    sock = tcpsocket(&L->h);
    to.addr = LAB_PEER;
    to.port = 80;
    if (sock < 0 || tcpconnect(&L->h, sock, &to) != ERR_OK)
        return -1;
    tcpstatus(&L->h, sock, &info);
    L->my_port = info.local.port;
    L->peer_port = 80;
    memset(&s, 0, sizeof s);
    s.flags = TCP_SYN | TCP_ACK;
    s.seq = PEER_ISS;
    s.ack = OUR_ISS + 1;
    s.wnd = wnd;
    s.mss = mss;
    lab_in(L, t0 + rtt, &s);
    lab_skip(L);
    tcpstatus(&L->h, sock, &info);
    return info.state == TCP_ESTABLISHED ? sock : -2;
}

/* Passive open on port 80 (backlog 4): the peer's SYN at t0 (MSS mss), our SYN-ACK, the
 * peer's ACK at t0 + rtt with window wnd. Returns the accepted socket; *listener gets the
 * listening one. */
static inline int tt_open_passive(struct tcp_lab *L, stack_time_t t0, stack_time_t rtt,
                                  uint16_t wnd, uint16_t mss, int *listener)
{
    struct tseg_spec s;
    struct stack_sockaddr me;
    int l;
    lab_run(L, t0);
    l = tcpsocket(&L->h);
    me.addr = 0;
    me.port = 80;
    if (l < 0 || tcpbind(&L->h, l, &me) != ERR_OK || tcplisten(&L->h, l, 4) != ERR_OK)
        return -1;
    *listener = l;
    L->my_port = 80;
    L->peer_port = 40000;
    tcp_set_next_iss(&L->h, OUR_ISS);
    memset(&s, 0, sizeof s);
    s.flags = TCP_SYN;
    s.seq = PEER_ISS;
    s.wnd = wnd;
    s.mss = mss;
    lab_in(L, t0, &s);
    lab_seg(L, t0 + rtt, TCP_ACK, PEER_ISS + 1, OUR_ISS + 1, wnd, NULL, 0);
    lab_skip(L);
    return tcpaccept(&L->h, l);
}

static inline uint8_t tt_state(struct tcp_lab *L, int sock)
{
    struct tcp_info info;
    if (tcpstatus(&L->h, sock, &info) != ERR_OK)
        return 0xFF;
    return info.state;
}

/* The n-th state change recorded (old -> new) matches. */
static inline int tt_state_change(const struct tcp_lab *L, uint32_t n, uint8_t from, uint8_t to)
{
    const struct trace_event *e = lab_event(L, TRACE_TCP_STATE, n);
    return e && e->a == from && e->b == to;
}

#endif
