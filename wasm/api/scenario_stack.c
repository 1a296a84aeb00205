/* A host's `stack` object: every field is one field of struct host_config with the same
 * name (docs/scenario-format.md, "stack"). Numbers and booleans go through one table; the
 * three enums and the nested tcp_nfc model are read by hand. */
#include "scenario_stack.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

enum sk_kind { SK_U8, SK_U16, SK_U32, SK_BOOL };

struct sk_field {
    const char *name;
    uint8_t kind;
    size_t off;
    uint32_t min, max;
};

#define SKF(field, kind, min, max)                                  \
    {                                                               \
#field, kind, offsetof(struct host_config, field), min, max \
    }

static const struct sk_field sk_fields[] = {
    SKF(ip_ttl, SK_U8, 1, 255),
    SKF(ip_frag, SK_BOOL, 0, 1),
    SKF(ip_reass_timeout_ms, SK_U32, 1, 600000),
    SKF(ip_reass_max, SK_U16, 576, 65535),   /* RFC 1122 3.3.2: at least 576 */
    SKF(ip_max_datagram, SK_U16, 68, 65535), /* RFC 791: 68 passes every link */
    SKF(icmp_unreachable, SK_BOOL, 0, 1),
    SKF(tcp_max_pcbs, SK_U8, 1, 64),
    SKF(tcp_snd_buf, SK_U32, 64, 1048576),
    SKF(tcp_rcv_buf, SK_U32, 64, 1048576),
    SKF(tcp_ooo, SK_BOOL, 0, 1),
    SKF(tcp_initial_cwnd, SK_U32, 0, 16777216),
    SKF(tcp_max_cwnd, SK_U32, 0, 16777216),
    SKF(tcp_cwnd_inc, SK_U32, 0, 16777216),
    SKF(tcp_dupack_thresh, SK_U8, 1, 255),
    SKF(tcp_rto_initial_ms, SK_U32, 1, 600000),
    SKF(tcp_rto_min_ms, SK_U32, 1, 600000),
    SKF(tcp_rto_max_ms, SK_U32, 1, 600000),
    SKF(tcp_timer_tick_ms, SK_U32, 0, 10000),
    SKF(tcp_fast_tick_ms, SK_U32, 0, 10000),
    SKF(tcp_timer_phase_ms, SK_U32, 0, 9999),
    SKF(tcp_timer_on_demand, SK_BOOL, 0, 1),
    SKF(tcp_delack_ms, SK_U32, 1, 499),
    SKF(tcp_time_wait_ms, SK_U32, 0, 600000),
    SKF(tcp_syn_retries, SK_U8, 0, 255),
    SKF(tcp_max_retries, SK_U8, 0, 255),
    SKF(tcp_nagle, SK_BOOL, 0, 1),
    SKF(tcp_timestamps, SK_BOOL, 0, 1),
    SKF(tcp_sack, SK_BOOL, 0, 1),
    SKF(tcp_channel_sensing, SK_BOOL, 0, 1),
    SKF(tcp_small_queues, SK_U8, 0, 64),
    SKF(tcp_eifel, SK_BOOL, 0, 1),
    SKF(tcp_responder, SK_BOOL, 0, 1),
    SKF(tcp_responder_conns, SK_U8, 1, 255),
    SKF(tcp_responder_wnd, SK_U16, 0, 65535),
};

#define SK_N (sizeof sk_fields / sizeof sk_fields[0])

/* The fields of `stack` in the schema's order, which a misspelt field's hint is looked for in
 * (the first nearest wins, as in schema_errors.ts). */
