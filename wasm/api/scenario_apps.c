/* The scenario's `apps` (docs/scenario-format.md, "Applications"), and one app on its own
 * for a running world (scenario_app_load). */
#include "scenario_load.h"
#include "scenario_parts.h"

#include "app_echo_client.h" /* APP_ECHO_CLIENT_MAX_CONNS */
#include "world_internal.h"  /* world_link_mtu */
#include "app_tcp_server.h"  /* APP_TCP_SERVER_MAX_CONNS */

#include <stdio.h>
#include <string.h>

static const char *const sa_types[] = { "ping",
                                        "tcp_echo_server",
                                        "tcp_discard_server",
                                        "udp_echo_server",
                                        "udp_discard_server",
                                        "tcp_echo_client",
                                        "bulk_sender",
                                        "bulk_receiver",
                                        "reqresp_client",
                                        "reqresp_server",
                                        "tcp_client",
                                        NULL };

/* Fields each type accepts beyond type, host and start_ms. */
static const char *const sa_fields[WORLD_APP_TYPE_COUNT][7] = {
    { "to", "count", "size", "interval_ms", "timeout_ms", NULL },
    { "port", "connections", "backlog", NULL },
    { "port", "pause_after", "pause_ms", "connections", "backlog", NULL },
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
static const uint16_t sa_default_port[WORLD_APP_TYPE_COUNT] = { 0,    7,    9,    7,    9, 7,
                                                                9000, 9000, 7891, 7891, 0 };

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

/* The words of the schema's `to` (appTo) when it is neither a name nor an address. */
#define SA_TO_EXPECTED                                                                         \
    "must be a host name (at most 15 characters: a lowercase letter, then lowercase letters, " \
    "digits, \"_\" or \"-\") or an IPv4 address like \"10.0.7.2\""

/* Why `to` cannot be a peer's address, as checkPeerAddress() in semantic.ts says it: an
 * address no host may have (RFC 1122 3.2.1.3; the subnet's own address and broadcast count
 * on the host's own subnet), or the app's host's own. */
static int sa_addr_usable(struct scenario_reader *r, const char *path, uint32_t addr,
                          const struct world_host_config *host)
{
    char ip[16], why[128];
    uint32_t mask = host->prefix >= 32 ? 0xFFFFFFFFu : ~(0xFFFFFFFFu >> host->prefix);
    int mine = (addr & mask) == (host->addr & mask);
    if (sr_addr_problem(addr, mine ? host->prefix : 32, why, sizeof why) != 0)
        return sr_fail(r, path, "to", "%s", why);
    sr_ip_text(addr, ip, sizeof ip);
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
    char text[64], why[96];
    size_t n;
    int k;
    uint32_t t = sr_get(r, e, path, "to", 1);
    if (t == JSON_NONE)
        return -1;
    if (json_string_copy(&r->doc, t, text, sizeof text) != 0)
        return sr_fail(r, path, "to", SA_TO_EXPECTED);
    if (text[0] >= '0' && text[0] <= '9') {
        if (sr_ipv4_parse(text, &a->to_addr, NULL, why, sizeof why) != 0)
            return sr_fail(r, path, "to", SA_TO_EXPECTED ": %s", why);
        a->to = WORLD_NODE_NONE;
        return sa_addr_usable(r, path, a->to_addr, &cfg->hosts[a->host]);
    }
    n = strlen(text);
    if (n == 0 || n > 15 || text[0] < 'a' || text[0] > 'z' ||
        strspn(text, "abcdefghijklmnopqrstuvwxyz0123456789_-") != n)
        return sr_fail(r, path, "to", SA_TO_EXPECTED);
    if ((k = scenario_host_ref(r, e, path, "to", cfg, 1)) < 0)
        return -1;
    if (k == a->host)
        return sr_fail(r, path, "to", "must differ from host (both are \"%s\")", text);
    a->to = (uint8_t)k;
    a->to_addr = cfg->hosts[k].addr;
    return 0;
}

/* One round: `split`, the request written in two pieces, each at least one byte. */
static int sa_round(struct scenario_reader *r, uint32_t k, const char *sub,
                    struct app_reqresp_round *rd)
{
    static const char *const keys[] = { "req", "resp", "think_ms", "split", NULL };
    struct sr_side split, req;
    rd->think_ms = 0;
    rd->split = 0;
    if (sr_object(r, k, sub, keys) != 0 ||
        sr_u32(r, k, sub, "req", 1, 0x7FFFFFFF, 1, &rd->req_len) != 0 ||
        sr_u32(r, k, sub, "resp", 0, 0x7FFFFFFF, 1, &rd->resp_len) != 0 ||
        sr_u32(r, k, sub, "think_ms", 0, 3600000, 0, &rd->think_ms) != 0 ||
        sr_u32(r, k, sub, "split", 0, 0x7FFFFFFF, 0, &rd->split) != 0)
        return -1;
    split = sr_side(r, k, "split", rd->split);
    req = sr_side(r, k, "req", rd->req_len);
    return rd->split > 0 ? sr_order(r, sub, &split, &req, 1) : 0;
}

static int sa_rounds(struct scenario_reader *r, uint32_t e, const char *path,
                     struct world_config *cfg, struct world_app_config *a)
{
    uint32_t n, i, k, t = sr_array(r, e, path, "rounds", 1, 256, 1, &n);
    char sub[64];
    if (t == JSON_NONE)
        return -1;
    /* The engine keeps every app's rounds in one table (world.h). */
    if (cfg->n_rounds + n > WORLD_MAX_ROUNDS)
        return sr_fail(r, path, "rounds",
                       "brings the scenario's rounds to %u; all apps together "
                       "may have at most %u",
                       (unsigned)(cfg->n_rounds + n), WORLD_MAX_ROUNDS);
    a->first_round = cfg->n_rounds;
    a->n_rounds = (uint16_t)n;
    for (i = 0, k = t + 1; i < n; i++, k = r->doc.tok[k].next) {
        snprintf(sub, sizeof sub, "%s.rounds[%u]", path, i);
        if (sa_round(r, k, sub, &cfg->rounds[cfg->n_rounds + i]) != 0)
            return -1;
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
                       "needs %u TCP sockets on host \"%s\", which has tcp_max_pcbs %u", n, h->name,
                       (unsigned)h->stack.tcp_max_pcbs);
    a->connections = (uint8_t)n;
    return 0;
}

/* The link host `k` is on, or NULL. */
static const struct world_link_config *sa_host_link(const struct world_config *cfg, uint8_t k)
{
    uint8_t i;
    for (i = 0; i < cfg->n_links; i++)
        if (cfg->links[i].a == k || cfg->links[i].b == k)
            return &cfg->links[i];
    return NULL;
}

/* The host whose address a ping's `to` is, or WORLD_NODE_NONE (a peer outside). */
static uint8_t sa_peer_host(const struct world_config *cfg, const struct world_app_config *a)
{
    uint8_t k;
    for (k = 0; k < cfg->n_hosts; k++)
        if (cfg->hosts[k].addr == a->to_addr)
            return k;
    return WORLD_NODE_NONE;
}

/* Host `rx` reassembles a ping's datagram of `dgram` bytes from `tx` when tx's link MTU
 * makes it travel in fragments. */
static int sa_ping_reassembles(struct scenario_reader *r, const char *path,
                               const struct world_config *cfg, const struct world_app_config *a,
                               uint8_t tx, uint8_t rx, const char *what)
{
    const struct world_link_config *l = sa_host_link(cfg, tx);
    uint32_t dgram = a->size + 28u, reass = cfg->hosts[rx].stack.ip_reass_max;
    if (!l || dgram <= world_link_mtu(l) || dgram <= reass)
        return 0;
    return sr_fail(
        r, path, "size",
        "%u bytes make a datagram of %u bytes, larger than host \"%s\"'s ip_reass_max %u "
        "(link \"%s\", MTU %u, carries %s in fragments)",
        a->size, dgram, cfg->hosts[rx].name, reass, l->name, (unsigned)world_link_mtu(l), what);
}

/* A ping's datagram (size + 20 bytes of IP header + 8 of ICMP) must be one its host builds
 * (ip_max_datagram) and, in fragments, one the other end reassembles (ip_reass_max): the
 * request at the peer, the echo reply (built where the request lies, so the peer's
 * ip_max_datagram does not bound it) back at the host. Else ping_start() refuses it or no
 * reply comes back. A peer outside the scenario is not checked. semantic.ts says the same. */
static int sa_ping_size(struct scenario_reader *r, const char *path, const struct world_config *cfg,
                        const struct world_app_config *a)
{
    const struct world_host_config *h = &cfg->hosts[a->host];
    uint32_t dgram = a->size + 28u;
    uint8_t peer = sa_peer_host(cfg, a);
    if (dgram > h->stack.ip_max_datagram)
        return sr_fail(r, path, "size",
                       "%u bytes make a datagram of %u bytes, larger than host \"%s\"'s "
                       "ip_max_datagram %u",
                       a->size, dgram, h->name, (unsigned)h->stack.ip_max_datagram);
    if (peer == WORLD_NODE_NONE)
        return 0;
    if (sa_ping_reassembles(r, path, cfg, a, a->host, peer, "it") != 0)
        return -1;
    return sa_ping_reassembles(r, path, cfg, a, peer, a->host, "the echo reply");
}

/* One limit of a TCP server (app_tcp_server.h), *v holding its default: a value given
 * must leave the listener a TCP socket of its host, as semantic.ts says too. */
static int sa_server_limit(struct scenario_reader *r, uint32_t e, const char *path, const char *key,
                           const char *what, const struct world_host_config *h, uint32_t *v)
{
    uint32_t room = h->stack.tcp_max_pcbs - 1u;
    if (sr_u32(r, e, path, key, 1, APP_TCP_SERVER_MAX_CONNS, 0, v) != 0)
        return -1;
    if (*v > room && json_object_get(&r->doc, e, key) != JSON_NONE)
        return sr_fail(r, path, key,
                       "needs %u TCP sockets on host \"%s\" (%u %s and the listener), which "
                       "has tcp_max_pcbs %u",
                       *v + 1, h->name, *v, what, (unsigned)h->stack.tcp_max_pcbs);
    return 0;
}

/* `connections`, served at once: by default every TCP socket of the host but the
 * listener's. `backlog`, held by the listener until one of those frees: by default as
 * many. */
static int sa_server_limits(struct scenario_reader *r, uint32_t e, const char *path,
                            const struct world_config *cfg, struct world_app_config *a)
{
    const struct world_host_config *h = &cfg->hosts[a->host];
    uint32_t conns = h->stack.tcp_max_pcbs > 1 ? h->stack.tcp_max_pcbs - 1u : 1u, backlog;
    if (sa_server_limit(r, e, path, "connections", "connections", h, &conns) != 0)
        return -1;
    backlog = conns;
    if (sa_server_limit(r, e, path, "backlog", "waiting connections", h, &backlog) != 0)
        return -1;
    a->connections = (uint8_t)conns;
    a->backlog = (uint8_t)backlog;
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
    return sr_fail(
        r, path, "host",
        "names host \"%s\", a TCP responder (hosts[%u].stack.tcp_responder), which has "
        "no TCP sockets for a %s: it serves echo on port 7 and discard on port 9 by itself",
        h->name, (unsigned)a->host, sa_types[a->type]);
}

/* Everything of an app but its rounds (request/response types: sa_rounds). */
static int sa_app(struct scenario_reader *r, uint32_t e, const char *path,
                  const struct world_config *cfg, struct world_app_config *a)
{
    int type, host;
    uint32_t port, local = 49153;
    if (r->doc.tok[e].type != JSON_OBJECT)
        return sr_fail(r, path, NULL, "must be an object");
    if (sr_enum(r, e, path, "type", sa_types, 1, &type) != 0 || sa_keys(r, e, path, type) != 0 ||
        (host = scenario_host_ref(r, e, path, "host", cfg, 1)) < 0 ||
        sr_u32(r, e, path, "start_ms", 0, (uint32_t)(WORLD_MAX_DURATION_US / 1000), 0,
               &a->start_ms) != 0)
        return -1;
    a->type = (uint8_t)type;
    a->host = (uint8_t)host;
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
                       sr_u32(r, e, path, "timeout_ms", 1, 3600000, 0, &a->timeout_ms) != 0 ||
                       sa_ping_size(r, path, cfg, a) != 0
                   ? -1
                   : 0;
    case WORLD_APP_TCP_ECHO_CLIENT:
        return sr_u32(r, e, path, "bytes", 1, 0x7FFFFFFF, 1, &a->bytes) != 0 ||
                       sr_bool(r, e, path, "send_only", &a->send_only) != 0 ||
                       sa_connections(r, e, path, cfg, a) != 0
                   ? -1
                   : 0;
    case WORLD_APP_TCP_ECHO_SERVER: return sa_server_limits(r, e, path, cfg, a);
    case WORLD_APP_TCP_DISCARD_SERVER:
        a->pause_after = 0;
        a->pause_ms = 0;
        return sr_u32(r, e, path, "pause_after", 0, 0x7FFFFFFF, 0, &a->pause_after) != 0 ||
                       sr_u32(r, e, path, "pause_ms", 0, 3600000, 0, &a->pause_ms) != 0 ||
                       sa_server_limits(r, e, path, cfg, a) != 0
                   ? -1
                   : 0;
    case WORLD_APP_BULK_SENDER: return sr_u32(r, e, path, "bytes", 1, 0x7FFFFFFF, 1, &a->bytes);
    case WORLD_APP_REQRESP_CLIENT:
        if (sr_u32(r, e, path, "local_port", 0, 65535, 0, &local) != 0)
            return -1;
        a->local_port = (uint16_t)local;
        return 0;
    case WORLD_APP_TCP_CLIENT: return sr_bool(r, e, path, "probe", &a->probe);
    default: return 0;
    }
}

