/* UDP, RFC 768 and RFC 1122 section 4.1: sockets with a queue of received datagrams. */
#ifndef STACK_UDP_H
#define STACK_UDP_H

#include <stddef.h>
#include <stdint.h>

#include "ip.h"
#include "stack_time.h"

#define UDP_OFF_SRC_PORT 0
#define UDP_OFF_DST_PORT 2
#define UDP_OFF_LEN      4
#define UDP_OFF_CHKSUM   6
#define UDP_HLEN         8

struct udp_pcb; /* udp.c */

struct udp_state {
    struct udp_pcb *pcbs; /* cfg.udp_max_pcbs entries */
    uint16_t next_port;   /* next ephemeral port to try */
    STACK_COUNTER in_datagrams, out_datagrams;
};

size_t udp_mem_required(const struct host_config *cfg);
int udp_init(struct host *h, struct host_arena *arena);
void udp_poll(struct host *h);
void udp_next_deadline(const struct host *h, stack_time_t *deadline, int *has);
void udp_input(struct host *h, struct ip_rx *rx);

/* Length of the oldest datagram queued on UDP socket s (what udprecvfrom would need to
 * take it whole), ERR_WOULDBLOCK if none is queued, ERR_ARG for a bad socket. */
int32_t udp_next_len(struct host *h, int s);

#endif
