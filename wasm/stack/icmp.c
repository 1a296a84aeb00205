/* ICMP, RFC 792 and RFC 1122 section 3.2.2.
 *
 * In: every message is checked for length and checksum first (RFC 1122 3.2.2: a message
 * with a bad checksum is dropped). Echo requests are answered (RFC 1122 3.2.2.6: same
 * identifier, sequence number and data); echo replies and errors about our own echo
 * requests go to the ping client (ping.c). Errors about TCP or UDP datagrams are not
 * acted upon yet: RFC 1122 4.2.3.9 says that soft errors (unreachable codes 0, 1, 5,
 * time exceeded) must not abort a connection anyway, and our UDP sockets are unconnected,
 * for which Linux reports nothing either (RFC 1122 4.1.3.3 would pass them up). They are
 * counted as DROP_ICMP_TYPE, like every type we do not handle (timestamp, redirect, ...).
 *
 * Out: error messages quote the offending datagram's IP header and its first 8 data
 * bytes (RFC 792), and are never sent about (RFC 1122 3.2.2): an ICMP error message, a
 * fragment other than the first, a datagram sent to a broadcast or multicast address, or
 * one whose source does not name a single host (0, broadcast, multicast, loopback,
 * class E). Port and protocol unreachables are only sent with cfg.icmp_unreachable; the
 * router's messages (net unreachable, fragmentation needed, time exceeded) always.
 * Error messages are not rate-limited (RFC 1812 4.3.2.8 suggests it; not done here).
 */
#include "icmp.h"

#include <string.h>

#include "bytes.h"
#include "host.h"
#include "inet_chksum.h"
#include "ping.h"

/* RFC 792 error types: never answer one of these with another error. */
static int icmp_is_error(uint8_t type)
{
    return type == ICMP_DEST_UNREACH || type == 4 /* source quench */ || type == 5 /* redirect */ ||
           type == ICMP_TIME_EXCEEDED || type == 12 /* parameter problem */;
}

/* RFC 1122 3.2.1.3 / 3.2.2: does `a` name a single host? */
static int icmp_unicast_src(uint32_t a)
{
    return a != 0 && a != 0xFFFFFFFFu && (a >> 28) != 0xE && (a >> 28) != 0xF && (a >> 24) != 127;
}

/* Limited broadcast, multicast, or the directed broadcast of one of our subnets. */
static int icmp_broadcast_dst(const struct host *h, uint32_t a)
{
    uint8_t i;
    if (a == 0xFFFFFFFFu || (a >> 28) == 0xE)
        return 1;
    for (i = 0; i < h->n_netifs; i++) {
        uint32_t m = h->netifs[i].netmask;
        if (m != 0xFFFFFFFFu && (a & m) == (h->netifs[i].addr & m) && (a | m) == 0xFFFFFFFFu)
            return 1;
    }
    return 0;
}

/* Checksums the message at m, which has room for an IP header in front of it, and sends
 * it. */
static int icmp_send(struct host *h, uint8_t *m, uint32_t src, uint32_t dst, uint16_t len)
{
    int err;
    wr16(m + ICMP_OFF_CHKSUM, 0);
    wr16(m + ICMP_OFF_CHKSUM, inet_chksum(m, len));
    err = ip_output_at(h, m - IP_HLEN, src, dst, IP_PROTO_ICMP, len, 0);
    h->icmp.out_msgs++;
    trace_simple(h, TRACE_ICMP_SENT, m[ICMP_OFF_TYPE], m[ICMP_OFF_CODE], len);
    return err;
}

void icmp_send_error(struct host *h, const struct ip_rx *rx, uint8_t type, uint8_t code,
                     uint32_t rest)
{
    const uint8_t *d = rx->dgram;
    uint16_t quote = (uint16_t)(rx->len - rx->hlen);
    uint8_t *m;

    if (type == ICMP_DEST_UNREACH && !HOST_CFG(h).icmp_unreachable &&
        (code == ICMP_UNREACH_PORT || code == ICMP_UNREACH_PROTOCOL))
        return;
    if (rd16(d + IP_OFF_FRAG) & IP_OFFSET_MASK)
        return; /* not the first fragment */
    if (rx->proto == IP_PROTO_ICMP && (quote == 0 || icmp_is_error(d[rx->hlen])))
        return; /* never an error about an error (an empty one cannot be told apart) */
    if (!icmp_unicast_src(rx->src) || icmp_broadcast_dst(h, rx->dst))
        return;
    if (quote > 8)
        quote = 8; /* RFC 792: the header and the first 64 bits of data */
    if ((uint32_t)ICMP_HLEN + rx->hlen + quote > ip_tx_capacity(h))
        return; /* only a transmit buffer smaller than 96 bytes gets here */

    m = ip_tx_payload(h);
    m[ICMP_OFF_TYPE] = type;
    m[ICMP_OFF_CODE] = code;
    wr32(m + 4, rest);
    memcpy(m + ICMP_HLEN, d, (size_t)rx->hlen + quote);
    h->icmp.out_errors++;
    /* RFC 1812 4.3.2.4 / RFC 1122 3.2.2: from the address the datagram was sent to when it
     * is ours; a router answers from the interface that leads back to the source. */
    icmp_send(h, m, ip_is_local(h, rx->dst) ? rx->dst : 0, rx->src,
              (uint16_t)(ICMP_HLEN + rx->hlen + quote));
}