static const char *const sk_keys[] = { "ip_ttl",
                                       "ip_frag",
                                       "ip_reass_timeout_ms",
                                       "ip_reass_max",
                                       "ip_max_datagram",
                                       "icmp_unreachable",
                                       "tcp_max_pcbs",
                                       "tcp_mss",
                                       "tcp_snd_buf",
                                       "tcp_rcv_buf",
                                       "tcp_ooo",
                                       "tcp_cc",
                                       "tcp_initial_cwnd",
                                       "tcp_max_cwnd",
                                       "tcp_cwnd_inc",
                                       "tcp_dupack_thresh",
                                       "tcp_rto",
                                       "tcp_rto_initial_ms",
                                       "tcp_rto_min_ms",
                                       "tcp_rto_max_ms",
                                       "tcp_timer_tick_ms",
                                       "tcp_fast_tick_ms",
                                       "tcp_timer_phase_ms",
                                       "tcp_timer_on_demand",
                                       "tcp_delack",
                                       "tcp_delack_ms",
                                       "tcp_time_wait_ms",
                                       "tcp_syn_retries",
                                       "tcp_max_retries",
                                       "tcp_nagle",
                                       "tcp_timestamps",
                                       "tcp_sack",
                                       "tcp_channel_sensing",
                                       "tcp_small_queues",
                                       "tcp_eifel",
                                       "tcp_nfc",
                                       "tcp_responder",
                                       "tcp_responder_conns",
                                       "tcp_responder_wnd",
                                       NULL };

static const char *const sk_cc[] = { "none", "fixed", "reno", "newreno", NULL };
static const char *const sk_rto[] = { "rfc6298", "vj_ticks", "fixed", "nfc_alg1", NULL };
static const char *const sk_delack[] = { "off", "standard", "nfc", NULL };
/* The nested tcp_nfc object: struct tcp_nfc_model, read through the same table form. */
#define SKN(field, kind, min, max)                                    \
    {                                                                 \
#field, kind, offsetof(struct tcp_nfc_model, field), min, max \
    }

static const struct sk_field sk_nfc_fields[] = {
    SKN(uart_baud, SK_U32, 1, 10000000),     SKN(uart_bits_per_byte, SK_U8, 7, 12),
    SKN(chunk_payload, SK_U8, 1, 255),       SKN(slot_ms, SK_U16, 1, 1000),
    SKN(max_slot_wait_ms, SK_U16, 0, 10000), SKN(rtt_wifi_ms, SK_U16, 0, 60000),
    SKN(round_ms, SK_U16, 1, 10000),         SKN(r_window, SK_U8, 1, 16),
    SKN(frame_overhead, SK_U8, 0, 255),
};

#define SKN_N (sizeof sk_nfc_fields / sizeof sk_nfc_fields[0])

static int sk_field(struct scenario_reader *r, uint32_t obj, const char *path,
                    const struct sk_field *f, void *base)
{
    uint8_t *p = (uint8_t *)base + f->off;
    uint32_t v = 0;
    uint8_t b = 0;
    if (json_object_get(&r->doc, obj, f->name) == JSON_NONE)
        return 0;
    if (f->kind == SK_BOOL) {
        if (sr_bool(r, obj, path, f->name, &b) != 0)
            return -1;
        *p = b;
        return 0;
    }
    if (sr_u32(r, obj, path, f->name, f->min, f->max, 0, &v) != 0)
        return -1;
    if (f->kind == SK_U8) {
        *p = (uint8_t)v;
    } else if (f->kind == SK_U16) {
        uint16_t v16 = (uint16_t)v;
        memcpy(p, &v16, sizeof v16);
    } else {
        memcpy(p, &v, sizeof v);
    }
    return 0;
}

static int sk_nfc(struct scenario_reader *r, uint32_t obj, const char *path,
                  struct tcp_nfc_model *m)
{
    char sub[96];
    const char *keys[SKN_N + 1];
    uint32_t t = json_object_get(&r->doc, obj, "tcp_nfc");
    size_t i;
    if (t == JSON_NONE)
        return 0;
    snprintf(sub, sizeof sub, "%s.tcp_nfc", path);
    for (i = 0; i < SKN_N; i++)
        keys[i] = sk_nfc_fields[i].name;
    keys[SKN_N] = NULL;
    if (sr_object(r, t, sub, keys) != 0)
        return -1;
    for (i = 0; i < SKN_N; i++)
        if (sk_field(r, t, sub, &sk_nfc_fields[i], m) != 0)
            return -1;
    return 0;
}

