/* Echo and discard client, RFC 862 / RFC 863, on the non-blocking socket API: one
 * connection, or several at once sharing the bytes. */
#include "app_echo_client.h"

#include <string.h>

#include "app_common.h"
#include "app_tcp_echo.h"
#include "host.h"

enum { EC_CONNECTING, EC_RUNNING, EC_DONE };

uint8_t app_echo_client_pattern(uint32_t offset)
{
    return (uint8_t)(offset % 251u);
}

/* Ends one connection; the client is done when every one has. The first error is the
 * client's. */
static void finish(struct app_echo_client *a, struct app_echo_conn *c, struct host *h, int err)
{
    uint8_t k;
    app_tcp_end(h, &c->sock, err);
    c->state = EC_DONE;
    if (err != 0 && a->report.error == 0)
        a->report.error = err;
    for (k = 0; k < a->n_conns; k++)
        if (a->conns[k].state != EC_DONE)
            return;
    a->report.done = 1;
}

/* Every connection ends with err before it opened (a start that failed). */
static int fail_start(struct app_echo_client *a, struct host *h, int err)
{
    uint8_t k;
    for (k = 0; k < a->n_conns; k++)
        finish(a, &a->conns[k], h, err);
    return err;
}

int app_echo_client_start(struct app_echo_client *a, struct host *h,
                          const struct app_echo_client_params *p)
{
    uint32_t first = 0;
    uint8_t k, n = p->connections > 1 ? p->connections : 1;
    memset(a, 0, sizeof *a);
    a->p = *p;
    if (a->p.server.port == 0)
        a->p.server.port = APP_TCP_ECHO_PORT;
    a->report.mismatch_at = APP_ECHO_NO_MISMATCH;
    a->report.started_at = h->now;
    if (n > APP_ECHO_CLIENT_MAX_CONNS || (n > 1 && n > p->len))
        n = 0; /* refused below, with one connection that never opened */
    a->n_conns = n ? n : 1;
    for (k = 0; k < a->n_conns; k++) {
        struct app_echo_conn *c = &a->conns[k];
        c->sock = -1;
        c->state = EC_CONNECTING;
        c->first = first;
        c->len = n ? p->len / n + (k < p->len % n ? 1u : 0u) : p->len;
        first += c->len;
    }
    if (n == 0)
        return fail_start(a, h, ERR_ARG);
    for (k = 0; k < n; k++) {
        int s = app_tcp_open(h, 0, &a->p.server);
        if (s < 0) {
            uint8_t i;
            for (i = 0; i < k; i++) { /* none stays open */
                tcpabort(h, a->conns[i].sock);
                a->conns[i].sock = -1;
            }
            return fail_start(a, h, s);
        }
        a->conns[k].sock = s;
    }
    return ERR_OK;
}

/* Every byte of the client is back (send_only: queued): the time it took. */
static void note_finished(struct app_echo_client *a, struct host *h)
{
    a->report.finished_at = h->now;
    a->report.elapsed_us = h->now - a->report.started_at;
}

/* Queues more data on c; returns the bytes taken, 0 when blocked or all sent, or an error. */
static int send_some(struct app_echo_client *a, struct app_echo_conn *c, struct host *h)
{
    uint32_t left = c->len - c->sent;
    int n;
    if (left == 0)
        return 0;
    if (a->p.data) {
        n = tcpsend(h, c->sock, a->p.data + c->first + c->sent, left);
    } else {
        uint8_t chunk[APP_ECHO_CLIENT_CHUNK];
        uint16_t i, k = left < sizeof chunk ? (uint16_t)left : (uint16_t)sizeof chunk;
        for (i = 0; i < k; i++)
            chunk[i] = app_echo_client_pattern(c->sent + i);
        n = tcpsend(h, c->sock, chunk, k);
    }
    if (n == ERR_WOULDBLOCK)
        return 0;
    if (n > 0) {
        c->sent += (uint32_t)n;
        a->report.bytes_sent += (uint32_t)n;
        if (a->p.send_only && a->report.bytes_sent == a->p.len)
            note_finished(a, h);
    }
    return n;
}

/* n bytes came back on c, after the c->received before them. */
static void verify(struct app_echo_client *a, const struct app_echo_conn *c, const uint8_t *buf,
                   uint16_t n)
{
    uint16_t i;
    uint32_t off = c->first + c->received;
    if (a->p.rx_copy)
        memcpy(a->p.rx_copy + off, buf, n);
    for (i = 0; i < n; i++) {
        uint8_t want = a->p.data ? a->p.data[off + i] : app_echo_client_pattern(c->received + i);
        if (buf[i] == want)
            continue;
        if (a->report.mismatches++ == 0) {
            a->report.mismatch_at = off + i;
            a->report.mismatch_expected = want;
            a->report.mismatch_got = buf[i];
        }
    }
}

/* Reads what is there on c; returns the bytes read, 0 when nothing is there, or an error
 * (ERR_CLSD: the server closed early or sent more than we sent). */
static int recv_some(struct app_echo_client *a, struct app_echo_conn *c, struct host *h)
{
    uint8_t buf[APP_ECHO_CLIENT_CHUNK];
    uint32_t room = c->sent - c->received;
    uint32_t want = room < sizeof buf ? room : (uint32_t)sizeof buf;
    int n;
    /* Never more than was sent: an echo that runs ahead of us is an error, and asking for
     * one byte then tells it apart from a quiet connection. */
    n = tcprecv(h, c->sock, buf, want ? want : 1u);
    if (n == ERR_WOULDBLOCK)
        return 0;
    if (n == 0)
        return ERR_CLSD;
    if (n < 0)
        return n;
    if ((uint32_t)n > room)
        return ERR_CLSD;
    verify(a, c, buf, (uint16_t)n);
    c->received += (uint32_t)n;
    a->report.bytes_received += (uint32_t)n;
    if (a->report.bytes_received == a->p.len)
        note_finished(a, h);
    return n;
}

static void poll_conn(struct app_echo_client *a, struct app_echo_conn *c, struct host *h)
{
    if (c->state == EC_CONNECTING) {
        int r = app_tcp_ready(h, c->sock);
        if (r < 0) {
            finish(a, c, h, r);
            return;
        }
        if (r == 0)
            return;
        c->state = EC_RUNNING;
        if (!a->report.established_at)
            a->report.established_at = h->now;
    }
    /* Read before writing, so the segments we send advertise the room just made. */
    while (c->state == EC_RUNNING) {
        int got = 0, sent;
        if (!a->p.send_only && c->received < c->len) {
            got = recv_some(a, c, h);
            if (got < 0) {
                finish(a, c, h, got);
                break;
            }
        }
        if (!a->p.send_only && c->received == c->len) {
            finish(a, c, h, 0); /* everything came back */
            break;
        }
        sent = send_some(a, c, h);
        if (sent < 0) {
            finish(a, c, h, sent);
            break;
        }
        if (a->p.send_only && c->sent == c->len) {
            finish(a, c, h, 0); /* discard client: all queued, FIN follows it */
            break;
        }
        if (sent == 0 && got == 0)
            break;
    }
}

int app_echo_client_poll(struct app_echo_client *a, struct host *h, stack_time_t *next)
{
    uint8_t k;
    (void)next;
    for (k = 0; k < a->n_conns; k++)
        poll_conn(a, &a->conns[k], h);
    return 0;
}
