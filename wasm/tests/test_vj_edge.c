/* CSLIP (RFC 1144) edges: what is not compressible, TCP options, in-place use, the
 * streaming form, compress_cid off, and every drop reason of the decompressor with the
 * toss flag of section 4. The main conversation is in test_vj.c. */
#include <stdint.h>

#include "bytes.h"
#include "inet_chksum.h"
#include "stack_err.h"
#include "unit.h"
#include "vj.h"

#include "vj_test_pkt.h"

/* 10.0.7.1:1025 -> 10.0.7.2:9, ack 5000, window 4096. */
static uint16_t seg(uint8_t *buf, uint16_t id, uint32_t seq, uint32_t ack, uint16_t dlen)
{
    struct vjt_tcp t;
    memset(&t, 0, sizeof t);
    t.src = IP4(10, 0, 7, 1);
    t.dst = IP4(10, 0, 7, 2);
    t.sport = 1025;
    t.dport = 9;
    t.id = id;
    t.seq = seq;
    t.ack = ack;
    t.flags = TCP_ACK;
    t.wnd = 4096;
    t.dlen = dlen;
    return vjt_build(buf, &t);
}

static void test_frame_type(void)
{
    /* RFC 1144 A.1: 0x4X IP, top bit set COMPRESSED, 0x7X UNCOMPRESSED, else error. */
    CHECK_EQ(vj_frame_type(0x45), VJ_TYPE_IP);
    CHECK_EQ(vj_frame_type(0x4F), VJ_TYPE_IP);
    CHECK_EQ(vj_frame_type(0x75), VJ_TYPE_UNCOMPRESSED_TCP);
    CHECK_EQ(vj_frame_type(0x80), VJ_TYPE_COMPRESSED_TCP);
    CHECK_EQ(vj_frame_type(0xC0), VJ_TYPE_COMPRESSED_TCP);
    CHECK_EQ(vj_frame_type(0xFF), VJ_TYPE_COMPRESSED_TCP);
    CHECK_EQ(vj_frame_type(0x00), VJ_TYPE_ERROR);
    CHECK_EQ(vj_frame_type(0x55), VJ_TYPE_ERROR);
    CHECK_EQ(vj_frame_type(0x65), VJ_TYPE_ERROR);
}

static void test_init_arguments(void)
{
    static struct vj_slot slots[VJ_MAX_SLOTS + 1];
    struct vj_state s;
    CHECK_EQ(vj_init(&s, slots, VJ_MAX_SLOTS + 1, NULL, 0), ERR_ARG);
    CHECK_EQ(vj_init(&s, NULL, 2, NULL, 0), ERR_ARG);
    CHECK_EQ(vj_init(&s, NULL, 0, NULL, 0), ERR_OK);
    CHECK_EQ(vj_init(&s, slots, 1, slots + 1, VJ_MAX_SLOTS), ERR_OK);
    CHECK_EQ(s.toss, 1); /* sl_compress_init() starts with SLF_TOSS */
    CHECK_EQ(s.last_xmit, 0xFF);
}

