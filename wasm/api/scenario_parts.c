/* A link's faults and the scenario's applications (docs/scenario-format.md, "Faults" and
 * "Applications"). */
#include "scenario_parts.h"

#include <stdio.h>
#include <string.h>

#include "ip.h"
#include "tcp.h"

static const char *const sp_fault_keys[] = { "action", "p", "nth", "count", "dir", "delay_us",
                                             "match", NULL };
static const char *const sp_match_keys[] = { "from", "to", "proto", "tcp_flags", "payload",
                                             "port", "min_len", "max_len", NULL };
static const char *const sp_actions[] = { "drop", "corrupt", "duplicate", "delay", NULL };
static const char *const sp_dirs[] = { "ab", "ba", "both", NULL };
static const char *const sp_protos[] = { "icmp", "tcp", "udp", NULL };
static const uint8_t sp_proto_numbers[] = { IP_PROTO_ICMP, IP_PROTO_TCP, IP_PROTO_UDP };

static int sp_host_addr(struct scenario_reader *r, uint32_t m, const char *path, const char *key,
                        const struct world_config *cfg, uint32_t *addr)
{
    char name[WORLD_NAME_MAX];
    int k;
    if (sr_name(r, m, path, key, 1, name) != 0)
        return -1;
    k = scenario_node(cfg, name);
    if (k < 0 || k >= cfg->n_hosts)
        return sr_fail(r, path, key, "names \"%s\", which is not a host", name);
    *addr = cfg->hosts[k].addr;
    return 0;
}

static int sp_tcp_flags(struct scenario_reader *r, uint32_t m, const char *path, uint8_t *out)
{
    static const char letters[] = "FSRPAU"; /* bit order of the flags byte, RFC 9293 3.1 */
    char buf[16];
    size_t i;
    if (sr_string(r, m, path, "tcp_flags", buf, sizeof buf) != 0)
        return -1;
    *out = 0;
    for (i = 0; buf[i]; i++) {
        const char *p = strchr(letters, buf[i]);
        if (!p)
            return sr_fail(r, path, "tcp_flags", "must be letters of \"SAFRPU\", not '%c'", buf[i]);
        *out |= (uint8_t)(1u << (p - letters));
    }
    return 0;
}

static int sp_match(struct scenario_reader *r, uint32_t m, const char *path,
                    const struct world_config *cfg, struct fault_match *fm)
{
    int proto;
    uint32_t v;
    if (sr_object(r, m, path, sp_match_keys) != 0)
        return -1;
    if (json_object_get(&r->doc, m, "from") != JSON_NONE) {
        if (sp_host_addr(r, m, path, "from", cfg, &fm->from) != 0)
            return -1;
        fm->has |= FAULT_MATCH_FROM;
    }
    if (json_object_get(&r->doc, m, "to") != JSON_NONE) {
        if (sp_host_addr(r, m, path, "to", cfg, &fm->to) != 0)
            return -1;
        fm->has |= FAULT_MATCH_TO;
    }
    if (json_object_get(&r->doc, m, "proto") != JSON_NONE) {
        if (sr_enum(r, m, path, "proto", sp_protos, 1, &proto) != 0)
            return -1;
        fm->proto = sp_proto_numbers[proto];
        fm->has |= FAULT_MATCH_PROTO;
    }
    if (json_object_get(&r->doc, m, "tcp_flags") != JSON_NONE) {
        if (sp_tcp_flags(r, m, path, &fm->tcp_flags) != 0)
            return -1;
        fm->has |= FAULT_MATCH_FLAGS;
    }
    if (json_object_get(&r->doc, m, "payload") != JSON_NONE) {
        if (sr_bool(r, m, path, "payload", &fm->payload) != 0)
            return -1;
        fm->has |= FAULT_MATCH_PAYLOAD;
    }
    if (json_object_get(&r->doc, m, "port") != JSON_NONE) {
        if (sr_u32(r, m, path, "port", 0, 65535, 1, &v) != 0)
            return -1;
        fm->port = (uint16_t)v;
        fm->has |= FAULT_MATCH_PORT;
    }
    if (json_object_get(&r->doc, m, "min_len") != JSON_NONE) {
        if (sr_u32(r, m, path, "min_len", 0, 65535, 1, &v) != 0)
            return -1;
        fm->min_len = (uint16_t)v;
        fm->has |= FAULT_MATCH_MINLEN;
    }
    if (json_object_get(&r->doc, m, "max_len") != JSON_NONE) {
        if (sr_u32(r, m, path, "max_len", 0, 65535, 1, &v) != 0)
            return -1;
        fm->max_len = (uint16_t)v;
        fm->has |= FAULT_MATCH_MAXLEN;
    }
    if ((fm->has & FAULT_MATCH_MINLEN) && (fm->has & FAULT_MATCH_MAXLEN) &&
        fm->min_len > fm->max_len)
        return sr_fail(r, path, "min_len", "must be at most max_len (%u)", (unsigned)fm->max_len);
    return 0;
}

