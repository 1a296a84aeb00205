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

/* 0 leaves out app_tcp_discard_set_pause's state (13 bytes with one connection): a build
 * that never pauses, as the firmware, spares its RAM. */
#ifndef APP_TCP_DISCARD_PAUSE
#define APP_TCP_DISCARD_PAUSE 1
#endif

struct app_tcp_discard_report {
    uint32_t bytes;             /* dropped over all connections */
    stack_time_t first_byte_at; /* valid when bytes > 0 */
    stack_time_t last_byte_at;
};

/* A receiver that stops reading for a while (app_tcp_discard_set_pause): the bytes it
 * leaves in the receive buffer close the window it advertises, down to zero (RFC 9293
 * 3.8.6.1), and the sender's persist timer probes it until reading resumes. */
enum { APP_TCP_DISCARD_READING, APP_TCP_DISCARD_PAUSED, APP_TCP_DISCARD_RESUMED };

struct app_tcp_discard {
    struct app_tcp_server server; /* listener, connections, counts */
    struct app_tcp_discard_report report;
#if APP_TCP_DISCARD_PAUSE
    uint32_t pause_after; /* bytes a connection reads before its pause */
    uint32_t pause_ms;    /* how long it then reads nothing; 0 = never pauses */
    uint8_t pause_state[APP_TCP_SERVER_MAX_CONNS]; /* per connection slot, above */
    stack_time_t resume_at[APP_TCP_SERVER_MAX_CONNS];
#endif
};

/* Listens on `port` (APP_TCP_DISCARD_PORT when 0), at most `max_conns` connections at once
 * and `backlog` more held by the listener: app_tcp_server_start.
 * Returns ERR_OK or the socket call's error. */
int app_tcp_discard_start(struct app_tcp_discard *a, struct host *h, uint16_t port,
                          uint8_t max_conns, uint8_t backlog);

/* Each connection reads `after_bytes` bytes, then nothing for `pause_ms` (its data stays
 * in the receive buffer and the window it advertises shrinks), then reads on; once per
 * connection. Call after app_tcp_discard_start; pause_ms 0 (the start's default) never
 * pauses. Without APP_TCP_DISCARD_PAUSE it does nothing. */
void app_tcp_discard_set_pause(struct app_tcp_discard *a, uint32_t after_bytes, uint32_t pause_ms);

/* Accepts, reads and drops, closes. Returns 1 with *next at the end of the earliest pause
 * while a connection pauses, else 0. */
int app_tcp_discard_poll(struct app_tcp_discard *a, struct host *h, stack_time_t *next);

void app_tcp_discard_stop(struct app_tcp_discard *a, struct host *h);

#endif
