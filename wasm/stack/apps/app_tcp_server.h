/* What every TCP server application shares: a listener, a table of the connections it
 * serves at once, accepting into free slots, and releasing a connection with a FIN (it
 * ended well) or a reset (it failed), with the counts a report needs.
 *
 * The application supplies `serve`, which does its work on one connection (echo it,
 * drain it) and calls app_tcp_server_release() when the connection is over. The echo and
 * discard servers of the Arduino seed are both this loop with a different `serve`.
 */
#ifndef APP_TCP_SERVER_H
#define APP_TCP_SERVER_H

#include <stdint.h>

#include "socket.h"
#include "stack_opts.h" /* a build may set the sizes below there */

struct host;

/* Connections served at once; the configured count is at most this. A host has at most
 * 64 TCP sockets (tcp_max_pcbs), one of them the listener's, so 63 lets a server use every
 * socket of its host. Each slot costs 8 bytes (the discard server 5 more); builds for small
 * targets set fewer (the Arduino firmware: 1). */
#ifndef APP_TCP_SERVER_MAX_CONNS
#define APP_TCP_SERVER_MAX_CONNS 63
#endif

struct app_tcp_server_conn {
    int sock;       /* -1 when the slot is free */
    uint32_t bytes; /* handled on this connection (echoed, dropped) */
};

struct app_tcp_server {
    int listener;
    uint8_t max_conns;
    struct app_tcp_server_conn conns[APP_TCP_SERVER_MAX_CONNS];
    uint16_t accepted;        /* connections taken from the listener */
    uint16_t completed;       /* closed after the peer closed */
    uint16_t failed;          /* ended by an error (reset, timeout) */
    uint16_t active;          /* open now */
    uint32_t last_conn_bytes; /* bytes of the connection that ended last */
    int last_error;           /* last error seen, 0 if none */
};

typedef void (*app_tcp_serve_fn)(void *app, struct host *h, struct app_tcp_server_conn *c);

/* Listens on `port` of any local address and serves up to `max_conns` connections at once
 * (clamped to 1..APP_TCP_SERVER_MAX_CONNS). The listener holds up to `backlog` more (at
 * least 1), handshake done or under way, until a slot frees (tcplisten); a SYN beyond
 * them is dropped unanswered and its sender tries again (tcp_in.c). Each held
 * or served connection takes a TCP socket of the host: a SYN that finds none free is
 * dropped too. Returns ERR_OK or the socket call's error. */
int app_tcp_server_start(struct app_tcp_server *s, struct host *h, uint16_t port, uint8_t max_conns,
                         uint8_t backlog);

/* Accepts into free slots and lets `serve` work on every connection. A connection that
 * ends frees its slot for one waiting in the backlog, so it goes round again until no
 * connection ends: that one is served now rather than at the next event. */
void app_tcp_server_poll(struct app_tcp_server *s, struct host *h, app_tcp_serve_fn serve,
                         void *app);

/* Ends a connection: err < 0 resets it (and is recorded), otherwise tcpclose sends our FIN
 * after the queued data (RFC 9293 3.10.4). */
void app_tcp_server_release(struct app_tcp_server *s, struct host *h, struct app_tcp_server_conn *c,
                            int err);

/* Resets every connection and closes the listener. */
void app_tcp_server_stop(struct app_tcp_server *s, struct host *h);

#endif
