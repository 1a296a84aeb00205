/* The scenario's `apps` (docs/scenario-format.md, "Applications"), and one app on its own
 * for a running world (scenario_app_load). */
#include "scenario_load.h"
#include "scenario_parts.h"

#include "app_echo_client.h" /* APP_ECHO_CLIENT_MAX_CONNS */

#include <stdio.h>
#include <string.h>

static const char *const sa_types[] = { "ping", "tcp_echo_server", "tcp_discard_server",
                                        "udp_echo_server", "udp_discard_server",
                                        "tcp_echo_client", "bulk_sender", "bulk_receiver",
                                        "reqresp_client", "reqresp_server", "tcp_client",
                                        NULL };

/* Fields each type accepts beyond type, host and start_ms. */
static const char *const sa_fields[WORLD_APP_TYPE_COUNT][7] = {
    { "to", "count", "size", "interval_ms", "timeout_ms", NULL },
    { "port", NULL },
    { "port", "pause_after", "pause_ms", NULL },
    { "port", NULL },
    { "port", NULL },
    { "to", "port", "bytes", "send_only", "connections", NULL },
    { "to", "port", "bytes", NULL },
    { "port", NULL },
    { "to", "port", "local_port", "rounds", NULL },
    { "port", "rounds", NULL },
    { "to", "port", "probe", NULL },
};

/* 0: none (ping), or `port` is required (tcp_client). */
static const uint16_t sa_default_port[WORLD_APP_TYPE_COUNT] = { 0, 7, 9, 7, 9, 7, 9000, 9000,
                                                                7891, 7891, 0 };

static int sa_keys(struct scenario_reader *r, uint32_t e, const char *path, int type)
{
    const char *allowed[12];
    int i, n = 0;
    allowed[n++] = "type";
    allowed[n++] = "host";
    allowed[n++] = "start_ms";
    for (i = 0; sa_fields[type][i]; i++)
        allowed[n++] = sa_fields[type][i];
    allowed[n] = NULL;
    return sr_object(r, e, path, allowed);
}

static int sa_host(struct scenario_reader *r, uint32_t e, const char *path, const char *key,
                   const struct world_config *cfg, uint8_t *out)
{
    char name[WORLD_NAME_MAX];
    int k;
    if (sr_name(r, e, path, key, 1, name) != 0)
        return -1;
    k = scenario_node(cfg, name);
    if (k < 0)
        return sr_fail(r, path, key, "names \"%s\", which does not exist", name);
    if (k >= cfg->n_hosts)
        return sr_fail(r, path, key, "names bridge \"%s\": applications run on hosts", name);
    *out = (uint8_t)k;
    return 0;
}

static void sa_ip_text(uint32_t a, char *buf, size_t cap)
{
    snprintf(buf, cap, "%u.%u.%u.%u", (unsigned)(a >> 24), (unsigned)(a >> 16 & 0xFF),
             (unsigned)(a >> 8 & 0xFF), (unsigned)(a & 0xFF));
}

/* Why `to` cannot be a peer's address, in the words of hostAddrProblem() in
 * web/src/scenarios/addr.ts (RFC 1122 3.2.1.3): "this network", loopback, multicast and
 * reserved addresses, and on the host's own subnet that subnet's address and broadcast. */
static int sa_addr_usable(struct scenario_reader *r, const char *path, uint32_t addr,
                          const struct world_host_config *host)
{
    char ip[16];
    uint32_t first = addr >> 24, mask = 0xFFFFFFFFu << (32 - host->prefix);
    sa_ip_text(addr, ip, sizeof ip);
    if (first == 0)
        return sr_fail(r, path, "to", "%s is in 0.0.0.0/8 (\"this network\"), which no host may use", ip);
    if (first == 127)
        return sr_fail(r, path, "to", "%s is a loopback address (127.0.0.0/8)", ip);
    if (first >= 224)
        return sr_fail(r, path, "to", "%s is a multicast or reserved address (224.0.0.0 and up)", ip);
    if (host->prefix <= 30 && (addr & mask) == (host->addr & mask)) {
        if ((addr & ~mask) == 0)
            return sr_fail(r, path, "to", "%s is the address of the subnet %s/%u itself, not of a host",
                           ip, ip, host->prefix);
        if ((addr & ~mask) == ~mask)
            return sr_fail(r, path, "to", "%s is the broadcast address of its /%u subnet", ip,
                           host->prefix);
    }
    if (addr == host->addr)
        return sr_fail(r, path, "to", "must differ from host (%s is the address of host \"%s\")",
                       ip, host->name);
    return 0;
}

