/* Echo client: connects to an echo server (RFC 862), sends `len` bytes, reads them back and
 * checks every byte, then closes. Reports the bytes both ways, the time from the SYN to the
 * last byte back, and the first byte that came back wrong.
 *
 * With `send_only` it is a discard client (RFC 863): it sends and closes without waiting
 * for anything back.
 *
 * The data is the caller's buffer or, when none is given, the pattern
 * app_echo_client_pattern(offset) = offset mod 251: a prime period, so a segment put back
 * at the wrong offset (any multiple of a power of two) shows up as a mismatch.
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

#define APP_ECHO_NO_MISMATCH 0xFFFFFFFFu

struct app_echo_client_params {
    struct stack_sockaddr server; /* port 0 = 7 */
    uint32_t len;                 /* bytes to send */
    const uint8_t *data;          /* len bytes, or NULL for the pattern */
    uint8_t *rx_copy;             /* NULL, or len bytes where the echoed data is stored */
    uint8_t send_only;            /* discard client: close once everything is queued */
};

struct app_echo_client_report {
    uint8_t done;                 /* finished, successfully or not */
    int error;                    /* 0, the connection's error, or ERR_CLSD when the server
                                     closed before everything came back */
    uint32_t bytes_sent;          /* taken by tcpsend */
    uint32_t bytes_received;
    uint32_t mismatch_at;         /* offset of the first wrong byte, or APP_ECHO_NO_MISMATCH */
    uint8_t mismatch_expected, mismatch_got;
    stack_time_t started_at;      /* tcpconnect: the SYN */
    stack_time_t established_at;  /* first poll that found the connection established */
    stack_time_t finished_at;     /* last byte back (send_only: last byte queued) */
    uint32_t elapsed_us;          /* finished_at - started_at */
};

struct app_echo_client {
    int sock;
    uint8_t state;
    struct app_echo_client_params p;
    struct app_echo_client_report report;
};

uint8_t app_echo_client_pattern(uint32_t offset);

/* Opens the connection (SYN at h->now). Returns ERR_OK or the error, which is also in the
 * report (done = 1). */
int app_echo_client_start(struct app_echo_client *a, struct host *h,
                          const struct app_echo_client_params *p);

/* Sends, reads back, verifies, closes, as far as possible now. Returns 0: the client
 * waits for nothing but the network. */
int app_echo_client_poll(struct app_echo_client *a, struct host *h, stack_time_t *next);

#endif