/* Both halves of a request/response session get the same rounds (app_reqresp.h), or each
 * waits for bytes the other never sends; the server's think_ms are unused, so only the sizes
 * must agree. The server is blamed, as semantic.ts does. */
static int sa_rounds_pair(struct scenario_reader *r, const struct world_config *cfg, uint8_t ci,
                          uint8_t si)
{
    const struct world_app_config *cl = &cfg->apps[ci], *srv = &cfg->apps[si];
    char path[48];
    uint16_t n;
    snprintf(path, sizeof path, "apps[%u]", (unsigned)si);
    if (cl->n_rounds != srv->n_rounds)
        return sr_fail(r, path, "rounds",
                       "has %u rounds, its client apps[%u] has %u; both get "
                       "the same rounds",
                       srv->n_rounds, (unsigned)ci, cl->n_rounds);
    for (n = 0; n < srv->n_rounds; n++) {
        const struct app_reqresp_round *a = &cfg->rounds[srv->first_round + n];
        const struct app_reqresp_round *b = &cfg->rounds[cl->first_round + n];
        if (a->req_len == b->req_len && a->resp_len == b->resp_len)
            continue;
        snprintf(path, sizeof path, "apps[%u].rounds[%u]", (unsigned)si, (unsigned)n);
        return sr_fail(r, path, NULL,
                       "req %u / resp %u differs from its client's "
                       "(apps[%u].rounds[%u]: req %u / resp %u); both get the same rounds",
                       a->req_len, a->resp_len, (unsigned)ci, (unsigned)n, b->req_len, b->resp_len);
    }
    return 0;
}

