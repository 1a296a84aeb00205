/* A host's interfaces on Ethernet links: Ethernet II framing (eth.h) and ARP (arp.h)
 * between IP and the link.
 *
 * An Ethernet interface is added with host_add_eth_netif() instead of host_add_netif();
 * the caller provides the interface's ARP state and its storage (ARP_MEM bytes), which
 * must live as long as the host. The link's output then gets whole frames (not padded:
 * the NIC pads, eth.h) and host_input() takes whole frames on that interface. Every
 * destination is on the link (routes have no gateways), so the next hop of a datagram is
 * its destination address.
 */
#ifndef STACK_HOST_ETH_H
#define STACK_HOST_ETH_H

#include "arp.h"
#include "host.h"

struct host_eth {
    struct arp_if arp;
    struct host *h;
    uint8_t netif;
};

/* As host_add_netif(), with the interface's MAC and ARP settings. Returns the interface's
 * index, or ERR_MEM / ERR_ARG (from host_add_netif or arp_init). A gratuitous ARP goes
 * at once if cfg->gratuitous. */
int host_add_eth_netif(struct host *h, uint32_t addr, uint32_t netmask, uint16_t mtu,
                       const uint8_t mac[ETH_ADDR_LEN], const struct arp_config *cfg,
                       struct host_eth *eth, uint8_t *mem, size_t mem_len, netif_output_fn output,
                       void *output_ctx);

/* A frame arrived on Ethernet interface netif (host_input's part for them). */
void host_eth_input(struct host *h, uint8_t netif, uint8_t *frame, uint16_t len);

/* An IPv4 datagram to send on Ethernet interface netif (ip_send_datagram's part). Returns
 * 0 or the link's negative refusal. */
int host_eth_output(struct host *h, uint8_t netif, const uint8_t *dgram, uint16_t len);

/* ARP's timers, for host_poll and host_next_deadline. */
void host_eth_poll(struct host *h);
void host_eth_next_deadline(const struct host *h, stack_time_t *when, int *has);

#endif
