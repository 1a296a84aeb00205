/* Request/response session of the NFC bridge paper, client and server. */
#include "app_reqresp.h"

#include <string.h>

#include "app_common.h"
#include "host.h"

enum { RC_CONNECTING, RC_THINK, RC_SEND_REQ, RC_RECV_RESP, RC_CLOSING, RC_DONE };
enum { RS_IDLE, RS_RECV_REQ, RS_SEND_RESP, RS_WAIT_CLOSE };

uint8_t app_reqresp_pattern(uint16_t round, uint32_t off, uint8_t response)
{
    uint8_t v = (uint8_t)(off % 251u + round * 7u);
    return response ? (uint8_t)~v : v;
}

/* Generates bytes [off, off + n) of a round's message and offers them to tcpsend. */
static int send_pattern(struct host *h, int s, uint16_t round, uint8_t response, uint32_t off,
                        uint32_t left)
{
    uint8_t chunk[APP_REQRESP_CHUNK];
    uint16_t i, k = left < sizeof chunk ? (uint16_t)left : (uint16_t)sizeof chunk;
    for (i = 0; i < k; i++)
        chunk[i] = app_reqresp_pattern(round, off + i, response);
    return tcpsend(h, s, chunk, k);
}

/* Reads at most `want` bytes (1 when want is 0, to catch bytes nobody expects) and, when
 * `mismatches` is given, counts those not matching the pattern; returns tcprecv's result. */
static int recv_pattern(struct host *h, int s, uint16_t round, uint8_t response, uint32_t off,
                        uint32_t want, uint32_t *mismatches)
{
    uint8_t buf[APP_REQRESP_CHUNK];
    int n, i;
    if (want == 0)
        want = 1;
    n = tcprecv(h, s, buf, want < sizeof buf ? want : (uint32_t)sizeof buf);
    for (i = 0; mismatches && i < n; i++) {
        if (buf[i] != app_reqresp_pattern(round, off + (uint32_t)i, response))
            (*mismatches)++;
    }
    return n;
}

/* ---- client ---- */

static void client_fail(struct app_reqresp_client *a, struct host *h, int err)
{
    if (a->sock >= 0)
        tcpabort(h, a->sock);
    a->sock = -1;
    a->state = RC_DONE;
    a->report.done = 1;
    a->report.error = err;
}

int app_reqresp_client_start(struct app_reqresp_client *a, struct host *h,
                             const struct stack_sockaddr *server, uint16_t local_port,
                             const struct app_reqresp_round *rounds, uint16_t n_rounds,
                             uint32_t *round_us)
{
    memset(a, 0, sizeof *a);
    a->server = *server;
    if (a->server.port == 0)
        a->server.port = APP_REQRESP_PORT;
    a->local_port = local_port;
    a->rounds = rounds;
    a->n_rounds = n_rounds;
    a->round_us = round_us;
    a->report.syn_at = h->now;
    a->sock = app_tcp_open(h, local_port, &a->server);
    if (a->sock < 0) {
        int err = a->sock;
        a->sock = -1;
        client_fail(a, h, err);
        return err;
    }
    a->state = RC_CONNECTING;
    return ERR_OK;
}

/* Next round, or the close when all rounds are done. */
static void client_next_round(struct app_reqresp_client *a, struct host *h)
{
    a->off = 0;
    if (a->round >= a->n_rounds) {
        int err = tcpshutdown(h, a->sock); /* our FIN first, as in the paper's captures */
        if (err < 0) {
            client_fail(a, h, err);
            return;
        }
        a->report.fin_at = h->now;
        a->state = RC_CLOSING;
        return;
    }
    a->t_mark = h->now + STACK_MS(a->rounds[a->round].think_ms);
    a->state = RC_THINK;
}

/* After tcpshutdown: the session ends when the connection reaches TIME_WAIT (our last
 * ACK has just left) or is over; then the socket is given back. */
static void client_watch_close(struct app_reqresp_client *a, struct host *h)
{
    struct tcp_info info;
    uint8_t b;
    if (tcpstatus(h, a->sock, &info) < 0)
        return;
    while (tcprecv(h, a->sock, &b, 1) > 0)
        ; /* nothing more is expected; read it so the close is a FIN, not a reset */
    if (info.state != TCP_TIME_WAIT && info.state != TCP_CLOSED)
        return;
    tcpclose(h, a->sock);
    a->sock = -1;
    a->report.end_at = h->now;
    a->report.latency_us = h->now - a->report.syn_at;
    a->state = RC_DONE;
    a->report.done = 1;
}

