/* A scenario run to its end through the engine's API, for tests that read its trace: each
 * batch of records is handed to `visit` as the engine writes it, then cleared. */
#ifndef TESTS_ENGINE_RUN_H
#define TESTS_ENGINE_RUN_H

#include <stdint.h>

typedef void (*engine_run_visit)(void *ctx, const uint8_t *records, uint32_t len);

/* 0 once the run is over; -1 (the engine's message printed) when the scenario is refused. */
int engine_run_scenario(const char *json, engine_run_visit visit, void *ctx);

#endif
