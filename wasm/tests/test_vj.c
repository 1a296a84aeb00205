/* CSLIP (RFC 1144): a recorded TCP conversation compressed and decompressed packet by
 * packet, byte-exact, with every frame's type byte and length derived by hand from the
 * RFC; a lost frame and the toss/recovery of section 4; the LRU slot ring of appendix A.2.
 * The error paths and the API edges are in test_vj_edge.c. */
#include <stdint.h>

#include "bytes.h"
#include "inet_chksum.h"
#include "stack_err.h"
#include "unit.h"
#include "vj.h"

#include "vj_test_pkt.h"

/* One packet of a conversation and what RFC 1144 says its frame must be. */
struct step {
    char from; /* 'A' = 10.0.7.1:1025, 'B' = 10.0.7.2:7 */
    uint16_t id;
    uint32_t seq, ack;
    uint8_t flags;
    uint16_t wnd, urp, dlen;
    uint8_t mss;        /* carries a 4-byte MSS option */
    uint8_t want_first; /* first byte of the frame */
    uint16_t want_len;  /* frame length */
};

#define S_ TCP_SYN
#define A_ TCP_ACK
#define P_ TCP_PSH
#define F_ TCP_FIN
#define U_ TCP_URG

/* An echo session, client A (ISN 1000) to server B (ISN 5000), written out by hand. For
 * each compressed frame: first byte = 0x80 | change mask, then [slot if C], 2 checksum
 * bytes, then the deltas U W A S I, each 1 byte if 1..255, else 0x00 + 2 bytes.
 * UNCOMPRESSED_TCP frames are the datagram with 0x45 -> 0x75; TYPE_IP ones are unchanged. */
