/* A TCP client driven by its caller, for interactive tools: the page's echo console, a
 * discard sender, a port probe. It opens a connection (RFC 9293 3.10.1 OPEN), sends the
 * bytes the caller hands it, passes every byte it receives and every change of the
 * connection to the caller's sink, and closes when asked: FIN after the queued data, then
 * it reads on until the peer's FIN (a half close, RFC 9293 3.10.4).
 *
 * With `probe` it closes (FIN) as soon as the handshake completes: a port probe. An open
 * port completes the handshake; a closed one answers the SYN with RST (RFC 9293 3.10.7.1),
 * which ends the client with ERR_RST ("connection refused").
 *
 * The bytes waiting to be sent are kept in a ring inside the structure
 * (APP_TCP_CLIENT_RING bytes): no allocation. They move into TCP's send buffer as it
 * makes room, on every poll.
 */
#ifndef APP_TCP_CLIENT_H
#define APP_TCP_CLIENT_H

#include <stdint.h>

#include "socket.h"
#include "stack_opts.h" /* a build may set the sizes below there */
#include "stack_time.h"

struct host;

#ifndef APP_TCP_CLIENT_RING
#define APP_TCP_CLIENT_RING 4096
#endif

/* Bytes read per tcprecv, in a scratch buffer on the C stack: one Ethernet MSS, so a
 * segment usually reaches the sink in one piece. */
#ifndef APP_TCP_CLIENT_CHUNK
#define APP_TCP_CLIENT_CHUNK 1460
#endif

/* What the sink is told, in the order it happens. */
enum app_tcp_client_event {
    APP_TCP_CLIENT_CONNECTED,   /* the handshake completed */
    APP_TCP_CLIENT_DATA,        /* bytes received: data[0..n) */
    APP_TCP_CLIENT_PEER_CLOSED, /* the peer's FIN, after all its data: the client closes too */
    APP_TCP_CLIENT_CLOSED,      /* the client closed first and the peer's FIN followed */
    APP_TCP_CLIENT_FAILED       /* the connection failed: report.error says how */
};

typedef void (*app_tcp_client_sink)(void *ctx, uint8_t event, const uint8_t *data, uint16_t n);

struct app_tcp_client_params {
    struct stack_sockaddr server;
    uint8_t probe;            /* close as soon as the handshake completes */
    app_tcp_client_sink sink; /* may be NULL */
    void *ctx;
};

struct app_tcp_client_report {
    uint8_t done;        /* finished, successfully or not */
    uint8_t connected;   /* the handshake completed */
    int error;           /* 0, or the connection's error (ERR_RST, ERR_TIMEOUT) */
    uint32_t bytes_sent; /* taken by tcpsend */
    uint32_t bytes_received;
    stack_time_t started_at; /* tcpconnect: the SYN */
    uint32_t elapsed_us;     /* from the SYN to the end */
};

struct app_tcp_client {
    int sock;
    uint8_t state;
    uint8_t close_asked;
    struct app_tcp_client_params p;
    struct app_tcp_client_report report;
    uint16_t head, len; /* the waiting bytes: ring[head], ring[head + 1], ... */
    uint8_t ring[APP_TCP_CLIENT_RING];
};

/* Opens the connection (SYN at h->now). Returns ERR_OK or the error, which is also in the
 * report (done = 1). */
int app_tcp_client_start(struct app_tcp_client *a, struct host *h,
                         const struct app_tcp_client_params *p);

/* Follows the handshake, moves queued bytes into TCP, reads what arrived, closes, as far
 * as possible now. Returns 0: the client waits for nothing but the network. */
int app_tcp_client_poll(struct app_tcp_client *a, struct host *h, stack_time_t *next);

/* Queues up to n bytes for sending: into TCP's send buffer as far as it has room, the rest
 * into the ring. Returns the bytes taken (fewer than n when both are full; at most 32767
 * per call), or ERR_STATE once the client was asked to close or has finished. */
int app_tcp_client_send(struct app_tcp_client *a, struct host *h, const uint8_t *data, uint32_t n);

/* Closes after the queued bytes (FIN), then reads until the peer's FIN. ERR_STATE when
 * already closing or finished. */
int app_tcp_client_close(struct app_tcp_client *a, struct host *h);

#endif
