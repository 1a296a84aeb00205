#include "frame_info.h"

#include <stdio.h>
#include <string.h>

#include "bytes.h"
#include "icmp.h"
#include "ip.h"
#include "tcp.h"
#include "udp.h"

/* The ISN of this direction, learnt at its SYN; 0 if the SYN was never seen. */
static uint32_t flow_isn(struct frame_info_flows *f, uint32_t src, uint32_t dst, uint16_t sport,
                         uint16_t dport, int syn, uint32_t seq)
{
    unsigned i;
    for (i = 0; i < f->n; i++)
        if (f->flow[i].src == src && f->flow[i].dst == dst && f->flow[i].sport == sport &&
            f->flow[i].dport == dport) {
            if (syn)
                f->flow[i].isn = seq;
            return f->flow[i].isn;
        }
    if (syn && f->n < FRAME_INFO_FLOWS) {
        f->flow[f->n].src = src;
        f->flow[f->n].dst = dst;
        f->flow[f->n].sport = sport;
        f->flow[f->n].dport = dport;
        f->flow[f->n].isn = seq;
        f->n++;
    }
    return syn ? seq : 0;
}

/* "[SYN, ACK]", in Wireshark's order of flag names. */
static void tcp_flags_text(uint8_t flags, char *out, size_t cap)
{
    static const struct {
        uint8_t bit;
        const char *name;
    } names[] = {
        { TCP_FIN, "FIN" }, { TCP_SYN, "SYN" }, { TCP_RST, "RST" },
        { TCP_PSH, "PSH" }, { TCP_ACK, "ACK" }, { TCP_URG, "URG" },
    };
    size_t used = 0;
    unsigned i;
    used += (size_t)snprintf(out, cap, "[");
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (flags & names[i].bit)
            used += (size_t)snprintf(out + used, used < cap ? cap - used : 0, "%s%s",
                                     used > 1 ? ", " : "", names[i].name);
    snprintf(out + used, used < cap ? cap - used : 0, "]");
}

static void tcp_info(struct frame_info_flows *flows, const uint8_t *d, uint16_t hlen, uint16_t len,
                     char *info, size_t cap)
{
    const uint8_t *t = d + hlen;
    uint16_t doff, sport, dport, mss = 0;
    uint32_t seq, ack, isn, peer_isn;
    uint8_t flags;
    char fl[48];
    size_t used;
    if (len < hlen + TCP_HLEN || (doff = (uint16_t)((t[TCP_OFF_DATAOFF] >> 4) * 4)) < TCP_HLEN ||
        hlen + doff > len) {
        snprintf(info, cap, "[Malformed Packet]");
        return;
    }
    sport = rd16(t + TCP_OFF_SRC_PORT);
    dport = rd16(t + TCP_OFF_DST_PORT);
    seq = rd32(t + TCP_OFF_SEQ);
    ack = rd32(t + TCP_OFF_ACK);
    flags = t[TCP_OFF_FLAGS];
    isn = flow_isn(flows, rd32(d + IP_OFF_SRC), rd32(d + IP_OFF_DST), sport, dport, flags & TCP_SYN,
                   seq);
    peer_isn = flow_isn(flows, rd32(d + IP_OFF_DST), rd32(d + IP_OFF_SRC), dport, sport, 0, 0);
    if (doff >= 24 && t[20] == 2 && t[21] == 4)
        mss = rd16(t + 22);
    tcp_flags_text(flags, fl, sizeof fl);
    used = (size_t)snprintf(info, cap, "%u \u2192 %u %s Seq=%u", sport, dport, fl,
                            (unsigned)(seq - isn));
    if (flags & TCP_ACK)
        used += (size_t)snprintf(info + used, used < cap ? cap - used : 0, " Ack=%u",
                                 (unsigned)(ack - peer_isn));
    used += (size_t)snprintf(info + used, used < cap ? cap - used : 0, " Win=%u Len=%u",
                             rd16(t + TCP_OFF_WND), (unsigned)(len - hlen - doff));
    if (mss)
        snprintf(info + used, used < cap ? cap - used : 0, " MSS=%u", mss);
}

