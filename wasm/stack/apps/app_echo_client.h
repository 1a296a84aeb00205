/* Echo client: connects to an echo server (RFC 862), sends `len` bytes, reads them back and
 * checks every byte, then closes. Reports the bytes both ways, the time from the SYN to the
 * last byte back, how many bytes came back wrong and the first of them.
 *
 * With `send_only` it is a discard client (RFC 863): it sends and closes without waiting
 * for anything back.
 *
 * With `connections` > 1 it opens that many connections at once (all SYNs at the start)
 * and splits the `len` bytes between them: connection k carries its own contiguous part,
 * offsets [first_k, first_k + len_k) of the client's bytes, the parts as equal as the
 * division allows (the first len % n connections one byte more). One report covers them
 * all: the bytes of every connection, the time from the SYNs to the last byte back on
 * any of them, the first error of any of them. A connection that fails does not stop the
 * others; the client is done when every connection has ended. This is how a throughput
 * test with N parallel streams is one application (the Arduino seed's table up to 50
 * connections), and it sends what N clients of len_k bytes each would, in the same order:
 * the connections are served in turn, each as far as it can go, as the world polls apps.
 *
 * The data is the caller's buffer (connection k sends its part) or, when none is given,
 * the pattern app_echo_client_pattern(offset) = offset mod 251 counted from each
 * connection's own first byte, so each connection sends the bytes a client of its own
 * would (on a SLIP line the bytes matter: 0xC0 and 0xDB are sent as two characters). A
 * prime period, so a segment put back at the wrong offset (any multiple of a power of
 * two) shows up as a mismatch. mismatch_at is an offset into the client's bytes.
 */
#ifndef APP_ECHO_CLIENT_H
#define APP_ECHO_CLIENT_H

#include <stdint.h>

#include "socket.h"
#include "stack_opts.h" /* a build may set the sizes below there */
#include "stack_time.h"

struct host;

/* Bytes generated (or read) per socket call, in a scratch buffer on the C stack. One
 * Ethernet MSS, so a message of up to an MSS is written in one tcpsend and leaves as one
 * segment: split in two, its second part would wait under Nagle's rule (RFC 9293 3.7.4)
 * for the ACK of the first, which the peer delays (RFC 1122 4.2.3.2) by up to 200 ms.
 * Builds for small targets (the Arduino) set a smaller value. */
#ifndef APP_ECHO_CLIENT_CHUNK
#define APP_ECHO_CLIENT_CHUNK 1460
#endif

/* Connections one client may open at once (tcp_max_pcbs is at most 64). Each costs
 * sizeof(struct app_echo_conn), 24 bytes; builds for small targets may set fewer. */
#ifndef APP_ECHO_CLIENT_MAX_CONNS
#define APP_ECHO_CLIENT_MAX_CONNS 64
#endif

#define APP_ECHO_NO_MISMATCH 0xFFFFFFFFu

struct app_echo_client_params {
    struct stack_sockaddr server; /* port 0 = 7 */
    uint32_t len;                 /* bytes to send */
    const uint8_t *data;          /* len bytes, or NULL for the pattern */
    uint8_t *rx_copy;             /* NULL, or len bytes where the echoed data is stored */
    uint8_t send_only;            /* discard client: close once everything is queued */
    uint8_t connections;          /* parallel connections sharing len: 0 or 1 = one,
                                     at most APP_ECHO_CLIENT_MAX_CONNS and at most len */
};

/* Of all the connections together. */
struct app_echo_client_report {
    uint8_t done;        /* every connection finished, successfully or not */
    int error;           /* 0, the first error of a connection, or ERR_CLSD when
                                     the server closed before everything came back */
    uint32_t bytes_sent; /* taken by tcpsend */
    uint32_t bytes_received;
    uint32_t mismatches;  /* bytes received that differ from those sent; every
                                     byte received is checked (bytes_received) */
    uint32_t mismatch_at; /* offset of the first wrong byte, or APP_ECHO_NO_MISMATCH */
    uint8_t mismatch_expected, mismatch_got;
    stack_time_t started_at;     /* tcpconnect: the SYNs */
    stack_time_t established_at; /* first poll that found a connection established */
    stack_time_t finished_at;    /* last byte back (send_only: last byte queued) */
    uint32_t elapsed_us;         /* finished_at - started_at */
};

/* One connection and its part of the data. */
struct app_echo_conn {
    int sock; /* -1 once it has ended */
    uint8_t state;
    uint32_t first, len;     /* its part: offsets [first, first + len) */
    uint32_t sent, received; /* of its part */
};

struct app_echo_client {
    struct app_echo_client_params p;
    struct app_echo_client_report report;
    uint8_t n_conns;
    struct app_echo_conn conns[APP_ECHO_CLIENT_MAX_CONNS];
};

uint8_t app_echo_client_pattern(uint32_t offset);

/* Opens the connections (SYNs at h->now). Returns ERR_OK or the error, which is also in
 * the report (done = 1): ERR_ARG for a connection count of more than
 * APP_ECHO_CLIENT_MAX_CONNS or more than len, or the socket call's (ERR_MEM: fewer free
 * TCP blocks than connections); none stays open then. */
int app_echo_client_start(struct app_echo_client *a, struct host *h,
                          const struct app_echo_client_params *p);

/* Sends, reads back, verifies, closes, as far as possible now. Returns 0: the client
 * waits for nothing but the network. */
int app_echo_client_poll(struct app_echo_client *a, struct host *h, stack_time_t *next);

#endif