int app_reqresp_client_poll(struct app_reqresp_client *a, struct host *h, stack_time_t *next)
{
    for (;;) {
        /* The current round; only read in the states that have one. */
        const struct app_reqresp_round *r = a->round < a->n_rounds ? &a->rounds[a->round] : NULL;
        int n;
        switch (a->state) {
        case RC_CONNECTING:
            n = app_tcp_ready(h, a->sock);
            if (n < 0)
                client_fail(a, h, n);
            if (n <= 0)
                return 0;
            a->report.established_at = h->now;
            client_next_round(a, h);
            break;
        case RC_THINK:
            /* Nothing may arrive while no response is due. */
            n = recv_pattern(h, a->sock, 0, 1, 0, 0, NULL);
            if (n == 0 || (n < 0 && n != ERR_WOULDBLOCK)) {
                client_fail(a, h, n == 0 ? ERR_CLSD : n);
                return 0;
            }
            if (n > 0)
                a->report.extra += (uint32_t)n;
            if (time_before(h->now, a->t_mark)) {
                *next = a->t_mark;
                return 1;
            }
            a->t_mark = h->now;
            a->state = RC_SEND_REQ;
            break;
        case RC_SEND_REQ:
            if (a->off < r->req_len) {
                /* A split request: the first write ends at `split`, the second is the
                 * rest, each its own tcpsend (which hands the bytes to tcp_output). */
                uint32_t end = a->off < r->split && r->split < r->req_len ? r->split : r->req_len;
                n = send_pattern(h, a->sock, a->round, 0, a->off, end - a->off);
                if (n == ERR_WOULDBLOCK || n == 0)
                    return 0;
                if (n < 0) {
                    client_fail(a, h, n);
                    return 0;
                }
                a->off += (uint32_t)n;
                a->report.req_bytes += (uint32_t)n;
                break;
            }
            a->off = 0;
            a->state = RC_RECV_RESP;
            break;
        case RC_RECV_RESP:
            if (a->off < r->resp_len) {
                n = recv_pattern(h, a->sock, a->round, 1, a->off, r->resp_len - a->off,
                                 &a->report.resp_mismatches);
                if (n == ERR_WOULDBLOCK)
                    return 0;
                if (n <= 0) {
                    client_fail(a, h, n == 0 ? ERR_CLSD : n);
                    return 0;
                }
                a->off += (uint32_t)n;
                a->report.resp_bytes += (uint32_t)n;
                break;
            }
            if (a->round_us)
                a->round_us[a->round] = h->now - a->t_mark;
            a->report.last_resp_at = h->now;
            a->report.rounds_done++;
            a->round++;
            client_next_round(a, h);
            break;
        case RC_CLOSING: client_watch_close(a, h); return 0;
        default: return 0;
        }
    }
}

/* ---- server ---- */

int app_reqresp_server_start(struct app_reqresp_server *a, struct host *h, uint16_t port,
                             const struct app_reqresp_round *rounds, uint16_t n_rounds)
{
    memset(a, 0, sizeof *a);
    a->sock = -1;
    a->rounds = rounds;
    a->n_rounds = n_rounds;
    a->listener = app_tcp_listen(h, port ? port : APP_REQRESP_PORT, 1);
    if (a->listener < 0) {
        a->report.error = a->listener;
        a->listener = -1;
        return a->report.error;
    }
    return ERR_OK;
}

static void server_end(struct app_reqresp_server *a, struct host *h, int err)
{
    if (err < 0) {
        tcpabort(h, a->sock);
        a->report.error = err;
    } else {
        tcpclose(h, a->sock); /* FIN in answer to the client's, RFC 9293 3.6 */
        a->report.closed_at = h->now;
        a->report.sessions++;
        a->report.done = 1;
    }
    a->sock = -1;
    a->state = RS_IDLE;
}

int app_reqresp_server_poll(struct app_reqresp_server *a, struct host *h, stack_time_t *next)
{
    (void)next;
    if (a->listener < 0)
        return 0;
    for (;;) {
        /* The current round; only read in the states that have one. */
        const struct app_reqresp_round *r = a->round < a->n_rounds ? &a->rounds[a->round] : NULL;
        int n;
        switch (a->state) {
        case RS_IDLE:
            n = tcpaccept(h, a->listener);
            if (n < 0)
                return 0;
            a->sock = n;
            a->round = 0;
            a->off = 0;
            a->report.done = 0;
            a->report.accepted_at = h->now;
            a->state = a->n_rounds ? RS_RECV_REQ : RS_WAIT_CLOSE;
            break;
        case RS_RECV_REQ:
            if (a->off < r->req_len) {
                n = recv_pattern(h, a->sock, a->round, 0, a->off, r->req_len - a->off,
                                 &a->report.req_mismatches);
                if (n == ERR_WOULDBLOCK)
                    return 0;
                if (n <= 0) {
                    server_end(a, h, n == 0 ? ERR_CLSD : n);
                    return 0;
                }
                a->off += (uint32_t)n;
                a->report.req_bytes += (uint32_t)n;
                break;
            }
            a->off = 0;
            a->state = RS_SEND_RESP;
            break;
        case RS_SEND_RESP:
            if (a->off < r->resp_len) {
                n = send_pattern(h, a->sock, a->round, 1, a->off, r->resp_len - a->off);
                if (n == ERR_WOULDBLOCK || n == 0)
                    return 0;
                if (n < 0) {
                    server_end(a, h, n);
                    return 0;
                }
                a->off += (uint32_t)n;
                a->report.resp_bytes += (uint32_t)n;
                break;
            }
            a->off = 0;
            a->report.rounds_done++;
            a->round++;
            a->state = a->round < a->n_rounds ? RS_RECV_REQ : RS_WAIT_CLOSE;
            break;
        case RS_WAIT_CLOSE:
            n = recv_pattern(h, a->sock, 0, 0, 0, 0, NULL);
            if (n == ERR_WOULDBLOCK)
                return 0;
            if (n < 0) {
                server_end(a, h, n);
                return 0;
            }
            if (n == 0) {
                server_end(a, h, 0);
                return 0;
            }
            a->report.extra += (uint32_t)n;
            break;
        default: return 0;
        }
    }
}
