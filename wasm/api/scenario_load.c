/* A scenario file into a struct world_config: the top level, hosts, bridges, links and
 * capture here; faults and applications in scenario_parts.c; the stack in
 * scenario_stack.c. docs/scenario-format.md is the specification. */
#include "scenario_load.h"

#include <stdio.h>
#include <string.h>

#include "scenario_parts.h"
#include "scenario_stack.h"

/* "reference" is a replay's seed figures (docs/replays.md): the command and the page read
 * it, the engine accepts it and reads nothing in it. */
static const char *const sl_top_keys[] = { "version", "name", "title", "description", "seed",
                                           "duration_ms", "hosts", "bridges", "links", "apps",
                                           "capture", "reference", NULL };
static const char *const sl_host_keys[] = { "name", "addr", "stack", NULL };
static const char *const sl_bridge_keys[] = { "name", "channel_sensing", NULL };
static const char *const sl_link_types[] = { "serial", "nfc", "ethernet", "external", NULL };
static const char *const sl_framings[] = { "slip", "cslip", "slip6", NULL };
static const char *const sl_serial_keys[] = { "name", "type", "a", "b", "faults", "baud",
                                              "bits_per_char", "framing", "leading_end", "qlen",
                                              "mtu", "latency_us", NULL };
static const char *const sl_nfc_keys[] = { "name", "type", "a", "b", "faults", "rate_kbps",
                                           "chunk_bytes", "chunk_overhead", "pkt_overhead",
                                           "slot_period_us", "slot_air_us", "slot_phase_us",
                                           "lead_us", "uart_baud", "uart_bits_per_char", "qlen",
                                           "mtu", "channel", "module_buffer", NULL };
static const char *const sl_nfc_channels[] = { "slot", "packet", NULL };
static const char *const sl_eth_keys[] = { "name", "type", "a", "b", "faults", "rate_bps",
                                           "delay_us", "jitter_us", "qlen", "mtu", NULL };
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

/* An array member: its token and element count, or JSON_NONE when absent. */
static uint32_t sl_array(struct scenario_reader *r, uint32_t obj, const char *key, uint32_t min,
                         uint32_t max, int required, uint32_t *n)
{
    uint32_t t = sr_get(r, obj, "", key, required);
    *n = 0;
    if (t == JSON_NONE)
        return JSON_NONE;
    if (r->doc.tok[t].type != JSON_ARRAY) {
        sr_fail(r, "", key, "must be an array, not %s", json_type_name(r->doc.tok[t].type));
        return JSON_NONE;
    }
    *n = r->doc.tok[t].size;
    if (*n < min || *n > max) {
        sr_fail(r, "", key, "must have %u to %u entries (it has %u)", min, max, *n);
        return JSON_NONE;
    }
    return t;
}

static int sl_name_unique(struct scenario_reader *r, const struct world_config *cfg,
                          const char *path, const char *name)
{
    uint8_t i;
    if (scenario_node(cfg, name) >= 0)
        return sr_fail(r, path, "name", "\"%s\" is used twice", name);
    for (i = 0; i < cfg->n_links; i++)
        if (strcmp(cfg->links[i].name, name) == 0)
            return sr_fail(r, path, "name", "\"%s\" is used twice", name);
    return 0;
}

