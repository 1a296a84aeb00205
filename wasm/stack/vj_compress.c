/* CSLIP compressor, RFC 1144 section 3.2 and its appendix A.2 (sl_compress_tcp): the
 * same decisions in the same order, written over byte offsets. vj.h has the format. */
#include <string.h>

#include "bytes.h"
#include "ip.h"
#include "stack_err.h"
#include "tcp.h"
#include "vj.h"

/* RFC 1144 A.2 ENCODE / ENCODEZ: 1..255 in one byte; 0 and 256..65535 as a zero byte
 * then the value big-endian. (ENCODE is only ever used for non-zero values, so one
 * function serves both.) Returns the bytes written. */
static uint8_t vj_put_delta(uint8_t *p, uint16_t v)
{
    if (v == 0 || v >= 256) {
        p[0] = 0;
        wr16(p + 1, v);
        return 3;
    }
    p[0] = (uint8_t)v;
    return 1;
}

/* RFC 1144 A.2: only TCP over IPv4, not a fragment, with ACK set and none of SYN, FIN,
 * RST, can be compressed; everything else goes as TYPE_IP. We also require the headers
 * to be whole and the total length to match the buffer, since the receiver rebuilds the
 * length from the frame. Sets the header lengths in bytes. */
static int vj_compressible(const uint8_t *pkt, uint16_t len, uint16_t *ihl, uint16_t *thl)
{
    if (len < IP_HLEN || (pkt[IP_OFF_VHL] >> 4) != 4)
        return 0;
    *ihl = (uint16_t)((pkt[IP_OFF_VHL] & 0x0Fu) * 4u);
    if (*ihl < IP_HLEN || pkt[IP_OFF_PROTO] != IP_PROTO_TCP)
        return 0;
    if (rd16(pkt + IP_OFF_FRAG) & (IP_FLAG_MF | IP_OFFSET_MASK))
        return 0;
    if (rd16(pkt + IP_OFF_LEN) != len || (uint32_t)*ihl + TCP_HLEN > len)
        return 0;
    *thl = (uint16_t)((pkt[*ihl + TCP_OFF_DATAOFF] >> 4) * 4u);
    if (*thl < TCP_HLEN || (uint32_t)*ihl + *thl > len)
        return 0;
    return (pkt[*ihl + TCP_OFF_FLAGS] & (TCP_SYN | TCP_FIN | TCP_RST | TCP_ACK)) == TCP_ACK;
}

/* Does slot cs hold the connection of pkt (addresses and ports)? */
static int vj_slot_matches(const struct vj_slot *cs, const uint8_t *pkt, uint16_t ihl)
{
    uint16_t ohl;
    if (cs->hlen == 0)
        return 0;
    ohl = (uint16_t)((cs->hdr[IP_OFF_VHL] & 0x0Fu) * 4u);
    return memcmp(pkt + IP_OFF_SRC, cs->hdr + IP_OFF_SRC, 8) == 0 &&
           memcmp(pkt + ihl + TCP_OFF_SRC_PORT, cs->hdr + ohl + TCP_OFF_SRC_PORT, 4) == 0;
}

/* RFC 1144 A.2: the slots form a ring in least-recently-used order; last_cs is the
 * oldest and its successor the newest. Looks for pkt's connection from the newest on and
 * moves it to the front; if it is not there, the oldest slot is taken (it becomes the
 * newest by moving last_cs back one). Sets *found. */
static uint8_t vj_find_slot(struct vj_state *s, const uint8_t *pkt, uint16_t ihl, int *found)
{
    struct vj_slot *t = s->tx;
    uint8_t last = s->last_cs;
    uint8_t cs = t[last].next;
    uint8_t lcs;

    *found = 1;
    if (vj_slot_matches(&t[cs], pkt, ihl))
        return cs; /* already the newest: no reordering */
    do {
        lcs = cs;
        cs = t[cs].next;
        if (vj_slot_matches(&t[cs], pkt, ihl)) {
            if (cs == last) {
                s->last_cs = lcs;
            } else {
                t[lcs].next = t[cs].next;
                t[cs].next = t[last].next;
                t[last].next = cs;
            }
            return cs;
        }
    } while (cs != last);
    *found = 0;
    s->last_cs = lcs;
    return cs;
}

