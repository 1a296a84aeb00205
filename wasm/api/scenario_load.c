/* A scenario file into a struct world_config: the top level, hosts, bridges, links and
 * capture here; how hosts and bridges attach to links and share subnets in
 * scenario_topology.c; faults in scenario_parts.c; applications in scenario_apps.c; the
 * stack in scenario_stack.c. docs/scenario-format.md is the specification, and every rule
 * and message is the one web/src/core/scenarios applies (schema.json, semantic.ts). */
#include "scenario_load.h"

#include <stdio.h>
#include <string.h>

#include "scenario_parts.h"
#include "scenario_stack.h"

/* "reference" is a replay's seed figures (docs/replays.md): the command and the page read
 * it, the engine accepts it and reads nothing in it. */
static const char *const sl_top_keys[] = { "version", "name",        "title",   "description",
                                           "seed",    "duration_ms", "hosts",   "bridges",
                                           "links",   "apps",        "capture", "reference",
                                           NULL };
static const char *const sl_host_keys[] = { "name", "addr", "stack", NULL };
static const char *const sl_bridge_keys[] = { "name", "channel_sensing", NULL };
static const char *const sl_link_types[] = { "serial", "nfc", "ethernet", "external", NULL };
static const char *const sl_framings[] = { "slip", "cslip", "slip6", NULL };
static const char *const sl_ext_framings[] = { "slip", "slip6", NULL };
static const char *const sl_serial_keys[] = {
    "name",    "type",        "a",    "b",   "faults",     "baud", "bits_per_char",
    "framing", "leading_end", "qlen", "mtu", "latency_us", NULL
};
static const char *const sl_nfc_keys[] = { "name",
                                           "type",
                                           "a",
                                           "b",
                                           "faults",
                                           "rate_kbps",
                                           "chunk_bytes",
                                           "chunk_overhead",
                                           "pkt_overhead",
                                           "slot_period_us",
                                           "slot_air_us",
                                           "slot_phase_us",
                                           "lead_us",
                                           "uart_baud",
                                           "uart_bits_per_char",
                                           "qlen",
                                           "mtu",
                                           "module_buffer",
                                           "channel",
                                           NULL };
static const char *const sl_nfc_channels[] = { "slot", "packet", "a_first", NULL };
static const char *const sl_eth_keys[] = { "name",   "type",     "a",        "b",
                                           "faults", "rate_bps", "delay_us", "jitter_us",
                                           "qlen",   "mtu",      NULL };
static const char *const sl_ext_keys[] = { "name", "type", "a", "faults", "framing", "mtu", NULL };

/* Index of the host or bridge called `name` (hosts first), or -1. */
int scenario_node(const struct world_config *cfg, const char *name)
{
    uint8_t i;
    for (i = 0; i < cfg->n_hosts; i++)
        if (strcmp(cfg->hosts[i].name, name) == 0)
            return i;
    for (i = 0; i < cfg->n_bridges; i++)
        if (strcmp(cfg->bridges[i], name) == 0)
            return cfg->n_hosts + i;
    return -1;
}

int scenario_is_link(const struct scenario_reader *r, const char *name)
{
    uint32_t links = json_object_get(&r->doc, 0, "links"), e;
    if (links == JSON_NONE || r->doc.tok[links].type != JSON_ARRAY)
        return 0;
    for (e = links + 1; e < r->doc.tok[links].next; e = r->doc.tok[e].next)
        if (json_string_eq(&r->doc, json_object_get(&r->doc, e, "name"), name))
            return 1;
    return 0;
}

/* Hosts, bridges and links share one namespace; the first of two equal names keeps it. */
static int sl_name_unique(struct scenario_reader *r, const struct world_config *cfg,
                          const char *path, const char *name)
{
    char prior[24];
    int k = scenario_node(cfg, name);
    uint8_t i;
    if (k >= 0) {
        snprintf(prior, sizeof prior, "%s[%u]", k < cfg->n_hosts ? "hosts" : "bridges",
                 (unsigned)(k < cfg->n_hosts ? k : k - cfg->n_hosts));
    } else {
        for (i = 0; i < cfg->n_links && strcmp(cfg->links[i].name, name) != 0; i++)
            ;
        if (i == cfg->n_links)
            return 0;
        snprintf(prior, sizeof prior, "links[%u]", (unsigned)i);
    }
    return sr_fail(r, path, "name",
                   "\"%s\" is already the name of %s; hosts, bridges and links share one namespace",
                   name, prior);
}

