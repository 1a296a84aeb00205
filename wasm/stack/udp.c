/* TEMPORARY placeholder so the tree links while the UDP module is written. */
#include "host.h"
size_t udp_mem_required(const struct host_config *cfg) { (void)cfg; return 0; }
int udp_init(struct host *h, struct host_arena *arena) { (void)h; (void)arena; return ERR_OK; }
void udp_poll(struct host *h) { (void)h; }
void udp_next_deadline(const struct host *h, stack_time_t *d, int *has) { (void)h; (void)d; (void)has; }
void udp_input(struct host *h, struct ip_rx *rx) { host_drop(h, DROP_UDP_NO_PORT, IP_PROTO_UDP, rx->len); }