static const struct step conversation[] = {
    /* 1,2: SYN and SYN-ACK are never compressed (RFC 1144 A.2): TYPE_IP, 20+20+4 bytes. */
    { 'A', 100, 1000, 0, S_, 8192, 0, 0, 1, 0x45, 44 },
    { 'B', 200, 5000, 1001, S_ | A_, 4096, 0, 0, 1, 0x45, 44 },
    /* 3: A's first compressible packet: no slot yet -> UNCOMPRESSED_TCP, slot 0, 40 B. */
    { 'A', 101, 1001, 5001, A_, 8192, 0, 0, 0, 0x75, 40 },
    /* 4: data after a bare ACK, nothing else changed: compressed (A.2 "case 0"). Mask =
     * P (0x10); same slot as the last frame, so no C. 3 header bytes + 100 = 103. */
    { 'A', 102, 1001, 5001, P_ | A_, 8192, 0, 100, 0, 0x90, 103 },
    /* 5,6: the same for B's side: its own compressor and slot 0. */
    { 'B', 201, 5001, 1101, A_, 4096, 0, 0, 0, 0x75, 40 },
    { 'B', 202, 5001, 1101, P_ | A_, 4096, 0, 100, 0, 0x90, 103 },
    /* 7: A acks the echo: seq +100 and ack +100, both = A's previous data length (100):
     * SPECIAL_I (S|W|U = 0x0B), no deltas: 3 bytes. */
    { 'A', 103, 1101, 5101, A_, 8192, 0, 0, 0, 0x8B, 3 },
    /* 8: data after a bare ACK again: 0x90, 3 + 300. */
    { 'A', 104, 1101, 5101, P_ | A_, 8192, 0, 300, 0, 0x90, 303 },
    /* 9: B sends 256 and acks 300: ack delta 300 = 00 01 2C, seq delta 100 (its last
     * data) = 64. Mask A|S = 0x0C: 1 + 2 + 3 + 1 = 7, + 256 = 263. */
    { 'B', 203, 5101, 1401, A_, 4096, 0, 256, 0, 0x8C, 263 },
    /* 10,11: seq + previous length only: SPECIAL_D (S|U = 0x09), then with P (0x19). */
    { 'B', 204, 5357, 1401, A_, 4096, 0, 256, 0, 0x89, 259 },
    { 'B', 205, 5613, 1401, P_ | A_, 4096, 0, 256, 0, 0x99, 259 },
    /* 12: A acks 768, window 8192 -> 7424, seq +300. W = -768 = FD00 -> 00 FD 00,
     * A = 768 -> 00 03 00, S = 300 -> 00 01 2C; mask W|A|S = 0x0E: 1 + 2 + 9 = 12. */
    { 'A', 105, 1401, 5869, A_, 7424, 0, 0, 0, 0x8E, 12 },
    /* 13: B: seq + 256 = its previous length: SPECIAL_D. */
    { 'B', 206, 5869, 1401, A_, 4096, 0, 200, 0, 0x89, 203 },
    /* 14: a pure ACK whose only change is the ack (+200 = C8): mask A = 0x04, 1+2+1 = 4. */
    { 'A', 106, 1401, 6069, A_, 7424, 0, 0, 0, 0x84, 4 },
    /* 15: seq + 200 = previous length, with P: SPECIAL_D | P. */
    { 'B', 207, 6069, 1401, P_ | A_, 4096, 0, 250, 0, 0x99, 253 },
    /* 16: window back to 8192 (+768 = 00 03 00), ack +250 (FA): mask W|A, 1+2+3+1 = 7. */
    { 'A', 107, 1401, 6319, A_, 8192, 0, 0, 0, 0x86, 7 },
    /* 17: IP ID jumps by 5 (not 1): I = 05; data after a bare ACK; P. Mask I|P = 0x30:
     * 1 + 2 + 1 = 4, + 20 = 24. */
    { 'A', 112, 1401, 6319, P_ | A_, 8192, 0, 20, 0, 0xB0, 24 },
    /* 18-20: bulk data, each seq + previous length: SPECIAL_D, 3 + 100. */
    { 'A', 113, 1421, 6319, A_, 8192, 0, 100, 0, 0x89, 103 },
    { 'A', 114, 1521, 6319, A_, 8192, 0, 100, 0, 0x89, 103 },
    { 'A', 115, 1621, 6319, A_, 8192, 0, 100, 0, 0x89, 103 },
    /* 21: retransmission of 18: seq goes back 200, a "delta" above 0xFFFF:
     * UNCOMPRESSED_TCP (RFC 1144 4.2). */
    { 'A', 116, 1421, 6319, A_, 8192, 0, 100, 0, 0x75, 140 },
    /* 22: new data at 1721: seq +300 from 1421, not the previous length: S = 00 01 2C,
     * mask 0x08: 1 + 2 + 3 = 6, + 100. */
    { 'A', 117, 1721, 6319, A_, 8192, 0, 100, 0, 0x88, 106 },
    /* 23: the same segment again: nothing changed and the previous one had data: a
     * retransmission, sent UNCOMPRESSED_TCP in case the first was lost (A.2 case 0). */
    { 'A', 118, 1721, 6319, A_, 8192, 0, 100, 0, 0x75, 140 },
    /* 24: URG appears: a flag change, uncompressed (vj.h: stricter than the RFC). */
    { 'A', 119, 1821, 6319, U_ | P_ | A_, 8192, 1, 1, 0, 0x75, 41 },
    /* 25: URG again, urp 1, seq +1 = previous length: U|S is SPECIAL_D's code, so the
     * real pattern cannot be sent: UNCOMPRESSED_TCP. */
    { 'A', 120, 1822, 6319, U_ | P_ | A_, 8192, 1, 1, 0, 0x75, 41 },
    /* 26: U|W|S collides with SPECIAL_I: UNCOMPRESSED_TCP too. */
    { 'A', 121, 1823, 6319, U_ | A_, 8000, 5, 1, 0, 0x75, 41 },
    /* 27: B sends 100 and acks A's 1824: A = 423 -> 00 01 A7, S = 250 -> FA; mask 0x0C:
     * 1 + 2 + 3 + 1 = 7, + 100. */
    { 'B', 208, 6319, 1824, A_, 4096, 0, 100, 0, 0x8C, 107 },
    /* 28: U = 05, A = 100, S = 1: mask U|A|S. Masked with S|W|U that reads S|U, which
     * the decompressor (RFC 1144 A.3) takes for SPECIAL_D: must go UNCOMPRESSED_TCP (the
     * RFC's compressor misses this one, see vj.h). */
    { 'A', 122, 1824, 6419, U_ | A_, 8000, 5, 1, 0, 0x75, 41 },
    /* 29: URG still on, urp 4, seq +1 (previous length), no data: U|S again. */
    { 'A', 123, 1825, 6419, U_ | A_, 8000, 4, 0, 0, 0x75, 40 },
    /* 30: URG, urp 4 (U = 04, a value not a delta), window 8000 -> 7000 (-1000 = FC18
     * -> 00 FC 18), seq unchanged (no data before): mask U|W = 0x03: 1 + 2 + 1 + 3 = 7. */
    { 'A', 124, 1825, 6419, U_ | A_, 7000, 4, 0, 0, 0x83, 7 },
    /* 31: URG goes away: flag change, uncompressed. */
    { 'A', 125, 1825, 6419, A_, 8000, 0, 0, 0, 0x75, 40 },
    /* 32,33: FINs: TYPE_IP, and they do not update the slots. */
    { 'A', 126, 1825, 6419, F_ | A_, 8000, 0, 0, 0, 0x45, 40 },
    { 'B', 209, 6419, 1826, F_ | A_, 4096, 0, 0, 0, 0x45, 40 },
    /* 34: last ACK, compared with row 31 (the FIN was not compressible): seq +1,
     * ack +1 with no data before (not SPECIAL_I): A = 01, S = 01; ID 125 -> 127: I = 02.
     * Mask I|A|S = 0x2C: 1 + 2 + 1 + 1 + 1 = 6. */
    { 'A', 127, 1826, 6420, A_, 8000, 0, 0, 0, 0xAC, 6 },
};

