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

/* 1 once the handshake is over (the connection may carry data: ESTABLISHED or
 * CLOSE_WAIT), 0 while it is still going on, the error (ERR_RST, ERR_TIMEOUT, or ERR_CONN
 * for a connection that is simply gone) once it failed. RFC 9293 3.5. */
int app_tcp_ready(const struct host *h, int s);

/* What a client must remember of a connection to follow its closing handshake after
 * tcpclose() has given the descriptor back. */
struct app_tcp_closing {
    int slot;
    struct stack_sockaddr local, remote;
};

/* Notes the connection behind descriptor s before tcpclose(h, s); returns 0 or the error. */
int app_tcp_closing_note(const struct host *h, int s, struct app_tcp_closing *c);

/* After tcpclose: the connection's state (enum tcp_state: FIN_WAIT_1, FIN_WAIT_2, CLOSING,
 * TIME_WAIT, ...), or TCP_CLOSED once it is over and its block is gone.
 *
 * A stopgap. socket.h follows BSD close(): the descriptor is invalid after tcpclose, so
 * tcpstatus cannot say when the peer's FIN arrives, which is what the NFC paper's session
 * latency needs. RFC 9293 3.10.4 lets the user go on receiving after CLOSE until the
 * remote side has closed too; until socket.h offers that (a tcpshutdown, or tcpstatus on a
 * closed descriptor until the block is freed), this reads the connection table, read-only,
 * and checks that the slot still holds the same connection. */
int app_tcp_closing_state(const struct host *h, const struct app_tcp_closing *c);

/* bytes / us as kbit/s, truncated: 1 000 000 bytes in 1 068 184 us -> 7489 (7.489
 * Mbit/s). 0 when us is 0 (nothing measurable). Saturates at UINT32_MAX. */
uint32_t app_rate_kbps(uint32_t bytes, uint32_t us);

#endif
