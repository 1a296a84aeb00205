/* The world's life: creation, the event loop, the hosts. See world.h. */
#include "world_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void world_pcap_sink(void *ctx, const uint8_t *p, uint32_t n)
{
    struct world *w = ctx;
    /* After a failed append nothing more is added: a block cut in the middle would make
     * the rest of the file unreadable, and the run is reported as failed anyway. */
    if (!w->pcap.failed && !w->cfg.pcapng_off)
        sim_buf_append(&w->pcap, p, n);
}

static uint32_t world_mask(uint8_t prefix)
{
    return prefix >= 32 ? 0xFFFFFFFFu : ~(0xFFFFFFFFu >> prefix);
}

/* Each host gets the run's seed mixed with its index, so two hosts never draw the same
 * ISS or ports, and the same scenario always gives the same ones. */
static uint32_t world_host_seed(const struct world *w, uint8_t i)
{
    struct sim_rng r;
    sim_rng_seed(&r, ((uint64_t)w->cfg.seed << 8) | i);
    return (uint32_t)(sim_rng_next(&r) >> 32) | 1u;
}

static int world_host_build(struct world *w, uint8_t i, char *err, size_t errlen)
{
    struct world_host *wh = &w->hosts[i];
    const struct world_host_config *hc = &w->cfg.hosts[i];
    struct host_config cfg = hc->stack;
    size_t need;
    uint8_t l, found = 0;
    int rc;

    for (l = 0; l < w->cfg.n_links; l++) {
        const struct world_link_config *lc = &w->cfg.links[l];
        if (lc->a == i || lc->b == i) {
            wh->link = l;
            wh->dir = lc->a == i ? LINK_DIR_AB : LINK_DIR_BA;
            found++;
        }
    }
    /* The rule is the scenario reader's (scenario_topology.c, with the user's message); a
     * world_config built by hand that breaks it is a caller's bug, said as such. */
    if (found != 1) {
        snprintf(err, errlen, "world_create: host %u is on %u links, not 1", (unsigned)i, found);
        return ERR_ARG;
    }
    cfg.seed = world_host_seed(w, i);
    need = host_mem_required(&cfg);
    wh->mem = malloc(need);
    if (!wh->mem)
        return ERR_MEM;
    rc = host_init(&wh->h, &cfg, wh->mem, need, 0);
    if (rc != ERR_OK) {
        snprintf(err, errlen, "hosts.%s.stack: the stack refused this configuration (%s)", hc->name,
                 stack_err_name(rc));
        return rc;
    }
    host_set_tracer(&wh->h, world_tracer, w);
    w->ends[wh->link][wh->dir].w = w;
    w->ends[wh->link][wh->dir].link = wh->link;
    w->ends[wh->link][wh->dir].dir = wh->dir;
    if (world_link_is_eth(w, wh->link))
        rc = world_eth_host_netif(w, i, hc->addr, world_mask(hc->prefix),
                                  world_link_mtu(&w->cfg.links[wh->link]));
    else
        rc = host_add_netif(&wh->h, hc->addr, world_mask(hc->prefix),
                            world_link_mtu(&w->cfg.links[wh->link]), world_netif_output,
                            &w->ends[wh->link][wh->dir]);
    if (rc < 0) {
        snprintf(err, errlen, "hosts.%s: cannot add its interface (%s)", hc->name,
                 stack_err_name(rc));
        return rc;
    }
    memset(wh->last_expire, 0xFF, sizeof wh->last_expire);
    memset(wh->last_dupack, 0xFF, sizeof wh->last_dupack);
    return ERR_OK;
}

static int world_capture_build(struct world *w, char *err, size_t errlen)
{
    uint8_t i;
    char desc[96];
    if (pcapng_begin(&w->pcapng, world_pcap_sink, w, "stackscope") != ERR_OK)
        return ERR_ARG;
    for (i = 0; i < WORLD_MAX_LINKS; i++)
        w->links[i].iface = -1;
    for (i = 0; i < w->cfg.n_capture; i++) {
        uint8_t l = w->cfg.capture[i];
        int iface;
        if (l >= w->cfg.n_links) {
            snprintf(err, errlen, "capture[%u]: no such link", i);
            return ERR_ARG;
        }
        world_link_describe(&w->cfg.links[l], desc, sizeof desc);
        iface = pcapng_add_interface(
            &w->pcapng, w->cfg.links[l].name, desc,
            world_link_is_eth(w, l) ? PCAPNG_LINKTYPE_ETHERNET : PCAPNG_LINKTYPE_RAW, 0);
        if (iface < 0)
            return iface;
        w->links[l].iface = iface;
    }
    return ERR_OK;
}

