/* The socket-like API: the embedded-stack thesis's calls (tcpsocket, tcpbind, tcplisten,
 * tcpconnect, tcpsend, tcprecv, tcpclose, udpsocket, udpbind, udpsendto, udprecvfrom,
 * udpclose), made non-blocking and given the host they act on.
 *
 * Where the thesis blocks, these return ERR_WOULDBLOCK (or report progress through
 * tcpstatus) and the caller tries again after the next host_input()/host_poll(). Two calls
 * the thesis lacks are added: tcpaccept (the thesis's tcplisten waited for one connection;
 * a server here takes many), tcpshutdown (half close) and tcpabort (close with RST).
 * tcpstatus exposes what the stack knows about a connection, for the tools that draw it.
 *
 * Calls act at the time of the host's last host_input()/host_poll(): call host_poll(h,
 * now) first when time has moved. TCP and UDP descriptors are separate numbers, as in the
 * thesis. Every call returns a negative enum stack_err on failure.
 */
#ifndef STACK_SOCKET_H
#define STACK_SOCKET_H

#include <stdint.h>

#include "stack_time.h"

struct host;

struct stack_sockaddr {
    uint32_t addr; /* IPv4 address, host byte order; 0 = any of ours */
    uint16_t port; /* 0 in tcpbind/udpbind = pick an ephemeral port */
};

/* What tcpstatus reports. Sequence numbers are absolute. Times in microseconds. */
struct tcp_info {
    uint8_t state; /* enum tcp_state */
    int8_t error;  /* the error that ended the connection (ERR_RST, ERR_TIMEOUT), or 0 */
    struct stack_sockaddr local;
    struct stack_sockaddr remote;
    uint32_t snd_space; /* bytes tcpsend would take now */
    uint32_t rcv_avail; /* bytes tcprecv would return now */
    uint32_t snd_una, snd_nxt, snd_wnd;
    uint32_t rcv_nxt, rcv_wnd;
    uint32_t cwnd, ssthresh;
    uint32_t rto_us, srtt_us, rttvar_us;
    uint16_t mss; /* effective send MSS */
    uint32_t retransmits_rto, retransmits_fast;
    uint32_t bytes_acked, bytes_received;
};

int tcpsocket(struct host *h);
int tcpbind(struct host *h, int s, const struct stack_sockaddr *local);
int tcplisten(struct host *h, int s, int backlog);
/* A connection that completed its handshake on listening socket s, as a new socket. */
int tcpaccept(struct host *h, int s);
/* Starts the handshake (sends SYN). Progress: tcpstatus().state; failure: tcprecv/tcpsend
 * return the error. */
int tcpconnect(struct host *h, int s, const struct stack_sockaddr *remote);
/* Queues up to len bytes; returns how many were taken (possibly fewer), ERR_WOULDBLOCK when
 * the send buffer is full. */
int tcpsend(struct host *h, int s, const void *buf, uint32_t len);
/* Copies up to len received bytes; returns the count, 0 once the peer has closed and all
 * data was read, ERR_WOULDBLOCK when nothing is there yet. */
int tcprecv(struct host *h, int s, void *buf, uint32_t len);
/* Closes our side after the queued data (FIN) and gives the socket back to the stack,
 * which frees it when the connection is over. */
int tcpclose(struct host *h, int s);
/* Closes our sending side only (FIN after the queued data) and keeps the socket: the
 * application goes on reading until tcprecv returns 0, and tcpstatus follows the closing
 * handshake (FIN_WAIT_1 ... TIME_WAIT), as RFC 9293 3.10.4 allows after CLOSE. tcpclose
 * then gives the socket back. */
int tcpshutdown(struct host *h, int s);
/* Resets the connection (RST) and frees the socket at once. */
int tcpabort(struct host *h, int s);
int tcpstatus(const struct host *h, int s, struct tcp_info *info);

int udpsocket(struct host *h);
int udpbind(struct host *h, int s, const struct stack_sockaddr *local);
int udpsendto(struct host *h, int s, const struct stack_sockaddr *dst, const void *buf,
              uint32_t len);
/* Copies the oldest queued datagram (truncated to len, the rest discarded, as the thesis
 * describes) and its source; ERR_WOULDBLOCK when none is queued. */
int udprecvfrom(struct host *h, int s, struct stack_sockaddr *src, void *buf, uint32_t len);
int udpclose(struct host *h, int s);

#endif
