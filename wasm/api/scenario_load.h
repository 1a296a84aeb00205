/* Reads a scenario file (docs/scenario-format.md) into a struct world_config.
 *
 * The page and the command line validate the file with the schema first
 * (web/src/core/scenarios); this is the engine's own check, which trusts nothing, under the same
 * rules: every field's type and range, unknown fields, names that refer to nothing, the
 * topology and the subnets. The first problem found is reported as "line 12, column 17:
 * links[0].baud: must be an integer between 50 and 4000000": the position of the field's
 * value in the text it was given (of the object that lacks it, for a missing one), the path
 * and the words of the schema validator.
 */
#ifndef API_SCENARIO_LOAD_H
#define API_SCENARIO_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "world.h"

/* The longest scenario file the engine reads, and the tokens (values and keys) it may hold:
 * docs/scenario-format.md, "The file"; web/src/core/scenarios/json_text.ts applies the same. */
#define SCENARIO_MAX_BYTES  (1u << 20)
#define SCENARIO_MAX_TOKENS 32768u

/* Fills *cfg from json[0..len). Returns 0, or -1 with a message in err[0..errlen). */
int scenario_load(struct world_config *cfg, const char *json, uint32_t len, char *err,
                  size_t errlen);

/* One application object, as an entry of the scenario's `apps` is written, for a world
 * that is already running (engine_app_add): the same reader and messages, under the path
 * "app" ("app.to: names \"c\", which does not exist"). cfg is the running scenario's (its
 * hosts are looked up; it is not changed). Two things a scenario's app may have are
 * refused: `start_ms` (the app starts at once) and the request/response types (their
 * rounds must be checked against the other half's, which the scenario reader does once,
 * for the whole file). Returns 0 with *app filled, or -1 with the message in err. */
#define SCENARIO_APP_MAX_BYTES 4096u
int scenario_app_load(const struct world_config *cfg, const char *json, uint32_t len,
                      struct world_app_config *app, char *err, size_t errlen);

#endif
