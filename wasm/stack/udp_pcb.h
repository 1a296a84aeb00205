/* A UDP socket (private to udp.c and socket_udp.c).
 *
 * Received datagrams wait in a byte ring of cfg.udp_rcv_buf bytes as records
 * [length 2][source address 4][source port 2][data], which may wrap around the end, so
 * many small datagrams or one large one fit in the same memory, and each keeps its
 * sender (udprecvfrom reports it).
 */
#ifndef STACK_UDP_PCB_H
#define STACK_UDP_PCB_H

#include <stdint.h>

#include "udp.h"

#define UDP_REC_HDR 8 /* length, source address, source port */

struct udp_pcb {
    uint8_t used;  /* handed out by udpsocket */
    uint8_t bound; /* has a local port (udpbind, or the first udpsendto) */
    uint16_t local_port;
    uint32_t local_addr; /* 0 = any of ours */
    uint8_t *ring;       /* cfg.udp_rcv_buf bytes */
    uint16_t head;       /* oldest record */
    uint16_t fill;       /* bytes in the ring */
    uint16_t queued;     /* datagrams in the ring */
    uint32_t rx_datagrams, rx_dropped, tx_datagrams;
};

struct host;

/* Socket number s, if it is open; NULL otherwise. */
struct udp_pcb *udp_pcb_get(struct host *h, int s);

/* Is `port` taken on `addr` (0 = any) by a socket other than `self`? */
int udp_port_taken(const struct host *h, const struct udp_pcb *self, uint32_t addr, uint16_t port);

/* A free ephemeral port (RFC 6335: 49152-65535), or 0 if all are taken. */
uint16_t udp_ephemeral_port(struct host *h, uint32_t addr);

/* Builds the header in front of `len` bytes already at ip_tx_payload(h) + UDP_HLEN,
 * checksums and sends. Returns ERR_OK or ip_output's error. */
int udp_output(struct host *h, struct udp_pcb *pcb, uint32_t dst, uint16_t dport, uint16_t len);

/* Copies the oldest queued datagram (at most len bytes; the rest is discarded) and its
 * source, and removes it. Returns the bytes copied; ERR_WOULDBLOCK if none is queued. */
int32_t udp_dequeue(struct host *h, struct udp_pcb *pcb, uint32_t *src, uint16_t *sport,
                    uint8_t *buf, uint16_t len);

#endif
