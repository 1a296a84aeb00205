#include "engine_run.h"

#include <stdio.h>
#include <string.h>

#include "engine.h"

int engine_run_scenario(const char *json, engine_run_visit visit, void *ctx)
{
    struct engine *e = engine_create();
    int done = 0;
    if (engine_load(e, json, (uint32_t)strlen(json)) != ENGINE_OK) {
        printf("    engine_load: %s\n", engine_error(e));
        engine_destroy(e);
        return -1;
    }
    while (!done) {
        done = engine_run(e, engine_now(e) + 1e6) != 0; /* 1: over; an error ends it too */
        visit(ctx, engine_trace_ptr(e), engine_trace_len(e));
        engine_trace_clear(e);
    }
    engine_destroy(e);
    return 0;
}