/* tcp_mss: 0 (from the MTU) or 64 .. 65495, the schema's anyOf. */
static int sk_mss(struct scenario_reader *r, uint32_t obj, const char *path, struct host_config *c)
{
    uint32_t t = sr_get(r, obj, path, "tcp_mss", 0);
    uint64_t v;
    if (t == JSON_NONE)
        return 0;
    if (json_get_u64(&r->doc, t, &v) != 0 || (v != 0 && (v < 64 || v > 65495)))
        return sr_fail(r, path, "tcp_mss", "must be 0 or an integer between 64 and 65495");
    c->tcp_mss = (uint16_t)v;
    return 0;
}

static int sk_needs_ticks(struct scenario_reader *r, const char *path, const char *field)
{
    return sr_fail(r, path, field,
                   "is only used with coarse timers "
                   "(tcp_timer_tick_ms or tcp_fast_tick_ms above 0); here every timer is exact");
}

/* The limits between fields, against each other's values or defaults (checkStack() in
 * semantic.ts). The timer phase places the tick trains: less than the slow tick (the fast
 * one when only it is coarse), and nothing to place when every timer is exact; nor to
 * start on demand. */
static int sk_order(struct scenario_reader *r, uint32_t obj, const char *path,
                    const struct host_config *c)
{
    struct sr_side min = sr_side(r, obj, "tcp_rto_min_ms", c->tcp_rto_min_ms);
    struct sr_side max = sr_side(r, obj, "tcp_rto_max_ms", c->tcp_rto_max_ms);
    struct sr_side initial = sr_side(r, obj, "tcp_rto_initial_ms", c->tcp_rto_initial_ms);
    struct sr_side phase = sr_side(r, obj, "tcp_timer_phase_ms", c->tcp_timer_phase_ms);
    struct sr_side slow = sr_side(r, obj, "tcp_timer_tick_ms", c->tcp_timer_tick_ms);
    struct sr_side fast = sr_side(r, obj, "tcp_fast_tick_ms", c->tcp_fast_tick_ms);
    if (sr_order(r, path, &min, &max, 0) != 0 || sr_order(r, path, &initial, &max, 0) != 0)
        return -1;
    if (c->tcp_timer_on_demand && slow.value == 0 && fast.value == 0)
        return sk_needs_ticks(r, path, "tcp_timer_on_demand");
    if (c->tcp_timer_phase_ms == 0)
        return 0;
    if (slow.value == 0 && fast.value == 0)
        return sk_needs_ticks(r, path, "tcp_timer_phase_ms");
    return sr_order(r, path, &phase, slow.value > 0 ? &slow : &fast, 1);
}

int scenario_stack_read(struct scenario_reader *r, uint32_t obj, const char *path,
                        struct host_config *cfg)
{
    size_t i;
    int e;
    if (sr_object(r, obj, path, sk_keys) != 0)
        return -1;
    for (i = 0; i < SK_N; i++)
        if (sk_field(r, obj, path, &sk_fields[i], cfg) != 0)
            return -1;
    e = (int)cfg->tcp_cc;
    if (sr_enum(r, obj, path, "tcp_cc", sk_cc, 0, &e) != 0)
        return -1;
    cfg->tcp_cc = (enum tcp_cc_kind)e;
    e = (int)cfg->tcp_rto;
    if (sr_enum(r, obj, path, "tcp_rto", sk_rto, 0, &e) != 0)
        return -1;
    cfg->tcp_rto = (enum tcp_rto_kind)e;
    e = (int)cfg->tcp_delack;
    if (sr_enum(r, obj, path, "tcp_delack", sk_delack, 0, &e) != 0)
        return -1;
    cfg->tcp_delack = (enum tcp_delack_kind)e;
    if (sk_mss(r, obj, path, cfg) != 0 || sk_nfc(r, obj, path, &cfg->tcp_nfc) != 0)
        return -1;
    return sk_order(r, obj, path, cfg);
}