/* The host's address: usable by a host (RFC 1122 3.2.1.3) and no other host's. */
static int sl_host_addr(struct scenario_reader *r, uint32_t e, const char *path,
                        const struct world_config *cfg, struct world_host_config *h)
{
    char why[128], ip[16];
    uint8_t j;
    if (sr_cidr(r, e, path, "addr", &h->addr, &h->prefix) != 0)
        return -1;
    if (sr_addr_problem(h->addr, h->prefix, why, sizeof why) != 0)
        return sr_fail(r, path, "addr", "%s", why);
    sr_ip_text(h->addr, ip, sizeof ip);
    for (j = 0; j < cfg->n_hosts; j++)
        if (cfg->hosts[j].addr == h->addr)
            return sr_fail(r, path, "addr", "%s is already the address of host \"%s\"", ip,
                           cfg->hosts[j].name);
    return 0;
}

static int sl_hosts(struct scenario_reader *r, struct world_config *cfg)
{
    uint32_t n, t = sr_array(r, 0, "", "hosts", 1, WORLD_MAX_HOSTS, 1, &n), e, i;
    char path[32];
    if (t == JSON_NONE)
        return -1;
    for (i = 0, e = t + 1; i < n; i++, e = r->doc.tok[e].next) {
        struct world_host_config *h = &cfg->hosts[i];
        uint32_t st;
        snprintf(path, sizeof path, "hosts[%u]", i);
        if (sr_object(r, e, path, sl_host_keys) != 0 ||
            sr_name(r, e, path, "name", 1, h->name) != 0 ||
            sl_name_unique(r, cfg, path, h->name) != 0 || sl_host_addr(r, e, path, cfg, h) != 0)
            return -1;
        host_config_default(&h->stack);
        st = json_object_get(&r->doc, e, "stack");
        if (st != JSON_NONE) {
            char sub[48];
            snprintf(sub, sizeof sub, "%s.stack", path);
            if (scenario_stack_read(r, st, sub, &h->stack) != 0)
                return -1;
        }
        cfg->n_hosts++;
    }
    return 0;
}

static int sl_bridges(struct scenario_reader *r, struct world_config *cfg)
{
    uint32_t n, t = sr_array(r, 0, "", "bridges", 0, WORLD_MAX_BRIDGES, 0, &n), e, i;
    char path[32];
    if (r->failed)
        return -1;
    if (t == JSON_NONE)
        return 0;
    for (i = 0, e = t + 1; i < n; i++, e = r->doc.tok[e].next) {
        char name[WORLD_NAME_MAX];
        snprintf(path, sizeof path, "bridges[%u]", i);
        if (sr_object(r, e, path, sl_bridge_keys) != 0 ||
            sr_name(r, e, path, "name", 1, name) != 0 || sl_name_unique(r, cfg, path, name) != 0 ||
            sr_bool(r, e, path, "channel_sensing", &cfg->bridge_sensing[cfg->n_bridges]) != 0)
            return -1;
        strcpy(cfg->bridges[cfg->n_bridges++], name);
    }
    return 0;
}

/* latency_us: one value for both directions, or [ab, ba] (the schema's anyOf). */
static int sl_latency(struct scenario_reader *r, uint32_t e, const char *path,
                      struct link_serial_config *c)
{
    static const char both[] = "must be an integer between 0 and 10000000 or an array of 2 "
                               "values [ab, ba], each an integer between 0 and 10000000";
    uint32_t t = sr_get(r, e, path, "latency_us", 0), x, i;
    int64_t v;
    if (t == JSON_NONE)
        return 0;
    if (r->doc.tok[t].type == JSON_ARRAY) {
        if (r->doc.tok[t].size != 2)
            return sr_fail(r, path, "latency_us",
                           "must be an array of 2 values [ab, ba], each "
                           "an integer between 0 and 10000000");
        for (i = 0, x = t + 1; i < 2; i++, x = r->doc.tok[x].next) {
            char sub[48];
            snprintf(sub, sizeof sub, "latency_us[%u]", i);
            if (json_get_i64(&r->doc, x, &v) != 0 || v < 0 || v > 10000000)
                return sr_fail(r, path, sub, "must be an integer between 0 and 10000000");
            c->latency_us[i] = (uint32_t)v;
        }
        return 0;
    }
    if (json_get_i64(&r->doc, t, &v) != 0)
        return sr_fail(r, path, "latency_us", both);
    if (v < 0 || v > 10000000)
        return sr_fail(r, path, "latency_us", "must be an integer between 0 and 10000000");
    c->latency_us[0] = c->latency_us[1] = (uint32_t)v;
    return 0;
}