static void icmp_info(const uint8_t *d, uint16_t hlen, uint16_t len, char *info, size_t cap)
{
    const uint8_t *m = d + hlen;
    if (len < hlen + ICMP_HLEN) {
        snprintf(info, cap, "[Malformed Packet]");
        return;
    }
    switch (m[ICMP_OFF_TYPE]) {
    case ICMP_ECHO_REQUEST:
    case ICMP_ECHO_REPLY: {
        uint16_t seq = rd16(m + ICMP_OFF_SEQ);
        /* Wireshark shows the sequence number read both ways: big/little endian. */
        snprintf(info, cap, "Echo (ping) %s  id=0x%04x, seq=%u/%u, ttl=%u",
                 m[ICMP_OFF_TYPE] == ICMP_ECHO_REQUEST ? "request" : "reply  ",
                 rd16(m + ICMP_OFF_ID), seq, (unsigned)(((seq & 0xFF) << 8) | (seq >> 8)),
                 d[IP_OFF_TTL]);
        break;
    }
    case ICMP_DEST_UNREACH:
        snprintf(info, cap, "Destination unreachable (%s)",
                 m[ICMP_OFF_CODE] == ICMP_UNREACH_PORT       ? "Port unreachable"
                 : m[ICMP_OFF_CODE] == ICMP_UNREACH_PROTOCOL ? "Protocol unreachable"
                                                             : "other");
        break;
    case ICMP_TIME_EXCEEDED: snprintf(info, cap, "Time-to-live exceeded"); break;
    default: snprintf(info, cap, "Type %u, code %u", m[ICMP_OFF_TYPE], m[ICMP_OFF_CODE]);
    }
}

void frame_info(struct frame_info_flows *flows, const uint8_t *d, uint16_t len, char *proto,
                size_t proto_cap, char *info, size_t info_cap)
{
    uint16_t hlen;
    if (len < IP_HLEN || (d[IP_OFF_VHL] >> 4) != 4) {
        snprintf(proto, proto_cap, "IPv4");
        snprintf(info, info_cap, "[Malformed Packet]");
        return;
    }
    hlen = (uint16_t)((d[IP_OFF_VHL] & 0x0F) * 4);
    /* The demo does not reassemble: every fragment is listed as one, with its offset. */
    if (rd16(d + IP_OFF_FRAG) & (IP_FLAG_MF | IP_OFFSET_MASK)) {
        snprintf(proto, proto_cap, "IPv4");
        snprintf(info, info_cap, "Fragmented IP protocol (proto=%u, off=%u, ID=%04x)",
                 d[IP_OFF_PROTO], (unsigned)((rd16(d + IP_OFF_FRAG) & IP_OFFSET_MASK) * 8),
                 rd16(d + IP_OFF_ID));
        return;
    }
    switch (d[IP_OFF_PROTO]) {
    case IP_PROTO_TCP:
        snprintf(proto, proto_cap, "TCP");
        tcp_info(flows, d, hlen, len, info, info_cap);
        break;
    case IP_PROTO_ICMP:
        snprintf(proto, proto_cap, "ICMP");
        icmp_info(d, hlen, len, info, info_cap);
        break;
    case IP_PROTO_UDP:
        snprintf(proto, proto_cap, "UDP");
        if (len >= hlen + UDP_HLEN)
            snprintf(info, info_cap, "%u \u2192 %u Len=%u", rd16(d + hlen + UDP_OFF_SRC_PORT),
                     rd16(d + hlen + UDP_OFF_DST_PORT), (unsigned)(len - hlen - UDP_HLEN));
        else
            snprintf(info, info_cap, "[Malformed Packet]");
        break;
    default:
        snprintf(proto, proto_cap, "IPv4");
        snprintf(info, info_cap, "protocol %u", d[IP_OFF_PROTO]);
    }
}
