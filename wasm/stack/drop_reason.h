/* Why a frame, datagram or segment was dropped.
 *
 * Every drop is counted per host (host->stats.drops[reason]) and reported to the tracer
 * (TRACE_DROP), so nothing vanishes silently. The names are what the trace, the command
 * line and the page show. The list is an X-macro so the enum and the name table cannot
 * drift apart.
 */
#ifndef STACK_DROP_REASON_H
#define STACK_DROP_REASON_H

#define DROP_REASONS(X)                                                                            \
    X(DROP_NONE, "none")                                                                           \
    /* link framing (SLIP, SLIP6, CSLIP) */                                                        \
    X(DROP_SLIP_OVERSIZE, "slip: frame longer than the buffer")                                    \
    X(DROP_SLIP_BAD_ESCAPE, "slip: ESC followed by a byte other than ESC_END/ESC_ESC")             \
    X(DROP_SLIP6_BAD_CHAR, "slip6: byte outside the 6-bit alphabet")                               \
    X(DROP_SLIP6_TRAILING_BITS, "slip6: frame length not a whole number of bytes")                 \
    X(DROP_VJ_BAD_TYPE, "cslip: unknown packet type")                                              \
    X(DROP_VJ_SHORT, "cslip: compressed header truncated")                                         \
    X(DROP_VJ_BAD_SLOT, "cslip: connection number out of range")                                   \
    X(DROP_VJ_TOSS, "cslip: tossed after an error until an explicit connection number")            \
    X(DROP_VJ_NOT_TCP, "cslip: uncompressed-TCP frame that is not TCP/IPv4")                       \
    /* IPv4, RFC 791 / RFC 1122 3.2.1 */                                                           \
    X(DROP_IP_SHORT, "ip: shorter than its header")                                                \
    X(DROP_IP_VERSION, "ip: version is not 4")                                                     \
    X(DROP_IP_HDRLEN, "ip: header length field invalid")                                           \
    X(DROP_IP_CHKSUM, "ip: bad header checksum")                                                   \
    X(DROP_IP_TOTLEN, "ip: total length field disagrees with the frame")                           \
    X(DROP_IP_BAD_SRC, "ip: source address is broadcast, multicast or loopback")                   \
    X(DROP_IP_NOT_FOR_US, "ip: not addressed to this host and forwarding is off")                  \
    X(DROP_IP_TTL, "ip: TTL expired in transit")                                                   \
    X(DROP_IP_NO_ROUTE, "ip: no route to destination")                                             \
    X(DROP_IP_PROTO, "ip: unknown protocol")                                                       \
    X(DROP_IP_DF, "ip: needs fragmentation but DF set")                                            \
    X(DROP_IP_FRAG_OFF, "ip: fragment received but reassembly is off")                             \
    X(DROP_IP_REASS_FULL, "ip: reassembly buffers full")                                           \
    X(DROP_IP_REASS_TOO_BIG, "ip: reassembled datagram larger than the buffer")                    \
    X(DROP_IP_REASS_TIMEOUT, "ip: reassembly timed out")                                           \
    X(DROP_IP_REASS_OVERLAP, "ip: fragment overlaps with different data")                          \
    X(DROP_NETIF_DOWN, "netif: link refused the frame")                                            \
    /* ICMP, RFC 792 */                                                                            \
    X(DROP_ICMP_SHORT, "icmp: truncated message")                                                  \
    X(DROP_ICMP_CHKSUM, "icmp: bad checksum")                                                      \
    X(DROP_ICMP_TYPE, "icmp: type not handled")                                                    \
    /* UDP, RFC 768 */                                                                             \
    X(DROP_UDP_SHORT, "udp: truncated datagram")                                                   \
    X(DROP_UDP_CHKSUM, "udp: bad checksum")                                                        \
    X(DROP_UDP_NO_PORT, "udp: no socket on the port")                                              \
    X(DROP_UDP_RCVBUF_FULL, "udp: socket receive queue full")                                      \
    /* TCP, RFC 9293 */                                                                            \
    X(DROP_TCP_SHORT, "tcp: truncated segment or bad data offset")                                 \
    X(DROP_TCP_CHKSUM, "tcp: bad checksum")                                                        \
    X(DROP_TCP_NO_PCB, "tcp: no connection and no listener (RST sent)")                            \
    X(DROP_TCP_BACKLOG_FULL, "tcp: listen backlog full")                                           \
    X(DROP_TCP_NO_PCB_MEM, "tcp: connection table full")                                           \
    X(DROP_TCP_BAD_SEQ, "tcp: segment not acceptable (outside the receive window)")                \
    X(DROP_TCP_BAD_ACK, "tcp: acknowledges data never sent")                                       \
    X(DROP_TCP_RCVBUF_FULL, "tcp: receive buffer full")                                            \
    X(DROP_TCP_OOO_OFF, "tcp: out-of-order segment and the out-of-order queue is off")             \
    X(DROP_TCP_OOO_FULL, "tcp: out-of-order queue full")                                           \
    X(DROP_TCP_BAD_FLAGS, "tcp: flag combination not valid in this state")                         \
    X(DROP_TCP_PAWS, "tcp: timestamp older than the last one seen (PAWS)")                         \
    X(DROP_TCP_BAD_OPTION, "tcp: malformed option (length past the header or wrong for its kind)") \
    X(DROP_TCP_RST_CHALLENGE,                                                                      \
      "tcp: RST or SYN in the window but not exact: challenge ACK sent (RFC 5961)")                \
    /* simulated links (wasm/sim) */                                                               \
    X(DROP_LINK_QUEUE_FULL, "link: transmit queue full (queue length limit)")                      \
    X(DROP_NFC_MODULE_BUSY, "nfc: module busy with another packet, arriving packet discarded")     \
    X(DROP_ETH_OVERSIZE, "ethernet: datagram larger than the link MTU")                            \
    X(DROP_FAULT_RANDOM, "fault: random loss (the link's p)")                                      \
    X(DROP_FAULT_RULE, "fault: dropped by a targeted rule")                                        \
    /* Added later, so at the end: a reason's number is in every trace, and new numbers \
     * in the middle would change the traces of scenarios that never meet them. */          \
    X(DROP_IP_REASS_EVICTED, "ip: reassembly evicted oldest incomplete datagram")                  \
    X(DROP_IP_REASS_DONE, "ip: fragment of a datagram already reassembled")                        \
    /* the TCP responder (tcp_responder.h) */                                                      \
    X(DROP_TCP_ECHO_NO_ROOM, "tcp: no room in the peer's window for the echo (responder)")         \
    X(DROP_TCP_ECHO_LOST,                                                                          \
      "tcp: an echo was lost and a later ACK covered its data: connection reset (responder)")      \
    /* Ethernet II (RFC 894) and ARP (RFC 826, RFC 1122 2.3.2) */                                  \
    X(DROP_ETH_SHORT, "ethernet: frame shorter than its header")                                   \
    X(DROP_ETH_NOT_FOR_US, "ethernet: destination neither our address nor broadcast")              \
    X(DROP_ETH_TYPE, "ethernet: EtherType neither IPv4 nor ARP")                                   \
    X(DROP_ARP_BAD, "arp: not an Ethernet/IPv4 request or reply")                                  \
    X(DROP_ARP_QUEUE_FULL, "arp: queue of datagrams waiting for an address full")                  \
    X(DROP_ARP_NO_REPLY, "arp: no reply to the requests for the next hop")

#define DROP_REASON_ENUM(name, text) name,
enum drop_reason { DROP_REASONS(DROP_REASON_ENUM) DROP_REASON_COUNT };
#undef DROP_REASON_ENUM

/* "ip: bad header checksum" */
const char *drop_reason_text(enum drop_reason r);
/* "DROP_IP_CHKSUM" */
const char *drop_reason_name(enum drop_reason r);

#endif
