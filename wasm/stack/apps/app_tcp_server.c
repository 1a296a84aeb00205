/* The connection table of a TCP server application. */
#include "app_tcp_server.h"

#include <string.h>

#include "app_common.h"
#include "host.h"

int app_tcp_server_start(struct app_tcp_server *s, struct host *h, uint16_t port, uint8_t max_conns,
                         uint8_t backlog)
{
    uint8_t i;
    memset(s, 0, sizeof *s);
    for (i = 0; i < APP_TCP_SERVER_MAX_CONNS; i++)
        s->conns[i].sock = -1;
    if (max_conns < 1)
        max_conns = 1;
    if (max_conns > APP_TCP_SERVER_MAX_CONNS)
        max_conns = APP_TCP_SERVER_MAX_CONNS;
    s->max_conns = max_conns;
    s->listener = app_tcp_listen(h, port, backlog);
    if (s->listener < 0) {
        s->last_error = s->listener;
        s->listener = -1;
        return s->last_error;
    }
    return ERR_OK;
}

void app_tcp_server_poll(struct app_tcp_server *s, struct host *h, app_tcp_serve_fn serve,
                         void *app)
{
    uint16_t ended_before;
    if (s->listener < 0)
        return;
    do {
        uint8_t i;
        ended_before = (uint16_t)(s->completed + s->failed);
        for (i = 0; i < s->max_conns; i++) {
            struct app_tcp_server_conn *c = &s->conns[i];
            if (c->sock < 0) {
                int sock = tcpaccept(h, s->listener);
                if (sock < 0)
                    continue;
                c->sock = sock;
                c->bytes = 0;
                s->accepted++;
                s->active++;
            }
            serve(app, h, c);
        }
    } while ((uint16_t)(s->completed + s->failed) != ended_before);
}

void app_tcp_server_release(struct app_tcp_server *s, struct host *h, struct app_tcp_server_conn *c,
                            int err)
{
    if (err < 0) {
        tcpabort(h, c->sock);
        s->failed++;
        s->last_error = err;
    } else {
        tcpclose(h, c->sock);
        s->completed++;
    }
    s->last_conn_bytes = c->bytes;
    c->sock = -1;
    s->active--;
}

void app_tcp_server_stop(struct app_tcp_server *s, struct host *h)
{
    uint8_t i;
    for (i = 0; i < s->max_conns; i++)
        if (s->conns[i].sock >= 0)
            app_tcp_server_release(s, h, &s->conns[i], ERR_CLSD);
    if (s->listener >= 0) {
        tcpclose(h, s->listener);
        s->listener = -1;
    }
}
