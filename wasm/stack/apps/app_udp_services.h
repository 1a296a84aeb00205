/* UDP echo (RFC 862: every datagram received on port 7 is sent back to its sender) and
 * discard (RFC 863: every datagram received on port 9 is thrown away), the UDP side of the
 * "echo and discard services" the Arduino seed offers over TCP.
 *
 * The caller owns the structure and calls the poll function after every
 * host_input()/host_poll() (no timers of its own). Echo copies each datagram through a
 * scratch buffer on the C stack of APP_UDP_ECHO_CHUNK bytes; a longer datagram is echoed
 * truncated to that size (udprecvfrom discards the rest) and counted in `truncated`.
 * Datagrams from source port 0 (RFC 768: "no reply expected") are not echoed.
 */
#ifndef APP_UDP_SERVICES_H
#define APP_UDP_SERVICES_H

#include <stdint.h>

#include "socket.h"
#include "stack_time.h"

struct host;

#define APP_UDP_ECHO_PORT    7
#define APP_UDP_DISCARD_PORT 9

#ifndef APP_UDP_ECHO_CHUNK
#define APP_UDP_ECHO_CHUNK 1472 /* 1500-byte datagram less the IP and UDP headers */
#endif

struct app_udp_service {
    int sock;           /* -1 when not started */
    uint8_t echo;       /* 1 echo, 0 discard */
    uint32_t datagrams; /* received */
    uint32_t bytes;     /* received (whole datagrams, before any truncation) */
    uint32_t replies;   /* echo: sent back */
    uint32_t truncated; /* echo: longer than APP_UDP_ECHO_CHUNK */
    uint32_t send_errors;
    int last_error;
};

/* Binds the service to `port` (APP_UDP_ECHO_PORT / APP_UDP_DISCARD_PORT when 0). Returns
 * ERR_OK or the socket call's error (ERR_USE if the port is taken, ERR_MEM if no socket
 * is free). */
int app_udp_echo_start(struct app_udp_service *a, struct host *h, uint16_t port);
int app_udp_discard_start(struct app_udp_service *a, struct host *h, uint16_t port);

/* Serves every queued datagram. Returns 0: no timers, *next is left alone. */
int app_udp_service_poll(struct app_udp_service *a, struct host *h, stack_time_t *next);

void app_udp_service_stop(struct app_udp_service *a, struct host *h);

#endif
