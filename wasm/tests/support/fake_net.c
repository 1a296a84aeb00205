#include "fake_net.h"

#include <stdlib.h>
#include <string.h>

void fake_net_init(struct fake_net *net, uint32_t seed)
{
    memset(net, 0, sizeof *net);
    net->rng = seed ? seed : 1;
}

void fake_net_free(struct fake_net *net)
{
    uint8_t i;
    for (i = 0; i < net->n_hosts; i++)
        free(net->mem[i]);
    free(net->frames);
    memset(net, 0, sizeof *net);
}

static uint32_t fake_random(struct fake_net *net)
{
    uint32_t x = net->rng;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    net->rng = x;
    return x;
}

int fake_net_add_host(struct fake_net *net, const struct host_config *cfg)
{
    size_t need;
    int err;
    uint8_t i = net->n_hosts;
    if (i >= FAKE_NET_MAX_HOSTS)
        return ERR_MEM;
    need = host_mem_required(cfg);
    net->mem[i] = malloc(need);
    if (!net->mem[i])
        return ERR_MEM;
    err = host_init(&net->hosts[i], cfg, net->mem[i], need, net->now);
    if (err != ERR_OK) {
        free(net->mem[i]);
        net->mem[i] = NULL;
        return err;
    }
    return net->n_hosts++;
}

static int frame_push(struct fake_net *net, const struct fake_frame *f)
{
    if (net->n_frames == net->cap_frames) {
        uint32_t cap = net->cap_frames ? net->cap_frames * 2 : 64;
        struct fake_frame *grown = realloc(net->frames, cap * sizeof *grown);
        if (!grown)
            return -1;
        net->frames = grown;
        net->cap_frames = cap;
    }
    net->frames[net->n_frames++] = *f;
    return 0;
}

/* A host put a datagram on its interface: serialise it behind earlier frames, then
 * deliver it after the link delay unless it is lost. */
static int fake_output(void *ctx, uint8_t netif, const uint8_t *dgram, uint16_t len)
{
    struct fake_port *port = ctx;
    struct fake_net *net = port->net;
    struct fake_link *link = &net->links[port->link];
    struct fake_end *from = &link->end[port->dir];
    struct fake_frame f;
    stack_time_t start;
    uint32_t index = from->index++;
    int fate = 0;

    (void)netif;
    if (len > FAKE_NET_MAX_FRAME)
        return -1;
    start = time_before(net->now, from->busy_until) ? from->busy_until : net->now;
    if (link->rate_bps) {
        uint64_t bytes = link->wire_len ? link->wire_len(dgram, len) : len;
        uint64_t bits = bytes * (link->bits_per_byte ? link->bits_per_byte : 8u);
        from->busy_until = start + (uint32_t)(bits * 1000000u / link->rate_bps);
    } else {
        from->busy_until = start;
    }
    if (net->drop && net->drop(net->ctx, port->link, port->dir, index, dgram, len))
        fate = 2;
    else if (link->loss_ppm && fake_random(net) % 1000000u < link->loss_ppm)
        fate = 1;
    if (net->tap)
        net->tap(net->ctx, net, port->link, port->dir, start, dgram, len, fate);
    if (fate) {
        net->lost++;
        return 0; /* lost on the wire: the sender cannot tell */
    }
    memset(&f, 0, sizeof f);
    f.at = from->busy_until + link->delay_us;
    f.link = port->link;
    f.dir = port->dir;
    f.len = len;
    f.order = net->order++;
    memcpy(f.data, dgram, len);
    return frame_push(net, &f);
}

int fake_net_connect(struct fake_net *net, int a, uint32_t addr_a, int b, uint32_t addr_b,
                     uint16_t mtu, uint32_t rate_bps, uint32_t delay_us)
{
    int li = net->n_links;
    struct fake_link *link;
    int na, nb, dir;
    if (li >= FAKE_NET_MAX_LINKS || a >= net->n_hosts || b >= net->n_hosts)
        return ERR_ARG;
    link = &net->links[li];
    memset(link, 0, sizeof *link);
    for (dir = 0; dir < 2; dir++) {
        net->ports[li][dir].net = net;
        net->ports[li][dir].link = (uint8_t)li;
        net->ports[li][dir].dir = (uint8_t)dir;
    }
    na = host_add_netif(&net->hosts[a], addr_a, 0xFFFFFF00u, mtu, fake_output, &net->ports[li][0]);
    nb = host_add_netif(&net->hosts[b], addr_b, 0xFFFFFF00u, mtu, fake_output, &net->ports[li][1]);
    if (na < 0 || nb < 0)
        return ERR_ARG;
    link->end[0].host = (uint8_t)a;
    link->end[0].netif = (uint8_t)na;
    link->end[1].host = (uint8_t)b;
    link->end[1].netif = (uint8_t)nb;
    link->rate_bps = rate_bps;
    link->delay_us = delay_us;
    net->n_links++;
    return li;
}

/* The next event: the earliest frame arrival or host deadline. */
static int next_event(const struct fake_net *net, stack_time_t *when, int *frame)
{
    int has = 0;
    uint32_t i;
    uint8_t hi;
    *frame = -1;
    *when = net->now;
    for (i = 0; i < net->n_frames; i++) {
        const struct fake_frame *f = &net->frames[i];
        if (!has || time_before(f->at, *when) ||
            (f->at == *when && *frame >= 0 && f->order < net->frames[*frame].order)) {
            *when = f->at;
            *frame = (int)i;
            has = 1;
        }
    }
    if (net->has_app_deadline && (!has || time_before(net->app_deadline, *when))) {
        *when = time_before(net->app_deadline, net->now) ? net->now : net->app_deadline;
        *frame = -1;
        has = 1;
    }
    for (hi = 0; hi < net->n_hosts; hi++) {
        stack_time_t t;
        if (host_next_deadline(&net->hosts[hi], &t) && (!has || time_before(t, *when))) {
            *when = time_before(t, net->now) ? net->now : t;
            *frame = -1;
            has = 1;
        }
    }
    return has;
}

static void deliver(struct fake_net *net, int fi)
{
    struct fake_frame f = net->frames[fi];
    const struct fake_end *to;
    net->frames[fi] = net->frames[--net->n_frames];
    to = &net->links[f.link].end[!f.dir];
    net->delivered++;
    host_input(&net->hosts[to->host], to->netif, f.data, f.len, net->now);
}

static void poll_apps(struct fake_net *net)
{
    net->has_app_deadline = net->poll ? net->poll(net->ctx, net, &net->app_deadline) : 0;
}

int fake_net_run(struct fake_net *net, stack_time_t until, int (*done)(void *ctx))
{
    poll_apps(net);
    for (;;) {
        stack_time_t when;
        int frame;
        uint8_t hi;
        if (done && done(net->ctx))
            return 1;
        if (!next_event(net, &when, &frame) || time_before(until, when)) {
            net->now = until;
            return 0;
        }
        net->now = when;
        if (frame >= 0)
            deliver(net, frame);
        for (hi = 0; hi < net->n_hosts; hi++)
            host_poll(&net->hosts[hi], net->now);
        poll_apps(net);
    }
}
