/* How hosts and bridges attach to links (docs/scenario-format.md, "Hosts" and "Bridges"):
 * a host has one interface, so it is on exactly one link; a bridge joins exactly two; and
 * the hosts a link joins, or links that bridges join, are on one subnet, since a host
 * routes only its own subnet out of its interface (host_add_netif(): one connected route,
 * no gateway), so an app's peer off that subnet is unreachable (ERR_RTE). checkTopology()
 * and checkSubnets() in web/src/core/scenarios/semantic.ts say the same in the same words. */
#include "scenario_parts.h"

#include <stdio.h>
#include <string.h>

void scenario_known(const struct world_config *cfg, int hosts, int bridges, int links, char *buf,
                    size_t cap)
{
    size_t n = 0;
    int kind, first = 1;
    buf[0] = '\0';
    for (kind = 0; kind < 3; kind++) {
        uint8_t count = kind == 0   ? (hosts ? cfg->n_hosts : 0)
                        : kind == 1 ? (bridges ? cfg->n_bridges : 0)
                                    : (links ? cfg->n_links : 0);
        uint8_t i;
        for (i = 0; i < count && n < cap; i++) {
            const char *name = kind == 0   ? cfg->hosts[i].name
                               : kind == 1 ? cfg->bridges[i]
                                           : cfg->links[i].name;
            int k = i == 0 ? snprintf(buf + n, cap - n, "%s%s: %s", first ? " (" : "; ",
                                      kind == 0   ? "hosts"
                                      : kind == 1 ? "bridges"
                                                  : "links",
                                      name)
                           : snprintf(buf + n, cap - n, ", %s", name);
            n += k > 0 ? (size_t)k : 0;
            first = 0;
        }
    }
    if (!first && n + 1 < cap)
        strcat(buf, ")");
}

int scenario_host_ref(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
                      const struct world_config *cfg, int known)
{
    char name[WORLD_NAME_MAX], list[160];
    int k;
    if (sr_name(r, obj, path, key, 1, name) != 0)
        return -1;
    k = scenario_node(cfg, name);
    if (k >= 0 && k < cfg->n_hosts)
        return k;
    if (k >= 0)
        return sr_fail(r, path, key,
                       "names bridge \"%s\", not a host (a bridge runs no stack "
                       "and has no address)",
                       name);
    if (scenario_is_link(r, name))
        return sr_fail(r, path, key, "names link \"%s\", not a host", name);
    if (known)
        scenario_known(cfg, 1, 0, 0, list, sizeof list);
    else
        list[0] = '\0';
    return sr_fail(r, path, key, "names host \"%s\", which does not exist%s", name, list);
}

/* The links before link `upto` that node is on, up to two of them into on[]. */
static unsigned sto_links_on(const struct world_config *cfg, uint8_t node, uint8_t upto,
                             uint8_t on[2])
{
    unsigned n = 0;
    uint8_t i;
    for (i = 0; i < upto; i++)
        if (cfg->links[i].a == node || cfg->links[i].b == node) {
            if (n < 2)
                on[n] = i;
            n++;
        }
    return n;
}

int scenario_link_end(struct scenario_reader *r, uint32_t e, const char *path, const char *key,
                      const struct world_config *cfg, const struct world_link_config *l,
                      uint8_t *node)
{
    char name[WORLD_NAME_MAX], known[160];
    uint8_t on[2];
    unsigned n;
    int k;
    if (sr_name(r, e, path, key, 1, name) != 0)
        return -1;
    k = scenario_node(cfg, name);
    if (k < 0 && scenario_is_link(r, name))
        return sr_fail(r, path, key, "names link \"%s\"; a link joins hosts and bridges", name);
    if (k < 0) {
        scenario_known(cfg, 1, 1, 0, known, sizeof known);
        return sr_fail(r, path, key, "names \"%s\", which is neither a host nor a bridge%s", name,
                       known);
    }
    if (key[0] == 'b' && k == l->a)
        return sr_fail(r, path, key, "must differ from a (both are \"%s\")", name);
    if (l->type == WORLD_LINK_EXTERNAL && k >= cfg->n_hosts)
        return sr_fail(r, path, key,
                       "names bridge \"%s\"; the scenario's end of an external link "
                       "is a host",
                       name);
    n = sto_links_on(cfg, (uint8_t)k, cfg->n_links, on);
    if (k < cfg->n_hosts && n >= 1)
        return sr_fail(r, path, key,
                       "host \"%s\" is already on link \"%s\"; a host is attached "
                       "to exactly one link (join links with a bridge)",
                       name, cfg->links[on[0]].name);
    if (k >= cfg->n_hosts && n >= 2)
        return sr_fail(r, path, key,
                       "bridge \"%s\" already joins links \"%s\" and \"%s\"; a "
                       "bridge joins exactly two links",
                       name, cfg->links[on[0]].name, cfg->links[on[1]].name);
    *node = (uint8_t)k;
    return 0;
}

