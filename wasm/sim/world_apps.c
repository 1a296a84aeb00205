/* The scenario's applications: started at their time, polled after every step, their
 * output lines (ping, tcp_client) and final reports written as TREC_APP records. */
#include "world_internal.h"

#include <stdio.h>
#include <string.h>

static struct stack_sockaddr world_peer(const struct world_app_config *c)
{
    struct stack_sockaddr sa;
    sa.addr = c->to_addr;
    sa.port = c->port;
    return sa;
}

int world_app_start(struct world *w, uint8_t i)
{
    const struct world_app_config *c = &w->cfg.apps[i];
    struct world_app *a = &w->apps[i];
    struct host *h = &w->hosts[c->host].h;
    struct stack_sockaddr peer = world_peer(c);
    int rc;
    char line[160];

    a->started = 1;
    a->index = i;
    a->w = w;
    switch (c->type) {
    case WORLD_APP_PING:
        rc = ping_start(h, peer.addr, (uint16_t)(0x1000u + i + 32u * a->generation),
                        (uint16_t)c->size, c->count, c->interval_ms, c->timeout_ms);
        if (rc == ERR_OK && ping_format_header(h, line, sizeof line))
            world_app_record(w, i, 0, 0, 0, 0, 0, line);
        break;
    case WORLD_APP_TCP_ECHO_SERVER:
        rc = app_tcp_echo_start(&a->s.echo_server, h, c->port, APP_TCP_SERVER_MAX_CONNS);
        break;
    case WORLD_APP_TCP_DISCARD_SERVER:
        rc = app_tcp_discard_start(&a->s.discard_server, h, c->port, APP_TCP_SERVER_MAX_CONNS);
        app_tcp_discard_set_pause(&a->s.discard_server, c->pause_after, c->pause_ms);
        break;
    case WORLD_APP_UDP_ECHO_SERVER:
        rc = app_udp_echo_start(&a->s.udp, h, c->port);
        break;
    case WORLD_APP_UDP_DISCARD_SERVER:
        rc = app_udp_discard_start(&a->s.udp, h, c->port);
        break;
    case WORLD_APP_TCP_ECHO_CLIENT: {
        struct app_echo_client_params p;
        memset(&p, 0, sizeof p);
        p.server = peer;
        p.len = c->bytes;
        p.send_only = c->send_only;
        p.connections = c->connections;
        rc = app_echo_client_start(&a->s.echo_client, h, &p);
        break;
    }
    case WORLD_APP_BULK_SENDER:
        rc = app_bulk_sender_start(&a->s.bulk_sender, h, &peer, c->bytes);
        break;
    case WORLD_APP_BULK_RECEIVER:
        rc = app_bulk_receiver_start(&a->s.bulk_receiver, h, c->port);
        break;
    case WORLD_APP_REQRESP_CLIENT:
        rc = app_reqresp_client_start(&a->s.rr_client, h, &peer, c->local_port,
                                      &w->cfg.rounds[c->first_round], c->n_rounds, NULL);
        break;
    case WORLD_APP_REQRESP_SERVER:
        rc = app_reqresp_server_start(&a->s.rr_server, h, c->port,
                                      &w->cfg.rounds[c->first_round], c->n_rounds);
        break;
    case WORLD_APP_TCP_CLIENT: {
        struct app_tcp_client_params p;
        memset(&p, 0, sizeof p);
        p.server = peer;
        p.probe = c->probe;
        p.sink = world_tcp_client_sink;
        p.ctx = a;
        rc = app_tcp_client_start(&a->s.tcp_client, h, &p);
        break;
    }
    default:
        rc = ERR_ARG;
    }
    if (rc != ERR_OK) {
        snprintf(line, sizeof line, "could not start: %s", stack_err_name(rc));
        world_app_record(w, i, 1, 1, rc, 0, 0, line);
        a->reported = 1;
    }
    return rc;
}

