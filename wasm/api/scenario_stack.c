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

#define SKF(field, kind, min, max) { #field, kind, offsetof(struct host_config, field), min, max }

static const struct sk_field sk_fields[] = {
    SKF(ip_ttl, SK_U8, 1, 255),
    SKF(ip_frag, SK_BOOL, 0, 1),
    SKF(ip_reass_timeout_ms, SK_U32, 1, 600000),
    SKF(icmp_unreachable, SK_BOOL, 0, 1),
    SKF(tcp_max_pcbs, SK_U8, 1, 64),
    SKF(tcp_mss, SK_U16, 0, 65495),
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

static const char *const sk_cc[] = { "none", "fixed", "reno", "newreno", NULL };
static const char *const sk_rto[] = { "rfc6298", "vj_ticks", "fixed", "nfc_alg1", NULL };
static const char *const sk_delack[] = { "off", "standard", "nfc", NULL };
/* The nested tcp_nfc object: struct tcp_nfc_model, read through the same table form. */
#define SKN(field, kind, min, max) { #field, kind, offsetof(struct tcp_nfc_model, field), min, max }

static const struct sk_field sk_nfc_fields[] = {
    SKN(uart_baud, SK_U32, 1, 10000000),
    SKN(uart_bits_per_byte, SK_U8, 7, 12),
    SKN(chunk_payload, SK_U8, 1, 255),
    SKN(slot_ms, SK_U16, 1, 1000),
    SKN(max_slot_wait_ms, SK_U16, 0, 10000),
    SKN(rtt_wifi_ms, SK_U16, 0, 60000),
    SKN(round_ms, SK_U16, 1, 10000),
    SKN(r_window, SK_U8, 1, 16),
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

int scenario_stack_read(struct scenario_reader *r, uint32_t obj, const char *path,
                        struct host_config *cfg)
{
    const char *allowed[SK_N + 5];
    size_t i;
    int e;
    for (i = 0; i < SK_N; i++)
        allowed[i] = sk_fields[i].name;
    allowed[SK_N] = "tcp_cc";
    allowed[SK_N + 1] = "tcp_rto";
    allowed[SK_N + 2] = "tcp_delack";
    allowed[SK_N + 3] = "tcp_nfc";
    allowed[SK_N + 4] = NULL;
    if (sr_object(r, obj, path, allowed) != 0)
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
    if (sk_nfc(r, obj, path, &cfg->tcp_nfc) != 0)
        return -1;
    if (cfg->tcp_mss != 0 && cfg->tcp_mss < 64)
        return sr_fail(r, path, "tcp_mss", "must be 0 (from the MTU) or from 64 to 65495");
    if (cfg->tcp_rto_min_ms > cfg->tcp_rto_max_ms)
        return sr_fail(r, path, "tcp_rto_min_ms", "must not exceed tcp_rto_max_ms (%u)",
                       (unsigned)cfg->tcp_rto_max_ms);
    if (cfg->tcp_rto_initial_ms > cfg->tcp_rto_max_ms)
        return sr_fail(r, path, "tcp_rto_initial_ms", "must not exceed tcp_rto_max_ms (%u)",
                       (unsigned)cfg->tcp_rto_max_ms);
    return 0;
}