int world_create(struct world **out, const struct world_config *cfg, char *err, size_t errlen)
{
    struct world *w;
    uint8_t i;
    int rc = ERR_OK;

    *out = NULL;
    if (cfg->duration_us == 0 || cfg->duration_us > WORLD_MAX_DURATION_US) {
        snprintf(err, errlen, "duration_ms: must be between 1 and %llu",
                 (unsigned long long)(WORLD_MAX_DURATION_US / 1000));
        return ERR_ARG;
    }
    if (cfg->n_hosts == 0 || cfg->n_hosts > WORLD_MAX_HOSTS || cfg->n_links == 0 ||
        cfg->n_links > WORLD_MAX_LINKS || cfg->n_bridges > WORLD_MAX_BRIDGES ||
        cfg->n_apps > WORLD_MAX_APPS) {
        snprintf(err, errlen, "hosts/links/bridges/apps: count out of range");
        return ERR_ARG;
    }
    w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, errlen, "out of memory");
        return ERR_MEM;
    }
    w->cfg = *cfg;
    sim_rng_seed(&w->rng, cfg->seed);
    sim_queue_init(&w->queue, w->queue_mem, WORLD_QUEUE_CAP);
    trec_buf_init(&w->trace);
    for (i = 0; i < cfg->n_links && rc == ERR_OK; i++)
        rc = world_link_build(w, i, err, errlen);
    for (i = 0; i < cfg->n_hosts && rc == ERR_OK; i++)
        rc = world_host_build(w, i, err, errlen);
    if (rc == ERR_OK && (rc = world_eth_bridges_build(w)) != ERR_OK)
        snprintf(err, errlen, "bridges: cannot start their ARP on Ethernet (%s)",
                 stack_err_name(rc));
    if (rc == ERR_OK)
        rc = world_capture_build(w, err, errlen);
    for (i = 0; i < cfg->n_apps && rc == ERR_OK; i++) {
        struct sim_event ev = { 0 };
        w->apps[i].next = WORLD_NEVER;
        ev.time = (uint64_t)cfg->apps[i].start_ms * 1000u;
        ev.kind = WEV_APP_START;
        ev.target = i;
        rc = sim_queue_push(&w->queue, &ev);
    }
    if (rc == ERR_OK) {
        w->describe = world_describe_build(w);
        if (!w->describe)
            rc = ERR_MEM;
    }
    if (rc != ERR_OK) {
        if (!err[0])
            snprintf(err, errlen, "cannot build the world (%s)", stack_err_name(rc));
        world_destroy(w);
        return rc;
    }
    *out = w;
    return ERR_OK;
}

void world_destroy(struct world *w)
{
    uint32_t i;
    if (!w)
        return;
    for (i = 0; i < WORLD_MAX_HOSTS; i++)
        free(w->hosts[i].mem);
    world_eth_free(w);
    for (i = 0; i < WORLD_MAX_LINKS; i++)
        world_link_free(&w->links[i]);
    for (i = 0; i < sizeof w->held / sizeof w->held[0]; i++)
        free(w->held[i].data);
    for (i = 0; i < WORLD_MAX_BRIDGES; i++) {
        struct world_bridge_hold *b = &w->bridge_hold[i];
        for (; b->n > 0; b->n--, b->head = (uint8_t)((b->head + 1u) % WORLD_BRIDGE_HOLD))
            free(b->q[b->head].data);
    }
    trec_buf_free(&w->trace);
    sim_buf_free(&w->pcap);
    sim_buf_free(&w->outbox);
    free(w->describe);
    free(w);
}

static uint64_t world_host_deadline(const struct world *w, uint8_t i)
{
    stack_time_t when, now32 = (stack_time_t)w->now;
    if (!host_next_deadline(&w->hosts[i].h, &when))
        return WORLD_NEVER;
    if (time_before(when, now32))
        return w->now;
    return w->now + (uint32_t)(when - now32);
}

int world_next_event(const struct world *w, uint64_t *t)
{
    uint64_t best = WORLD_NEVER, x;
    const struct sim_event *ev = sim_queue_peek(&w->queue);
    uint8_t i;
    if (ev)
        best = ev->time;
    for (i = 0; i < w->cfg.n_links; i++)
        if (world_link_next(&w->links[i], &x) && x < best)
            best = x;
    for (i = 0; i < w->cfg.n_hosts; i++) {
        x = world_host_deadline(w, i);
        if (x < best)
            best = x;
    }
    x = world_eth_deadline(w);
    if (x < best)
        best = x;
    for (i = 0; i < w->cfg.n_apps; i++)
        if (w->apps[i].next < best)
            best = w->apps[i].next;
    if (best == WORLD_NEVER)
        return 0;
    *t = best < w->now ? w->now : best;
    return 1;
}

/* Everything due at w->now, in a fixed order: link deliveries by link index, host timers by
 * host index, queued events (app starts, held frames), applications by index, then the
 * links' signals (queue lengths, NFC module busy/free). */
