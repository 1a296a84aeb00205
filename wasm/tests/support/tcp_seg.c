#include "tcp_seg.h"

#include <string.h>

#include "bytes.h"
#include "inet_chksum.h"

/* Written here again rather than taken from the stack, so that a mistake in the stack's
 * checksum code cannot hide itself: RFC 1071 sum over 16-bit big-endian words. */
static uint32_t sum16(uint32_t sum, const uint8_t *p, uint32_t n)
{
    uint32_t i;
    for (i = 0; i + 1 < n; i += 2)
        sum += ((uint32_t)p[i] << 8) | p[i + 1];
    if (n & 1u)
        sum += (uint32_t)p[n - 1] << 8;
    return sum;
}

static uint16_t fold(uint32_t sum)
{
    while (sum >> 16)
        sum = (sum & 0xFFFFu) + (sum >> 16);
    return (uint16_t)~sum;
}

static uint32_t pseudo(uint32_t src, uint32_t dst, uint16_t tcplen)
{
    return (src >> 16) + (src & 0xFFFFu) + (dst >> 16) + (dst & 0xFFFFu) + 6u + tcplen;
}

uint16_t tseg_build(uint8_t *buf, const struct tseg_spec *s)
{
    uint8_t *ip = buf, *t = buf + 20;
    uint16_t olen = 0, hlen, tlen;
    if (s->mss) {
        t[20 + olen] = 2;
        t[21 + olen] = 4;
        wr16(t + 22 + olen, s->mss);
        olen += 4;
    }
    if (s->ts) {
        t[20 + olen] = 1;
        t[21 + olen] = 1;
        t[22 + olen] = 8;
        t[23 + olen] = 10;
        wr32(t + 24 + olen, s->tsval);
        wr32(t + 28 + olen, s->tsecr);
        olen += 12;
    }
    if (s->raw_opts_len) {
        memcpy(t + 20 + olen, s->raw_opts, s->raw_opts_len);
        olen = (uint16_t)(olen + s->raw_opts_len);
    }
    while (olen % 4u)
        t[20 + olen++] = 0; /* end of option list, then padding */
    hlen = (uint16_t)(20 + olen);
    tlen = (uint16_t)(hlen + s->len);
    wr16(t + 0, s->sport);
    wr16(t + 2, s->dport);
    wr32(t + 4, s->seq);
    wr32(t + 8, s->ack);
    t[12] = (uint8_t)((hlen / 4) << 4);
    t[13] = s->flags;
    wr16(t + 14, s->wnd);
    wr16(t + 16, 0);
    wr16(t + 18, 0);
    if (s->len)
        memcpy(t + hlen, s->data, s->len);
    wr16(t + 16, fold(sum16(pseudo(s->src, s->dst, tlen), t, tlen)));

    ip[0] = 0x45;
    ip[1] = 0;
    wr16(ip + 2, (uint16_t)(20 + tlen));
    wr16(ip + 4, 0x1234);
    wr16(ip + 6, 0x4000);
    ip[8] = 64;
    ip[9] = 6;
    wr16(ip + 10, 0);
    wr32(ip + 12, s->src);
    wr32(ip + 16, s->dst);
    wr16(ip + 10, fold(sum16(0, ip, 20)));
    return (uint16_t)(20 + tlen);
}

int tseg_parse(const uint8_t *d, uint16_t len, struct tseg *o)
{
    uint16_t ihl, tot, tlen, i;
    const uint8_t *t;
    memset(o, 0, sizeof *o);
    if (len < 40 || (d[0] >> 4) != 4 || d[9] != 6)
        return -1;
    ihl = (uint16_t)((d[0] & 15u) * 4u);
    tot = rd16(d + 2);
    if (tot > len || tot < ihl + 20u)
        return -1;
    o->ip_ok = fold(sum16(0, d, ihl)) == 0;
    o->df = (rd16(d + 6) & 0x4000u) != 0;
    o->ip_len = tot;
    o->src = rd32(d + 12);
    o->dst = rd32(d + 16);
    t = d + ihl;
    tlen = (uint16_t)(tot - ihl);
    o->sport = rd16(t);
    o->dport = rd16(t + 2);
    o->seq = rd32(t + 4);
    o->ack = rd32(t + 8);
    o->hlen = (uint16_t)((t[12] >> 4) * 4u);
    o->flags = t[13];
    o->wnd = rd16(t + 14);
    if (o->hlen < 20 || o->hlen > tlen)
        return -1;
    o->tcp_ok = fold(sum16(pseudo(o->src, o->dst, tlen), t, tlen)) == 0;
    o->len = (uint16_t)(tlen - o->hlen);
    o->data = t + o->hlen;
    for (i = 20; i < o->hlen;) {
        uint8_t kind = t[i];
        if (kind == 0)
            break;
        if (kind == 1) {
            i++;
            continue;
        }
        if (i + 1 >= o->hlen || t[i + 1] < 2)
            return -1;
        if (kind == 2 && t[i + 1] == 4) {
            o->has_mss = 1;
            o->mss = rd16(t + i + 2);
        } else if (kind == 8 && t[i + 1] == 10) {
            o->has_ts = 1;
            o->tsval = rd32(t + i + 2);
            o->tsecr = rd32(t + i + 6);
        }
        i = (uint16_t)(i + t[i + 1]);
    }
    return 0;
}

const char *tseg_flags_str(uint8_t flags, char *buf)
{
    static const char letters[] = "FSRPAU";
    int i, n = 0;
    for (i = 0; i < 6; i++)
        if (flags & (1u << i))
            buf[n++] = letters[i];
    buf[n] = 0;
    return buf;
}
