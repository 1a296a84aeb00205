/* What the applications share: opening a connection or a listener in one call, asking
 * whether a connection is usable yet, and turning bytes and microseconds into a rate
 * with integer arithmetic only (the Arduino has no floating point worth using).
 */
#ifndef APP_COMMON_H
#define APP_COMMON_H

#include <stdint.h>

#include "socket.h"
#include "stack_time.h"

struct host;

/* tcpsocket (+ tcpbind to local_port unless 0, else an ephemeral port) + tcpconnect: the
 * new socket, or the error (the socket is released then). */
int app_tcp_open(struct host *h, uint16_t local_port, const struct stack_sockaddr *remote);

/* tcpsocket + tcpbind(any address, port) + tcplisten: the listener, or the error. */
int app_tcp_listen(struct host *h, uint16_t port, int backlog);

/* Gives a connection back, if *sock holds one: tcpclose after a good end (err >= 0; our
 * FIN follows the data queued, RFC 9293 3.10.4), tcpabort after a failure (a reset,
 * 3.10.5). *sock becomes -1. */
void app_tcp_end(struct host *h, int *sock, int err);

/* 1 once the handshake is over (the connection may carry data: ESTABLISHED or
 * CLOSE_WAIT), 0 while it is still going on, the error (ERR_RST, ERR_TIMEOUT, or ERR_CONN
 * for a connection that is simply gone) once it failed. RFC 9293 3.5. */
int app_tcp_ready(const struct host *h, int s);

/* bytes / us as kbit/s, truncated: 1 000 000 bytes in 1 068 184 us -> 7489 (7.489
 * Mbit/s). 0 when us is 0 (nothing measurable). Saturates at UINT32_MAX. */
uint32_t app_rate_kbps(uint32_t bytes, uint32_t us);

#endif