static int sp_fault(struct scenario_reader *r, uint32_t f, const char *path,
                    const struct world_config *cfg, struct fault_rule *rule)
{
    int action, dir = 2;
    uint32_t p = sr_get(r, f, path, "p", 0), nth = sr_get(r, f, path, "nth", 0), m;
    memset(rule, 0, sizeof *rule);
    if (sr_object(r, f, path, sp_fault_keys) != 0 ||
        sr_enum(r, f, path, "action", sp_actions, 1, &action) != 0 ||
        sr_enum(r, f, path, "dir", sp_dirs, 0, &dir) != 0)
        return -1;
    rule->action = (uint8_t)action;
    rule->dirs = dir == 0 ? FAULT_DIR_AB : dir == 1 ? FAULT_DIR_BA : FAULT_DIR_BOTH;
    if ((p == JSON_NONE) == (nth == JSON_NONE))
        return sr_fail(r, path, NULL, "give exactly one of \"p\" (random) and \"nth\" (targeted)");
    if (p != JSON_NONE && json_get_ppm(&r->doc, p, &rule->p_ppm) != 0)
        return sr_fail(r, path, "p", "must be a probability from 0 to 1");
    rule->count = 1;
    if (nth != JSON_NONE && (sr_u32(r, f, path, "nth", 1, 0xFFFFFFFFu, 1, &rule->nth) != 0 ||
                             sr_u32(r, f, path, "count", 1, 0xFFFFFFFFu, 0, &rule->count) != 0))
        return -1;
    if (nth == JSON_NONE && json_object_get(&r->doc, f, "count") != JSON_NONE)
        return sr_fail(r, path, "count", "only goes with \"nth\"");
    if (action == FAULT_DELAY) {
        if (sr_u32(r, f, path, "delay_us", 1, 60000000, 1, &rule->delay_us) != 0)
            return -1;
    } else if (json_object_get(&r->doc, f, "delay_us") != JSON_NONE) {
        return sr_fail(r, path, "delay_us", "only goes with \"action\": \"delay\"");
    }
    m = json_object_get(&r->doc, f, "match");
    if (m != JSON_NONE) {
        char sub[96];
        snprintf(sub, sizeof sub, "%s.match", path);
        return sp_match(r, m, sub, cfg, &rule->match);
    }
    return 0;
}

int scenario_faults_read(struct scenario_reader *r, uint32_t t, const char *link_path,
                         const struct world_config *cfg, struct world_link_config *l)
{
    uint32_t i, e, n;
    char path[64];
    if (r->doc.tok[t].type != JSON_ARRAY)
        return sr_fail(r, link_path, "faults", "must be an array");
    n = r->doc.tok[t].size;
    if (n > WORLD_MAX_FAULTS)
        return sr_fail(r, link_path, "faults", "must have at most %u entries", WORLD_MAX_FAULTS);
    for (i = 0, e = t + 1; i < n; i++, e = r->doc.tok[e].next) {
        snprintf(path, sizeof path, "%s.faults[%u]", link_path, i);
        if (sp_fault(r, e, path, cfg, &l->faults[i]) != 0)
            return -1;
    }
    l->n_faults = (uint8_t)n;
    return 0;
}
