/* Pieces of scenario_load.c: a link's faults (scenario_parts.c), the applications
 * (scenario_apps.c), and the name lookup they share. */
#ifndef API_SCENARIO_PARTS_H
#define API_SCENARIO_PARTS_H

#include <stdint.h>

#include "scenario_read.h"
#include "world.h"

/* Index of the host or bridge called `name` (hosts first, then bridges), or -1. */
int scenario_node(const struct world_config *cfg, const char *name);

/* Reads the `faults` array `t` of the link at `link_path` into l->faults. 0 or -1. */
int scenario_faults_read(struct scenario_reader *r, uint32_t t, const char *link_path,
                         const struct world_config *cfg, struct world_link_config *l);

/* Reads the top level's `apps` (absent: none). 0 or -1. */
int scenario_apps_read(struct scenario_reader *r, uint32_t root, struct world_config *cfg);

#endif
