/* TCP echo server, RFC 862, on the non-blocking socket API (socket.h). */
#include "app_tcp_echo.h"

#include <string.h>

#include "app_common.h"
#include "host.h"

int app_tcp_echo_start(struct app_tcp_echo *a, struct host *h, uint16_t port,
                       uint8_t max_conns)
{
    uint8_t i;

    memset(a, 0, sizeof *a);
    a->listener = -1;
    for (i = 0; i < APP_TCP_ECHO_MAX_CONNS; i++)
        a->conns[i].sock = -1;
    if (max_conns < 1)
        max_conns = 1;
    if (max_conns > APP_TCP_ECHO_MAX_CONNS)
        max_conns = APP_TCP_ECHO_MAX_CONNS;
    a->max_conns = max_conns;

    a->listener = app_tcp_listen(h, port ? port : APP_TCP_ECHO_PORT, max_conns);
    if (a->listener < 0) {
        a->report.last_error = a->listener;
        a->listener = -1;
        return a->report.last_error;
    }
    return ERR_OK;
}

static void conn_release(struct app_tcp_echo *a, struct host *h, struct app_tcp_echo_conn *c,
                         int err)
{
    if (err < 0) {
        tcpabort(h, c->sock);
        a->report.failed++;
        a->report.last_error = err;
    } else {
        tcpclose(h, c->sock); /* FIN after the queued data, RFC 9293 3.10.4 */
        a->report.completed++;
    }
    c->sock = -1;
    a->report.active--;
}

/* Moves bytes from the receive side back to the send side until one of them blocks. */
static void conn_pump(struct app_tcp_echo *a, struct host *h, struct app_tcp_echo_conn *c)
{
    uint8_t buf[APP_TCP_ECHO_CHUNK];
    for (;;) {
        struct tcp_info info;
        uint32_t room;
        int n, sent;
        n = tcpstatus(h, c->sock, &info);
        if (n >= 0 && info.error < 0)
            n = info.error;
        if (n < 0) {
            conn_release(a, h, c, n);
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
            conn_release(a, h, c, n);
            return;
        }
        sent = tcpsend(h, c->sock, buf, (uint32_t)n);
        if (sent != n) {
            conn_release(a, h, c, sent < 0 ? sent : ERR_BUF);
            return;
        }
        c->bytes += (uint32_t)n;
        a->report.bytes_echoed += (uint32_t)n;
    }
}

int app_tcp_echo_poll(struct app_tcp_echo *a, struct host *h, stack_time_t *next)
{
    uint16_t done_before;
    (void)next;
    if (a->listener < 0)
        return 0;
    /* A connection that ends frees its slot for one waiting in the backlog: go round
     * again, so that one is served now rather than at the next event. */
    do {
        uint8_t i;
        done_before = (uint16_t)(a->report.completed + a->report.failed);
        for (i = 0; i < a->max_conns; i++) {
            struct app_tcp_echo_conn *c = &a->conns[i];
            if (c->sock < 0) {
                int s = tcpaccept(h, a->listener);
                if (s < 0)
                    continue;
                c->sock = s;
                c->bytes = 0;
                a->report.accepted++;
                a->report.active++;
            }
            conn_pump(a, h, c);
        }
    } while ((uint16_t)(a->report.completed + a->report.failed) != done_before);
    return 0;
}

void app_tcp_echo_stop(struct app_tcp_echo *a, struct host *h)
{
    uint8_t i;
    for (i = 0; i < a->max_conns; i++) {
        if (a->conns[i].sock >= 0) {
            tcpabort(h, a->conns[i].sock);
            a->conns[i].sock = -1;
            a->report.active--;
        }
    }
    if (a->listener >= 0) {
        tcpclose(h, a->listener);
        a->listener = -1;
    }
}
