/* TEMPORARY placeholder so the tree links while fragmentation is written. */
#include "host.h"
#include "ip_frag.h"
size_t ip_frag_mem_required(const struct host_config *cfg) { (void)cfg; return 0; }
int ip_frag_init(struct host *h, struct host_arena *arena) { (void)h; (void)arena; return ERR_OK; }
int ip_reass_input(struct host *h, struct ip_rx *rx) { host_drop(h, DROP_IP_FRAG_OFF, rx->proto, rx->len); return 0; }
void ip_reass_poll(struct host *h) { (void)h; }
void ip_reass_next_deadline(const struct host *h, stack_time_t *d, int *has) { (void)h; (void)d; (void)has; }
int ip_frag_output(struct host *h, uint8_t netif, const uint8_t *dgram, uint16_t len) { (void)netif; host_drop(h, DROP_IP_DF, dgram[9], len); return ERR_MTU; }
