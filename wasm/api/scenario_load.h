/* Reads a scenario file (docs/scenario-format.md) into a struct world_config.
 *
 * The page and the command line validate the file with the schema first
 * (web/src/scenarios); this is the engine's own check, which trusts nothing: every field's
 * type and range, unknown fields, names that refer to nothing. The first problem found is
 * reported as "path: reason" ("links[0].baud: must be an integer from 50 to 4000000"),
 * with the path written as the schema validator writes it.
 */
#ifndef API_SCENARIO_LOAD_H
#define API_SCENARIO_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "world.h"

/* The longest scenario file the engine reads, and the tokens it may hold. */
#define SCENARIO_MAX_BYTES (1u << 20)
#define SCENARIO_MAX_TOKENS 32768u

/* Fills *cfg from json[0..len). Returns 0, or -1 with a message in err[0..errlen). */
int scenario_load(struct world_config *cfg, const char *json, uint32_t len, char *err,
                  size_t errlen);

#endif