/* The final report of a client: bytes moved and the time they took, once. */
void world_app_report(struct world *w, uint8_t i, int at_end)
{
    const struct world_app_config *c = &w->cfg.apps[i];
    struct world_app *a = &w->apps[i];
    const struct host *h = &w->hosts[c->host].h;
    char text[400];
    uint64_t bytes = 0;
    uint32_t us = 0;
    int done = 0, err = 0;

    text[0] = 0;
    switch (c->type) {
    case WORLD_APP_PING: {
        struct ping_stats st;
        done = ping_done(h);
        ping_get_stats(h, &st);
        bytes = st.received;
        if (done || at_end)
            ping_format_summary(h, text, sizeof text);
        break;
    }
    case WORLD_APP_TCP_ECHO_CLIENT: {
        const struct app_echo_client_report *r = &a->s.echo_client.report;
        done = r->done;
        err = r->error;
        bytes = c->send_only ? r->bytes_sent : r->bytes_received;
        us = r->elapsed_us;
        if (r->mismatch_at != APP_ECHO_NO_MISMATCH) /* every byte came back, not the same */
            snprintf(text, sizeof text,
                     "the echo differs at byte %lu: 0x%02x where 0x%02x was sent",
                     (unsigned long)r->mismatch_at, (unsigned)r->mismatch_got,
                     (unsigned)r->mismatch_expected);
        break;
    }
    case WORLD_APP_BULK_SENDER: {
        const struct app_bulk_sender_report *r = &a->s.bulk_sender.report;
        done = r->done;
        err = r->error;
        bytes = r->bytes;
        us = r->total_us;
        break;
    }
    case WORLD_APP_BULK_RECEIVER: {
        const struct app_bulk_receiver_report *r = &a->s.bulk_receiver.report;
        done = r->done;
        err = r->error;
        bytes = r->bytes;
        us = r->elapsed_us;
        break;
    }
    case WORLD_APP_REQRESP_CLIENT: {
        const struct app_reqresp_client_report *r = &a->s.rr_client.report;
        done = r->done;
        err = r->error;
        bytes = (uint64_t)r->req_bytes + r->resp_bytes;
        us = r->latency_us;
        break;
    }
    case WORLD_APP_REQRESP_SERVER: {
        const struct app_reqresp_server_report *r = &a->s.rr_server.report;
        done = r->done;
        err = r->error;
        bytes = (uint64_t)r->req_bytes + r->resp_bytes;
        break;
    }
    case WORLD_APP_TCP_CLIENT: {
        const struct app_tcp_client_report *r = &a->s.tcp_client.report;
        done = r->done;
        err = r->error;
        bytes = r->bytes_received;
        us = r->elapsed_us;
        break;
    }
    case WORLD_APP_TCP_ECHO_SERVER:
        bytes = a->s.echo_server.bytes_echoed;
        break;
    case WORLD_APP_TCP_DISCARD_SERVER:
        bytes = a->s.discard_server.report.bytes;
        break;
    default:
        bytes = a->s.udp.bytes;
        break;
    }
    if (!done && !at_end)
        return;
    a->reported = 1;
    world_app_record(w, i, 1, (uint8_t)done, err, bytes, us, text[0] ? text : NULL);
}

void world_ping_lines(struct world *w, uint8_t i)
{
    struct host *h = &w->hosts[w->cfg.apps[i].host].h;
    struct ping_event ev;
    char line[160];
    while (ping_next_event(h, &ev))
        if (ping_format_event(&ev, line, sizeof line))
            world_app_record(w, i, 0, 0, 0, 0, 0, line);
}

static int world_app_poll(struct world *w, uint8_t i, stack_time_t *next)
{
    const struct world_app_config *c = &w->cfg.apps[i];
    struct world_app *a = &w->apps[i];
    struct host *h = &w->hosts[c->host].h;
    switch (c->type) {
    case WORLD_APP_PING:
        /* A ping that has reported leaves the host's ping state to a later one. */
        if (!a->reported)
            world_ping_lines(w, i);
        return 0;
    case WORLD_APP_TCP_ECHO_SERVER:
        return app_tcp_echo_poll(&a->s.echo_server, h, next);
    case WORLD_APP_TCP_DISCARD_SERVER:
        return app_tcp_discard_poll(&a->s.discard_server, h, next);
    case WORLD_APP_UDP_ECHO_SERVER:
    case WORLD_APP_UDP_DISCARD_SERVER:
        return app_udp_service_poll(&a->s.udp, h, next);
    case WORLD_APP_TCP_ECHO_CLIENT:
        return app_echo_client_poll(&a->s.echo_client, h, next);
    case WORLD_APP_BULK_SENDER:
        return app_bulk_sender_poll(&a->s.bulk_sender, h, next);
    case WORLD_APP_BULK_RECEIVER:
        return app_bulk_receiver_poll(&a->s.bulk_receiver, h, next);
    case WORLD_APP_REQRESP_CLIENT:
        return app_reqresp_client_poll(&a->s.rr_client, h, next);
    case WORLD_APP_REQRESP_SERVER:
        return app_reqresp_server_poll(&a->s.rr_server, h, next);
    case WORLD_APP_TCP_CLIENT:
        return app_tcp_client_poll(&a->s.tcp_client, h, next);
    default:
        return 0;
    }
}

/* Servers never finish on their own: they report at the end of the run. */
int world_app_is_server(uint8_t type)
{
    return type == WORLD_APP_TCP_ECHO_SERVER || type == WORLD_APP_TCP_DISCARD_SERVER ||
           type == WORLD_APP_UDP_ECHO_SERVER || type == WORLD_APP_UDP_DISCARD_SERVER ||
           type == WORLD_APP_BULK_RECEIVER || type == WORLD_APP_REQRESP_SERVER;
}

void world_apps_poll(struct world *w)
{
    uint8_t i;
    for (i = 0; i < w->cfg.n_apps; i++) {
        struct world_app *a = &w->apps[i];
        stack_time_t next, now32 = (stack_time_t)w->now;
        int rc;
        if (!a->started)
            continue;
        a->next = WORLD_NEVER;
        rc = world_app_poll(w, i, &next);
        world_flush(w);
        if (rc)
            a->next = time_before(next, now32) ? w->now : w->now + (uint32_t)(next - now32);
        if (!a->reported && !world_app_is_server(w->cfg.apps[i].type))
            world_app_report(w, i, 0);
    }
}

void world_apps_report_all(struct world *w)
{
    uint8_t i;
    for (i = 0; i < w->cfg.n_apps; i++) {
        if (w->cfg.apps[i].type == WORLD_APP_PING && w->apps[i].started && !w->apps[i].reported)
            world_ping_lines(w, i);
        if (!w->apps[i].reported)
            world_app_report(w, i, 1);
    }
}
