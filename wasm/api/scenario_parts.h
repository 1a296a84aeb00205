/* Pieces of scenario_load.c: how hosts and bridges attach to links (scenario_topology.c), a
 * link's faults (scenario_parts.c), the applications (scenario_apps.c), and the name
 * lookups they share. */
#ifndef API_SCENARIO_PARTS_H
#define API_SCENARIO_PARTS_H

#include <stddef.h>
#include <stdint.h>

#include "scenario_read.h"
#include "world.h"

/* Index of the host or bridge called `name` (hosts first, then bridges), or -1. */
int scenario_node(const struct world_config *cfg, const char *name);

/* Whether one of the file's links (read yet or not) is called `name`. */
int scenario_is_link(const struct scenario_reader *r, const char *name);

/* " (hosts: pc, mcu; bridges: ptx)": the names of the kinds asked for, what the author could
 * have meant by a name that is none of them; "" when there are none. */
void scenario_known(const struct world_config *cfg, int hosts, int bridges, int links, char *buf,
                    size_t cap);

/* End `key` ("a" or "b") of link l, at `path`: a host or bridge, not a's again, a host on an
 * external link, and not a host already on a link or a bridge already on two. */
int scenario_link_end(struct scenario_reader *r, uint32_t e, const char *path, const char *key,
                      const struct world_config *cfg, const struct world_link_config *l,
                      uint8_t *node);

/* Once every link is read: every host on its link, every bridge on two, and the hosts that
 * share a link (or links a bridge joins) on one subnet. 0 or -1. */
int scenario_topology_check(struct scenario_reader *r, const struct world_config *cfg);

/* Reads the `faults` array of the link object `link`, at `link_path`, into l->faults (absent:
 * none). 0 or -1. */
int scenario_faults_read(struct scenario_reader *r, uint32_t link, const char *link_path,
                         const struct world_config *cfg, struct world_link_config *l);

/* A name that must be a host's (a fault's match, an app's host or peer): its index, or -1
 * with the reason ("names bridge \"ptx\", not a host (...)"); `known`: list the hosts. */
int scenario_host_ref(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
                      const struct world_config *cfg, int known);

/* Reads the top level's `apps` (absent: none). 0 or -1. */
int scenario_apps_read(struct scenario_reader *r, uint32_t root, struct world_config *cfg);

#endif
