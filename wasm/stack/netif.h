/* A network interface: where the host's IP layer meets a link.
 *
 * The link (the simulator's serial or NFC model, the TUN harness, the firmware's UART) owns
 * the framing; the stack hands it whole IPv4 datagrams through `output` and receives them
 * through host_input(). A serial or NFC link is point to point: the route picks the
 * interface, the interface delivers. An interface on an Ethernet link (eth set,
 * host_eth.h) frames the datagrams as Ethernet II and finds the next hop's MAC with ARP;
 * its output and host_input() then carry whole frames.
 */
#ifndef STACK_NETIF_H
#define STACK_NETIF_H

#include <stdint.h>

#include "stack_opts.h"

struct host_eth;

/* Called with a complete IPv4 datagram. The callee must copy what it keeps: the buffer is
 * reused as soon as the call returns. Returns 0, or a negative value if the link refused
 * the datagram (it is then counted as DROP_NETIF_DOWN). */
typedef int (*netif_output_fn)(void *ctx, uint8_t netif, const uint8_t *dgram, uint16_t len);

struct netif {
    uint32_t addr; /* our address on this link, host byte order */
    uint32_t netmask;
    uint16_t mtu; /* largest datagram the link carries */
    uint8_t index;
    uint8_t busy;   /* set by the link owner while the link cannot take a frame (NFC module
                         busy); TCP with channel sensing holds segments meanwhile */
    uint8_t unsent; /* frames handed to the link and not yet sent out, kept by the link
                         owner; TCP small queues (cfg.tcp_small_queues) read it */
    netif_output_fn output;
    void *output_ctx;
#if STACK_ETHERNET
    struct host_eth *eth; /* NULL: point to point */
#endif
    STACK_COUNTER rx_frames, rx_bytes, tx_frames, tx_bytes;
};

#endif
