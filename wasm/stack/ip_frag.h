/* IPv4 fragmentation on output and bounded reassembly on input, RFC 791 sections 2.3 and
 * 3.2, RFC 1122 3.3.2 (reassembly timeout), RFC 815 (hole tracking).
 *
 * Reassembly keeps cfg.ip_reass_slots datagrams of at most cfg.ip_reass_max bytes each;
 * a partial datagram older than cfg.ip_reass_timeout_ms is dropped (DROP_IP_REASS_TIMEOUT),
 * the oldest is evicted when a new one finds every slot taken (DROP_IP_REASS_EVICTED), and
 * fragments of a datagram completed less than a timeout ago are dropped
 * (DROP_IP_REASS_DONE).
 */
#ifndef STACK_IP_FRAG_H
#define STACK_IP_FRAG_H

#include <stddef.h>
#include <stdint.h>

#include "ip.h"

size_t ip_frag_mem_required(const struct host_config *cfg);
int ip_frag_init(struct host *h, struct host_arena *arena);

/* Takes a fragment. Returns 1 when it completed a datagram: *rx then describes the whole
 * datagram, held in a reassembly buffer until the next call. Returns 0 when the fragment
 * was kept (or dropped and counted). */
int ip_reass_input(struct host *h, struct ip_rx *rx);

void ip_reass_poll(struct host *h);
void ip_reass_next_deadline(const struct host *h, stack_time_t *deadline, int *has);

/* Sends datagram `dgram` (header included) out of `netif` in fragments no larger than
 * the interface MTU. Returns ERR_OK, or ERR_MTU if DF is set or fragmentation is off. */
int ip_frag_output(struct host *h, uint8_t netif, const uint8_t *dgram, uint16_t len);

#endif
