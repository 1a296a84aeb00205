/* Builds realistic IPv4 + TCP datagrams for the CSLIP tests (test_vj.c, test_vj_edge.c):
 * DF set, TTL 64, correct IP and TCP checksums (inet_chksum.h), payload bytes derived
 * from the sequence number so a retransmission carries the same bytes as the original. */
#ifndef STACK_TEST_VJ_PKT_H
#define STACK_TEST_VJ_PKT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bytes.h"
#include "inet_chksum.h"
#include "tcp.h" /* TCP_ACK, ... */

#define VJT_BUF 600

struct vjt_tcp {
    uint32_t src, dst;
    uint16_t sport, dport;
    uint16_t id;
    uint32_t seq, ack;
    uint8_t flags;
    uint16_t wnd, urp;
    const uint8_t *opt; /* TCP options, optlen a multiple of 4 */
    uint8_t optlen;
    uint16_t dlen;
};

/* Writes the datagram into buf (VJT_BUF bytes) and returns its length. */
static inline uint16_t vjt_build(uint8_t *buf, const struct vjt_tcp *t)
{
    uint16_t thl = (uint16_t)(20u + t->optlen), len = (uint16_t)(20u + thl + t->dlen), i;
    uint8_t *th = buf + 20;
    uint32_t sum;
    memset(buf, 0, (size_t)20 + thl);
    buf[0] = 0x45;
    wr16(buf + 2, len);
    wr16(buf + 4, t->id);
    wr16(buf + 6, 0x4000); /* DF */
    buf[8] = 64;
    buf[9] = 6;
    wr32(buf + 12, t->src);
    wr32(buf + 16, t->dst);
    wr16(buf + 10, inet_chksum(buf, 20));
    wr16(th + 0, t->sport);
    wr16(th + 2, t->dport);
    wr32(th + 4, t->seq);
    wr32(th + 8, t->ack);
    th[12] = (uint8_t)((thl / 4u) << 4);
    th[13] = t->flags;
    wr16(th + 14, t->wnd);
    wr16(th + 18, t->urp);
    if (t->optlen)
        memcpy(th + 20, t->opt, t->optlen);
    for (i = 0; i < t->dlen; i++)
        th[thl + i] = (uint8_t)((t->seq + i) * 37u); /* hits 0xC0 and 0xDB too */
    sum = inet_pseudo_sum(t->src, t->dst, 6, (uint16_t)(thl + t->dlen));
    sum = inet_sum(sum, th, (uint16_t)(thl + t->dlen));
    wr16(th + 16, inet_fold(sum));
    return len;
}

/* 1 if the IP header checksum and the TCP checksum of a 20-byte-IP-header datagram both
 * verify. */
static inline int vjt_valid(const uint8_t *d, uint16_t len)
{
    uint32_t sum;
    if (inet_chksum(d, 20) != 0 || rd16(d + 2) != len)
        return 0;
    sum = inet_pseudo_sum(rd32(d + 12), rd32(d + 16), 6, (uint16_t)(len - 20u));
    sum = inet_sum(sum, d + 20, (uint16_t)(len - 20u));
    return inet_fold(sum) == 0;
}

#endif