/* `to`: a host's name, or an IPv4 address, which need not be a host of the world (the
 * far end of an external link). A name starts with a letter, an address with a digit. */
static int sa_to(struct scenario_reader *r, uint32_t e, const char *path,
                 const struct world_config *cfg, struct world_app_config *a)
{
    char text[16];
    uint32_t t = sr_get(r, e, path, "to", 1);
    if (t == JSON_NONE)
        return -1;
    if (json_string_copy(&r->doc, t, text, sizeof text) != 0 || text[0] < '0' || text[0] > '9') {
        if (sa_host(r, e, path, "to", cfg, &a->to) != 0)
            return -1;
        if (a->to == a->host)
            return sr_fail(r, path, "to", "must differ from host (both are \"%s\")",
                           cfg->hosts[a->host].name);
        a->to_addr = cfg->hosts[a->to].addr;
        return 0;
    }
    if (sr_ipv4_parse(text, &a->to_addr, NULL) != 0)
        return sr_fail(r, path, "to", "must be a host name or an IPv4 address like \"10.0.7.2\"");
    a->to = WORLD_NODE_NONE;
    return sa_addr_usable(r, path, a->to_addr, &cfg->hosts[a->host]);
}

static int sa_rounds(struct scenario_reader *r, uint32_t e, const char *path,
                     struct world_config *cfg, struct world_app_config *a)
{
    static const char *const keys[] = { "req", "resp", "think_ms", "split", NULL };
    uint32_t t = sr_get(r, e, path, "rounds", 1), i, k, n;
    char sub[64];
    if (t == JSON_NONE)
        return -1;
    if (r->doc.tok[t].type != JSON_ARRAY || r->doc.tok[t].size < 1 || r->doc.tok[t].size > 256)
        return sr_fail(r, path, "rounds", "must be an array of 1 to 256 rounds");
    n = r->doc.tok[t].size;
    if (cfg->n_rounds + n > WORLD_MAX_ROUNDS)
        return sr_fail(r, path, "rounds", "more than %u rounds in the whole scenario",
                       WORLD_MAX_ROUNDS);
    a->first_round = cfg->n_rounds;
    a->n_rounds = (uint16_t)n;
    for (i = 0, k = t + 1; i < n; i++, k = r->doc.tok[k].next) {
        struct app_reqresp_round *rd = &cfg->rounds[cfg->n_rounds + i];
        snprintf(sub, sizeof sub, "%s.rounds[%u]", path, i);
        rd->think_ms = 0;
        if (sr_object(r, k, sub, keys) != 0 ||
            sr_u32(r, k, sub, "req", 1, 0x7FFFFFFF, 1, &rd->req_len) != 0 ||
            sr_u32(r, k, sub, "resp", 0, 0x7FFFFFFF, 1, &rd->resp_len) != 0 ||
            sr_u32(r, k, sub, "think_ms", 0, 3600000, 0, &rd->think_ms) != 0)
            return -1;
        /* `split`: the request written in two pieces, each at least one byte. */
        rd->split = 0;
        if (sr_u32(r, k, sub, "split", 0, 0x7FFFFFFF, 0, &rd->split) != 0)
            return -1;
        if (rd->split >= rd->req_len && rd->split != 0)
            return sr_fail(r, sub, "split", "must be less than req (%u)", rd->req_len);
    }
    cfg->n_rounds = (uint16_t)(cfg->n_rounds + n);
    return 0;
}

/* tcp_echo_client's `connections` (app_echo_client.h): each carries at least one of the
 * bytes and needs a TCP block of its host, as semantic.ts says too. */
static int sa_connections(struct scenario_reader *r, uint32_t e, const char *path,
                          const struct world_config *cfg, struct world_app_config *a)
{
    uint32_t n = 1;
    const struct world_host_config *h = &cfg->hosts[a->host];
    if (sr_u32(r, e, path, "connections", 1, APP_ECHO_CLIENT_MAX_CONNS, 0, &n) != 0)
        return -1;
    if (n > a->bytes)
        return sr_fail(r, path, "connections", "must be at most bytes (%u)", a->bytes);
    if (n > h->stack.tcp_max_pcbs)
        return sr_fail(r, path, "connections",
                       "needs %u TCP sockets on host \"%s\", which has tcp_max_pcbs %u", n,
                       h->name, (unsigned)h->stack.tcp_max_pcbs);
    a->connections = (uint8_t)n;
    return 0;
}

