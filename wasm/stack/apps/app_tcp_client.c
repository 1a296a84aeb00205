/* A TCP client driven by its caller (app_tcp_client.h), on the non-blocking socket API. */
#include "app_tcp_client.h"

#include <string.h>

#include "app_common.h"
#include "host.h"

enum { TC_CONNECTING, TC_OPEN, TC_SHUT, TC_DONE }; /* TC_SHUT: our FIN is queued */

static void tell(const struct app_tcp_client *a, uint8_t event, const uint8_t *data, uint16_t n)
{
    if (a->p.sink)
        a->p.sink(a->p.ctx, event, data, n);
}

/* The end: the connection given back (closed, or reset after a failure), the report
 * complete. */
static void finish(struct app_tcp_client *a, struct host *h, int err)
{
    app_tcp_end(h, &a->sock, err);
    a->state = TC_DONE;
    a->report.done = 1;
    a->report.error = err;
    a->report.elapsed_us = h->now - a->report.started_at;
    if (err < 0)
        tell(a, APP_TCP_CLIENT_FAILED, NULL, 0);
}

int app_tcp_client_start(struct app_tcp_client *a, struct host *h,
                         const struct app_tcp_client_params *p)
{
    memset(a, 0, sizeof *a);
    a->p = *p;
    a->report.started_at = h->now;
    a->sock = app_tcp_open(h, 0, &a->p.server);
    if (a->sock < 0) {
        int err = a->sock;
        a->sock = -1;
        finish(a, h, err);
        return err;
    }
    a->state = TC_CONNECTING;
    return ERR_OK;
}

/* Moves the queued bytes into TCP's send buffer as far as it takes them; once all are in
 * and a close was asked for, queues the FIN behind them (tcpshutdown: we go on reading).
 * Returns 0 or the error. */
static int push(struct app_tcp_client *a, struct host *h)
{
    while (a->len > 0) {
        uint16_t part = (uint16_t)(APP_TCP_CLIENT_RING - a->head);
        int n;
        if (part > a->len)
            part = a->len;
        n = tcpsend(h, a->sock, a->ring + a->head, part);
        if (n == ERR_WOULDBLOCK || n == 0)
            return 0;
        if (n < 0)
            return n;
        a->head = (uint16_t)((a->head + (uint16_t)n) % APP_TCP_CLIENT_RING);
        a->len = (uint16_t)(a->len - (uint16_t)n);
        a->report.bytes_sent += (uint32_t)n;
    }
    if (a->close_asked && a->state == TC_OPEN) {
        int err = tcpshutdown(h, a->sock);
        if (err < 0)
            return err;
        a->state = TC_SHUT;
    }
    return 0;
}

/* Hands everything that arrived to the sink. Returns 1 once the peer has closed and all
 * its data is read, 0 when nothing more is there now, or the connection's error. */
static int pull(struct app_tcp_client *a, struct host *h)
{
    uint8_t buf[APP_TCP_CLIENT_CHUNK];
    for (;;) {
        int n = tcprecv(h, a->sock, buf, sizeof buf);
        if (n == ERR_WOULDBLOCK)
            return 0;
        if (n == 0)
            return 1;
        if (n < 0)
            return n;
        a->report.bytes_received += (uint32_t)n;
        tell(a, APP_TCP_CLIENT_DATA, buf, (uint16_t)n);
    }
}

/* SYN_SENT: has the handshake completed (1), is it still going on (0), or did it fail? */
static int connect_done(struct app_tcp_client *a, struct host *h)
{
    int r = app_tcp_ready(h, a->sock);
    if (r < 0) {
        finish(a, h, r); /* ERR_RST: refused (RFC 9293 3.10.7.3), ERR_TIMEOUT: no answer */
        return 0;
    }
    if (r == 0)
        return 0;
    a->state = TC_OPEN;
    a->report.connected = 1;
    tell(a, APP_TCP_CLIENT_CONNECTED, NULL, 0);
    if (a->p.probe) {
        finish(a, h, 0); /* the port is open: FIN at once */
        return 0;
    }
    return 1;
}

int app_tcp_client_poll(struct app_tcp_client *a, struct host *h, stack_time_t *next)
{
    int r;
    (void)next;
    if (a->state == TC_CONNECTING && !connect_done(a, h))
        return 0;
    if (a->state == TC_DONE)
        return 0;
    /* Read before writing, so the segments we send advertise the room just made. */
    r = pull(a, h);
    if (r == 1) {
        tell(a, a->state == TC_SHUT ? APP_TCP_CLIENT_CLOSED : APP_TCP_CLIENT_PEER_CLOSED, NULL, 0);
        finish(a, h, 0);
        return 0;
    }
    if (r == 0)
        r = push(a, h);
    if (r < 0)
        finish(a, h, r);
    return 0;
}

/* Copies what the ring has room for; returns the count. */
static uint32_t fill(struct app_tcp_client *a, const uint8_t *data, uint32_t n)
{
    uint32_t room = (uint32_t)APP_TCP_CLIENT_RING - a->len, i;
    if (n > room)
        n = room;
    for (i = 0; i < n; i++)
        a->ring[(a->head + a->len + i) % APP_TCP_CLIENT_RING] = data[i];
    a->len = (uint16_t)(a->len + n);
    return n;
}

int app_tcp_client_send(struct app_tcp_client *a, struct host *h, const uint8_t *data, uint32_t n)
{
    uint32_t taken = 0, k;
    int err;
    if (a->state == TC_DONE || a->close_asked)
        return ERR_STATE;
    if (n == 0)
        return 0;
    if (n > 0x7FFFu)
        n = 0x7FFFu; /* the count returned must fit a 16-bit int */
    /* Into the ring, from the ring into TCP, again while TCP makes room. */
    do {
        k = fill(a, data + taken, n - taken);
        taken += k;
        if (a->state == TC_OPEN && (err = push(a, h)) < 0) {
            finish(a, h, err);
            break;
        }
    } while (k > 0 && taken < n && a->len < APP_TCP_CLIENT_RING);
    return (int)taken;
}

int app_tcp_client_close(struct app_tcp_client *a, struct host *h)
{
    int err;
    if (a->state == TC_DONE || a->close_asked)
        return ERR_STATE;
    a->close_asked = 1;
    if (a->state == TC_OPEN && (err = push(a, h)) < 0)
        finish(a, h, err);
    return ERR_OK;
}
