/* ARP (RFC 826) for one Ethernet interface: the cache, the datagrams waiting for an
 * answer, the requests and their retries, the replies (our own address and, for a bridge,
 * the addresses it answers for: proxy ARP).
 *
 * RFC 1122 2.3.2.1 (cache): an entry lives cache_timeout_ms after it was last learned and
 * is then forgotten, so a host that moved is asked again; requests for one address go at
 * most once per retry_ms (the RFC's flooding rule: "no more than one ARP request per
 * second" by default) and after max_tries unanswered requests the address is given up and
 * its datagrams dropped (DROP_ARP_NO_REPLY). A later datagram starts over.
 * RFC 1122 2.3.2.2 (queue): datagrams for an address being resolved wait, up to queue_len
 * of them over all addresses (the RFC asks for "at least one (the latest)"); one more is
 * dropped (DROP_ARP_QUEUE_FULL). They leave in order when the reply comes.
 * RFC 826 "Packet Reception": the sender's pair updates an entry we have whatever the
 * target; it creates one only when the request or reply is for us. A request for us (or
 * for an address we answer for) is answered with our MAC.
 * Gratuitous ARP (a request for our own address, RFC 5227 3) is sent by arp_announce()
 * when cfg.gratuitous is set; it is off by default (ARP_GRATUITOUS_DEFAULT).
 *
 * The sender address of a request: ours, or for an interface without one (a bridge), the
 * source of the datagram that needs the answer, so the request reads "Tell" that host
 * (the NFC paper's PTx: "Who has 192.168.1.202? Tell 192.168.1.102").
 *
 * The owner (a host, or the simulator's bridge) gives the storage (ARP_MEM bytes), an
 * output for frames and a report for the decisions: trace kinds arp.* and drops (TRACE_DROP
 * with the drop reason, protocol 0 and the length). No allocation, no state outside the
 * structure; time is the stack's (stack_time.h).
 */
#ifndef STACK_ARP_H
#define STACK_ARP_H

#include <stddef.h>
#include <stdint.h>

#include "drop_reason.h"
#include "eth.h"
#include "stack_opts.h"
#include "stack_time.h"
#include "trace.h"

#define ARP_PKT_LEN    28 /* for Ethernet and IPv4: 8 + 2 x (6 + 4) */
#define ARP_OP_REQUEST 1
#define ARP_OP_REPLY   2

/* Bytes of storage for an interface of MTU mtu: a frame being built, and queue_len
 * datagrams waiting. */
#define ARP_MEM(mtu, queue_len) \
    ((size_t)((uint32_t)(mtu) + ETH_HDR_LEN) * (1u + (uint32_t)(queue_len)))

struct arp_config {
    uint32_t cache_timeout_ms; /* life of a learned entry */
    uint32_t retry_ms;         /* between requests for one address */
    uint8_t max_tries;         /* requests before giving up, at least 1 */
    uint8_t queue_len;         /* datagrams waiting, over all addresses */
    uint8_t gratuitous;        /* arp_announce() sends a request for our own address */
};

/* The defaults of stack_opts.h. */
void arp_config_default(struct arp_config *cfg);

enum arp_state { ARP_FREE = 0, ARP_PENDING, ARP_STABLE };

struct arp_entry {
    uint32_t ip;
    uint32_t asker;    /* pending: the sender address our requests give */
    stack_time_t when; /* stable: expiry; pending: next request */
    uint8_t mac[ETH_ADDR_LEN];
    uint8_t state; /* enum arp_state */
    uint8_t tries; /* pending: requests sent */
};

struct arp_queued {
    uint32_t next_hop;
    uint32_t tag; /* the owner's, handed back with the frame */
    uint32_t seq; /* queueing order */
    uint16_t len; /* 0: slot free */
};

/* The tag of ARP's own packets (requests and replies), which carry no owner's datagram. */
#define ARP_TAG_NONE 0xFFFFFFFFu

/* A frame to send (not padded: the NIC pads, eth.h). tag: the datagram's, ARP_TAG_NONE
 * for ARP's own packets. Returns 0, or negative if the link refused it. */
typedef int (*arp_output_fn)(void *ctx, const uint8_t *frame, uint16_t len, uint32_t tag);
/* A decision: kind is an arp.* trace kind (fields as trace.h says) or TRACE_DROP (a = the
 * drop reason, c = the length). */
typedef void (*arp_report_fn)(void *ctx, enum trace_kind kind, uint32_t a, uint32_t b, uint32_t c,
                              uint32_t d);

struct arp_if {
    struct arp_config cfg;
    uint8_t mac[ETH_ADDR_LEN];
    uint32_t ip; /* 0: none (a bridge) */
    uint16_t mtu;
    uint32_t proxy[ARP_PROXY_MAX]; /* addresses answered for besides ours */
    uint8_t n_proxy;
    struct arp_entry cache[ARP_TABLE_SIZE];
    struct arp_queued queue[ARP_QUEUE_MAX];
    uint8_t *frame; /* mtu + ETH_HDR_LEN bytes */
    uint8_t *qmem;  /* queue_len slots of mtu bytes */
    uint32_t next_seq;
    arp_output_fn output;
    arp_report_fn report;
    void *ctx;
};

/* Starts an interface. Returns ERR_OK, ERR_ARG (queue_len above ARP_QUEUE_MAX, max_tries
 * 0, a timeout above STACK_MAX_DELAY_MS, mtu below 68, no output) or ERR_MEM (mem_len below
 * ARP_MEM). */
int arp_init(struct arp_if *a, const struct arp_config *cfg, const uint8_t mac[ETH_ADDR_LEN],
             uint32_t ip, uint16_t mtu, uint8_t *mem, size_t mem_len, arp_output_fn output,
             arp_report_fn report, void *ctx);

/* Answers requests for ip too (proxy ARP). Returns ERR_OK or ERR_MEM (ARP_PROXY_MAX). */
int arp_add_proxy(struct arp_if *a, uint32_t ip);

/* Sends datagram dgram[0..len) (IPv4) to next_hop: at once if its MAC is known, else after
 * resolution; one above the MTU is dropped (DROP_ETH_OVERSIZE). Returns 0 (sent, queued or
 * dropped and reported) or the output's negative value. */
int arp_output(struct arp_if *a, stack_time_t now, uint32_t next_hop, const uint8_t *dgram,
               uint16_t len, uint32_t tag);

/* An ARP packet arrived (the frame's payload, padding included). */
void arp_input(struct arp_if *a, stack_time_t now, const uint8_t *pkt, uint16_t len);

/* Retries, give-ups and expiries due at now. */
void arp_poll(struct arp_if *a, stack_time_t now);

/* The earliest instant arp_poll has something to do, merged into *when (time_earliest). */
void arp_next_deadline(const struct arp_if *a, stack_time_t *when, int *has);

/* Gratuitous ARP (an announcement: a request for our own address, RFC 5227 2.3), if
 * cfg.gratuitous and the interface has an address. */
void arp_announce(struct arp_if *a);

/* The cache entry for ip, or NULL. */
const struct arp_entry *arp_find(const struct arp_if *a, uint32_t ip);

#endif
