/* TCP discard server, RFC 863, on the non-blocking socket API (socket.h). */
#include "app_tcp_discard.h"

#include <string.h>

#include "host.h"

int app_tcp_discard_start(struct app_tcp_discard *a, struct host *h, uint16_t port,
                          uint8_t max_conns)
{
    memset(a, 0, sizeof *a);
    return app_tcp_server_start(&a->server, h, port ? port : APP_TCP_DISCARD_PORT, max_conns);
}

/* Reads until nothing is left: the receive window reopens as fast as data comes in. */
static void conn_drain(void *app, struct host *h, struct app_tcp_server_conn *c)
{
    struct app_tcp_discard *a = app;
    uint8_t scratch[APP_TCP_DISCARD_CHUNK];
    for (;;) {
        int n = tcprecv(h, c->sock, scratch, sizeof scratch);
        if (n == ERR_WOULDBLOCK)
            return;
        if (n <= 0) {
            /* 0: the peer closed; < 0: the connection failed */
            app_tcp_server_release(&a->server, h, c, n);
            return;
        }
        if (a->report.bytes == 0)
            a->report.first_byte_at = h->now;
        a->report.last_byte_at = h->now;
        c->bytes += (uint32_t)n;
        a->report.bytes += (uint32_t)n;
    }
}

int app_tcp_discard_poll(struct app_tcp_discard *a, struct host *h, stack_time_t *next)
{
    (void)next;
    app_tcp_server_poll(&a->server, h, conn_drain, a);
    return 0;
}

void app_tcp_discard_stop(struct app_tcp_discard *a, struct host *h)
{
    app_tcp_server_stop(&a->server, h);
}