/* The bytes after the checksum (the deltas) of some rows, from the comments above. */
static const struct {
    uint8_t row;
    uint8_t n;
    uint8_t bytes[9];
} deltas[] = {
    { 9, 4, { 0x00, 0x01, 0x2C, 0x64 } },
    { 12, 9, { 0x00, 0xFD, 0x00, 0x00, 0x03, 0x00, 0x00, 0x01, 0x2C } },
    { 14, 1, { 0xC8 } },
    { 16, 4, { 0x00, 0x03, 0x00, 0xFA } },
    { 17, 1, { 0x05 } },
    { 22, 3, { 0x00, 0x01, 0x2C } },
    { 27, 4, { 0x00, 0x01, 0xA7, 0xFA } },
    { 30, 4, { 0x04, 0x00, 0xFC, 0x18 } },
    { 34, 3, { 0x01, 0x01, 0x02 } },
};

static uint16_t build_step(uint8_t *buf, const struct step *st)
{
    static const uint8_t mss[4] = { 2, 4, 0x01, 0x00 }; /* MSS 256 */
    struct vjt_tcp t;
    int a = st->from == 'A';
    t.src = a ? IP4(10, 0, 7, 1) : IP4(10, 0, 7, 2);
    t.dst = a ? IP4(10, 0, 7, 2) : IP4(10, 0, 7, 1);
    t.sport = a ? 1025 : 7;
    t.dport = a ? 7 : 1025;
    t.id = st->id;
    t.seq = st->seq;
    t.ack = st->ack;
    t.flags = st->flags;
    t.wnd = st->wnd;
    t.urp = st->urp;
    t.opt = st->mss ? mss : NULL;
    t.optlen = st->mss ? 4 : 0;
    t.dlen = st->dlen;
    return vjt_build(buf, &t);
}

