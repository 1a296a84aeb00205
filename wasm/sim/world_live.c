/* Applications added to, fed and stopped in a running world (world.h, world_app_add): the
 * tools of real-time mode, started by the page while the session runs.
 *
 * Every call acts at the world's current time, the `until` of the last world_run_until().
 * The app's host is polled at that time first, because the stack takes the time of a
 * socket call from its host's last poll or input, which may be older; the datagrams the
 * call makes are then handed to their link at once (world_flush), so their records carry
 * the time of the call.
 */
#include "world_internal.h"

#include <stdio.h>
#include <string.h>

static struct host *world_live_host(struct world *w, uint8_t host)
{
    host_poll(&w->hosts[host].h, (stack_time_t)w->now);
    world_flush(w);
    return &w->hosts[host].h;
}

/* A new slot while there is one, else the first client that has finished and reported
 * (its records are all written; a server's never are, it reports at the end of the run). */
static int world_live_slot(const struct world *w)
{
    uint8_t i;
    if (w->cfg.n_apps < WORLD_MAX_APPS)
        return w->cfg.n_apps;
    for (i = 0; i < WORLD_MAX_APPS; i++)
        if (w->apps[i].started && w->apps[i].reported && !world_app_is_server(w->cfg.apps[i].type))
            return i;
    return -1;
}

/* Started at once rather than by a WEV_APP_START at w->now for the next world_run_until:
 * the app then exists when the call returns, so bytes sent to it straight away reach a
 * connecting client and not a slot that its start would wipe, and its first datagram (the
 * SYN, the echo request) leaves at the time of the call whatever the caller does next. */
int world_app_add(struct world *w, const struct world_app_config *app, char *err, size_t errlen)
{
    int i;
    uint8_t gen;
    if (w->finished) {
        snprintf(err, errlen, "app: the run is over");
        return ERR_STATE;
    }
    if (app->host >= w->cfg.n_hosts || app->type >= WORLD_APP_TYPE_COUNT ||
        app->type == WORLD_APP_REQRESP_CLIENT || app->type == WORLD_APP_REQRESP_SERVER) {
        snprintf(err, errlen, "app: not an app this world can add");
        return ERR_ARG;
    }
    i = world_live_slot(w);
    if (i < 0) {
        snprintf(err, errlen, "app: no free app slot (%u in use)", (unsigned)WORLD_MAX_APPS);
        return ERR_MEM;
    }
    /* A reused slot's app is a new generation: its ping gets another ICMP identifier, so
     * a late reply to the app that had the slot before is not taken for its own. */
    gen = (uint8_t)(w->apps[i].generation + (i < w->cfg.n_apps ? 1 : 0));
    w->cfg.apps[i] = *app;
    w->cfg.apps[i].start_ms = (uint32_t)(w->now / 1000u);
    if (i == w->cfg.n_apps)
        w->cfg.n_apps++;
    memset(&w->apps[i], 0, sizeof w->apps[i]);
    w->apps[i].generation = gen;
    w->apps[i].next = WORLD_NEVER;
    world_live_host(w, app->host);
    world_app_start(w, (uint8_t)i);
    world_flush(w);
    return i;
}

/* App `app` if it is running, else NULL with the message. */
static struct world_app *world_live_app(struct world *w, uint32_t app, char *err, size_t errlen)
{
    if (app >= w->cfg.n_apps || !w->apps[app].started) {
        snprintf(err, errlen, "app %u: no such app", (unsigned)app);
        return NULL;
    }
    if (w->apps[app].reported) {
        snprintf(err, errlen, "app %u: has finished", (unsigned)app);
        return NULL;
    }
    return &w->apps[app];
}

int world_app_send(struct world *w, uint32_t app, const uint8_t *bytes, uint32_t n, char *err,
                   size_t errlen)
{
    struct world_app *a = world_live_app(w, app, err, errlen);
    int rc;
    if (!a)
        return ERR_ARG;
    if (w->cfg.apps[app].type != WORLD_APP_TCP_CLIENT) {
        snprintf(err, errlen, "app %u: only a tcp_client takes bytes to send", (unsigned)app);
        return ERR_ARG;
    }
    rc = app_tcp_client_send(&a->s.tcp_client, world_live_host(w, w->cfg.apps[app].host), bytes, n);
    world_flush(w);
    if (rc == ERR_STATE)
        snprintf(err, errlen, "app %u: is closing", (unsigned)app);
    world_app_report(w, (uint8_t)app, 0); /* if the send ended it (the connection failed) */
    return rc;
}

int world_app_close(struct world *w, uint32_t app, char *err, size_t errlen)
{
    struct world_app *a = world_live_app(w, app, err, errlen);
    struct host *h;
    int rc = ERR_OK;
    if (!a)
        return ERR_ARG;
    if (w->cfg.apps[app].type != WORLD_APP_TCP_CLIENT && w->cfg.apps[app].type != WORLD_APP_PING) {
        snprintf(err, errlen, "app %u: only a tcp_client or a ping can be closed", (unsigned)app);
        return ERR_ARG;
    }
    h = world_live_host(w, w->cfg.apps[app].host);
    if (w->cfg.apps[app].type == WORLD_APP_PING) {
        world_ping_lines(w, (uint8_t)app);
        ping_stop(h); /* iputils on SIGINT: no more requests, the statistics now */
    } else {
        rc = app_tcp_client_close(&a->s.tcp_client, h);
        world_flush(w);
        if (rc == ERR_STATE)
            snprintf(err, errlen, "app %u: is closing already", (unsigned)app);
    }
    world_app_report(w, (uint8_t)app, 0);
    return rc;
}