uint8_t vj_compress_parts(struct vj_state *s, const uint8_t *pkt, uint16_t len, uint8_t *hdr,
                          uint8_t *hdr_len, uint16_t *rest_off)
{
    uint16_t ihl = 0, thl = 0, hlen, prev_len;
    uint8_t deltas[15]; /* U, W, A, S, I: at most 3 bytes each */
    uint8_t nd = 0, changes = 0, id, n = 0;
    uint32_t ds, da;
    uint16_t dw, di;
    const uint8_t *th, *o, *oth;
    struct vj_slot *cs;
    int found;

    *hdr_len = 0;
    *rest_off = 0;
    if (s->n_tx == 0 || !vj_compressible(pkt, len, &ihl, &thl)) {
        s->stats.out_ip++;
        return VJ_TYPE_IP;
    }
    hlen = (uint16_t)(ihl + thl);
    th = pkt + ihl;
    id = vj_find_slot(s, pkt, ihl, &found);
    cs = &s->tx[id];
    if (!found) {
        /* A new connection (or one evicted): tell the receiver which slot it gets. */
        s->stats.out_misses++;
        goto uncompressed;
    }

    /* RFC 1144 A.2: only the fields compression can describe may change. Version,
     * header length and TOS; DF (fragments never get here); TTL and protocol; IP and TCP
     * options. Stricter than the RFC (see vj.h): the whole data-offset byte and every
     * TCP flag except PSH. */
    o = cs->hdr;
    if (memcmp(pkt + IP_OFF_VHL, o + IP_OFF_VHL, 2) != 0 ||
        memcmp(pkt + IP_OFF_FRAG, o + IP_OFF_FRAG, 4) != 0)
        goto uncompressed;
    oth = o + ihl; /* same header length as pkt, checked just above */
    if (th[TCP_OFF_DATAOFF] != oth[TCP_OFF_DATAOFF] ||
        ((th[TCP_OFF_FLAGS] ^ oth[TCP_OFF_FLAGS]) & (uint8_t)~TCP_PSH) != 0 ||
        memcmp(pkt + IP_HLEN, o + IP_HLEN, (size_t)(ihl - IP_HLEN)) != 0 ||
        memcmp(th + TCP_HLEN, oth + TCP_HLEN, (size_t)(thl - TCP_HLEN)) != 0)
        goto uncompressed;

    /* The deltas, in the order the receiver reads them: U, W, A, S. */
    if (th[TCP_OFF_FLAGS] & TCP_URG) {
        nd = (uint8_t)(nd + vj_put_delta(deltas + nd, rd16(th + TCP_OFF_URG)));
        changes |= VJ_NEW_U;
    } else if (rd16(th + TCP_OFF_URG) != rd16(oth + TCP_OFF_URG)) {
        /* Urgent pointer changed without URG: legal, rare, not expressible. */
        goto uncompressed;
    }
    dw = (uint16_t)(rd16(th + TCP_OFF_WND) - rd16(oth + TCP_OFF_WND));
    if (dw) {
        nd = (uint8_t)(nd + vj_put_delta(deltas + nd, dw));
        changes |= VJ_NEW_W;
    }
    da = rd32(th + TCP_OFF_ACK) - rd32(oth + TCP_OFF_ACK);
    if (da) {
        if (da > 0xFFFFu) /* also an ack going backwards */
            goto uncompressed;
        nd = (uint8_t)(nd + vj_put_delta(deltas + nd, (uint16_t)da));
        changes |= VJ_NEW_A;
    }
    ds = rd32(th + TCP_OFF_SEQ) - rd32(oth + TCP_OFF_SEQ);
    if (ds) {
        if (ds > 0xFFFFu) /* also a retransmission further back: section 4.2 */
            goto uncompressed;
        nd = (uint8_t)(nd + vj_put_delta(deltas + nd, (uint16_t)ds));
        changes |= VJ_NEW_S;
    }

    /* The receiver tells the special cases apart by changes & SPECIALS_MASK, not by the
     * whole mask (A.3), so any real pattern that looks like one once masked (U|S or
     * U|W|S, with or without A) cannot be sent compressed. RFC 1144's compressor only
     * catches the exact values; with URG and A it would send U|A|S, which its own
     * decompressor reads as SPECIAL_D. */
    if ((changes & VJ_SPECIALS_MASK) == VJ_SPECIAL_I ||
        (changes & VJ_SPECIALS_MASK) == VJ_SPECIAL_D)
        goto uncompressed;

    prev_len = rd16(o + IP_OFF_LEN);
    switch (changes) {
    case 0:
        /* Nothing changed. Data right after a bare ACK is the interactive case and goes
         * compressed; anything else is a retransmission, a repeated ACK or a window
         * probe, sent in full in case the receiver missed the compressed original. */
        if (len != prev_len && prev_len == hlen)
            break;
        goto uncompressed;
    case VJ_NEW_S | VJ_NEW_A:
        if (ds == da && ds == (uint32_t)(prev_len - hlen)) {
            changes = VJ_SPECIAL_I; /* echoed terminal traffic */
            nd = 0;
        }
        break;
    case VJ_NEW_S:
        if (ds == (uint32_t)(prev_len - hlen)) {
            changes = VJ_SPECIAL_D; /* one-way data */
            nd = 0;
        }
        break;
    default: break;
    }

    di = (uint16_t)(rd16(pkt + IP_OFF_ID) - rd16(o + IP_OFF_ID));
    if (di != 1) {
        nd = (uint8_t)(nd + vj_put_delta(deltas + nd, di));
        changes |= VJ_NEW_I;
    }
    if (th[TCP_OFF_FLAGS] & TCP_PSH)
        changes |= VJ_PUSH;

    memcpy(cs->hdr, pkt, hlen);
    cs->hlen = (uint8_t)hlen;

    /* The connection number may be left out when it is the one of the previous frame. */
    if (!s->compress_cid || s->last_xmit != id) {
        s->last_xmit = id;
        hdr[n++] = (uint8_t)(VJ_TYPE_COMPRESSED_TCP | VJ_NEW_C | changes);
        hdr[n++] = id;
    } else {
        hdr[n++] = (uint8_t)(VJ_TYPE_COMPRESSED_TCP | changes);
    }
    /* The TCP checksum travels unchanged, so the end-to-end check still holds. */
    memcpy(hdr + n, th + TCP_OFF_CHKSUM, 2);
    n = (uint8_t)(n + 2u);
    memcpy(hdr + n, deltas, nd);
    n = (uint8_t)(n + nd);
    *hdr_len = n;
    *rest_off = hlen;
    s->stats.out_compressed++;
    s->stats.out_saved += (uint32_t)(hlen - n);
    return VJ_TYPE_COMPRESSED_TCP;

uncompressed:
    /* The datagram as it is, its protocol field carrying the slot number and its first
     * byte the type. The receiver puts both back. */
    memcpy(cs->hdr, pkt, hlen);
    cs->hlen = (uint8_t)hlen;
    s->last_xmit = id;
    memcpy(hdr, pkt, IP_OFF_PROTO + 1);
    hdr[IP_OFF_VHL] |= VJ_TYPE_UNCOMPRESSED_TCP;
    hdr[IP_OFF_PROTO] = id;
    *hdr_len = IP_OFF_PROTO + 1;
    *rest_off = IP_OFF_PROTO + 1;
    s->stats.out_uncompressed++;
    return VJ_TYPE_UNCOMPRESSED_TCP;
}

int32_t vj_compress(struct vj_state *s, const uint8_t *pkt, uint16_t len, uint8_t *out,
                    uint16_t cap, uint8_t *type)
{
    uint8_t hdr[VJ_PARTS_HDR_MAX];
    uint8_t hdr_len, t;
    uint16_t rest_off;
    if (cap < len)
        return ERR_BUF;
    t = vj_compress_parts(s, pkt, len, hdr, &hdr_len, &rest_off);
    /* The payload first: with out == pkt it moves down over the old headers, which the
     * compressor has finished reading. */
    memmove(out + hdr_len, pkt + rest_off, (size_t)(len - rest_off));
    memcpy(out, hdr, hdr_len);
    if (type)
        *type = t;
    return (int32_t)hdr_len + (int32_t)(len - rest_off);
}
