/* TCP echo server, RFC 862, on the non-blocking socket API (socket.h). */
#include "app_tcp_echo.h"

#include <string.h>

#include "host.h"

int app_tcp_echo_start(struct app_tcp_echo *a, struct host *h, uint16_t port, uint8_t max_conns,
                       uint8_t backlog)
{
    memset(a, 0, sizeof *a);
    return app_tcp_server_start(&a->server, h, port ? port : APP_TCP_ECHO_PORT, max_conns, backlog);
}

/* Bytes tcpsend would take now, at most `cap`, or the connection's error. A function of
 * its own, asked before the scratch buffer comes into scope, so that struct tcp_info
 * (about 80 bytes on the Arduino) is off the C stack by the time tcpsend's deep calls run:
 * with the buffer and those calls, it would be more than the Uno's 2 KB of RAM can
 * spare. */
static STACK_NOINLINE int32_t send_room(struct host *h, int sock, uint32_t cap)
{
    struct tcp_info info;
    int n = tcpstatus(h, sock, &info);
    if (n >= 0 && info.error < 0)
        n = info.error;
    if (n < 0)
        return n;
    return (int32_t)(info.snd_space < cap ? info.snd_space : cap);
}

/* Moves bytes from the receive side back to the send side until one of them blocks. */
static void conn_pump(void *app, struct host *h, struct app_tcp_server_conn *c)
{
    struct app_tcp_echo *a = app;
    for (;;) {
        int32_t room = send_room(h, c->sock, APP_TCP_ECHO_CHUNK);
        int n, sent;
        if (room < 0) {
            app_tcp_server_release(&a->server, h, c, (int)room);
            return;
        }
        if (room == 0)
            return; /* send buffer full: wait for ACKs; unread data stays in TCP */
        {
            uint8_t buf[APP_TCP_ECHO_CHUNK];
            n = tcprecv(h, c->sock, buf, (uint32_t)room);
            if (n == ERR_WOULDBLOCK)
                return;
            if (n <= 0) {
                /* 0: the peer's FIN, after everything before it was echoed; < 0: failed. */
                app_tcp_server_release(&a->server, h, c, n);
                return;
            }
            sent = tcpsend(h, c->sock, buf, (uint32_t)n);
        }
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
