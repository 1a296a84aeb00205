/* TCP echo server (RFC 862: every byte received on port 7 is sent back) on the
 * non-blocking socket API, serving several connections at once. It is the service the
 * Arduino echo server seed offers on port 7; the seed's throughput table runs up to 50
 * parallel connections against it.
 *
 * The caller owns the structure (no allocation, no file-level state) and calls
 * app_tcp_echo_poll() after every host_input()/host_poll(). The server reads only as many
 * bytes as the connection's send buffer can take (tcpstatus snd_space), into a scratch
 * buffer on the C stack, and writes them back in one tcpsend: nothing waits in the
 * application, so a connection costs a few bytes here. While the send buffer is full the
 * server leaves the data in TCP, whose receive window then pushes back on the peer (flow
 * control, RFC 9293 3.8.6). A whole received segment goes back in one write, so the echo
 * leaves as one segment rather than a short one that Nagle's rule would then hold
 * (RFC 9293 3.7.4) against the peer's delayed ACK.
 *
 * A connection is closed (tcpclose, FIN) once the peer has closed and every byte has been
 * handed back to TCP; a connection that fails (reset, timeout) is released with tcpabort.
 */
#ifndef APP_TCP_ECHO_H
#define APP_TCP_ECHO_H

#include <stdint.h>

#include "app_tcp_server.h"
#include "socket.h"
#include "stack_opts.h" /* a build may set the sizes below there */
#include "stack_time.h"

struct host;

#define APP_TCP_ECHO_PORT 7

/* Bytes moved per tcprecv/tcpsend pair, in a scratch buffer on the C stack: one MSS, so a
 * segment is echoed as one segment. The Arduino firmware builds with a smaller value. */
#ifndef APP_TCP_ECHO_CHUNK
#define APP_TCP_ECHO_CHUNK 1460
#endif

struct app_tcp_echo {
    struct app_tcp_server server; /* listener, connections, counts */
    uint32_t bytes_echoed;        /* over all connections */
};

/* Listens on `port` (APP_TCP_ECHO_PORT when 0) of any local address and serves up to
 * `max_conns` connections at once, the listener holding up to `backlog` more:
 * app_tcp_server_start. Returns ERR_OK or the socket call's error. */
int app_tcp_echo_start(struct app_tcp_echo *a, struct host *h, uint16_t port, uint8_t max_conns,
                       uint8_t backlog);

/* Accepts, reads, writes back and closes what can be done now. Always returns 0: the
 * server has no timers of its own (`next` is left alone). */
int app_tcp_echo_poll(struct app_tcp_echo *a, struct host *h, stack_time_t *next);

/* Aborts every connection and closes the listener. */
void app_tcp_echo_stop(struct app_tcp_echo *a, struct host *h);

#endif
