/* libFuzzer target: the engine's scenario reader and the world it builds
 * (wasm/api/scenario_load.c, wasm/sim/world.c). The input is a scenario file; the seed
 * corpus is the shipped scenarios and the test fixtures, good and bad.
 *
 * Every input is either refused with ENGINE_ERR_INVALID and a message of the form "path:
 * reason" (or a JSON position), or accepted and run for a short stretch of virtual time
 * (long enough for a few frames on every kind of link) without crashing, with a trace
 * that reads back record by record.
 *
 * The same input is also offered as one app to a running two-host world
 * (engine_app_add, wasm/api/scenario_apps.c and wasm/sim/world_live.c; the app-*.json
 * seeds): refused with a message naming where, or started, sent its own bytes, closed and
 * run on. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "trace_rec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_RUN_US 300000.0

static void check_records(const uint8_t *p, uint32_t len)
{
    uint32_t off = 0;
    while (off < len) {
        uint32_t sz = trec_rd32(p + off + TREC_OFF_SIZE);
        if (sz < TREC_HDR || sz % 8 != 0 || off + sz > len)
            abort();
        off += sz;
    }
}

static const char fuzz_live_world[] =
    "{\"version\":1,\"name\":\"f\",\"title\":\"f\",\"duration_ms\":1000,"
    "\"hosts\":[{\"name\":\"a\",\"addr\":\"10.0.7.1/24\"},{\"name\":\"b\",\"addr\":\"10.0.7.2/"
    "24\"}],"
    "\"links\":[{\"name\":\"s\",\"type\":\"serial\",\"a\":\"a\",\"b\":\"b\",\"baud\":115200}],"
    "\"apps\":[{\"type\":\"tcp_echo_server\",\"host\":\"b\"}]}";

static void fuzz_live_app(const uint8_t *data, size_t size)
{
    struct engine *e = engine_create();
    int app;
    if (!e)
        return;
    if (engine_load(e, fuzz_live_world, (uint32_t)strlen(fuzz_live_world)) != ENGINE_OK)
        abort();
    engine_run(e, 1000);
    app = engine_app_add(e, (const char *)data, (uint32_t)size);
    if (app >= 0) {
        engine_app_send(e, (uint32_t)app, data, (uint32_t)size);
        engine_run(e, FUZZ_RUN_US / 2);
        engine_app_close(e, (uint32_t)app);
        engine_run(e, FUZZ_RUN_US);
        check_records(engine_trace_ptr(e), engine_trace_len(e));
    } else if ((app != ENGINE_ERR_INVALID && app != ENGINE_ERR_FAILED) ||
               strchr(engine_error(e), ':') == NULL) {
        abort(); /* every refusal says where and why */
    }
    engine_destroy(e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct engine *e;
    int rc;
    if (size > 65536)
        return 0;
    e = engine_create();
    if (!e)
        return 0;
    rc = engine_load(e, (const char *)data, (uint32_t)size);
    if (rc == ENGINE_OK) {
        engine_run(e, FUZZ_RUN_US);
        check_records(engine_trace_ptr(e), engine_trace_len(e));
    } else if (rc != ENGINE_ERR_INVALID || strchr(engine_error(e), ':') == NULL) {
        abort(); /* every refusal says where and why */
    }
    engine_destroy(e);
    fuzz_live_app(data, size);
    return 0;
}
