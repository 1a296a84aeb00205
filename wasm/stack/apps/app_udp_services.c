/* UDP echo (RFC 862) and discard (RFC 863) on the non-blocking socket API (socket.h). */
#include "app_udp_services.h"

#include <string.h>

#include "host.h"

static int service_start(struct app_udp_service *a, struct host *h, uint16_t port, int echo)
{
    struct stack_sockaddr local;
    int err;
    memset(a, 0, sizeof *a);
    a->echo = (uint8_t)(echo ? 1 : 0);
    a->sock = udpsocket(h);
    if (a->sock < 0) {
        a->last_error = a->sock;
        a->sock = -1;
        return a->last_error;
    }
    local.addr = 0;
    local.port = port;
    err = udpbind(h, a->sock, &local);
    if (err != ERR_OK) {
        udpclose(h, a->sock);
        a->sock = -1;
        a->last_error = err;
    }
    return err;
}

int app_udp_echo_start(struct app_udp_service *a, struct host *h, uint16_t port)
{
    return service_start(a, h, port ? port : APP_UDP_ECHO_PORT, 1);
}

int app_udp_discard_start(struct app_udp_service *a, struct host *h, uint16_t port)
{
    return service_start(a, h, port ? port : APP_UDP_DISCARD_PORT, 0);
}

int app_udp_service_poll(struct app_udp_service *a, struct host *h, stack_time_t *next)
{
    uint8_t scratch[APP_UDP_ECHO_CHUNK];
    (void)next;
    if (a->sock < 0)
        return 0;
    for (;;) {
        struct stack_sockaddr from;
        int32_t len = udp_next_len(h, a->sock);
        int n;
        if (len < 0)
            return 0; /* ERR_WOULDBLOCK: nothing more queued */
        a->datagrams++;
        a->bytes += (uint32_t)len;
        if (!a->echo) {
            udprecvfrom(h, a->sock, &from, NULL, 0); /* RFC 863: nothing is sent back */
            continue;
        }
        if (len > (int32_t)sizeof scratch)
            a->truncated++;
        n = udprecvfrom(h, a->sock, &from, scratch, sizeof scratch);
        if (n < 0 || from.port == 0)
            continue;
        n = udpsendto(h, a->sock, &from, scratch, (uint32_t)n);
        if (n < 0) {
            a->send_errors++;
            a->last_error = n;
        } else {
            a->replies++;
        }
    }
}

void app_udp_service_stop(struct app_udp_service *a, struct host *h)
{
    if (a->sock >= 0)
        udpclose(h, a->sock);
    a->sock = -1;
}