static void test_conversation_byte_exact(void)
{
    static struct vj_slot a_tx[VJ_MAX_SLOTS], a_rx[VJ_MAX_SLOTS];
    static struct vj_slot b_tx[VJ_MAX_SLOTS], b_rx[VJ_MAX_SLOTS];
    struct vj_state a, b;
    uint8_t pkt[VJT_BUF], frame[VJT_BUF], back[VJT_BUF];
    size_t i, j, checked = 0;
    CHECK_EQ(vj_init(&a, a_tx, VJ_MAX_SLOTS, a_rx, VJ_MAX_SLOTS), ERR_OK);
    CHECK_EQ(vj_init(&b, b_tx, VJ_MAX_SLOTS, b_rx, VJ_MAX_SLOTS), ERR_OK);
    for (i = 0; i < sizeof conversation / sizeof conversation[0]; i++) {
        const struct step *st = &conversation[i];
        struct vj_state *tx = st->from == 'A' ? &a : &b;
        struct vj_state *rx = st->from == 'A' ? &b : &a;
        uint16_t len = build_step(pkt, st);
        int32_t n, m;
        uint8_t type;
        CHECK(vjt_valid(pkt, len));
        n = vj_compress(tx, pkt, len, frame, sizeof frame, &type);
        if (n != st->want_len || frame[0] != st->want_first)
            printf("    row %u: frame %02x len %ld\n", (unsigned)i + 1, frame[0], (long)n);
        CHECK_EQ(n, st->want_len);
        CHECK_EQ(frame[0], st->want_first);
        CHECK_EQ(type, vj_frame_type(frame[0]));
        if (type == VJ_TYPE_COMPRESSED_TCP) {
            /* The TCP checksum right after the mask (no C bit in this session), and the
             * payload unchanged after the header. */
            CHECK_EQ(frame[0] & VJ_NEW_C, 0);
            CHECK_MEM(frame + 1, pkt + 20 + 16, 2);
            CHECK_MEM(frame + n - st->dlen, pkt + len - st->dlen, st->dlen);
            for (j = 0; j < sizeof deltas / sizeof deltas[0]; j++) {
                if (deltas[j].row == i + 1) {
                    CHECK_EQ(3u + deltas[j].n + st->dlen, n);
                    CHECK_MEM(frame + 3, deltas[j].bytes, deltas[j].n);
                    checked++;
                }
            }
        } else if (type == VJ_TYPE_UNCOMPRESSED_TCP) {
            CHECK_EQ(frame[9], 0); /* slot 0 in the protocol field */
            CHECK_MEM(frame + 10, pkt + 10, (size_t)len - 10);
        } else {
            CHECK_MEM(frame, pkt, len);
        }
        m = vj_decompress(rx, frame, (uint16_t)n, back, sizeof back);
        if (m != len)
            printf("    row %u: decompressed to %ld bytes\n", (unsigned)i + 1, (long)m);
        CHECK_EQ(m, len);
        CHECK_MEM(back, pkt, len);
    }
    CHECK_EQ(checked, sizeof deltas / sizeof deltas[0]);
    /* Counted by hand from the table: A sent 2 TYPE_IP (SYN, FIN), 9 UNCOMPRESSED
     * (rows 3, 21, 23, 24, 25, 26, 28, 29, 31), 13 COMPRESSED; B sent 2, 1, 7. */
    CHECK_EQ(a.stats.out_ip, 2);
    CHECK_EQ(a.stats.out_uncompressed, 9);
    CHECK_EQ(a.stats.out_compressed, 13);
    CHECK_EQ(a.stats.out_misses, 1);
    CHECK_EQ(b.stats.out_ip, 2);
    CHECK_EQ(b.stats.out_uncompressed, 1);
    CHECK_EQ(b.stats.out_compressed, 7);
    CHECK_EQ(b.stats.in_ip, 2);
    CHECK_EQ(b.stats.in_uncompressed, 9);
    CHECK_EQ(b.stats.in_compressed, 13);
    CHECK_EQ(a.stats.in_compressed, 7);
    CHECK_EQ(a.last_error, DROP_NONE);
    CHECK_EQ(b.last_error, DROP_NONE);
}

