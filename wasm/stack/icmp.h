/* ICMP, RFC 792 and RFC 1122 section 3.2.2: echo reply, destination unreachable, and
 * delivery of echo replies to the ping client (ping.h). */
#ifndef STACK_ICMP_H
#define STACK_ICMP_H

#include <stdint.h>

#include "ip.h"

#define ICMP_OFF_TYPE 0
#define ICMP_OFF_CODE 1
#define ICMP_OFF_CHKSUM 2
#define ICMP_OFF_ID 4    /* echo: identifier */
#define ICMP_OFF_SEQ 6   /* echo: sequence number */
#define ICMP_HLEN 8

#define ICMP_ECHO_REPLY 0
#define ICMP_DEST_UNREACH 3
#define ICMP_ECHO_REQUEST 8
#define ICMP_TIME_EXCEEDED 11

#define ICMP_UNREACH_PROTOCOL 2
#define ICMP_UNREACH_PORT 3
#define ICMP_UNREACH_FRAG_NEEDED 4

void icmp_input(struct host *h, struct ip_rx *rx);

/* Destination unreachable about datagram `rx` (RFC 792: its header and first 8 payload
 * bytes are quoted). Never sent about an ICMP error or a non-first fragment (RFC 1122
 * 3.2.2). */
void icmp_send_unreachable(struct host *h, const struct ip_rx *rx, uint8_t code);

/* Time exceeded in transit, for forwarded datagrams whose TTL ran out. */
void icmp_send_time_exceeded(struct host *h, const struct ip_rx *rx);

#endif
