#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario_load.h"
#include "stack_err.h"
#include "world.h"

struct engine {
    struct world *w;
    struct world_config cfg;
    char err[512];
    char hash[17];
    uint8_t pcapng_off; /* engine_capture(e, 0) */
};

struct engine *engine_create(void)
{
    return calloc(1, sizeof(struct engine));
}

void engine_destroy(struct engine *e)
{
    if (!e)
        return;
    world_destroy(e->w);
    free(e);
}

int engine_load(struct engine *e, const char *json, uint32_t len)
{
    if (!e || e->w) {
        if (e)
            snprintf(e->err, sizeof e->err, "a scenario is already loaded");
        return ENGINE_ERR_FAILED;
    }
    e->err[0] = 0;
    if (scenario_load(&e->cfg, json, len, e->err, sizeof e->err) != 0)
        return ENGINE_ERR_INVALID;
    e->cfg.pcapng_off = e->pcapng_off;
    if (world_create(&e->w, &e->cfg, e->err, sizeof e->err) != ERR_OK)
        return ENGINE_ERR_INVALID;
    return ENGINE_OK;
}

const char *engine_error(const struct engine *e)
{
    return e ? e->err : "no engine";
}

/* The largest double below 2^64 (2^64 - 2048). JavaScript passes times as doubles, and
 * converting one at or above 2^64 to uint64_t is undefined (C99 6.3.1.4): from here on a
 * time means "run to the end". */
#define ENGINE_LAST_DOUBLE_BELOW_2_64 18446744073709549568.0

/* A run whose trace or capture lost bytes for want of memory: the error, for engine_error. */
static int engine_out_of_memory(struct engine *e)
{
    snprintf(
        e->err, sizeof e->err,
        "out of memory: the %s could not grow beyond %lu bytes (take it in smaller slices)",
        world_trace(e->w)->failed ? "trace" : "capture (pcapng)",
        (unsigned long)(world_trace(e->w)->failed ? world_trace(e->w)->len : engine_pcapng_len(e)));
    return ENGINE_ERR_FAILED;
}

int engine_run(struct engine *e, double until_us)
{
    int done;
    if (!e || !e->w)
        return ENGINE_ERR_FAILED;
    if (world_out_of_memory(e->w))
        return engine_out_of_memory(e);
    if (until_us < 0)
        until_us = 0;
    done = world_run_until(e->w, until_us >= ENGINE_LAST_DOUBLE_BELOW_2_64 ? UINT64_MAX
                                                                           : (uint64_t)until_us);
    return world_out_of_memory(e->w) ? engine_out_of_memory(e) : done;
}

double engine_now(const struct engine *e)
{
    return e && e->w ? (double)world_now(e->w) : 0;
}

double engine_duration(const struct engine *e)
{
    return e && e->w ? (double)e->cfg.duration_us : 0;
}

double engine_next_event(const struct engine *e)
{
    uint64_t t;
    if (!e || !e->w || !world_next_event(e->w, &t))
        return -1;
    return (double)t;
}

const uint8_t *engine_trace_ptr(struct engine *e)
{
    return e && e->w ? world_trace(e->w)->p : NULL;
}

uint32_t engine_trace_len(struct engine *e)
{
    return e && e->w ? (uint32_t)world_trace(e->w)->len : 0;
}

void engine_trace_clear(struct engine *e)
{
    if (e && e->w)
        trec_buf_clear(world_trace(e->w));
}

double engine_trace_total(struct engine *e)
{
    return e && e->w ? (double)world_trace(e->w)->total : 0;
}

int engine_capture(struct engine *e, int on)
{
    if (!e || e->w) {
        if (e)
            snprintf(e->err, sizeof e->err, "engine_capture: called after engine_load");
        return ENGINE_ERR_FAILED;
    }
    e->pcapng_off = !on;
    return ENGINE_OK;
}

double engine_frames(const struct engine *e)
{
    return e && e->w ? (double)world_frames(e->w) : 0;
}

const uint8_t *engine_pcapng_ptr(struct engine *e)
{
    size_t n;
    return e && e->w ? world_pcapng(e->w, &n) : NULL;
}

uint32_t engine_pcapng_len(struct engine *e)
{
    size_t n = 0;
    if (e && e->w)
        world_pcapng(e->w, &n);
    return (uint32_t)n;
}

void engine_pcapng_clear(struct engine *e)
{
    if (e && e->w)
        world_pcapng_clear(e->w);
}

const char *engine_hash(struct engine *e)
{
    uint64_t h;
    if (!e || !e->w)
        return "";
    h = world_trace(e->w)->failed ? 0 : trec_buf_hash(world_trace(e->w));
    snprintf(e->hash, sizeof e->hash, "%08lx%08lx", (unsigned long)(h >> 32),
             (unsigned long)(h & 0xFFFFFFFFu));
    return e->hash;
}

const char *engine_describe(struct engine *e)
{
    return e && e->w ? world_describe(e->w) : "{}";
}

int engine_port_write(struct engine *e, uint32_t link, const uint8_t *bytes, uint32_t n)
{
    if (!e || !e->w || link > 255)
        return ENGINE_ERR_FAILED;
    return world_port_input(e->w, (uint8_t)link, bytes, n) == ERR_OK ? ENGINE_OK
                                                                     : ENGINE_ERR_FAILED;
}

uint32_t engine_port_read(struct engine *e, uint32_t link, uint8_t *buf, uint32_t cap)
{
    if (!e || !e->w || link > 255)
        return 0;
    return world_port_output(e->w, (uint8_t)link, buf, cap);
}

/* The running world, or NULL with the message. */
static struct world *engine_world(struct engine *e)
{
    if (e && !e->w)
        snprintf(e->err, sizeof e->err, "no scenario is loaded");
    return e ? e->w : NULL;
}

int engine_app_add(struct engine *e, const char *json, uint32_t len)
{
    struct world_app_config app;
    int rc;
    if (!engine_world(e))
        return ENGINE_ERR_FAILED;
    e->err[0] = 0;
    if (scenario_app_load(&e->cfg, json, len, &app, e->err, sizeof e->err) != 0)
        return ENGINE_ERR_INVALID;
    rc = world_app_add(e->w, &app, e->err, sizeof e->err);
    return rc < 0 ? ENGINE_ERR_FAILED : rc;
}

int engine_app_send(struct engine *e, uint32_t app, const uint8_t *bytes, uint32_t n)
{
    int rc;
    if (!engine_world(e))
        return ENGINE_ERR_FAILED;
    rc = world_app_send(e->w, app, bytes, n, e->err, sizeof e->err);
    return rc < 0 ? ENGINE_ERR_FAILED : rc;
}

int engine_app_close(struct engine *e, uint32_t app)
{
    if (!engine_world(e))
        return ENGINE_ERR_FAILED;
    return world_app_close(e->w, app, e->err, sizeof e->err) < 0 ? ENGINE_ERR_FAILED : ENGINE_OK;
}

double engine_app_checked(const struct engine *e, uint32_t app)
{
    uint64_t checked, mismatched;
    if (!e || !e->w || !world_app_check(e->w, app, &checked, &mismatched))
        return -1;
    return (double)checked;
}

double engine_app_mismatched(const struct engine *e, uint32_t app)
{
    uint64_t checked, mismatched;
    if (!e || !e->w || !world_app_check(e->w, app, &checked, &mismatched))
        return -1;
    return (double)mismatched;
}

void *engine_alloc(uint32_t n)
{
    return malloc(n ? n : 1);
}

void engine_free(void *p)
{
    free(p);
}