static void test_not_compressible_goes_as_ip(void)
{
    static struct vj_slot tx[2];
    struct vj_state s, none;
    uint8_t pkt[VJT_BUF], frame[VJT_BUF];
    uint16_t len;
    uint8_t type;
    vj_init(&s, tx, 2, NULL, 0);
    vj_init(&none, NULL, 0, NULL, 0);
    /* UDP (protocol 17). */
    len = seg(pkt, 1, 1000, 5000, 10);
    pkt[9] = 17;
    CHECK_EQ(vj_compress(&s, pkt, len, frame, sizeof frame, &type), len);
    CHECK_EQ(type, VJ_TYPE_IP);
    CHECK_MEM(frame, pkt, len);
    /* A fragment: MF set. */
    len = seg(pkt, 2, 1000, 5000, 10);
    wr16(pkt + 6, 0x2000);
    vj_compress(&s, pkt, len, frame, sizeof frame, &type);
    CHECK_EQ(type, VJ_TYPE_IP);
    /* RST|ACK and a segment without ACK. */
    len = seg(pkt, 3, 1000, 5000, 0);
    pkt[33] = TCP_RST | TCP_ACK;
    vj_compress(&s, pkt, len, frame, sizeof frame, &type);
    CHECK_EQ(type, VJ_TYPE_IP);
    pkt[33] = TCP_PSH;
    vj_compress(&s, pkt, len, frame, sizeof frame, &type);
    CHECK_EQ(type, VJ_TYPE_IP);
    /* IP total length shorter than the buffer (trailing padding). */
    len = seg(pkt, 4, 1000, 5000, 10);
    vj_compress(&s, pkt, (uint16_t)(len + 2), frame, sizeof frame, &type);
    CHECK_EQ(type, VJ_TYPE_IP);
    /* A compressor with no slots. */
    len = seg(pkt, 5, 1000, 5000, 10);
    vj_compress(&none, pkt, len, frame, sizeof frame, &type);
    CHECK_EQ(type, VJ_TYPE_IP);
    CHECK_EQ(s.stats.out_ip, 5);
    CHECK_EQ(s.stats.out_uncompressed + s.stats.out_compressed, 0);
}

static void test_tcp_options(void)
{
    /* Timestamps (NOP NOP kind 8 len 10): a changed option cannot be described by the
     * deltas (RFC 1144 A.2 compares options bytewise), same options can. */
    static const uint8_t ts1[12] = { 1, 1, 8, 10, 0, 0, 0, 100, 0, 0, 0, 50 };
    static const uint8_t ts2[12] = { 1, 1, 8, 10, 0, 0, 0, 101, 0, 0, 0, 50 };
    static struct vj_slot tx[1], rx[1];
    struct vj_state a, b;
    struct vjt_tcp t;
    uint8_t pkt[VJT_BUF], frame[VJT_BUF], back[VJT_BUF];
    uint16_t len;
    int32_t n;
    uint8_t type;
    vj_init(&a, tx, 1, NULL, 0);
    vj_init(&b, NULL, 0, rx, 1);
    memset(&t, 0, sizeof t);
    t.src = IP4(10, 0, 7, 1);
    t.dst = IP4(10, 0, 7, 2);
    t.sport = 1025;
    t.dport = 9;
    t.flags = TCP_ACK;
    t.wnd = 4096;
    t.opt = ts1;
    t.optlen = 12;
    t.id = 1;
    t.seq = 1000;
    len = vjt_build(pkt, &t); /* bare ACK, 52 bytes: new connection */
    n = vj_compress(&a, pkt, len, frame, sizeof frame, &type);
    CHECK_EQ(type, VJ_TYPE_UNCOMPRESSED_TCP);
    CHECK_EQ(vj_decompress(&b, frame, (uint16_t)n, back, sizeof back), 52);
    CHECK_MEM(back, pkt, 52);
    t.id = 2;
    t.dlen = 50; /* data after a bare ACK, same options: 3 + 50 */
    len = vjt_build(pkt, &t);
    n = vj_compress(&a, pkt, len, frame, sizeof frame, &type);
    CHECK_EQ(type, VJ_TYPE_COMPRESSED_TCP);
    CHECK_EQ(n, 53);
    CHECK_EQ(vj_decompress(&b, frame, (uint16_t)n, back, sizeof back), 102);
    CHECK_MEM(back, pkt, 102);
    t.id = 3;
    t.seq = 1050;
    t.opt = ts2; /* TSval moved: uncompressed, 20 + 32 + 50 */
    len = vjt_build(pkt, &t);
    n = vj_compress(&a, pkt, len, frame, sizeof frame, &type);
    CHECK_EQ(type, VJ_TYPE_UNCOMPRESSED_TCP);
    CHECK_EQ(n, 102);
    CHECK_EQ(vj_decompress(&b, frame, (uint16_t)n, back, sizeof back), 102);
    CHECK_MEM(back, pkt, 102);
}