/* A bulk flow A -> B of 100-byte segments for the loss tests: seq 1000 + 100 k. */
static uint16_t bulk(uint8_t *buf, uint16_t id, uint32_t seq, uint16_t dlen)
{
    struct vjt_tcp t;
    memset(&t, 0, sizeof t);
    t.src = IP4(10, 0, 7, 1);
    t.dst = IP4(10, 0, 7, 2);
    t.sport = 1025;
    t.dport = 9;
    t.id = id;
    t.seq = seq;
    t.ack = 5000;
    t.flags = TCP_ACK;
    t.wnd = 4096;
    t.dlen = dlen;
    return vjt_build(buf, &t);
}

static void test_lost_frame_tosses_until_uncompressed(void)
{
    static struct vj_slot a_tx[4], b_rx[4];
    struct vj_state a, b;
    uint8_t pkt[VJT_BUF], frame[VJT_BUF], back[VJT_BUF];
    uint16_t len;
    int32_t n;
    uint8_t type;
    int k;
    vj_init(&a, a_tx, 4, NULL, 0);
    vj_init(&b, NULL, 0, b_rx, 4);

    /* A bare ACK (UNCOMPRESSED, loads the slot), then 100-byte segments: the first
     * compressed by "data after a bare ACK", the rest SPECIAL_D. Segment 3 (seq 1200) is
     * lost on the line; the link tells the decompressor (RFC 1144 4.1). */
    static const struct {
        uint16_t id;
        uint32_t seq;
        uint16_t dlen;
        uint8_t type;
        int lost;
        int tossed;
    } plan[] = {
        { 1, 1000, 0, VJ_TYPE_UNCOMPRESSED_TCP, 0, 0 },
        { 2, 1000, 100, VJ_TYPE_COMPRESSED_TCP, 0, 0 },
        { 3, 1100, 100, VJ_TYPE_COMPRESSED_TCP, 0, 0 },
        { 4, 1200, 100, VJ_TYPE_COMPRESSED_TCP, 1, 0 }, /* lost */
        { 5, 1300, 100, VJ_TYPE_COMPRESSED_TCP, 0, 1 }, /* no C bit: tossed */
        { 6, 1400, 100, VJ_TYPE_COMPRESSED_TCP, 0, 1 }, /* tossed */
        /* TCP's retransmission of 1200: seq went back, so the compressor can only send
         * it UNCOMPRESSED_TCP, which reloads the receiver's slot. */
        { 7, 1200, 100, VJ_TYPE_UNCOMPRESSED_TCP, 0, 0 },
        { 8, 1300, 100, VJ_TYPE_COMPRESSED_TCP, 0, 0 }, /* SPECIAL_D from 1200 */
        { 9, 1400, 100, VJ_TYPE_COMPRESSED_TCP, 0, 0 },
        { 10, 1500, 100, VJ_TYPE_COMPRESSED_TCP, 0, 0 },
    };
    for (k = 0; k < (int)(sizeof plan / sizeof plan[0]); k++) {
        len = bulk(pkt, plan[k].id, plan[k].seq, plan[k].dlen);
        n = vj_compress(&a, pkt, len, frame, sizeof frame, &type);
        CHECK_EQ(type, plan[k].type);
        if (plan[k].lost) {
            vj_decompress_error(&b);
            continue;
        }
        if (k >= 2 && type == VJ_TYPE_COMPRESSED_TCP)
            CHECK_EQ(frame[0], 0x89); /* SPECIAL_D, no C: the loss cannot be noticed */
        n = vj_decompress(&b, frame, (uint16_t)n, back, sizeof back);
        if (plan[k].tossed) {
            CHECK_EQ(n, 0);
            CHECK_EQ(b.last_error, DROP_VJ_TOSS);
        } else {
            CHECK_EQ(n, len);
            CHECK_MEM(back, pkt, len);
        }
    }
    CHECK_EQ(b.stats.drop_toss, 2);
    CHECK_EQ(b.stats.in_link_errors, 1);
    CHECK_EQ(b.stats.in_uncompressed, 2);
    CHECK_EQ(b.stats.in_compressed, 5);
    CHECK_EQ(b.toss, 0);
}