static int sl_hosts(struct scenario_reader *r, uint32_t root, struct world_config *cfg)
{
    uint32_t n, t = sl_array(r, root, "hosts", 1, WORLD_MAX_HOSTS, 1, &n), e, i;
    char path[32];
    if (t == JSON_NONE)
        return -1;
    for (i = 0, e = t + 1; i < n; i++, e = r->doc.tok[e].next) {
        struct world_host_config *h = &cfg->hosts[i];
        uint32_t st;
        uint8_t j;
        snprintf(path, sizeof path, "hosts[%u]", i);
        if (sr_object(r, e, path, sl_host_keys) != 0 || sr_name(r, e, path, "name", 1, h->name) != 0 ||
            sl_name_unique(r, cfg, path, h->name) != 0 ||
            sr_cidr(r, e, path, "addr", &h->addr, &h->prefix) != 0)
            return -1;
        if (h->prefix <= 30) {
            uint32_t host_bits = 0xFFFFFFFFu >> h->prefix;
            if ((h->addr & host_bits) == 0 || (h->addr & host_bits) == host_bits)
                return sr_fail(r, path, "addr", "is the %s address of its /%u subnet",
                               (h->addr & host_bits) ? "broadcast" : "network", h->prefix);
        }
        for (j = 0; j < cfg->n_hosts; j++)
            if (cfg->hosts[j].addr == h->addr)
                return sr_fail(r, path, "addr", "is also the address of host \"%s\"",
                               cfg->hosts[j].name);
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

static int sl_bridges(struct scenario_reader *r, uint32_t root, struct world_config *cfg)
{
    uint32_t n, t = sl_array(r, root, "bridges", 0, WORLD_MAX_BRIDGES, 0, &n), e, i;
    char path[32];
    if (r->failed)
        return -1;
    if (t == JSON_NONE)
        return 0;
    for (i = 0, e = t + 1; i < n; i++, e = r->doc.tok[e].next) {
        char name[WORLD_NAME_MAX];
        snprintf(path, sizeof path, "bridges[%u]", i);
        if (sr_object(r, e, path, sl_bridge_keys) != 0 || sr_name(r, e, path, "name", 1, name) != 0 ||
            sl_name_unique(r, cfg, path, name) != 0 ||
            sr_bool(r, e, path, "channel_sensing", &cfg->bridge_sensing[cfg->n_bridges]) != 0)
            return -1;
        strcpy(cfg->bridges[cfg->n_bridges++], name);
    }
    return 0;
}

static int sl_end(struct scenario_reader *r, uint32_t e, const char *path, const char *key,
                  const struct world_config *cfg, uint8_t *node)
{
    char name[WORLD_NAME_MAX];
    int k;
    if (sr_name(r, e, path, key, 1, name) != 0)
        return -1;
    k = scenario_node(cfg, name);
    if (k < 0)
        return sr_fail(r, path, key, "names \"%s\", which is neither a host nor a bridge", name);
    *node = (uint8_t)k;
    return 0;
}

static int sl_serial(struct scenario_reader *r, uint32_t e, const char *path,
                     struct world_link_config *l, int external)
{
    struct link_serial_config *c = &l->serial;
    uint32_t lat = sr_get(r, e, path, "latency_us", 0), v;
    int framing = LINK_SERIAL_SLIP;
    c->baud = 57600;
    c->bits_per_char = 10;
    c->leading_end = 1;
    c->qlen = 10;
    c->mtu = 1500;
    if (sr_object(r, e, path, external ? sl_ext_keys : sl_serial_keys) != 0 ||
        sr_enum(r, e, path, "framing", sl_framings, 0, &framing) != 0)
        return -1;
    c->framing = (uint8_t)framing;
    v = c->mtu;
    if (sr_u32(r, e, path, "mtu", 68, 65535, 0, &v) != 0)
        return -1;
    c->mtu = (uint16_t)v;
    if (external) {
        if (framing == LINK_SERIAL_CSLIP)
            return sr_fail(r, path, "framing", "must be slip or slip6 on an external link");
        return 0;
    }
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
    if (lat != JSON_NONE && r->doc.tok[lat].type == JSON_ARRAY) {
        uint64_t x;
        if (r->doc.tok[lat].size != 2 || json_get_u64(&r->doc, lat + 1, &x) != 0 ||
            x > 10000000)
            return sr_fail(r, path, "latency_us", "must be an integer from 0 to 10000000 or [a to b, b to a]");
        c->latency_us[0] = (uint32_t)x;
        if (json_get_u64(&r->doc, r->doc.tok[lat + 1].next, &x) != 0 || x > 10000000)
            return sr_fail(r, path, "latency_us", "must be an integer from 0 to 10000000 or [a to b, b to a]");
        c->latency_us[1] = (uint32_t)x;
    } else if (lat != JSON_NONE) {
        if (sr_u32(r, e, path, "latency_us", 0, 10000000, 0, &c->latency_us[0]) != 0)
            return -1;
        c->latency_us[1] = c->latency_us[0];
    }
    return 0;
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
        return sr_fail(r, path, "module_buffer", "must be [end a, end b], bytes from 0 to 2048");
    for (i = 0, x = t + 1; i < 2; i++, x = r->doc.tok[x].next) {
        if (json_get_u64(&r->doc, x, &v) != 0 || v > 2048)
            return sr_fail(r, path, "module_buffer", "must be [end a, end b], bytes from 0 to 2048");
        c->module_buffer[i] = (uint16_t)v;
    }
    return 0;
}

static int sl_nfc(struct scenario_reader *r, uint32_t e, const char *path,
                  struct world_link_config *l)
{
    struct link_nfc_config *c = &l->nfc;
    uint32_t rate = 212, v;
    int channel = LINK_NFC_CHANNEL_SLOT;
    if (sr_object(r, e, path, sl_nfc_keys) != 0 ||
        sr_u32(r, e, path, "rate_kbps", 212, 424, 0, &rate) != 0)
        return -1;
    if (rate != 212 && rate != 424)
        return sr_fail(r, path, "rate_kbps", "must be 212 or 424");
    link_nfc_config_default(c, rate == 424);
#define SL_NFC(field, min, max)                                        \
    v = c->field;                                                      \
    if (sr_u32(r, e, path, #field, min, max, 0, &v) != 0)              \
        return -1;                                                     \
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
    if (c->chunk_overhead >= c->chunk_bytes)
        return sr_fail(r, path, "chunk_overhead", "must be less than chunk_bytes (%u)",
                       (unsigned)c->chunk_bytes);
    if (c->slot_air_us > c->slot_period_us)
        return sr_fail(r, path, "slot_air_us", "must not exceed slot_period_us");
    if (c->slot_phase_us >= c->slot_period_us)
        return sr_fail(r, path, "slot_phase_us", "must be less than slot_period_us");
    if (c->lead_us > c->slot_period_us)
        return sr_fail(r, path, "lead_us", "must not exceed slot_period_us");
    return 0;
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
    uint32_t faults;
    if (r->doc.tok[e].type != JSON_OBJECT)
        return sr_fail(r, path, NULL, "must be an object, not %s",
                       json_type_name(r->doc.tok[e].type));
    if (sr_name(r, e, path, "name", 1, l->name) != 0 || sl_name_unique(r, cfg, path, l->name) != 0 ||
        sr_enum(r, e, path, "type", sl_link_types, 1, &type) != 0)
        return -1;
    l->type = (uint8_t)type;
    if (sl_end(r, e, path, "a", cfg, &l->a) != 0)
        return -1;
    if (type == WORLD_LINK_EXTERNAL) {
        l->b = WORLD_NODE_NONE;
        if (l->a >= cfg->n_hosts)
            return sr_fail(r, path, "a", "must be a host on an external link");
    } else {
        if (sl_end(r, e, path, "b", cfg, &l->b) != 0)
            return -1;
        if (l->a == l->b)
            return sr_fail(r, path, "b", "must differ from a");
    }
    if ((type == WORLD_LINK_SERIAL || type == WORLD_LINK_EXTERNAL) &&
        sl_serial(r, e, path, l, type == WORLD_LINK_EXTERNAL) != 0)
        return -1;
    if (type == WORLD_LINK_NFC && sl_nfc(r, e, path, l) != 0)
        return -1;
    if (type == WORLD_LINK_ETHERNET && sl_eth(r, e, path, l) != 0)
        return -1;
    faults = json_object_get(&r->doc, e, "faults");
    if (faults != JSON_NONE && scenario_faults_read(r, faults, path, cfg, l) != 0)
        return -1;
    return 0;
}

static int sl_links(struct scenario_reader *r, uint32_t root, struct world_config *cfg)
{
    uint32_t n, t = sl_array(r, root, "links", 1, WORLD_MAX_LINKS, 1, &n), e, i;
    char path[32];
    uint8_t node, count;
    if (t == JSON_NONE)
        return -1;
    for (i = 0, e = t + 1; i < n; i++, e = r->doc.tok[e].next) {
        snprintf(path, sizeof path, "links[%u]", i);
        if (sl_link(r, e, path, cfg, &cfg->links[i]) != 0)
            return -1;
        cfg->n_links++;
    }
    for (node = 0; node < cfg->n_hosts + cfg->n_bridges; node++) {
        int host = node < cfg->n_hosts;
        count = 0;
        for (i = 0; i < cfg->n_links; i++)
            count += (cfg->links[i].a == node) + (cfg->links[i].b == node);
        snprintf(path, sizeof path, "%s[%u]", host ? "hosts" : "bridges",
                 host ? node : node - cfg->n_hosts);
        if (host && count != 1)
            return sr_fail(r, path, NULL, "host \"%s\" must be on exactly one link (it is on %u)",
                           cfg->hosts[node].name, count);
        if (!host && count != 2)
            return sr_fail(r, path, NULL, "bridge \"%s\" must join exactly two links (it joins %u)",
                           cfg->bridges[node - cfg->n_hosts], count);
    }
    return 0;
}

static int sl_capture(struct scenario_reader *r, uint32_t root, struct world_config *cfg)
{
    uint32_t n, t = sl_array(r, root, "capture", 0, WORLD_MAX_LINKS, 0, &n), e, i;
    if (r->failed)
        return -1;
    if (t == JSON_NONE) {
        for (i = 0; i < cfg->n_links; i++)
            cfg->capture[i] = (uint8_t)i;
        cfg->n_capture = cfg->n_links;
        return 0;
    }
    for (i = 0, e = t + 1; i < n; i++, e = r->doc.tok[e].next) {
        char name[WORLD_NAME_MAX], path[32];
        uint8_t k, j;
        snprintf(path, sizeof path, "capture[%u]", i);
        if (json_string_copy(&r->doc, e, name, sizeof name) != 0)
            return sr_fail(r, path, NULL, "must be the name of a link");
        for (k = 0; k < cfg->n_links && strcmp(cfg->links[k].name, name) != 0; k++)
            ;
        if (k == cfg->n_links)
            return sr_fail(r, path, NULL, "names \"%s\", which is not a link", name);
        for (j = 0; j < cfg->n_capture; j++)
            if (cfg->capture[j] == k)
                return sr_fail(r, path, NULL, "link \"%s\" is listed twice", name);
        cfg->capture[cfg->n_capture++] = k;
    }
    return 0;
}

int scenario_load(struct world_config *cfg, const char *json, uint32_t len, char *err,
                  size_t errlen)
{
    struct scenario_reader r;
    uint64_t v;
    char name[64];
    int rc = -1;

    memset(cfg, 0, sizeof *cfg);
    if (len > SCENARIO_MAX_BYTES) {
        snprintf(err, errlen, "the file is larger than %u bytes", SCENARIO_MAX_BYTES);
        return -1;
    }
    if (sr_open(&r, json, len, SCENARIO_MAX_TOKENS, "", err, errlen) != 0)
        goto out;
    if (sr_object(&r, 0, "", sl_top_keys) != 0 ||
        sr_uint(&r, 0, "", "version", 1, 1, 1, &v) != 0 ||
        sr_string(&r, 0, "", "name", name, sizeof name) != 0)
        goto out;
    if (!name[0] || strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(name) ||
        name[0] == '-') {
        sr_fail(&r, "", "name", "must be lowercase letters, digits and -, not starting with -");
        goto out;
    }
    if (sr_get(&r, 0, "", "title", 1) == JSON_NONE)
        goto out;
    cfg->seed = 1;
    if (sr_u32(&r, 0, "", "seed", 0, 0xFFFFFFFFu, 0, &cfg->seed) != 0 ||
        sr_uint(&r, 0, "", "duration_ms", 1, WORLD_MAX_DURATION_US / 1000, 1, &v) != 0)
        goto out;
    cfg->duration_us = v * 1000u;
    if (sl_hosts(&r, 0, cfg) != 0 || sl_bridges(&r, 0, cfg) != 0 || sl_links(&r, 0, cfg) != 0 ||
        scenario_apps_read(&r, 0, cfg) != 0 || sl_capture(&r, 0, cfg) != 0)
        goto out;
    rc = 0;
out:
    sr_close(&r);
    return rc;
}