static void test_in_place(void)
{
    /* Compress in the datagram's own buffer, decompress in the frame's own buffer. */
    static struct vj_slot tx[1], rx[1];
    struct vj_state a, b;
    uint8_t buf[VJT_BUF], orig[VJT_BUF];
    uint16_t len;
    int32_t n;
    vj_init(&a, tx, 1, NULL, 0);
    vj_init(&b, NULL, 0, rx, 1);
    len = seg(orig, 1, 1000, 5000, 0);
    memcpy(buf, orig, len);
    n = vj_compress(&a, buf, len, buf, sizeof buf, NULL);
    CHECK_EQ(n, 40);
    CHECK_EQ(buf[0], 0x75);
    CHECK_EQ(vj_decompress(&b, buf, (uint16_t)n, buf, sizeof buf), 40);
    CHECK_MEM(buf, orig, 40);
    len = seg(orig, 2, 1000, 5000, 200);
    memcpy(buf, orig, len);
    n = vj_compress(&a, buf, len, buf, sizeof buf, NULL);
    CHECK_EQ(n, 203); /* mask 0x80, checksum, 200 bytes */
    CHECK_EQ(buf[0], 0x80);
    CHECK_EQ(vj_decompress(&b, buf, (uint16_t)n, buf, sizeof buf), 240);
    CHECK_MEM(buf, orig, 240);
}

static void test_parts_match_whole_frame(void)
{
    /* Two compressors fed the same datagrams: header + rest from vj_compress_parts()
     * equals vj_compress()'s frame, for UNCOMPRESSED, COMPRESSED and IP. */
    static struct vj_slot t1[1], t2[1];
    struct vj_state s1, s2;
    uint8_t pkt[VJT_BUF], frame[VJT_BUF], hdr[VJ_PARTS_HDR_MAX];
    uint8_t hlen, type, k;
    uint16_t len, rest;
    int32_t n;
    vj_init(&s1, t1, 1, NULL, 0);
    vj_init(&s2, t2, 1, NULL, 0);
    for (k = 0; k < 4; k++) {
        len = seg(pkt, (uint16_t)(k + 1), 1000u + (k ? 100u * (k - 1u) : 0u), 5000, k ? 100 : 0);
        if (k == 3)
            pkt[33] = TCP_FIN | TCP_ACK; /* TYPE_IP */
        n = vj_compress(&s1, pkt, len, frame, sizeof frame, NULL);
        type = vj_compress_parts(&s2, pkt, len, hdr, &hlen, &rest);
        CHECK_EQ(type, k == 0   ? VJ_TYPE_UNCOMPRESSED_TCP
                       : k == 3 ? VJ_TYPE_IP
                                : VJ_TYPE_COMPRESSED_TCP);
        CHECK_EQ(hlen + len - rest, n);
        CHECK_MEM(frame, hdr, hlen);
        CHECK_MEM(frame + hlen, pkt + rest, (size_t)(len - rest));
    }
}

static void test_compress_cid_off(void)
{
    /* With compress_cid = 0 every compressed frame names its slot: C bit + 1 byte. */
    static struct vj_slot tx[1], rx[1];
    struct vj_state a, b;
    uint8_t pkt[VJT_BUF], frame[VJT_BUF], back[VJT_BUF];
    uint16_t len;
    int32_t n;
    vj_init(&a, tx, 1, NULL, 0);
    vj_init(&b, NULL, 0, rx, 1);
    a.compress_cid = 0;
    len = seg(pkt, 1, 1000, 5000, 0);
    n = vj_compress(&a, pkt, len, frame, sizeof frame, NULL);
    CHECK_EQ(vj_decompress(&b, frame, (uint16_t)n, back, sizeof back), 40);
    len = seg(pkt, 2, 1000, 5000, 10);
    n = vj_compress(&a, pkt, len, frame, sizeof frame, NULL);
    CHECK_EQ(n, 4 + 10);
    CHECK_EQ(frame[0], 0x80 | VJ_NEW_C);
    CHECK_EQ(frame[1], 0);
    CHECK_EQ(vj_decompress(&b, frame, (uint16_t)n, back, sizeof back), 50);
    CHECK_MEM(back, pkt, 50);
    len = seg(pkt, 3, 1010, 5000, 10); /* SPECIAL_D, still with C */
    n = vj_compress(&a, pkt, len, frame, sizeof frame, NULL);
    CHECK_EQ(n, 14);
    CHECK_EQ(frame[0], 0x80 | VJ_NEW_C | VJ_SPECIAL_D);
    CHECK_EQ(vj_decompress(&b, frame, (uint16_t)n, back, sizeof back), 50);
    CHECK_MEM(back, pkt, 50);
}

