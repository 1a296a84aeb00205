/* A link's faults (docs/scenario-format.md, "Faults"). */
#include "scenario_parts.h"

#include <stdio.h>
#include <string.h>

#include "ip.h"
#include "tcp.h"

static const char *const sp_fault_keys[] = { "action", "p",        "nth",   "count",
                                             "dir",    "delay_us", "match", NULL };
static const char *const sp_match_keys[] = { "from", "to",      "proto",   "tcp_flags", "payload",
                                             "port", "min_len", "max_len", NULL };
static const char *const sp_actions[] = { "drop", "corrupt", "duplicate", "delay", NULL };
static const char *const sp_dirs[] = { "ab", "ba", "both", NULL };
static const char *const sp_protos[] = { "icmp", "tcp", "udp", NULL };
static const uint8_t sp_proto_numbers[] = { IP_PROTO_ICMP, IP_PROTO_TCP, IP_PROTO_UDP };

static int sp_host_addr(struct scenario_reader *r, uint32_t m, const char *path, const char *key,
                        const struct world_config *cfg, uint32_t *addr)
{
    int k = scenario_host_ref(r, m, path, key, cfg, 0);
    if (k < 0)
        return -1;
    *addr = cfg->hosts[k].addr;
    return 0;
}

/* One to six of the letters SAFRPU, each a flag that must be set. */
static int sp_tcp_flags(struct scenario_reader *r, uint32_t m, const char *path, uint8_t *out)
{
    static const char letters[] = "FSRPAU"; /* bit order of the flags byte, RFC 9293 3.1 */
    char buf[8];
    uint32_t t = sr_get(r, m, path, "tcp_flags", 1);
    size_t i;
    *out = 0;
    if (json_string_copy(&r->doc, t, buf, sizeof buf) != 0 || buf[0] == '\0' || strlen(buf) > 6 ||
        strspn(buf, letters) != strlen(buf))
        return sr_fail(r, path, "tcp_flags",
                       "must be one to 6 of the letters S, A, F, R, P, U "
                       "(SYN, ACK, FIN, RST, PSH, URG)");
    for (i = 0; buf[i]; i++)
        *out |= (uint8_t)(1u << (strchr(letters, buf[i]) - letters));
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
    if ((fm->has & FAULT_MATCH_MINLEN) && (fm->has & FAULT_MATCH_MAXLEN)) {
        struct sr_side lo = sr_side(r, m, "min_len", fm->min_len);
        struct sr_side hi = sr_side(r, m, "max_len", fm->max_len);
        return sr_order(r, path, &lo, &hi, 0);
    }
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
    if (p != JSON_NONE && json_get_ppm(&r->doc, p, &rule->p_ppm) != 0)
        return sr_fail(r, path, "p", "must be a number between 0 and 1");
    rule->count = 1;
    if (nth != JSON_NONE && (sr_u32(r, f, path, "nth", 1, 0xFFFFFFFFu, 1, &rule->nth) != 0 ||
                             sr_u32(r, f, path, "count", 1, 0xFFFFFFFFu, 0, &rule->count) != 0))
        return -1;
    if (p != JSON_NONE && nth != JSON_NONE)
        return sr_fail(r, path, NULL, "must have exactly one of \"p\" and \"nth\", not both");
    if (p == JSON_NONE && nth == JSON_NONE)
        return sr_fail(r, path, NULL,
                       "must have one of \"p\" (a probability) and \"nth\" (act "
                       "on the nth matching frame)");
    if (nth == JSON_NONE && sr_has(r, f, "count"))
        return sr_fail(r, path, "count",
                       "is only used with \"nth\" (with \"p\" each frame is "
                       "decided on its own)");
    if (action == FAULT_DELAY && !sr_has(r, f, "delay_us"))
        return sr_fail(r, path, "delay_us", "is required when action is \"delay\"");
    if (sr_u32(r, f, path, "delay_us", 1, 60000000, 0, &rule->delay_us) != 0)
        return -1;
    if (action != FAULT_DELAY && sr_has(r, f, "delay_us"))
        return sr_fail(r, path, "delay_us",
                       "is only used when action is \"delay\" (here it is "
                       "\"%s\")",
                       sp_actions[action]);
    m = json_object_get(&r->doc, f, "match");
    if (m != JSON_NONE) {
        char sub[96];
        snprintf(sub, sizeof sub, "%s.match", path);
        return sp_match(r, m, sub, cfg, &rule->match);
    }
    return 0;
}

int scenario_faults_read(struct scenario_reader *r, uint32_t link, const char *link_path,
                         const struct world_config *cfg, struct world_link_config *l)
{
    uint32_t i, e, n, t = sr_array(r, link, link_path, "faults", 0, WORLD_MAX_FAULTS, 0, &n);
    char path[64];
    if (t == JSON_NONE)
        return r->failed ? -1 : 0;
    for (i = 0, e = t + 1; i < n; i++, e = r->doc.tok[e].next) {
        snprintf(path, sizeof path, "%s.faults[%u]", link_path, i);
        if (sp_fault(r, e, path, cfg, &l->faults[i]) != 0)
            return -1;
    }
    l->n_faults = (uint8_t)n;
    return 0;
}