/* A TCP responder host (stack.tcp_responder) has no TCP sockets: it serves echo and
 * discard itself, and runs only ping and the UDP services (semantic.ts says the same). */
static int sa_fits_host(struct scenario_reader *r, const char *path, const struct world_config *cfg,
                        const struct world_app_config *a)
{
    const struct world_host_config *h = &cfg->hosts[a->host];
    if (!h->stack.tcp_responder || a->type == WORLD_APP_PING ||
        a->type == WORLD_APP_UDP_ECHO_SERVER || a->type == WORLD_APP_UDP_DISCARD_SERVER)
        return 0;
    return sr_fail(r, path, "host",
                   "names host \"%s\", a TCP responder (hosts[%u].stack.tcp_responder), which has "
                   "no TCP sockets for a %s: it serves echo on port 7 and discard on port 9 by itself",
                   h->name, (unsigned)a->host, sa_types[a->type]);
}

/* Everything of an app but its rounds (request/response types: sa_rounds). */
static int sa_app(struct scenario_reader *r, uint32_t e, const char *path,
                  const struct world_config *cfg, struct world_app_config *a)
{
    int type;
    uint32_t port, local = 49153;
    if (r->doc.tok[e].type != JSON_OBJECT)
        return sr_fail(r, path, NULL, "must be an object, not %s",
                       json_type_name(r->doc.tok[e].type));
    if (sr_enum(r, e, path, "type", sa_types, 1, &type) != 0 || sa_keys(r, e, path, type) != 0 ||
        sa_host(r, e, path, "host", cfg, &a->host) != 0 ||
        sr_u32(r, e, path, "start_ms", 0, (uint32_t)(WORLD_MAX_DURATION_US / 1000), 0,
               &a->start_ms) != 0)
        return -1;
    a->type = (uint8_t)type;
    if (sa_fits_host(r, path, cfg, a) != 0)
        return -1;
    port = sa_default_port[type];
    if (type != WORLD_APP_PING && sr_u32(r, e, path, "port", 1, 65535, port == 0, &port) != 0)
        return -1;
    a->port = (uint16_t)port;
    a->to = a->host;
    a->to_addr = cfg->hosts[a->host].addr;
    if (sa_fields[type][0] && strcmp(sa_fields[type][0], "to") == 0 &&
        sa_to(r, e, path, cfg, a) != 0)
        return -1;
    switch (type) {
    case WORLD_APP_PING:
        a->count = 4;
        a->size = 56;
        a->interval_ms = 1000;
        a->timeout_ms = 10000;
        return sr_u32(r, e, path, "count", 1, 100000, 0, &a->count) != 0 ||
                       sr_u32(r, e, path, "size", 0, 65507, 0, &a->size) != 0 ||
                       sr_u32(r, e, path, "interval_ms", 0, 3600000, 0, &a->interval_ms) != 0 ||
                       sr_u32(r, e, path, "timeout_ms", 1, 3600000, 0, &a->timeout_ms) != 0
                   ? -1
                   : 0;
    case WORLD_APP_TCP_ECHO_CLIENT:
        return sr_u32(r, e, path, "bytes", 1, 0x7FFFFFFF, 1, &a->bytes) != 0 ||
                       sr_bool(r, e, path, "send_only", &a->send_only) != 0 ||
                       sa_connections(r, e, path, cfg, a) != 0
                   ? -1
                   : 0;
    case WORLD_APP_TCP_DISCARD_SERVER:
        a->pause_after = 0;
        a->pause_ms = 0;
        return sr_u32(r, e, path, "pause_after", 0, 0x7FFFFFFF, 0, &a->pause_after) != 0 ||
                       sr_u32(r, e, path, "pause_ms", 0, 3600000, 0, &a->pause_ms) != 0
                   ? -1
                   : 0;
    case WORLD_APP_BULK_SENDER:
        return sr_u32(r, e, path, "bytes", 1, 0x7FFFFFFF, 1, &a->bytes);
    case WORLD_APP_REQRESP_CLIENT:
        if (sr_u32(r, e, path, "local_port", 0, 65535, 0, &local) != 0)
            return -1;
        a->local_port = (uint16_t)local;
        return 0;
    case WORLD_APP_TCP_CLIENT:
        return sr_bool(r, e, path, "probe", &a->probe);
    default:
        return 0;
    }
}