static void test_zero_id_delta_takes_three_bytes(void)
{
    /* ENCODEZ (RFC 1144 A.2): for the IP ID and the urgent pointer 0 is a real value, so
     * it is sent as 00 00 00 (a lone 00 announces two more bytes). A host repeating the
     * ID (delta 0): mask I (0x20) -> 0xA0, checksum, 00 00 00: 6 bytes + 10 data. */
    static struct vj_slot tx[1], rx[1];
    struct vj_state a, b;
    uint8_t pkt[VJT_BUF], frame[VJT_BUF], back[VJT_BUF];
    static const uint8_t zero3[] = { 0x00, 0x00, 0x00 };
    uint16_t len;
    int32_t n;
    vj_init(&a, tx, 1, NULL, 0);
    vj_init(&b, NULL, 0, rx, 1);
    len = seg(pkt, 7, 1000, 5000, 0);
    n = vj_compress(&a, pkt, len, frame, sizeof frame, NULL);
    CHECK_EQ(vj_decompress(&b, frame, (uint16_t)n, back, sizeof back), 40);
    len = seg(pkt, 7, 1000, 5000, 10);
    n = vj_compress(&a, pkt, len, frame, sizeof frame, NULL);
    CHECK_EQ(n, 16);
    CHECK_EQ(frame[0], 0xA0);
    CHECK_MEM(frame + 3, zero3, 3);
    CHECK_EQ(vj_decompress(&b, frame, (uint16_t)n, back, sizeof back), 50);
    CHECK_MEM(back, pkt, 50);
}

/* Loads slot 0 of `b` with a bare ACK (seq 1000, ack 5000, ID 1) as A would send it. */
static int32_t load_slot0(struct vj_state *a, struct vj_state *b)
{
    uint8_t pkt[VJT_BUF], frame[VJT_BUF], back[VJT_BUF];
    uint16_t len = seg(pkt, 1, 1000, 5000, 0);
    int32_t n = vj_compress(a, pkt, len, frame, sizeof frame, NULL);
    return vj_decompress(b, frame, (uint16_t)n, back, sizeof back);
}

