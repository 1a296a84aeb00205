/* ICMP, RFC 792 and RFC 1122 section 3.2.2: echo reply, destination unreachable, and
 * delivery of echo replies to the ping client (ping.h). */
#ifndef STACK_ICMP_H
#define STACK_ICMP_H

#include <stdint.h>

#include "ip.h"
#include "ping.h"

#define ICMP_OFF_TYPE   0
#define ICMP_OFF_CODE   1
#define ICMP_OFF_CHKSUM 2
#define ICMP_OFF_ID     4 /* echo: identifier */
#define ICMP_OFF_SEQ    6 /* echo: sequence number */
#define ICMP_HLEN       8

#define ICMP_ECHO_REPLY    0
#define ICMP_DEST_UNREACH  3
#define ICMP_ECHO_REQUEST  8
#define ICMP_TIME_EXCEEDED 11

#define ICMP_UNREACH_PROTOCOL    2
#define ICMP_UNREACH_PORT        3
#define ICMP_UNREACH_FRAG_NEEDED 4

#define ICMP_EXC_TTL      0 /* time to live exceeded in transit */
#define ICMP_EXC_FRAGTIME 1 /* fragment reassembly time exceeded */

/* ICMP's part of the host (h->icmp): counters and the ping client. */
struct icmp_state {
    STACK_COUNTER in_msgs, out_msgs;   /* validated messages in, messages sent */
    STACK_COUNTER in_echo, out_errors; /* echo requests answered, error messages sent */
    struct ping_state ping;
};

void icmp_input(struct host *h, struct ip_rx *rx);

/* Destination unreachable about datagram `rx` (RFC 792: its header and first 8 payload
 * bytes are quoted). Never sent about an ICMP error or a non-first fragment (RFC 1122
 * 3.2.2). */
void icmp_send_unreachable(struct host *h, const struct ip_rx *rx, uint8_t code);

/* Time exceeded in transit, for forwarded datagrams whose TTL ran out. */
void icmp_send_time_exceeded(struct host *h, const struct ip_rx *rx);

/* Any error message (type, code) about datagram `rx`, `rest` in its bytes 4..7 (the
 * next-hop MTU of "fragmentation needed", RFC 1191), with the same rules. */
void icmp_send_error(struct host *h, const struct ip_rx *rx, uint8_t type, uint8_t code,
                     uint32_t rest);

#endif