void icmp_send_unreachable(struct host *h, const struct ip_rx *rx, uint8_t code)
{
    icmp_send_error(h, rx, ICMP_DEST_UNREACH, code, 0);
}

void icmp_send_time_exceeded(struct host *h, const struct ip_rx *rx)
{
    icmp_send_error(h, rx, ICMP_TIME_EXCEEDED, ICMP_EXC_TTL, 0);
}

/* RFC 792 echo / RFC 1122 3.2.2.6: the reply carries the request's identifier, sequence
 * number and data; only type and checksum change. Its source is the address the request
 * was sent to (for a broadcast request, our address on the way back). It is built where
 * the request lies, as lwIP does, over the end of the request's IP header: so a request
 * reassembled from fragments, larger than the datagrams this host builds (cfg.
 * ip_max_datagram), is answered whole, as 3.2.2.6 asks. */
static void icmp_echo(struct host *h, const struct ip_rx *rx, uint8_t *m, uint16_t len)
{
    m[ICMP_OFF_TYPE] = ICMP_ECHO_REPLY;
    m[ICMP_OFF_CODE] = 0;
    h->icmp.in_echo++;
    icmp_send(h, m, ip_is_local(h, rx->dst) ? rx->dst : 0, rx->src, len);
}

/* An error message: hand it to ping if it quotes one of our echo requests. */
static void icmp_error_in(struct host *h, const struct ip_rx *rx, const uint8_t *m, uint16_t len)
{
    const uint8_t *q = m + ICMP_HLEN;
    uint16_t qlen = (uint16_t)(len - ICMP_HLEN);
    uint16_t mtu =
        (m[ICMP_OFF_TYPE] == ICMP_DEST_UNREACH && m[ICMP_OFF_CODE] == ICMP_UNREACH_FRAG_NEEDED)
            ? rd16(m + 6)
            : 0;
    if (qlen < IP_HLEN + 8 || (q[IP_OFF_VHL] >> 4) != 4 ||
        (uint16_t)((q[IP_OFF_VHL] & 0x0F) * 4) + 8u > qlen) {
        host_drop(h, DROP_ICMP_SHORT, IP_PROTO_ICMP, rx->len);
        return;
    }
    if (!ping_input_error(h, rx, m[ICMP_OFF_TYPE], m[ICMP_OFF_CODE], mtu, q, qlen))
        host_drop(h, DROP_ICMP_TYPE, IP_PROTO_ICMP, rx->len); /* see the top of the file */
}

void icmp_input(struct host *h, struct ip_rx *rx)
{
    uint8_t *m = rx->dgram + rx->hlen;
    uint16_t len = (uint16_t)(rx->len - rx->hlen);

    if (len < ICMP_HLEN) {
        host_drop(h, DROP_ICMP_SHORT, IP_PROTO_ICMP, rx->len);
        return;
    }
    if (!HOST_CFG(h).skip_checksum_check && inet_chksum(m, len) != 0) {
        host_drop(h, DROP_ICMP_CHKSUM, IP_PROTO_ICMP, rx->len);
        return;
    }
    h->icmp.in_msgs++;
    switch (m[ICMP_OFF_TYPE]) {
    case ICMP_ECHO_REQUEST: icmp_echo(h, rx, m, len); break;
    case ICMP_ECHO_REPLY:
        if (!ping_input_reply(h, rx, m, len))
            host_drop(h, DROP_ICMP_TYPE, IP_PROTO_ICMP, rx->len); /* no ping waits for it */
        break;
    case ICMP_DEST_UNREACH:
    case ICMP_TIME_EXCEEDED: icmp_error_in(h, rx, m, len); break;
    default: host_drop(h, DROP_ICMP_TYPE, IP_PROTO_ICMP, rx->len); break;
    }
}