/* seg[link]: the lowest link of the links that bridges join to it. */
static void sto_segments(const struct world_config *cfg, uint8_t seg[WORLD_MAX_LINKS])
{
    uint8_t i, b, changed = 1;
    for (i = 0; i < cfg->n_links; i++)
        seg[i] = i;
    while (changed) {
        changed = 0;
        for (b = 0; b < cfg->n_bridges; b++) {
            uint8_t on[2], lo;
            if (sto_links_on(cfg, (uint8_t)(cfg->n_hosts + b), cfg->n_links, on) != 2 ||
                seg[on[0]] == seg[on[1]])
                continue;
            lo = seg[on[0]] < seg[on[1]] ? seg[on[0]] : seg[on[1]];
            for (i = 0; i < cfg->n_links; i++)
                if (seg[i] == seg[on[0]] || seg[i] == seg[on[1]])
                    seg[i] = lo;
            changed = 1;
        }
    }
}

static int sto_on_subnet(uint32_t addr, const struct world_host_config *h)
{
    uint32_t mask = h->prefix >= 32 ? 0xFFFFFFFFu : ~(0xFFFFFFFFu >> h->prefix);
    return (addr & mask) == (h->addr & mask);
}

/* Hosts i and j (j < i, on links li and lj of one segment) must each be on the other's
 * subnet; a host is blamed for a conflict with an earlier one. */
static int sto_subnet_pair(struct scenario_reader *r, const struct world_config *cfg, uint8_t i,
                           uint8_t j, uint8_t li, uint8_t lj)
{
    const struct world_host_config *a = &cfg->hosts[i], *b = &cfg->hosts[j];
    char path[16], ia[16], ib[16], via[64] = "";
    if (sto_on_subnet(a->addr, b) && sto_on_subnet(b->addr, a))
        return 0;
    snprintf(path, sizeof path, "hosts[%u]", (unsigned)i);
    sr_ip_text(a->addr, ia, sizeof ia);
    sr_ip_text(b->addr, ib, sizeof ib);
    if (li != lj)
        snprintf(via, sizeof via, " (on link \"%s\", joined to it by a bridge)",
                 cfg->links[lj].name);
    return sr_fail(r, path, "addr", "%s/%u is not on link \"%s\"'s subnet with hosts[%u] %s/%u%s",
                   ia, (unsigned)a->prefix, cfg->links[li].name, (unsigned)j, ib,
                   (unsigned)b->prefix, via);
}

static int sto_subnets(struct scenario_reader *r, const struct world_config *cfg)
{
    uint8_t seg[WORLD_MAX_LINKS], link[WORLD_MAX_HOSTS], i, j;
    sto_segments(cfg, seg);
    for (i = 0; i < cfg->n_hosts; i++) {
        uint8_t on[2] = { 0, 0 };
        sto_links_on(cfg, i, cfg->n_links, on); /* one: scenario_topology_check() saw to it */
        link[i] = on[0];
    }
    for (i = 0; i < cfg->n_hosts; i++)
        for (j = 0; j < i; j++)
            if (seg[link[i]] == seg[link[j]] &&
                sto_subnet_pair(r, cfg, i, j, link[i], link[j]) != 0)
                return -1;
    return 0;
}

int scenario_topology_check(struct scenario_reader *r, const struct world_config *cfg)
{
    uint8_t node, on[2];
    char path[16];
    for (node = 0; node < cfg->n_hosts + cfg->n_bridges; node++) {
        unsigned n = sto_links_on(cfg, node, cfg->n_links, on);
        int host = node < cfg->n_hosts;
        const char *name = host ? cfg->hosts[node].name : cfg->bridges[node - cfg->n_hosts];
        snprintf(path, sizeof path, "%s[%u]", host ? "hosts" : "bridges",
                 (unsigned)(host ? node : node - cfg->n_hosts));
        if (host && n == 0)
            return sr_fail(r, path, NULL,
                           "host \"%s\" is on no link; every host is attached to "
                           "exactly one link",
                           name);
        if (!host && n == 0)
            return sr_fail(r, path, NULL,
                           "bridge \"%s\" joins no link; a bridge joins exactly "
                           "two links",
                           name);
        if (!host && n == 1)
            return sr_fail(r, path, NULL,
                           "bridge \"%s\" joins only link \"%s\"; a bridge joins "
                           "exactly two links",
                           name, cfg->links[on[0]].name);
    }
    return sto_subnets(r, cfg);
}