static void test_without_error_signal_deltas_hit_wrong_header(void)
{
    /* Why toss exists: if nobody tells the decompressor about the lost frame, the next
     * SPECIAL_D frame adds "previous length" to the header it has (seq 1100), making
     * seq 1200 where the sender meant 1300, and only TCP's checksum notices. */
    static struct vj_slot a_tx[1], b_rx[1];
    struct vj_state a, b;
    uint8_t pkt[VJT_BUF], frame[VJT_BUF], back[VJT_BUF];
    uint16_t len;
    int32_t n;
    vj_init(&a, a_tx, 1, NULL, 0);
    vj_init(&b, NULL, 0, b_rx, 1);
    len = bulk(pkt, 1, 1000, 0);
    n = vj_compress(&a, pkt, len, frame, sizeof frame, NULL);
    CHECK_EQ(vj_decompress(&b, frame, (uint16_t)n, back, sizeof back), 40);
    len = bulk(pkt, 2, 1000, 100);
    n = vj_compress(&a, pkt, len, frame, sizeof frame, NULL);
    CHECK_EQ(vj_decompress(&b, frame, (uint16_t)n, back, sizeof back), 140);
    len = bulk(pkt, 3, 1100, 100);
    n = vj_compress(&a, pkt, len, frame, sizeof frame, NULL);
    CHECK_EQ(vj_decompress(&b, frame, (uint16_t)n, back, sizeof back), 140);
    len = bulk(pkt, 4, 1200, 100);
    vj_compress(&a, pkt, len, frame, sizeof frame, NULL); /* lost, silently */
    len = bulk(pkt, 5, 1300, 100);
    n = vj_compress(&a, pkt, len, frame, sizeof frame, NULL);
    CHECK_EQ(frame[0], 0x89);
    CHECK_EQ(vj_decompress(&b, frame, (uint16_t)n, back, sizeof back), 140);
    CHECK_EQ(rd32(back + 20 + 4), 1200);
    CHECK_EQ(rd16(back + 4), 4); /* the IP ID is off by one too */
    CHECK(vjt_valid(pkt, len));
    CHECK(!vjt_valid(back, 140)); /* the carried TCP checksum no longer matches */
}

/* A segment of connection `port` (10.0.7.1:port -> 10.0.7.2:80) for the slot tests. */
static uint16_t conn_pkt(uint8_t *buf, uint16_t port, uint16_t id, uint32_t seq)
{
    struct vjt_tcp t;
    memset(&t, 0, sizeof t);
    t.src = IP4(10, 0, 7, 1);
    t.dst = IP4(10, 0, 7, 2);
    t.sport = port;
    t.dport = 80;
    t.id = id;
    t.seq = seq;
    t.ack = 1;
    t.flags = TCP_ACK;
    t.wnd = 1000;
    t.dlen = 10;
    return vjt_build(buf, &t);
}

