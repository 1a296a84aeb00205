/* What the TUN harness's host runs: the Arduino seed's services (TCP echo on 7, discard
 * on 9; ICMP echo and RST for other ports are the stack's own) and, on request, one TCP
 * client that sends a byte count to a server (and, to an echo server, checks what comes
 * back) and closes. */
#ifndef TUN_SERVICES_H
#define TUN_SERVICES_H

#include <stdint.h>

#include "app_echo_client.h"
#include "app_tcp_discard.h"
#include "app_tcp_echo.h"

struct host;

struct tun_services {
    struct app_tcp_echo echo;
    struct app_tcp_discard discard;
    struct app_echo_client client;
    uint8_t has_client;
};

/* Starts the servers; returns ERR_OK or the first error. */
int tun_services_start(struct tun_services *s, struct host *h);

/* Starts the client job: `bytes` bytes of app_echo_client_pattern() to addr:port, then
 * close. With `verify` the server must send every byte back (an echo server), and they
 * are checked; without, it is a discard client. */
int tun_services_connect(struct tun_services *s, struct host *h, uint32_t addr, uint16_t port,
                         uint32_t bytes, int verify);

void tun_services_poll(struct tun_services *s, struct host *h);

/* 1 once the client job is over and its connection has closed (FIN acknowledged). */
int tun_services_client_finished(const struct tun_services *s, const struct host *h);

#endif