static void world_step(struct world *w)
{
    struct sim_event ev;
    struct link_delivery d;
    uint8_t i;
    const struct sim_event *top;

    for (i = 0; i < w->cfg.n_links; i++)
        while (world_link_take(w, i, &d))
            world_frame_deliver(w, i, &d);
    /* Every host, due or not: applications call the socket API next, and the stack reads
     * the time of those calls from the host's clock, which only a poll or an input sets. */
    for (i = 0; i < w->cfg.n_hosts; i++) {
        host_poll(&w->hosts[i].h, (stack_time_t)w->now);
        world_flush(w);
    }
    world_eth_poll(w);
    while ((top = sim_queue_peek(&w->queue)) != NULL && top->time <= w->now) {
        sim_queue_pop(&w->queue, &ev);
        if (ev.kind == WEV_APP_START) {
            world_app_start(w, (uint8_t)ev.target);
            world_flush(w);
        } else if (ev.kind == WEV_FRAME_SUBMIT)
            world_frame_submit_held(w, (uint8_t)ev.target, ev.arg);
    }
    world_apps_poll(w);
    for (i = 0; i < w->cfg.n_links; i++)
        world_link_signals(w, i);
}

static void world_finish(struct world *w)
{
    uint32_t i;
    w->finished = 1;
    for (i = 0; i < w->n_open; i++)
        world_frame_fate(w, w->open[i].id, w->open[i].link, w->open[i].dir, TREC_FATE_IN_FLIGHT, 0,
                         NULL);
    w->n_open = 0;
    world_apps_report_all(w);
}

int world_run_until(struct world *w, uint64_t until)
{
    uint64_t t;
    uint32_t same = 0;
    if (w->finished)
        return 1;
    if (until > w->cfg.duration_us)
        until = w->cfg.duration_us;
    while (world_next_event(w, &t) && t <= until) {
        if (t == w->now) {
            if (++same > WORLD_STEP_LIMIT) {
                world_app_record(w, 0xFF, 0, 0, ERR_STATE, 0, 0,
                                 "simulator: stuck, too many steps at one instant");
                break;
            }
        } else {
            same = 0;
        }
        w->now = t;
        world_step(w);
    }
    w->now = until;
    if (until >= w->cfg.duration_us)
        world_finish(w);
    return w->finished;
}

void world_run(struct world *w)
{
    world_run_until(w, w->cfg.duration_us);
}

uint32_t world_frames(const struct world *w)
{
    return w->next_frame;
}

uint64_t world_now(const struct world *w)
{
    return w->now;
}

struct trec_buf *world_trace(struct world *w)
{
    return &w->trace;
}

const uint8_t *world_pcapng(const struct world *w, size_t *len)
{
    *len = w->pcap.len;
    return w->pcap.p;
}

void world_pcapng_clear(struct world *w)
{
    w->pcap.len = 0;
}

int world_out_of_memory(const struct world *w)
{
    return w->trace.failed || w->pcap.failed;
}

const char *world_describe(struct world *w)
{
    return w->describe;
}

static void world_app_rec(struct world *w, uint8_t app, uint8_t kind, uint8_t done, int error,
                          uint64_t bytes, uint32_t elapsed_us, const uint8_t *text, uint32_t n)
{
    uint8_t *r = trec_buf_begin(&w->trace, TREC_APP, TREC_APP_FIXED + n);
    if (!r)
        return;
    trec_wr64(r + TREC_APP_OFF_TIME, w->now);
    r[TREC_APP_OFF_HOST] = app < w->cfg.n_apps ? w->cfg.apps[app].host : 0xFF;
    r[TREC_APP_OFF_APP] = app;
    r[TREC_APP_OFF_KIND] = kind;
    r[TREC_APP_OFF_DONE] = done;
    trec_wr32(r + TREC_APP_OFF_ERROR, (uint32_t)error);
    trec_wr64(r + TREC_APP_OFF_BYTES, bytes);
    trec_wr32(r + TREC_APP_OFF_ELAPSED, elapsed_us);
    trec_wr32(r + TREC_APP_OFF_TEXT_LEN, n);
    if (n)
        memcpy(r + TREC_APP_FIXED, text, n);
    trec_buf_commit(&w->trace, r);
}

void world_app_record(struct world *w, uint8_t app, uint8_t kind, uint8_t done, int error,
                      uint64_t bytes, uint32_t elapsed_us, const char *text)
{
    world_app_rec(w, app, kind, done, error, bytes, elapsed_us, (const uint8_t *)text,
                  text ? (uint32_t)strlen(text) : 0);
}

void world_app_data(struct world *w, uint8_t app, const uint8_t *data, uint32_t n)
{
    world_app_rec(w, app, TREC_APP_DATA, 0, 0, 0, 0, data, n);
}
