/* A host's `stack` object of a scenario into its struct host_config (scenario_stack.c). */
#ifndef API_SCENARIO_STACK_H
#define API_SCENARIO_STACK_H

#include <stdint.h>

#include "host_config.h"
#include "scenario_read.h"

/* Applies the fields of object `obj` (at `path`, for messages) over *cfg. 0 or -1. */
int scenario_stack_read(struct scenario_reader *r, uint32_t obj, const char *path,
                        struct host_config *cfg);

#endif
