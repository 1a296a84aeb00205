/* IPv4, RFC 791 and RFC 1122 section 3.2.1.
 *
 * Input validates a datagram once (version, header length, checksum, total length), then
 * hands it to ICMP, UDP or TCP as a struct ip_rx, reassembling fragments first
 * (ip_frag.c) and forwarding what is not ours when the host forwards (the NFC paper's
 * bridge). Output builds the header in front of a payload the caller wrote at
 * ip_tx_payload(), picks the interface by route, and fragments when the datagram is
 * larger than that interface's MTU.
 */
#ifndef STACK_IP_H
#define STACK_IP_H

#include <stddef.h>
#include <stdint.h>

#include "stack_opts.h"
#include "stack_time.h"

struct host;
struct host_arena;
struct host_config;

/* Header field offsets, RFC 791 section 3.1. */
#define IP_OFF_VHL    0 /* version (4 bits) and header length in 32-bit words (4 bits) */
#define IP_OFF_TOS    1
#define IP_OFF_LEN    2 /* total length */
#define IP_OFF_ID     4
#define IP_OFF_FRAG   6 /* flags (3 bits) and fragment offset in 8-byte units (13 bits) */
#define IP_OFF_TTL    8
#define IP_OFF_PROTO  9
#define IP_OFF_CHKSUM 10
#define IP_OFF_SRC    12
#define IP_OFF_DST    16
#define IP_HLEN       20 /* header without options; all we send */

#define IP_FLAG_DF     0x4000u
#define IP_FLAG_MF     0x2000u
#define IP_OFFSET_MASK 0x1FFFu

#define IP_PROTO_ICMP 1
#define IP_PROTO_TCP  6
#define IP_PROTO_UDP  17

/* A validated datagram on its way up. The payload starts at dgram + hlen. */
struct ip_rx {
    uint8_t *dgram;
    uint16_t hlen; /* header length including options */
    uint16_t len;  /* total length (header + payload) */
    uint32_t src;
    uint32_t dst;
    uint8_t proto;
    uint8_t ttl;
    uint8_t netif; /* arrival interface */
};

struct ip_route {
    uint32_t dst;
    uint32_t mask;
    uint8_t netif;
};

struct ip_reass_table; /* ip_frag.c */

struct ip_counters {
    STACK_COUNTER in_datagrams;  /* accepted by validation */
    STACK_COUNTER in_delivered;  /* handed to ICMP/UDP/TCP */
    STACK_COUNTER out_datagrams; /* originated here */
    STACK_COUNTER forwarded;
    STACK_COUNTER frag_created;   /* fragments sent */
    STACK_COUNTER frag_datagrams; /* datagrams that needed fragmenting */
    STACK_COUNTER reass_ok;
    STACK_COUNTER reass_fail;
};

struct ip_state {
    uint16_t next_id;
    struct ip_route routes[STACK_MAX_ROUTES];
    uint8_t n_routes;
    struct ip_reass_table *reass; /* cfg.ip_reass_slots slots, datagrams done lately */
    uint8_t *fragbuf;             /* one fragment being built */
    uint16_t fragbuf_len;
    struct ip_counters counters;
};

size_t ip_mem_required(const struct host_config *cfg);
int ip_init(struct host *h, struct host_arena *arena);
void ip_poll(struct host *h);
void ip_next_deadline(const struct host *h, stack_time_t *deadline, int *has);

/* Adds a route: datagrams for (addr & mask) == dst leave by `netif`. Longest mask wins;
 * a mask of 0 is the default route. */
int ip_route_add(struct host *h, uint32_t dst, uint32_t mask, uint8_t netif);

/* The interface a datagram to `dst` leaves by, or ERR_RTE. */
int ip_route(const struct host *h, uint32_t dst);

/* Our address on the interface that reaches `dst` (0 if there is none). */
uint32_t ip_src_for(const struct host *h, uint32_t dst);

/* A datagram arrived on `netif` (called by host_input). */
void ip_input(struct host *h, uint8_t netif, uint8_t *dgram, uint16_t len);

/* Where to write a payload for ip_output(): h->txbuf after room for the header. */
uint8_t *ip_tx_payload(struct host *h);
/* How many payload bytes fit there. */
uint16_t ip_tx_capacity(const struct host *h);

/* Sends `payload_len` bytes already written at ip_tx_payload(h) to `dst` with protocol
 * `proto`. `src` 0 means the address of the outgoing interface. Fragments if needed
 * unless `df`. Returns ERR_OK, ERR_RTE, ERR_MTU, ERR_ARG. */
int ip_output(struct host *h, uint32_t src, uint32_t dst, uint8_t proto, uint16_t payload_len,
              int df);

/* ip_output() for a payload written elsewhere than h->txbuf: at d + IP_HLEN, in a buffer
 * with room for the header in front of it (an echo reply, and the TCP responder's answer,
 * are built in the buffer their request arrived in). The header is written at d, without
 * options. payload_len is at most 65515. */
int ip_output_at(struct host *h, uint8_t *d, uint32_t src, uint32_t dst, uint8_t proto,
                 uint16_t payload_len, int df);

/* Sends a complete datagram (header included, as received) out of `netif`, fragmenting it
 * if it is larger than the MTU and DF is clear. Used by forwarding and by ip_output. */
int ip_send_datagram(struct host *h, uint8_t netif, uint8_t *dgram, uint16_t len);

/* Hands one datagram (or fragment) of at most the MTU to interface netif: through ARP on
 * an Ethernet interface (host_eth.h), straight to the link otherwise. Returns the link's
 * answer: 0, or negative if it refused. */
int ip_netif_send(struct host *h, uint8_t netif, const uint8_t *dgram, uint16_t len);

/* Is `addr` one of ours? */
int ip_is_local(const struct host *h, uint32_t addr);

#endif