static int sl_serial(struct scenario_reader *r, uint32_t e, const char *path,
                     struct world_link_config *l, int external)
{
    struct link_serial_config *c = &l->serial;
    uint32_t v;
    int framing = LINK_SERIAL_SLIP;
    c->baud = 57600;
    c->bits_per_char = 10;
    c->leading_end = 1;
    c->qlen = 10;
    c->mtu = 1500;
    if (external && sr_has(r, e, "b"))
        return sr_fail(r, path, "b",
                       "unknown field \"b\": an external link has one end, a; the "
                       "other is the caller's serial port");
    if (sr_object(r, e, path, external ? sl_ext_keys : sl_serial_keys) != 0 ||
        sr_enum(r, e, path, "framing", external ? sl_ext_framings : sl_framings, 0, &framing) != 0)
        return -1;
    /* slip6 is the third framing of the serial link's list, the second of the external's. */
    c->framing = (uint8_t)(external && framing == 1 ? LINK_SERIAL_SLIP6 : framing);
    v = c->mtu;
    if (sr_u32(r, e, path, "mtu", 68, 65535, 0, &v) != 0)
        return -1;
    c->mtu = (uint16_t)v;
    if (external)
        return 0;
    v = c->bits_per_char;
    if (sr_u32(r, e, path, "baud", 50, 4000000, 1, &c->baud) != 0 ||
        sr_u32(r, e, path, "bits_per_char", 7, 12, 0, &v) != 0)
        return -1;
    c->bits_per_char = (uint8_t)v;
    v = c->qlen;
    if (sr_bool(r, e, path, "leading_end", &c->leading_end) != 0 ||
        sr_u32(r, e, path, "qlen", 0, 64, 0, &v) != 0)
        return -1;
    c->qlen = (uint8_t)v;
    return sl_latency(r, e, path, c);
}

/* module_buffer: [end a, end b], bytes each, 0 .. 2048 (0: the module holds one packet). */
static int sl_nfc_module_buffer(struct scenario_reader *r, uint32_t e, const char *path,
                                struct link_nfc_config *c)
{
    uint32_t t = sr_get(r, e, path, "module_buffer", 0), x;
    uint64_t v;
    int i;
    if (t == JSON_NONE)
        return 0;
    if (r->doc.tok[t].type != JSON_ARRAY || r->doc.tok[t].size != 2)
        return sr_fail(r, path, "module_buffer",
                       "must be an array of 2 values [ab, ba], each "
                       "an integer between 0 and 2048");
    for (i = 0, x = t + 1; i < 2; i++, x = r->doc.tok[x].next) {
        char sub[32];
        snprintf(sub, sizeof sub, "module_buffer[%d]", i);
        if (json_get_u64(&r->doc, x, &v) != 0 || v > 2048)
            return sr_fail(r, path, sub, "must be an integer between 0 and 2048");
        c->module_buffer[i] = (uint16_t)v;
    }
    return 0;
}

/* The limits that name another field, against its value or its default (checkNfc() in
 * semantic.ts). */
static int sl_nfc_order(struct scenario_reader *r, uint32_t e, const char *path,
                        const struct link_nfc_config *c, uint32_t rate)
{
    char note[32];
    struct sr_side chunk = sr_side(r, e, "chunk_bytes", c->chunk_bytes);
    struct sr_side period = sr_side(r, e, "slot_period_us", c->slot_period_us);
    struct sr_side over = sr_side(r, e, "chunk_overhead", c->chunk_overhead);
    struct sr_side air = sr_side(r, e, "slot_air_us", c->slot_air_us);
    struct sr_side phase = sr_side(r, e, "slot_phase_us", c->slot_phase_us);
    struct sr_side lead = sr_side(r, e, "lead_us", c->lead_us);
    chunk.note = note;
    snprintf(note, sizeof note, ", the default at %u kbit/s", (unsigned)rate);
    return sr_order(r, path, &over, &chunk, 1) != 0 || sr_order(r, path, &air, &period, 0) != 0 ||
                   sr_order(r, path, &phase, &period, 1) != 0 ||
                   sr_order(r, path, &lead, &period, 0) != 0
               ? -1
               : 0;
}

