/* TEMPORARY placeholder so the tree links while the ICMP module is written. */
#include "host.h"
#include "icmp.h"
void icmp_input(struct host *h, struct ip_rx *rx) { host_drop(h, DROP_ICMP_TYPE, IP_PROTO_ICMP, rx->len); }
void icmp_send_unreachable(struct host *h, const struct ip_rx *rx, uint8_t code) { (void)h; (void)rx; (void)code; }
void icmp_send_time_exceeded(struct host *h, const struct ip_rx *rx) { (void)h; (void)rx; }
