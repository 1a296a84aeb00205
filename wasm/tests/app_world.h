/* Two hosts on one fake link running the applications of wasm/stack/apps: host 0
 * (APP_WORLD_ADDR_A) runs the clients, host 1 (APP_WORLD_ADDR_B) the servers. The poll
 * hook gives every application a turn after every event, as a real caller would after
 * each host_input()/host_poll(), and honours the think-time deadlines they ask for.
 *
 * Header-only, for the test programs test_apps*.c: kept out of support/ so the demo,
 * which links every support object, does not pull the applications in.
 */
#ifndef APP_WORLD_H
#define APP_WORLD_H

#include <string.h>

#include "app_bulk.h"
#include "app_echo_client.h"
#include "app_reqresp.h"
#include "app_tcp_discard.h"
#include "app_tcp_echo.h"
#include "fake_net.h"

#define APP_WORLD_ADDR_A 0x0A000001u /* 10.0.0.1 */
#define APP_WORLD_ADDR_B 0x0A000002u /* 10.0.0.2 */

/* Which applications run; NULL = not in this test. */
struct app_world {
    struct fake_net net;
    struct app_tcp_echo *echo;
    struct app_tcp_discard *discard;
    struct app_echo_client *clients;
    int n_clients;
    struct app_bulk_sender *sender;
    struct app_bulk_receiver *receiver;
    struct app_reqresp_client *rq_client;
    struct app_reqresp_server *rq_server;
};

static inline struct host *app_world_a(struct app_world *w)
{
    return &w->net.hosts[0];
}
static inline struct host *app_world_b(struct app_world *w)
{
    return &w->net.hosts[1];
}

/* One application's answer: 1 with *t = when it wants its next turn, else 0. */
static void want_at(int wants, stack_time_t t, stack_time_t *next, int *has)
{
    if (wants)
        time_earliest(next, has, t);
}

static int app_world_poll(void *ctx, struct fake_net *net, stack_time_t *next)
{
    struct app_world *w = ctx;
    struct host *a = &net->hosts[0], *b = &net->hosts[1];
    stack_time_t t = 0;
    int has = 0, r, i;
    /* Each poll is called before its `t` is read (a separate statement: C leaves the
     * order in which a call's arguments are evaluated open). */
    if (w->echo) {
        r = app_tcp_echo_poll(w->echo, b, &t);
        want_at(r, t, next, &has);
    }
    if (w->discard) {
        r = app_tcp_discard_poll(w->discard, b, &t);
        want_at(r, t, next, &has);
    }
    for (i = 0; i < w->n_clients; i++) {
        r = app_echo_client_poll(&w->clients[i], a, &t);
        want_at(r, t, next, &has);
    }
    if (w->receiver) {
        r = app_bulk_receiver_poll(w->receiver, b, &t);
        want_at(r, t, next, &has);
    }
    if (w->sender) {
        r = app_bulk_sender_poll(w->sender, a, &t);
        want_at(r, t, next, &has);
    }
    if (w->rq_server) {
        r = app_reqresp_server_poll(w->rq_server, b, &t);
        want_at(r, t, next, &has);
    }
    if (w->rq_client) {
        r = app_reqresp_client_poll(w->rq_client, a, &t);
        want_at(r, t, next, &has);
    }
    return has;
}

/* Hosts with these configurations on one link (MTU 1500). Returns 0, or -1 if the network
 * could not be built. The world must not move afterwards; app_world_free() releases it. */
static int app_world_init(struct app_world *w, const struct host_config *ca,
                          const struct host_config *cb, uint32_t rate_bps, uint32_t delay_us)
{
    memset(w, 0, sizeof *w);
    fake_net_init(&w->net, 7);
    if (fake_net_add_host(&w->net, ca) != 0 || fake_net_add_host(&w->net, cb) != 1)
        return -1;
    if (fake_net_connect(&w->net, 0, APP_WORLD_ADDR_A, 1, APP_WORLD_ADDR_B, 1500, rate_bps,
                         delay_us) < 0)
        return -1;
    w->net.poll = app_world_poll;
    w->net.ctx = w;
    return 0;
}

static void app_world_free(struct app_world *w)
{
    fake_net_free(&w->net);
}

#endif