static int sl_nfc(struct scenario_reader *r, uint32_t e, const char *path,
                  struct world_link_config *l)
{
    struct link_nfc_config *c = &l->nfc;
    uint32_t rate = 212, v, t;
    uint64_t x;
    int channel = LINK_NFC_CHANNEL_SLOT;
    if (sr_object(r, e, path, sl_nfc_keys) != 0)
        return -1;
    t = sr_get(r, e, path, "rate_kbps", 0);
    if (t != JSON_NONE) {
        if (json_get_u64(&r->doc, t, &x) != 0 || (x != 212 && x != 424))
            return sr_fail(r, path, "rate_kbps", "must be one of: 212, 424");
        rate = (uint32_t)x;
    }
    link_nfc_config_default(c, rate == 424);
#define SL_NFC(field, min, max)                           \
    v = c->field;                                         \
    if (sr_u32(r, e, path, #field, min, max, 0, &v) != 0) \
        return -1;                                        \
    c->field = v
    SL_NFC(chunk_bytes, 5, 255);
    SL_NFC(chunk_overhead, 0, 64);
    SL_NFC(pkt_overhead, 0, 255);
    SL_NFC(slot_period_us, 100, 1000000);
    SL_NFC(slot_air_us, 1, 1000000);
    SL_NFC(slot_phase_us, 0, 999999);
    SL_NFC(lead_us, 0, 1000000);
    SL_NFC(uart_baud, 1200, 4000000);
    SL_NFC(uart_bits_per_char, 7, 12);
    SL_NFC(qlen, 0, 64);
    SL_NFC(mtu, 68, 2048);
#undef SL_NFC
    if (sr_enum(r, e, path, "channel", sl_nfc_channels, 0, &channel) != 0)
        return -1;
    c->channel = (uint8_t)channel;
    if (sl_nfc_module_buffer(r, e, path, c) != 0)
        return -1;
    return sl_nfc_order(r, e, path, c, rate);
}

static int sl_eth(struct scenario_reader *r, uint32_t e, const char *path,
                  struct world_link_config *l)
{
    struct link_eth_config *c = &l->eth;
    uint32_t q = 100, mtu = 1500;
    c->rate_bps = 100000000;
    c->delay_us = 0;
    c->jitter_us = 0;
    if (sr_object(r, e, path, sl_eth_keys) != 0 ||
        sr_uint(r, e, path, "rate_bps", 1000, 10000000000ull, 0, &c->rate_bps) != 0 ||
        sr_u32(r, e, path, "delay_us", 0, 10000000, 0, &c->delay_us) != 0 ||
        sr_u32(r, e, path, "jitter_us", 0, 10000000, 0, &c->jitter_us) != 0 ||
        sr_u32(r, e, path, "qlen", 0, 1000, 0, &q) != 0 ||
        sr_u32(r, e, path, "mtu", 68, 9000, 0, &mtu) != 0)
        return -1;
    c->qlen = (uint16_t)q;
    c->mtu = (uint16_t)mtu;
    return 0;
}

static int sl_link(struct scenario_reader *r, uint32_t e, const char *path,
                   struct world_config *cfg, struct world_link_config *l)
{
    int type;
    if (r->doc.tok[e].type != JSON_OBJECT)
        return sr_fail(r, path, NULL, "must be an object");
    if (sr_enum(r, e, path, "type", sl_link_types, 1, &type) != 0 ||
        sr_name(r, e, path, "name", 1, l->name) != 0 || sl_name_unique(r, cfg, path, l->name) != 0)
        return -1;
    l->type = (uint8_t)type;
    l->b = WORLD_NODE_NONE;
    if (scenario_link_end(r, e, path, "a", cfg, l, &l->a) != 0 ||
        (type != WORLD_LINK_EXTERNAL && scenario_link_end(r, e, path, "b", cfg, l, &l->b) != 0))
        return -1;
    if ((type == WORLD_LINK_SERIAL || type == WORLD_LINK_EXTERNAL) &&
        sl_serial(r, e, path, l, type == WORLD_LINK_EXTERNAL) != 0)
        return -1;
    if (type == WORLD_LINK_NFC && sl_nfc(r, e, path, l) != 0)
        return -1;
    if (type == WORLD_LINK_ETHERNET && sl_eth(r, e, path, l) != 0)
        return -1;
    return scenario_faults_read(r, e, path, cfg, l);
}

static int sl_links(struct scenario_reader *r, struct world_config *cfg)
{
    uint32_t n, t = sr_array(r, 0, "", "links", 1, WORLD_MAX_LINKS, 1, &n), e, i;
    char path[32];
    if (t == JSON_NONE)
        return -1;
    for (i = 0, e = t + 1; i < n; i++, e = r->doc.tok[e].next) {
        snprintf(path, sizeof path, "links[%u]", i);
        if (sl_link(r, e, path, cfg, &cfg->links[i]) != 0)
            return -1;
        cfg->n_links++;
    }
    return scenario_topology_check(r, cfg);
}

static int sl_capture(struct scenario_reader *r, struct world_config *cfg)
{
    uint32_t n, t = sr_array(r, 0, "", "capture", 0, WORLD_MAX_LINKS, 0, &n), e, i;
    if (r->failed)
        return -1;
    if (t == JSON_NONE) {
        for (i = 0; i < cfg->n_links; i++)
            cfg->capture[i] = (uint8_t)i;
        cfg->n_capture = cfg->n_links;
        return 0;
    }
    for (i = 0, e = t + 1; i < n; i++, e = r->doc.tok[e].next) {
        char name[WORLD_NAME_MAX], path[32], known[160];
        uint8_t k, j;
        int node;
        snprintf(path, sizeof path, "capture[%u]", i);
        if (sr_name_value(r, e, path, NULL, name) != 0)
            return -1;
        for (k = 0; k < cfg->n_links && strcmp(cfg->links[k].name, name) != 0; k++)
            ;
        for (j = 0; j < cfg->n_capture && k < cfg->n_links; j++)
            if (cfg->capture[j] == k)
                return sr_fail(r, path, NULL, "\"%s\" is listed twice (also capture[%u])", name,
                               (unsigned)j);
        node = scenario_node(cfg, name);
        if (node >= 0)
            return sr_fail(r, path, NULL, "names %s \"%s\", not a link",
                           node < cfg->n_hosts ? "host" : "bridge", name);
        if (k == cfg->n_links) {
            scenario_known(cfg, 0, 0, 1, known, sizeof known);
            return sr_fail(r, path, NULL, "names link \"%s\", which does not exist%s", name, known);
        }
        cfg->capture[cfg->n_capture++] = k;
    }
    return 0;
}

/* The scenario's name: `stackscope run NAME` finds it, so it is short and plain. */
static int sl_scenario_name(struct scenario_reader *r)
{
    char name[64];
    uint32_t t = sr_get(r, 0, "", "name", 1);
    if (t == JSON_NONE)
        return -1;
    if (json_string_copy(&r->doc, t, name, sizeof name) != 0 || !name[0] || name[0] == '-' ||
        strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(name))
        return sr_fail(r, "", "name",
                       "must be a name of at most 63 characters: a lowercase "
                       "letter or digit, then lowercase letters, digits or \"-\"");
    return 0;
}

/* version, name, title and description: what the engine checks and does not keep. */
static int sl_heading(struct scenario_reader *r)
{
    uint64_t v;
    uint32_t t = sr_get(r, 0, "", "version", 1);
    if (t == JSON_NONE)
        return -1;
    if (json_get_u64(&r->doc, t, &v) != 0 || v != 1)
        return sr_fail(r, "", "version", "must be 1");
    if (sl_scenario_name(r) != 0 || (t = sr_get(r, 0, "", "title", 1)) == JSON_NONE)
        return -1;
    if (r->doc.tok[t].type != JSON_STRING || r->doc.tok[t].size == 0)
        return sr_fail(r, "", "title", "must be a non-empty string");
    t = sr_get(r, 0, "", "description", 0);
    if (t != JSON_NONE && r->doc.tok[t].type != JSON_STRING)
        return sr_fail(r, "", "description", "must be a string");
    return 0;
}

int scenario_load(struct world_config *cfg, const char *json, uint32_t len, char *err,
                  size_t errlen)
{
    struct scenario_reader r;
    uint64_t v;
    int rc = -1;

    memset(cfg, 0, sizeof *cfg);
    if (len > SCENARIO_MAX_BYTES) {
        snprintf(err, errlen, "the file is %lu bytes; a scenario file has at most %u bytes (1 MiB)",
                 (unsigned long)len, SCENARIO_MAX_BYTES);
        return -1;
    }
    if (sr_open(&r, json, len, SCENARIO_MAX_TOKENS, "", 1, err, errlen) != 0)
        goto out;
    if (r.doc.tok[0].type != JSON_OBJECT) {
        sr_fail(&r, "", NULL, "must be an object");
        goto out;
    }
    if (sr_object(&r, 0, "", sl_top_keys) != 0 || sl_heading(&r) != 0)
        goto out;
    cfg->seed = 1;
    if (sr_u32(&r, 0, "", "seed", 0, 0xFFFFFFFFu, 0, &cfg->seed) != 0 ||
        sr_uint(&r, 0, "", "duration_ms", 1, WORLD_MAX_DURATION_US / 1000, 1, &v) != 0)
        goto out;
    cfg->duration_us = v * 1000u;
    if (sl_hosts(&r, cfg) != 0 || sl_bridges(&r, cfg) != 0 || sl_links(&r, cfg) != 0 ||
        scenario_apps_read(&r, 0, cfg) != 0 || sl_capture(&r, cfg) != 0)
        goto out;
    rc = 0;
out:
    sr_close(&r);
    return rc;
}
