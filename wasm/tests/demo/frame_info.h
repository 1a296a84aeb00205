/* One-line summaries of IPv4 datagrams in Wireshark's words, for the demo's frame list:
 * Protocol column ("TCP", "ICMP", "UDP", "IPv4") and Info column ("49153 -> 7 [SYN]
 * Seq=0 Win=8192 Len=0 MSS=536", "Echo (ping) request  id=0x0001, seq=1/256, ttl=64").
 * TCP sequence numbers are shown relative to each direction's first SYN, as Wireshark
 * does by default. */
#ifndef DEMO_FRAME_INFO_H
#define DEMO_FRAME_INFO_H

#include <stddef.h>
#include <stdint.h>

#define FRAME_INFO_FLOWS 8

/* Remembers each TCP direction's initial sequence number (from its SYN). */
struct frame_info_flows {
    struct {
        uint32_t src, dst;
        uint16_t sport, dport;
        uint32_t isn;
    } flow[FRAME_INFO_FLOWS];
    unsigned n;
};

/* Writes the protocol name into proto[proto_cap] and the Info text into info[info_cap]. */
void frame_info(struct frame_info_flows *flows, const uint8_t *dgram, uint16_t len, char *proto,
                size_t proto_cap, char *info, size_t info_cap);

#endif
