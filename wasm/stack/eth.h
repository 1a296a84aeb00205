/* Ethernet II framing (RFC 894) for a host's interface on an Ethernet link.
 *
 * A frame is destination (6), source (6), EtherType (2) and the payload: an IPv4 datagram
 * (0x0800) or an ARP packet (0x0806, RFC 826). The data field is at least 46 bytes, so a
 * frame is at least 60 bytes without its FCS (RFC 894: "the minimum length of the data
 * field of a packet sent over an Ethernet is 46 octets"; IEEE 802.3 minFrameSize). The
 * sending NIC pads: the stack hands the link the frame as built (an ARP request is 42
 * bytes), and eth_pad() is what a NIC does on the wire. The FCS is not modelled in bytes
 * (the link model counts its 4 bytes of wire time, link_eth.h).
 *
 * Addresses: a MAC per interface. eth_mac_from_index() derives one from a node's index,
 * locally administered (the 0x02 bit of the first byte, IEEE 802 clause 9.2), so two runs
 * give the same addresses and no vendor's prefix is borrowed.
 */
#ifndef STACK_ETH_H
#define STACK_ETH_H

#include <stdint.h>

#define ETH_ADDR_LEN  6
#define ETH_HDR_LEN   14 /* destination 6, source 6, EtherType 2 */
#define ETH_MIN_FRAME 60 /* RFC 894: 46 data bytes at least; without the 4-byte FCS */
#define ETH_OFF_DST   0
#define ETH_OFF_SRC   6
#define ETH_OFF_TYPE  12

#define ETH_TYPE_IPV4 0x0800u
#define ETH_TYPE_ARP  0x0806u

extern const uint8_t eth_broadcast[ETH_ADDR_LEN];

/* Writes the 14-byte header at p. */
void eth_header_write(uint8_t *p, const uint8_t dst[ETH_ADDR_LEN], const uint8_t src[ETH_ADDR_LEN],
                      uint16_t type);

/* Pads frame[0..len) with zeros to ETH_MIN_FRAME (frame must have room for it); returns the
 * length on the wire, without FCS. */
uint16_t eth_pad(uint8_t *frame, uint16_t len);

/* Is a frame to `dst` ours: our address or broadcast (RFC 894 hosts take both)? */
int eth_for_us(const uint8_t *frame, const uint8_t mac[ETH_ADDR_LEN]);

/* 02:00:00:00:hi:lo with hi:lo = index + 1: locally administered, never all zeros. */
void eth_mac_from_index(uint8_t mac[ETH_ADDR_LEN], uint16_t index);

#endif
