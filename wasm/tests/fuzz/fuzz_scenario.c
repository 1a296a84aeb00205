/* libFuzzer target: the engine's scenario reader and the world it builds
 * (wasm/api/scenario_load.c, wasm/sim/world.c). The input is a scenario file; the seed
 * corpus is the shipped scenarios and the test fixtures, good and bad.
 *
 * Every input is either refused with ENGINE_INVALID and a message of the form "path:
 * reason" (or a JSON position), or accepted and run for a short stretch of virtual time
 * (long enough for a few frames on every kind of link) without crashing, with a trace
 * that reads back record by record. */
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
    } else if (rc != ENGINE_INVALID || strchr(engine_error(e), ':') == NULL) {
        abort(); /* every refusal says where and why */
    }
    engine_destroy(e);
    return 0;
}