/* A request/response server and the clients that call it must agree on the rounds, or
 * each side waits for bytes the other never sends. */
static int sa_rounds_agree(struct scenario_reader *r, const struct world_config *cfg)
{
    uint8_t i, k;
    uint16_t n;
    for (i = 0; i < cfg->n_apps; i++) {
        const struct world_app_config *srv = &cfg->apps[i];
        if (srv->type != WORLD_APP_REQRESP_SERVER)
            continue;
        for (k = 0; k < cfg->n_apps; k++) {
            const struct world_app_config *cl = &cfg->apps[k];
            char path[32];
            if (cl->type != WORLD_APP_REQRESP_CLIENT ||
                cl->to_addr != cfg->hosts[srv->host].addr || cl->port != srv->port)
                continue;
            snprintf(path, sizeof path, "apps[%u]", i);
            if (cl->n_rounds != srv->n_rounds)
                return sr_fail(r, path, "rounds", "has %u rounds, its client apps[%u] has %u",
                               srv->n_rounds, k, cl->n_rounds);
            for (n = 0; n < srv->n_rounds; n++) {
                const struct app_reqresp_round *a = &cfg->rounds[srv->first_round + n];
                const struct app_reqresp_round *b = &cfg->rounds[cl->first_round + n];
                if (a->req_len != b->req_len || a->resp_len != b->resp_len)
                    return sr_fail(r, path, "rounds",
                                   "round %u differs from its client's (apps[%u])", n, k);
            }
        }
    }
    return 0;
}

int scenario_apps_read(struct scenario_reader *r, uint32_t root, struct world_config *cfg)
{
    uint32_t t = json_object_get(&r->doc, root, "apps"), i, e, n;
    char path[32];
    if (t == JSON_NONE)
        return 0;
    if (r->doc.tok[t].type != JSON_ARRAY)
        return sr_fail(r, "", "apps", "must be an array");
    n = r->doc.tok[t].size;
    if (n > WORLD_MAX_APPS)
        return sr_fail(r, "", "apps", "must have at most %u entries", WORLD_MAX_APPS);
    for (i = 0, e = t + 1; i < n; i++, e = r->doc.tok[e].next) {
        struct world_app_config *a = &cfg->apps[i];
        snprintf(path, sizeof path, "apps[%u]", i);
        if (sa_app(r, e, path, cfg, a) != 0)
            return -1;
        if ((a->type == WORLD_APP_REQRESP_CLIENT || a->type == WORLD_APP_REQRESP_SERVER) &&
            sa_rounds(r, e, path, cfg, a) != 0)
            return -1;
        cfg->n_apps++;
    }
    return sa_rounds_agree(r, cfg);
}

int scenario_app_load(const struct world_config *cfg, const char *json, uint32_t len,
                      struct world_app_config *app, char *err, size_t errlen)
{
    struct scenario_reader r;
    int type = 0, rc = -1;
    memset(app, 0, sizeof *app);
    if (len > SCENARIO_APP_MAX_BYTES) {
        snprintf(err, errlen, "app: longer than %u bytes", SCENARIO_APP_MAX_BYTES);
        return -1;
    }
    if (sr_open(&r, json, len, SCENARIO_APP_MAX_BYTES / 2, "app: ", err, errlen) != 0)
        goto out;
    if (r.doc.tok[0].type == JSON_OBJECT) {
        if (sr_enum(&r, 0, "app", "type", sa_types, 1, &type) != 0)
            goto out;
        if (type == WORLD_APP_REQRESP_CLIENT || type == WORLD_APP_REQRESP_SERVER) {
            sr_fail(&r, "app", "type", "not available in a running session");
            goto out;
        }
        if (json_object_get(&r.doc, 0, "start_ms") != JSON_NONE) {
            sr_fail(&r, "app", "start_ms", "not available in a running session: the app starts at once");
            goto out;
        }
    }
    if (sa_app(&r, 0, "app", cfg, app) == 0)
        rc = 0;
out:
    sr_close(&r);
    return rc;
}