static int sa_rounds_agree(struct scenario_reader *r, const struct world_config *cfg)
{
    uint8_t ci, si;
    for (ci = 0; ci < cfg->n_apps; ci++) {
        const struct world_app_config *cl = &cfg->apps[ci];
        if (cl->type != WORLD_APP_REQRESP_CLIENT)
            continue;
        for (si = 0; si < cfg->n_apps; si++) {
            const struct world_app_config *srv = &cfg->apps[si];
            if (srv->type == WORLD_APP_REQRESP_SERVER &&
                cl->to_addr == cfg->hosts[srv->host].addr && cl->port == srv->port &&
                sa_rounds_pair(r, cfg, ci, si) != 0)
                return -1;
        }
    }
    return 0;
}

int scenario_apps_read(struct scenario_reader *r, uint32_t root, struct world_config *cfg)
{
    uint32_t n, t = sr_array(r, root, "", "apps", 0, WORLD_MAX_APPS, 0, &n), i, e;
    char path[32];
    if (t == JSON_NONE)
        return r->failed ? -1 : 0;
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
    /* The page writes the app as one line of JSON: a field's position in it says nothing. */
    if (sr_open(&r, json, len, SCENARIO_APP_MAX_BYTES / 2, "app", 0, err, errlen) != 0)
        goto out;
    if (r.doc.tok[0].type == JSON_OBJECT) {
        if (sr_enum(&r, 0, "app", "type", sa_types, 1, &type) != 0)
            goto out;
        if (type == WORLD_APP_REQRESP_CLIENT || type == WORLD_APP_REQRESP_SERVER) {
            sr_fail(&r, "app", "type", "not available in a running session");
            goto out;
        }
        if (json_object_get(&r.doc, 0, "start_ms") != JSON_NONE) {
            sr_fail(&r, "app", "start_ms",
                    "not available in a running session: the app starts at once");
            goto out;
        }
    }
    if (sa_app(&r, 0, "app", cfg, app) == 0)
        rc = 0;
out:
    sr_close(&r);
    return rc;
}
