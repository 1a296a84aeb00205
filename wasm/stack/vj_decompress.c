/* CSLIP decompressor, RFC 1144 section 3.3 and appendix A.3 (sl_uncompress_tcp), with
 * the error handling of section 4. vj.h has the format. Unlike the RFC code, a frame is
 * parsed completely (and its length checked) before the saved header is touched, so a
 * truncated frame cannot leave a half-updated slot behind. */
#include <string.h>

#include "bytes.h"
#include "inet_chksum.h"
#include "ip.h"
#include "stack_err.h"
#include "tcp.h"
#include "vj.h"

/* Drops the frame: counts it, remembers why and (RFC 1144 4.1, "goto bad") sets toss. */
static int32_t vj_drop(struct vj_state *s, enum drop_reason reason)
{
    s->last_error = reason;
    s->toss = 1;
    switch (reason) {
    case DROP_VJ_BAD_TYPE: s->stats.drop_bad_type++; break;
    case DROP_VJ_SHORT: s->stats.drop_short++; break;
    case DROP_VJ_BAD_SLOT: s->stats.drop_bad_slot++; break;
    case DROP_VJ_TOSS: s->stats.drop_toss++; break;
    default: s->stats.drop_not_tcp++; break;
    }
    return 0;
}

/* RFC 1144 A.3 DECODEL / DECODES / DECODEU: one byte 1..255, or 0 and two bytes. Reads
 * at in[*p], returns 0 if the frame ends first. */
static int vj_get_delta(const uint8_t *in, uint16_t len, uint16_t *p, uint16_t *v)
{
    if (*p >= len)
        return 0;
    if (in[*p] != 0) {
        *v = in[*p];
        *p = (uint16_t)(*p + 1u);
        return 1;
    }
    if ((uint32_t)*p + 3u > len)
        return 0;
    *v = rd16(in + *p + 1);
    *p = (uint16_t)(*p + 3u);
    return 1;
}

/* TYPE_UNCOMPRESSED_TCP: the datagram with the slot number in its protocol field. Loads
 * the slot and clears toss (RFC 1144 A.3). */
static int32_t vj_rx_uncompressed(struct vj_state *s, const uint8_t *in, uint16_t len, uint8_t *out,
                                  uint16_t cap)
{
    uint16_t ihl, thl;
    uint8_t id;
    struct vj_slot *cs;

    if (len < IP_HLEN)
        return vj_drop(s, DROP_VJ_NOT_TCP);
    id = in[IP_OFF_PROTO];
    if (id >= s->n_rx)
        return vj_drop(s, DROP_VJ_BAD_SLOT);
    ihl = (uint16_t)((in[IP_OFF_VHL] & 0x0Fu) * 4u);
    if (ihl < IP_HLEN || (uint32_t)ihl + TCP_HLEN > len)
        return vj_drop(s, DROP_VJ_NOT_TCP);
    thl = (uint16_t)((in[ihl + TCP_OFF_DATAOFF] >> 4) * 4u);
    if (thl < TCP_HLEN || (uint32_t)ihl + thl > len)
        return vj_drop(s, DROP_VJ_NOT_TCP);

    cs = &s->rx[id];
    memcpy(cs->hdr, in, (size_t)(ihl + thl));
    cs->hdr[IP_OFF_VHL] &= 0x4F; /* 0x7X -> 0x4X: version 4 again */
    cs->hdr[IP_OFF_PROTO] = IP_PROTO_TCP;
    cs->hlen = (uint8_t)(ihl + thl);
    s->last_recv = id;
    s->toss = 0;
    s->stats.in_uncompressed++;

    if (cap < len)
        return ERR_BUF;
    memmove(out, in, len);
    out[IP_OFF_VHL] &= 0x4F;
    out[IP_OFF_PROTO] = IP_PROTO_TCP;
    return len;
}

/* TYPE_COMPRESSED_TCP: apply the deltas to the saved header, rebuild length and IP
 * checksum, put the header in front of the payload. */