static void test_truncated_header_and_toss(void)
{
    static struct vj_slot tx[1], rx[2];
    struct vj_state a, b;
    uint8_t back[VJT_BUF], want[VJT_BUF];
    /* C|A, slot 0, checksum AB CD, then A's "0x00 + 2 bytes" with only one byte. */
    static const uint8_t cut_delta[] = { 0xC4, 0x00, 0xAB, 0xCD, 0x00, 0x01 };
    static const uint8_t implicit[] = { 0x84, 0xAB, 0xCD, 0x10 }; /* A, ack + 16 */
    static const uint8_t no_slot[] = { 0xC4 };
    static const uint8_t cut_cksum[] = { 0xC4, 0x00, 0xAB };
    static const uint8_t cut_cksum2[] = { 0x84, 0xAB };
    static const uint8_t explicit_ok[] = { 0xC4, 0x00, 0xAB, 0xCD, 0x10 };
    vj_init(&a, tx, 1, NULL, 0);
    vj_init(&b, NULL, 0, rx, 2);
    CHECK_EQ(load_slot0(&a, &b), 40);
    CHECK_EQ(b.toss, 0);

    CHECK_EQ(vj_decompress(&b, cut_delta, sizeof cut_delta, back, sizeof back), 0);
    CHECK_EQ(b.last_error, DROP_VJ_SHORT);
    CHECK_EQ(b.toss, 1);
    /* Now an implicit-slot frame must be tossed. */
    CHECK_EQ(vj_decompress(&b, implicit, sizeof implicit, back, sizeof back), 0);
    CHECK_EQ(b.last_error, DROP_VJ_TOSS);
    CHECK_EQ(vj_decompress(&b, no_slot, sizeof no_slot, back, sizeof back), 0);
    CHECK_EQ(b.last_error, DROP_VJ_SHORT);
    CHECK_EQ(vj_decompress(&b, cut_cksum, sizeof cut_cksum, back, sizeof back), 0);
    CHECK_EQ(b.last_error, DROP_VJ_SHORT);
    CHECK_EQ(vj_decompress(&b, back, 0, back, sizeof back), 0);
    CHECK_EQ(b.last_error, DROP_VJ_SHORT);

    /* An explicit slot number clears toss. The slot was untouched by the truncated frame,
     * so the result is the bare ACK with ack 5000 + 16, ID 1 + 1, the carried checksum
     * AB CD, and a correct IP header checksum. */
    CHECK_EQ(vj_decompress(&b, explicit_ok, sizeof explicit_ok, back, sizeof back), 40);
    CHECK_EQ(b.toss, 0);
    seg(want, 2, 1000, 5016, 0);
    want[36] = 0xAB;
    want[37] = 0xCD;
    CHECK_MEM(back, want, 40);
    CHECK_EQ(inet_chksum(back, 20), 0);
    /* With toss clear, a frame whose checksum is cut short is SHORT, not tossed. */
    CHECK_EQ(vj_decompress(&b, cut_cksum2, sizeof cut_cksum2, back, sizeof back), 0);
    CHECK_EQ(b.last_error, DROP_VJ_SHORT);

    CHECK_EQ(b.stats.drop_short, 5);
    CHECK_EQ(b.stats.drop_toss, 1);
    CHECK_EQ(b.stats.in_compressed, 1);
}

static void test_bad_slot(void)
{
    static struct vj_slot tx[1], rx[2];
    struct vj_state a, b;
    uint8_t pkt[VJT_BUF], back[VJT_BUF];
    static const uint8_t slot5[] = { 0xC4, 0x05, 0xAB, 0xCD, 0x10 };
    static const uint8_t slot1[] = { 0xC4, 0x01, 0xAB, 0xCD, 0x10 }; /* never loaded */
    uint16_t len;
    vj_init(&a, tx, 1, NULL, 0);
    vj_init(&b, NULL, 0, rx, 2);
    CHECK_EQ(load_slot0(&a, &b), 40);
    /* UNCOMPRESSED_TCP naming slot 3 of a 2-slot receiver. */
    len = seg(pkt, 1, 1000, 5000, 0);
    pkt[0] |= 0x70;
    pkt[9] = 3;
    CHECK_EQ(vj_decompress(&b, pkt, len, back, sizeof back), 0);
    CHECK_EQ(b.last_error, DROP_VJ_BAD_SLOT);
    CHECK_EQ(b.toss, 1);
    CHECK_EQ(vj_decompress(&b, slot5, sizeof slot5, back, sizeof back), 0);
    CHECK_EQ(b.last_error, DROP_VJ_BAD_SLOT);
    CHECK_EQ(vj_decompress(&b, slot1, sizeof slot1, back, sizeof back), 0);
    CHECK_EQ(b.last_error, DROP_VJ_BAD_SLOT);
    CHECK_EQ(b.stats.drop_bad_slot, 3);
    CHECK_EQ(b.toss, 1);
}

