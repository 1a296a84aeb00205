/* TCP discard server, RFC 863, on the non-blocking socket API (socket.h). */
#include "app_tcp_discard.h"

#include <string.h>

#include "app_common.h"
#include "host.h"

int app_tcp_discard_start(struct app_tcp_discard *a, struct host *h, uint16_t port,
                          uint8_t max_conns)
{
    uint8_t i;

    memset(a, 0, sizeof *a);
    for (i = 0; i < APP_TCP_DISCARD_MAX_CONNS; i++)
        a->conns[i].sock = -1;
    if (max_conns < 1)
        max_conns = 1;
    if (max_conns > APP_TCP_DISCARD_MAX_CONNS)
        max_conns = APP_TCP_DISCARD_MAX_CONNS;
    a->max_conns = max_conns;

    a->listener = app_tcp_listen(h, port ? port : APP_TCP_DISCARD_PORT, max_conns);
    if (a->listener < 0) {
        a->report.last_error = a->listener;
        a->listener = -1;
        return a->report.last_error;
    }
    return ERR_OK;
}

static void conn_release(struct app_tcp_discard *a, struct host *h,
                         struct app_tcp_discard_conn *c, int err)
{
    if (err < 0) {
        tcpabort(h, c->sock);
        a->report.failed++;
        a->report.last_error = err;
    } else {
        tcpclose(h, c->sock);
        a->report.completed++;
    }
    a->report.last_conn_bytes = c->bytes;
    c->sock = -1;
    a->report.active--;
}

/* Reads until nothing is left: the receive window reopens as fast as data comes in. */
static void conn_drain(struct app_tcp_discard *a, struct host *h,
                       struct app_tcp_discard_conn *c)
{
    uint8_t scratch[APP_TCP_DISCARD_CHUNK];
    for (;;) {
        int n = tcprecv(h, c->sock, scratch, sizeof scratch);
        if (n == ERR_WOULDBLOCK)
            return;
        if (n <= 0) {
            conn_release(a, h, c, n); /* 0: the peer closed; < 0: the connection failed */
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
    uint16_t done_before;
    (void)next;
    if (a->listener < 0)
        return 0;
    do {
        uint8_t i;
        done_before = (uint16_t)(a->report.completed + a->report.failed);
        for (i = 0; i < a->max_conns; i++) {
            struct app_tcp_discard_conn *c = &a->conns[i];
            if (c->sock < 0) {
                int s = tcpaccept(h, a->listener);
                if (s < 0)
                    continue;
                c->sock = s;
                c->bytes = 0;
                a->report.accepted++;
                a->report.active++;
            }
            conn_drain(a, h, c);
        }
    } while ((uint16_t)(a->report.completed + a->report.failed) != done_before);
    return 0;
}

void app_tcp_discard_stop(struct app_tcp_discard *a, struct host *h)
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
