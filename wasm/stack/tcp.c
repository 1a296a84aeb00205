/* TEMPORARY placeholder so the tree links while the TCP module is written. */
#include "host.h"
size_t tcp_mem_required(const struct host_config *cfg) { (void)cfg; return 0; }
int tcp_init(struct host *h, struct host_arena *arena) { (void)h; (void)arena; return ERR_OK; }
void tcp_poll(struct host *h) { (void)h; }
void tcp_next_deadline(const struct host *h, stack_time_t *d, int *has) { (void)h; (void)d; (void)has; }
void tcp_input(struct host *h, struct ip_rx *rx) { host_drop(h, DROP_TCP_NO_PCB, IP_PROTO_TCP, rx->len); }
void tcp_netif_free(struct host *h, uint8_t netif) { (void)h; (void)netif; }
