/* TCP discard server (RFC 863: every byte received on port 9 is thrown away), as the
 * Arduino echo server seed offers it beside echo. It counts what it drops, and notes when
 * the first and the last byte arrived so a caller can compute a receive rate.
 *
 * Same model as the echo server: the caller owns the structure and polls it after every
 * host_input()/host_poll(); several connections are served at once. A connection is closed
 * (tcpclose) once the peer has closed; one that fails is released with tcpabort.
 */
#ifndef APP_TCP_DISCARD_H
#define APP_TCP_DISCARD_H

#include <stdint.h>

#include "app_tcp_server.h"
#include "socket.h"
#include "stack_opts.h" /* a build may set the sizes below there */
#include "stack_time.h"

struct host;

#define APP_TCP_DISCARD_PORT 9

/* Bytes read per tcprecv call into a scratch buffer on the C stack. */
#ifndef APP_TCP_DISCARD_CHUNK
#define APP_TCP_DISCARD_CHUNK 128
#endif

struct app_tcp_discard_report {
    uint32_t bytes;             /* dropped over all connections */
    stack_time_t first_byte_at; /* valid when bytes > 0 */
    stack_time_t last_byte_at;
};

struct app_tcp_discard {
    struct app_tcp_server server; /* listener, connections, counts */
    struct app_tcp_discard_report report;
};

/* Listens on `port` (APP_TCP_DISCARD_PORT when 0), at most `max_conns` connections at once
 * (clamped to 1..APP_TCP_SERVER_MAX_CONNS). Returns ERR_OK or the socket call's error. */
int app_tcp_discard_start(struct app_tcp_discard *a, struct host *h, uint16_t port,
                          uint8_t max_conns);

/* Accepts, reads and drops, closes. Always returns 0 (no timers of its own). */
int app_tcp_discard_poll(struct app_tcp_discard *a, struct host *h, stack_time_t *next);

void app_tcp_discard_stop(struct app_tcp_discard *a, struct host *h);

#endif
