/* TCP echo server, RFC 862, on the non-blocking socket API (socket.h). */
#include "app_tcp_echo.h"

#include <string.h>

#include "host.h"

int app_tcp_echo_start(struct app_tcp_echo *a, struct host *h, uint16_t port,
                       uint8_t max_conns)
{
    memset(a, 0, sizeof *a);
    return app_tcp_server_start(&a->server, h, port ? port : APP_TCP_ECHO_PORT, max_conns);
}

/* Moves bytes from the receive side back to the send side until one of them blocks. */
static void conn_pump(void *app, struct host *h, struct app_tcp_server_conn *c)
{
    struct app_tcp_echo *a = app;
    uint8_t buf[APP_TCP_ECHO_CHUNK];
    for (;;) {
        struct tcp_info info;
        uint32_t room;
        int n, sent;
        n = tcpstatus(h, c->sock, &info);
        if (n >= 0 && info.error < 0)
            n = info.error;
        if (n < 0) {
            app_tcp_server_release(&a->server, h, c, n);
            return;
        }
        room = info.snd_space < sizeof buf ? info.snd_space : (uint32_t)sizeof buf;
        if (room == 0)
            return; /* send buffer full: wait for ACKs; unread data stays in TCP */
        n = tcprecv(h, c->sock, buf, room);
        if (n == ERR_WOULDBLOCK)
            return;
        if (n <= 0) {
            /* 0: the peer's FIN, after everything before it was echoed; < 0: failed. */
            app_tcp_server_release(&a->server, h, c, n);
            return;
        }
        sent = tcpsend(h, c->sock, buf, (uint32_t)n);
        if (sent != n) {
            app_tcp_server_release(&a->server, h, c, sent < 0 ? sent : ERR_BUF);
            return;
        }
        c->bytes += (uint32_t)n;
        a->bytes_echoed += (uint32_t)n;
    }
}

int app_tcp_echo_poll(struct app_tcp_echo *a, struct host *h, stack_time_t *next)
{
    (void)next;
    app_tcp_server_poll(&a->server, h, conn_pump, a);
    return 0;
}

void app_tcp_echo_stop(struct app_tcp_echo *a, struct host *h)
{
    app_tcp_server_stop(&a->server, h);
}
