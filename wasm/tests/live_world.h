/* A world driven through the engine API as the page drives it in real-time mode: the
 * clock moved on by hand, applications added while it runs, the records gathered after
 * every step and looked up again by type, app and kind.
 *
 * Header-only, for test_tcp_client.c and test_world_live.c (like app_world.h).
 */
#ifndef LIVE_WORLD_H
#define LIVE_WORLD_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "trace_rec.h"

/* Two hosts on SLIP at 57600 baud: a 10.0.7.1 and b 10.0.7.2; `stack_a` goes into a's
 * stack object, `link` into the link object, `apps` is the apps array. */
static inline char *live_scenario(const char *stack_a, const char *link, const char *apps)
{
    static const char fmt[] =
        "{\"version\":1,\"name\":\"t\",\"title\":\"t\",\"duration_ms\":600000,"
        "\"hosts\":[{\"name\":\"a\",\"addr\":\"10.0.7.1/24\",\"stack\":{%s}},"
        "{\"name\":\"b\",\"addr\":\"10.0.7.2/24\"}],"
        "\"links\":[{\"name\":\"s\",\"type\":\"serial\",\"a\":\"a\",\"b\":\"b\",\"baud\":57600%s}],"
        "\"apps\":[%s]}";
    size_t n = sizeof fmt + strlen(stack_a) + strlen(link) + strlen(apps);
    char *s = malloc(n);
    snprintf(s, n, fmt, stack_a, link, apps);
    return s;
}

static inline struct engine *live_load(const char *json)
{
    struct engine *e = engine_create();
    if (engine_load(e, json, (uint32_t)strlen(json)) != ENGINE_OK) {
        printf("    engine_load: %s\n", engine_error(e));
        engine_destroy(e);
        return NULL;
    }
    return e;
}

static inline int live_add(struct engine *e, const char *app)
{
    int rc = engine_app_add(e, app, (uint32_t)strlen(app));
    if (rc < 0)
        printf("    engine_app_add: %s\n", engine_error(e));
    return rc;
}

/* Every record written so far. */
struct live_log {
    uint8_t *p;
    uint32_t len;
};

static inline void live_take(struct live_log *l, struct engine *e)
{
    uint32_t n = engine_trace_len(e);
    l->p = realloc(l->p, l->len + n + 1);
    if (n)
        memcpy(l->p + l->len, engine_trace_ptr(e), n);
    l->len += n;
    engine_trace_clear(e);
}

static inline void live_run(struct live_log *l, struct engine *e, double until_us)
{
    engine_run(e, until_us);
    live_take(l, e);
}

static inline uint64_t live_rd64(const uint8_t *p)
{
    return trec_rd32(p) | (uint64_t)trec_rd32(p + 4) << 32;
}

/* The n-th record of `type` (from 0), or NULL. */
static inline const uint8_t *live_nth(const struct live_log *l, uint16_t type, uint32_t n)
{
    uint32_t off = 0;
    while (off + TREC_HDR <= l->len) {
        if (trec_rd16(l->p + off) == type && n-- == 0)
            return l->p + off;
        off += trec_rd32(l->p + off + TREC_OFF_SIZE);
    }
    return NULL;
}

/* The n-th TREC_APP record of app `app` and kind `kind`, or NULL. */
static inline const uint8_t *live_app(const struct live_log *l, uint8_t app, uint8_t kind,
                                      uint32_t n)
{
    const uint8_t *r;
    uint32_t i;
    for (i = 0; (r = live_nth(l, TREC_APP, i)) != NULL; i++)
        if (r[TREC_APP_OFF_APP] == app && r[TREC_APP_OFF_KIND] == kind && n-- == 0)
            return r;
    return NULL;
}

/* The TREC_FATE record of frame `id`, or NULL. */
static inline const uint8_t *live_fate(const struct live_log *l, uint32_t id)
{
    const uint8_t *r;
    uint32_t i;
    for (i = 0; (r = live_nth(l, TREC_FATE, i)) != NULL; i++)
        if (trec_rd32(r + TREC_FATE_OFF_ID) == id)
            return r;
    return NULL;
}

/* A TREC_FRAME's TCP flags (0 when it is not TCP; its IP header has no options). */
static inline uint8_t live_tcp_flags(const uint8_t *frame)
{
    const uint8_t *d = frame + TREC_FRAME_FIXED;
    return d[9] == 6 ? d[20 + 13] : 0;
}

/* Does this TREC_APP record carry exactly `text`? */
static inline int live_text_is(const uint8_t *r, const char *text)
{
    uint32_t n = trec_rd32(r + TREC_APP_OFF_TEXT_LEN);
    return n == strlen(text) && memcmp(r + TREC_APP_FIXED, text, n) == 0;
}

/* Every byte of app `app`'s TREC_APP_DATA records, in order, into out[0..cap); the count. */
static inline uint32_t live_data(const struct live_log *l, uint8_t app, uint8_t *out, uint32_t cap)
{
    const uint8_t *r;
    uint32_t i, n = 0;
    for (i = 0; (r = live_app(l, app, TREC_APP_DATA, i)) != NULL; i++) {
        uint32_t k = trec_rd32(r + TREC_APP_OFF_TEXT_LEN);
        if (n + k > cap)
            return cap + 1;
        memcpy(out + n, r + TREC_APP_FIXED, k);
        n += k;
    }
    return n;
}

#endif
