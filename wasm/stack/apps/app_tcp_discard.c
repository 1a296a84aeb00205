/* TCP discard server, RFC 863, on the non-blocking socket API (socket.h). */
#include "app_tcp_discard.h"

#include <string.h>

#include "host.h"

int app_tcp_discard_start(struct app_tcp_discard *a, struct host *h, uint16_t port,
                          uint8_t max_conns, uint8_t backlog)
{
    memset(a, 0, sizeof *a);
    return app_tcp_server_start(&a->server, h, port ? port : APP_TCP_DISCARD_PORT, max_conns,
                                backlog);
}

void app_tcp_discard_set_pause(struct app_tcp_discard *a, uint32_t after_bytes, uint32_t pause_ms)
{
#if APP_TCP_DISCARD_PAUSE
    a->pause_after = after_bytes;
    a->pause_ms = pause_ms;
#else
    (void)a;
    (void)after_bytes;
    (void)pause_ms;
#endif
}

/* Reads until nothing is left: the receive window reopens as fast as data comes in.
 * With a pause, reads no further than pause_after bytes, then leaves the rest in the
 * receive buffer until the pause is over. */
static void conn_drain(void *app, struct host *h, struct app_tcp_server_conn *c)
{
    struct app_tcp_discard *a = app;
    uint8_t scratch[APP_TCP_DISCARD_CHUNK];
#if APP_TCP_DISCARD_PAUSE
    uint8_t k = (uint8_t)(c - a->server.conns);
#endif
    for (;;) {
        uint32_t want = sizeof scratch;
        int n;
#if APP_TCP_DISCARD_PAUSE
        if (a->pause_ms && a->pause_state[k] == APP_TCP_DISCARD_PAUSED) {
            if (time_before(h->now, a->resume_at[k]))
                return;
            a->pause_state[k] = APP_TCP_DISCARD_RESUMED;
        }
        if (a->pause_ms && a->pause_state[k] == APP_TCP_DISCARD_READING) {
            if (c->bytes >= a->pause_after) {
                a->pause_state[k] = APP_TCP_DISCARD_PAUSED;
                a->resume_at[k] = h->now + STACK_MS(a->pause_ms);
                return;
            }
            if (a->pause_after - c->bytes < want)
                want = a->pause_after - c->bytes;
        }
#endif
        n = tcprecv(h, c->sock, scratch, want);
        if (n == ERR_WOULDBLOCK)
            return;
        if (n <= 0) {
            /* 0: the peer closed; < 0: the connection failed. The slot's next connection
             * gets its own pause. */
#if APP_TCP_DISCARD_PAUSE
            a->pause_state[k] = APP_TCP_DISCARD_READING;
#endif
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
    int has = 0;
#if APP_TCP_DISCARD_PAUSE
    uint8_t i;
#endif
    app_tcp_server_poll(&a->server, h, conn_drain, a);
#if APP_TCP_DISCARD_PAUSE
    for (i = 0; a->pause_ms && i < a->server.max_conns; i++) {
        if (a->server.conns[i].sock < 0 || a->pause_state[i] != APP_TCP_DISCARD_PAUSED)
            continue;
        if (!has || time_before(a->resume_at[i], *next))
            *next = a->resume_at[i];
        has = 1;
    }
#else
    (void)next;
#endif
    return has;
}

void app_tcp_discard_stop(struct app_tcp_discard *a, struct host *h)
{
    app_tcp_server_stop(&a->server, h);
}
