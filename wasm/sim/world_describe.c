/* The JSON description of a built world that a trace reader needs beside the records:
 * names of hosts, bridges, links (with their capture interface), the names of trace kinds,
 * drop reasons and retransmission causes (so the reader never hard-codes the C enums). */
#include "world_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct world_json {
    char *p;
    size_t len, cap;
    int failed;
};

static void wj_put(struct world_json *j, const char *fmt, ...)
{
    va_list ap;
    int n;
    if (j->failed)
        return;
    for (;;) {
        va_start(ap, fmt);
        n = vsnprintf(j->p + j->len, j->cap - j->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            j->failed = 1;
            return;
        }
        if ((size_t)n < j->cap - j->len) {
            j->len += (size_t)n;
            return;
        }
        {
            size_t cap = j->cap * 2 + (size_t)n;
            char *q = realloc(j->p, cap);
            if (!q) {
                j->failed = 1;
                return;
            }
            j->p = q;
            j->cap = cap;
        }
    }
}

/* Names and texts here are ours (no quotes or backslashes), so no escaping is needed. */
static void wj_names(struct world_json *j, const char *key, const char *(*name)(int), int n)
{
    int i;
    wj_put(j, ",\"%s\":[", key);
    for (i = 0; i < n; i++)
        wj_put(j, "%s\"%s\"", i ? "," : "", name(i));
    wj_put(j, "]");
}

static const char *wj_kind(int i)
{
    return trace_kind_name((enum trace_kind)i);
}

static const char *wj_drop(int i)
{
    return drop_reason_text((enum drop_reason)i);
}

static const char *wj_drop_name(int i)
{
    return drop_reason_name((enum drop_reason)i);
}

static const char *wj_retx(int i)
{
    return tcp_retx_cause_text((enum tcp_retx_cause)i);
}

static const char *wj_retx_name(int i)
{
    return tcp_retx_cause_name((enum tcp_retx_cause)i);
}

static const char *wj_state(int i)
{
    return tcp_state_name((enum tcp_state)i);
}

static const char *const world_link_type_names[] = { "serial", "nfc", "ethernet", "external" };

char *world_describe_build(const struct world *w)
{
    struct world_json j = { NULL, 0, 0, 0 };
    uint8_t i;
    j.cap = 4096;
    j.p = malloc(j.cap);
    if (!j.p)
        return NULL;
    wj_put(&j, "{\"format\":1,\"seed\":%lu,\"duration_us\":%llu,\"hosts\":[",
           (unsigned long)w->cfg.seed, (unsigned long long)w->cfg.duration_us);
    for (i = 0; i < w->cfg.n_hosts; i++) {
        uint32_t a = w->cfg.hosts[i].addr;
        wj_put(&j, "%s{\"name\":\"%s\",\"addr\":\"%u.%u.%u.%u\",\"prefix\":%u,\"link\":%u}",
               i ? "," : "", w->cfg.hosts[i].name, (unsigned)(a >> 24), (unsigned)(a >> 16 & 255),
               (unsigned)(a >> 8 & 255), (unsigned)(a & 255), (unsigned)w->cfg.hosts[i].prefix,
               (unsigned)w->hosts[i].link);
    }
    wj_put(&j, "],\"bridges\":[");
    for (i = 0; i < w->cfg.n_bridges; i++)
        wj_put(&j, "%s{\"name\":\"%s\"}", i ? "," : "", w->cfg.bridges[i]);
    wj_put(&j, "],\"links\":[");
    for (i = 0; i < w->cfg.n_links; i++) {
        const struct world_link_config *c = &w->cfg.links[i];
        char desc[96], config[224];
        world_link_describe(c, desc, sizeof desc);
        world_link_describe_config(c, config, sizeof config);
        wj_put(&j,
               "%s{\"name\":\"%s\",\"type\":\"%s\",\"a\":%u,\"b\":%d,\"mtu\":%u,"
               "\"capture_interface\":%d,\"description\":\"%s\",\"config\":%s}",
               i ? "," : "", c->name, world_link_type_names[c->type], (unsigned)c->a,
               c->b == WORLD_NODE_NONE ? -1 : (int)c->b, (unsigned)world_link_mtu(c),
               w->links[i].iface, desc, config);
    }
    wj_put(&j, "]");
    wj_names(&j, "trace_kinds", wj_kind, TRACE_KIND_COUNT);
    wj_names(&j, "drop_reasons", wj_drop_name, DROP_REASON_COUNT);
    wj_names(&j, "drop_reason_texts", wj_drop, DROP_REASON_COUNT);
    wj_names(&j, "retx_causes", wj_retx, TCP_RETX_CAUSE_COUNT);
    wj_names(&j, "retx_cause_names", wj_retx_name, TCP_RETX_CAUSE_COUNT);
    wj_names(&j, "tcp_states", wj_state, TCP_TIME_WAIT + 1);
    wj_put(&j, "}");
    if (j.failed) {
        free(j.p);
        return NULL;
    }
    return j.p;
}
