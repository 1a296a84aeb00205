/* What the host-level fuzz targets share: a host at 10.0.7.2 whose link leads to 10.0.7.1,
 * with TCP echo (7) and discard (9) listening (or the TCP responder serving them) and a UDP
 * socket bound to port 7, and
 * checksum verification switched off so that mutated datagrams reach deep into the
 * protocol code. Everything the host sends is parsed back, so the tests also check that
 * the stack never emits a malformed datagram.
 */
#ifndef FUZZ_HOST_H
#define FUZZ_HOST_H

#include <stdint.h>

#include "app_tcp_discard.h"
#include "app_tcp_echo.h"
#include "host.h"

struct fuzz_host {
    struct host h;
    uint8_t mem[256 * 1024];
    struct app_tcp_echo echo;
    struct app_tcp_discard discard;
    int udp;
    /* the last TCP segment the host sent: lets the session target acknowledge it */
    uint32_t last_seq_end;
    uint16_t last_sport, last_dport;
    uint32_t sent, tcp_sent; /* datagrams, and TCP segments among them */
    uint8_t responder; /* the host runs the TCP responder (tcp_responder.h), no TCP apps */
};

/* Starts the host at time `now`, with the full TCP and its echo and discard servers, or
 * (`responder`) with the TCP responder, which serves both itself in a table of 4 entries.
 * Aborts if the host cannot start: that is a bug too. */
void fuzz_host_start(struct fuzz_host *f, stack_time_t now, int responder);

/* Runs the applications (after every input or poll). */
void fuzz_host_apps(struct fuzz_host *f);

#endif
