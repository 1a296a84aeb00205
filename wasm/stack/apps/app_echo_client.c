/* Echo and discard client, RFC 862 / RFC 863, on the non-blocking socket API. */
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

static void finish(struct app_echo_client *a, struct host *h, int err)
{
    if (a->sock >= 0) {
        if (err < 0)
            tcpabort(h, a->sock);
        else
            tcpclose(h, a->sock); /* FIN, RFC 9293 3.10.4 */
        a->sock = -1;
    }
    a->state = EC_DONE;
    a->report.done = 1;
    a->report.error = err;
}

int app_echo_client_start(struct app_echo_client *a, struct host *h,
                          const struct app_echo_client_params *p)
{
    memset(a, 0, sizeof *a);
    a->p = *p;
    if (a->p.server.port == 0)
        a->p.server.port = APP_TCP_ECHO_PORT;
    a->report.mismatch_at = APP_ECHO_NO_MISMATCH;
    a->report.started_at = h->now;
    a->sock = app_tcp_open(h, 0, &a->p.server);
    if (a->sock < 0) {
        int err = a->sock;
        a->sock = -1;
        finish(a, h, err);
        return err;
    }
    a->state = EC_CONNECTING;
    return ERR_OK;
}

/* Queues more data; returns the bytes taken, 0 when blocked or all sent, or an error. */
static int send_some(struct app_echo_client *a, struct host *h)
{
    uint32_t left = a->p.len - a->report.bytes_sent;
    int n;
    if (left == 0)
        return 0;
    if (a->p.data) {
        n = tcpsend(h, a->sock, a->p.data + a->report.bytes_sent, left);
    } else {
        uint8_t chunk[APP_ECHO_CLIENT_CHUNK];
        uint16_t i, k = left < sizeof chunk ? (uint16_t)left : (uint16_t)sizeof chunk;
        for (i = 0; i < k; i++)
            chunk[i] = app_echo_client_pattern(a->report.bytes_sent + i);
        n = tcpsend(h, a->sock, chunk, k);
    }
    if (n == ERR_WOULDBLOCK)
        return 0;
    if (n > 0) {
        a->report.bytes_sent += (uint32_t)n;
        if (a->p.send_only && a->report.bytes_sent == a->p.len) {
            a->report.finished_at = h->now;
            a->report.elapsed_us = h->now - a->report.started_at;
        }
    }
    return n;
}

static void verify(struct app_echo_client *a, const uint8_t *buf, uint16_t n)
{
    uint16_t i;
    uint32_t off = a->report.bytes_received;
    if (a->p.rx_copy)
        memcpy(a->p.rx_copy + off, buf, n);
    if (a->report.mismatch_at != APP_ECHO_NO_MISMATCH)
        return;
    for (i = 0; i < n; i++) {
        uint8_t want = a->p.data ? a->p.data[off + i] : app_echo_client_pattern(off + i);
        if (buf[i] != want) {
            a->report.mismatch_at = off + i;
            a->report.mismatch_expected = want;
            a->report.mismatch_got = buf[i];
            return;
        }
    }
}

/* Reads what is there; returns the bytes read, 0 when nothing is there, or an error
 * (ERR_CLSD: the server closed early or sent more than we sent). */
static int recv_some(struct app_echo_client *a, struct host *h)
{
    uint8_t buf[APP_ECHO_CLIENT_CHUNK];
    uint32_t room = a->report.bytes_sent - a->report.bytes_received;
    uint32_t want = room < sizeof buf ? room : (uint32_t)sizeof buf;
    int n;
    /* Never more than was sent: an echo that runs ahead of us is an error, and asking for
     * one byte then tells it apart from a quiet connection. */
    n = tcprecv(h, a->sock, buf, want ? want : 1u);
    if (n == ERR_WOULDBLOCK)
        return 0;
    if (n == 0)
        return ERR_CLSD;
    if (n < 0)
        return n;
    if ((uint32_t)n > room)
        return ERR_CLSD;
    verify(a, buf, (uint16_t)n);
    a->report.bytes_received += (uint32_t)n;
    if (a->report.bytes_received == a->p.len) {
        a->report.finished_at = h->now;
        a->report.elapsed_us = h->now - a->report.started_at;
    }
    return n;
}

int app_echo_client_poll(struct app_echo_client *a, struct host *h, stack_time_t *next)
{
    (void)next;
    if (a->state == EC_CONNECTING) {
        int r = app_tcp_ready(h, a->sock);
        if (r < 0) {
            finish(a, h, r);
            return 0;
        }
        if (r == 0)
            return 0;
        a->state = EC_RUNNING;
        a->report.established_at = h->now;
    }
    /* Read before writing, so the segments we send advertise the room just made. */
    while (a->state == EC_RUNNING) {
        int got = 0, sent;
        if (!a->p.send_only && a->report.bytes_received < a->p.len) {
            got = recv_some(a, h);
            if (got < 0) {
                finish(a, h, got);
                break;
            }
        }
        if (!a->p.send_only && a->report.bytes_received == a->p.len) {
            finish(a, h, 0); /* everything came back */
            break;
        }
        sent = send_some(a, h);
        if (sent < 0) {
            finish(a, h, sent);
            break;
        }
        if (a->p.send_only && a->report.bytes_sent == a->p.len) {
            finish(a, h, 0); /* discard client: all queued, FIN follows it */
            break;
        }
        if (sent == 0 && got == 0)
            break;
    }
    return 0;
}