static int32_t vj_rx_compressed(struct vj_state *s, const uint8_t *in, uint16_t len, uint8_t *out,
                                uint16_t cap)
{
    uint16_t p = 0, urg = 0, dw = 0, da = 0, dsq = 0, di = 1, ihl, plen, ck_off;
    uint8_t changes, id, special, *h, *th;
    uint32_t total, prev_data;
    struct vj_slot *cs;

    changes = in[p++];
    if (changes & VJ_NEW_C) {
        if (p >= len)
            return vj_drop(s, DROP_VJ_SHORT);
        id = in[p++];
        /* A slot never loaded by an UNCOMPRESSED_TCP frame has nothing to apply deltas
         * to: as bad as one out of range. */
        if (id >= s->n_rx || s->rx[id].hlen == 0)
            return vj_drop(s, DROP_VJ_BAD_SLOT);
    } else {
        /* Implicit connection: unusable after an error (RFC 1144 4.1). */
        if (s->toss)
            return vj_drop(s, DROP_VJ_TOSS);
        id = s->last_recv;
        if (id >= s->n_rx || s->rx[id].hlen == 0) /* cannot happen with toss clear */
            return vj_drop(s, DROP_VJ_BAD_SLOT);
    }

    /* Parse the whole compressed header before changing anything. */
    if ((uint32_t)p + 2u > len)
        return vj_drop(s, DROP_VJ_SHORT);
    ck_off = p; /* the TCP checksum, carried as it is */
    p = (uint16_t)(p + 2u);
    special = (uint8_t)(changes & VJ_SPECIALS_MASK);
    if (special != VJ_SPECIAL_I && special != VJ_SPECIAL_D) {
        if (((changes & VJ_NEW_U) && !vj_get_delta(in, len, &p, &urg)) ||
            ((changes & VJ_NEW_W) && !vj_get_delta(in, len, &p, &dw)) ||
            ((changes & VJ_NEW_A) && !vj_get_delta(in, len, &p, &da)) ||
            ((changes & VJ_NEW_S) && !vj_get_delta(in, len, &p, &dsq)))
            return vj_drop(s, DROP_VJ_SHORT);
    }
    if ((changes & VJ_NEW_I) && !vj_get_delta(in, len, &p, &di))
        return vj_drop(s, DROP_VJ_SHORT);

    cs = &s->rx[id];
    plen = (uint16_t)(len - p);
    total = (uint32_t)cs->hlen + plen;
    if (total > 0xFFFFu) {
        /* No datagram is that long; skipping it leaves the slot behind the sender's. */
        s->toss = 1;
        return ERR_BUF;
    }
    s->last_recv = id;
    s->toss = 0; /* cleared by an explicit connection number; otherwise already clear */

    /* Apply the changes to the saved header (RFC 1144 A.3). */
    h = cs->hdr;
    ihl = (uint16_t)((h[IP_OFF_VHL] & 0x0Fu) * 4u);
    th = h + ihl;
    memcpy(th + TCP_OFF_CHKSUM, in + ck_off, 2);
    if (changes & VJ_PUSH)
        th[TCP_OFF_FLAGS] |= TCP_PSH;
    else
        th[TCP_OFF_FLAGS] &= (uint8_t)~TCP_PSH;

    /* The previous segment's data length, for the special cases. */
    prev_data = (uint32_t)rd16(h + IP_OFF_LEN) - cs->hlen;
    if (special == VJ_SPECIAL_I) {
        wr32(th + TCP_OFF_SEQ, rd32(th + TCP_OFF_SEQ) + prev_data);
        wr32(th + TCP_OFF_ACK, rd32(th + TCP_OFF_ACK) + prev_data);
    } else if (special == VJ_SPECIAL_D) {
        wr32(th + TCP_OFF_SEQ, rd32(th + TCP_OFF_SEQ) + prev_data);
    } else {
        if (changes & VJ_NEW_U) {
            th[TCP_OFF_FLAGS] |= TCP_URG;
            wr16(th + TCP_OFF_URG, urg); /* the pointer itself, not a delta */
        } else {
            th[TCP_OFF_FLAGS] &= (uint8_t)~TCP_URG;
        }
        if (changes & VJ_NEW_W)
            wr16(th + TCP_OFF_WND, (uint16_t)(rd16(th + TCP_OFF_WND) + dw));
        if (changes & VJ_NEW_A)
            wr32(th + TCP_OFF_ACK, rd32(th + TCP_OFF_ACK) + da);
        if (changes & VJ_NEW_S)
            wr32(th + TCP_OFF_SEQ, rd32(th + TCP_OFF_SEQ) + dsq);
    }
    /* No I bit: the ID went up by one. */
    wr16(h + IP_OFF_ID, (uint16_t)(rd16(h + IP_OFF_ID) + di));

    /* What was not sent: the total length and the IP header checksum. */
    wr16(h + IP_OFF_LEN, (uint16_t)total);
    wr16(h + IP_OFF_CHKSUM, 0);
    wr16(h + IP_OFF_CHKSUM, inet_chksum(h, ihl));
    s->stats.in_compressed++;

    if (cap < total)
        return ERR_BUF;
    /* Payload first: in place, it moves up past where the header goes. */
    memmove(out + cs->hlen, in + p, plen);
    memcpy(out, h, cs->hlen);
    return (int32_t)total;
}

int32_t vj_decompress(struct vj_state *s, const uint8_t *in, uint16_t len, uint8_t *out,
                      uint16_t cap)
{
    if (len == 0)
        return vj_drop(s, DROP_VJ_SHORT);
    switch (vj_frame_type(in[0])) {
    case VJ_TYPE_IP:
        /* Passed through untouched; it does not involve the slots. */
        if (cap < len)
            return ERR_BUF;
        memmove(out, in, len);
        s->stats.in_ip++;
        return len;
    case VJ_TYPE_UNCOMPRESSED_TCP: return vj_rx_uncompressed(s, in, len, out, cap);
    case VJ_TYPE_COMPRESSED_TCP: return vj_rx_compressed(s, in, len, out, cap);
    default: return vj_drop(s, DROP_VJ_BAD_TYPE);
    }
}