static void test_bad_type_and_not_tcp(void)
{
    static struct vj_slot rx[2];
    struct vj_state b;
    uint8_t pkt[VJT_BUF], back[VJT_BUF];
    static const uint8_t t55[] = { 0x55, 0, 0, 0 };
    static const uint8_t t00[] = { 0x00, 0, 0, 0 };
    uint16_t len;
    vj_init(&b, NULL, 0, rx, 2);
    CHECK_EQ(vj_decompress(&b, t55, sizeof t55, back, sizeof back), 0);
    CHECK_EQ(b.last_error, DROP_VJ_BAD_TYPE);
    CHECK_EQ(vj_decompress(&b, t00, sizeof t00, back, sizeof back), 0);
    CHECK_EQ(b.last_error, DROP_VJ_BAD_TYPE);
    /* UNCOMPRESSED_TCP frames that cannot hold IPv4 + TCP headers. */
    len = seg(pkt, 1, 1000, 5000, 0);
    pkt[0] |= 0x70;
    pkt[9] = 0;
    CHECK_EQ(vj_decompress(&b, pkt, 19, back, sizeof back), 0); /* shorter than IP */
    CHECK_EQ(b.last_error, DROP_VJ_NOT_TCP);
    pkt[0] = 0x74; /* IHL 4 */
    CHECK_EQ(vj_decompress(&b, pkt, len, back, sizeof back), 0);
    CHECK_EQ(b.last_error, DROP_VJ_NOT_TCP);
    pkt[0] = 0x75;
    pkt[32] = 0xF0; /* TCP data offset 60 in a 40-byte frame */
    CHECK_EQ(vj_decompress(&b, pkt, len, back, sizeof back), 0);
    CHECK_EQ(b.last_error, DROP_VJ_NOT_TCP);
    CHECK_EQ(b.stats.drop_bad_type, 2);
    CHECK_EQ(b.stats.drop_not_tcp, 3);
    CHECK_EQ(b.stats.in_uncompressed, 0);
}

static void test_small_buffers(void)
{
    static struct vj_slot tx[1], rx[1];
    struct vj_state a, b;
    uint8_t pkt[VJT_BUF], frame[VJT_BUF], back[VJT_BUF];
    uint16_t len;
    int32_t n;
    uint8_t type;
    vj_init(&a, tx, 1, NULL, 0);
    vj_init(&b, NULL, 0, rx, 1);
    /* Compressor: cap below the datagram length is refused before any state changes. */
    len = seg(pkt, 1, 1000, 5000, 0);
    CHECK_EQ(vj_compress(&a, pkt, len, frame, (uint16_t)(len - 1), &type), ERR_BUF);
    CHECK_EQ(a.stats.out_uncompressed + a.stats.out_misses, 0);
    n = vj_compress(&a, pkt, len, frame, len, &type);
    CHECK_EQ(type, VJ_TYPE_UNCOMPRESSED_TCP);
    CHECK_EQ(vj_decompress(&b, frame, (uint16_t)n, back, sizeof back), 40);
    /* Decompressor: no room for the rebuilt 140 bytes; the slot still follows. */
    len = seg(pkt, 2, 1000, 5000, 100);
    n = vj_compress(&a, pkt, len, frame, sizeof frame, NULL);
    CHECK_EQ(n, 103);
    CHECK_EQ(vj_decompress(&b, frame, (uint16_t)n, back, 139), ERR_BUF);
    len = seg(pkt, 3, 1100, 5000, 100); /* SPECIAL_D relative to the lost one */
    n = vj_compress(&a, pkt, len, frame, sizeof frame, NULL);
    CHECK_EQ(vj_decompress(&b, frame, (uint16_t)n, back, 140), 140);
    CHECK_MEM(back, pkt, 140);
}

UNIT_MAIN(UNIT(test_frame_type), UNIT(test_init_arguments), UNIT(test_not_compressible_goes_as_ip),
          UNIT(test_tcp_options), UNIT(test_in_place), UNIT(test_parts_match_whole_frame),
          UNIT(test_compress_cid_off), UNIT(test_zero_id_delta_takes_three_bytes),
          UNIT(test_truncated_header_and_toss), UNIT(test_bad_slot),
          UNIT(test_bad_type_and_not_tcp), UNIT(test_small_buffers))