static void test_two_slots_lru_and_c_bit(void)
{
    /* Two slots, connections X, Y, Z (ports 1, 2, 3). RFC 1144 A.2 keeps the slots in
     * least-recently-used order and gives a new connection the oldest one:
     *   X1 -> slot 0 (new), Y1 -> slot 1 (new), X2 compressed, switching from Y: C bit,
     *   slot byte 0; X3 same connection as last frame: no C; Y2: C, slot 1;
     *   Z1: oldest is X (Y just used) -> slot 0; X4: oldest is Y -> slot 1;
     *   Y3: oldest is Z -> slot 0. */
    static const struct {
        uint16_t port;
        uint8_t type;
        uint8_t slot;
        int c;
    } plan[] = {
        { 1, VJ_TYPE_UNCOMPRESSED_TCP, 0, 0 }, { 2, VJ_TYPE_UNCOMPRESSED_TCP, 1, 0 },
        { 1, VJ_TYPE_COMPRESSED_TCP, 0, 1 },   { 1, VJ_TYPE_COMPRESSED_TCP, 0, 0 },
        { 2, VJ_TYPE_COMPRESSED_TCP, 1, 1 },   { 3, VJ_TYPE_UNCOMPRESSED_TCP, 0, 0 },
        { 1, VJ_TYPE_UNCOMPRESSED_TCP, 1, 0 }, { 2, VJ_TYPE_UNCOMPRESSED_TCP, 0, 0 },
    };
    static struct vj_slot tx[2], rx[2];
    struct vj_state a, b;
    uint8_t pkt[VJT_BUF], frame[VJT_BUF], back[VJT_BUF];
    uint32_t seq[4] = { 0, 100, 200, 300 };
    uint16_t id = 1, len;
    int32_t n;
    uint8_t type;
    int k;
    vj_init(&a, tx, 2, NULL, 0);
    vj_init(&b, NULL, 0, rx, 2);
    for (k = 0; k < 8; k++) {
        uint16_t p = plan[k].port;
        len = conn_pkt(pkt, p, id++, seq[p]);
        seq[p] += 10;
        n = vj_compress(&a, pkt, len, frame, sizeof frame, &type);
        CHECK_EQ(type, plan[k].type);
        if (type == VJ_TYPE_UNCOMPRESSED_TCP) {
            CHECK_EQ(frame[9], plan[k].slot);
        } else {
            /* SPECIAL_D (seq + 10 = previous length); the I bit too after a switch,
             * since the IP ID counts every connection's packets. */
            CHECK_EQ((frame[0] & VJ_NEW_C) != 0, plan[k].c);
            if (plan[k].c)
                CHECK_EQ(frame[1], plan[k].slot);
            CHECK_EQ(frame[0] & VJ_SPECIALS_MASK, VJ_SPECIAL_D);
        }
        CHECK_EQ(vj_decompress(&b, frame, (uint16_t)n, back, sizeof back), len);
        CHECK_MEM(back, pkt, len);
    }
    CHECK_EQ(a.stats.out_misses, 5);
}

static void test_three_slots_move_to_front(void)
{
    /* X, Y, Z take slots 0, 1, 2 (newest first: Z Y X). Y is used again and moves to the
     * front (Y Z X). New W takes the oldest, X's slot 0 (W Y Z); new V takes Z's slot 2.
     * Without the move to front V would have evicted Y (slot 1). */
    static const uint16_t ports[] = { 1, 2, 3, 2, 4, 5 };
    static const uint8_t slots[] = { 0, 1, 2, 1, 0, 2 };
    static struct vj_slot tx[3];
    struct vj_state a;
    uint8_t pkt[VJT_BUF], frame[VJT_BUF];
    uint8_t type;
    int k;
    vj_init(&a, tx, 3, NULL, 0);
    for (k = 0; k < 6; k++) {
        uint16_t len = conn_pkt(pkt, ports[k], (uint16_t)(k + 1), 0);
        vj_compress(&a, pkt, len, frame, sizeof frame, &type);
        /* All new connections, and the one repeat (Y) is the same segment again (a
         * retransmission): UNCOMPRESSED_TCP every time, showing the slot. */
        CHECK_EQ(type, VJ_TYPE_UNCOMPRESSED_TCP);
        CHECK_EQ(frame[9], slots[k]);
    }
    CHECK_EQ(a.stats.out_misses, 5);
}

UNIT_MAIN(UNIT(test_conversation_byte_exact), UNIT(test_lost_frame_tosses_until_uncompressed),
          UNIT(test_without_error_signal_deltas_hit_wrong_header),
          UNIT(test_two_slots_lru_and_c_bit), UNIT(test_three_slots_move_to_front))
