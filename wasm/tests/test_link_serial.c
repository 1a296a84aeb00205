/* The serial link model (wasm/sim/link_serial.h): frame times to the microsecond, the
 * stack's SLIP / SLIP6 / CSLIP framing on the wire, the queue limit, full duplex, latency.
 * Expected figures are derived by hand in the comments (or, for wire bytes, by a small
 * independent escaper below), never copied from the model's output. */
#include "link_serial.h"
#include "stack_err.h"
#include "unit.h"
#include "vj_test_pkt.h"

#define T_MTU  600
#define T_RING 64

struct ser_fix {
    struct link_serial l;
    struct link_serial_frame ring[2][T_RING];
    uint8_t mem[2][LINK_SERIAL_DIR_MEM(T_MTU, T_RING)];
};

static int ser_setup(struct ser_fix *x, uint32_t baud, uint8_t framing, uint8_t qlen,
                     uint32_t latency)
{
    struct link_serial_config c;
    struct link_serial_frame *r[2];
    uint8_t *m[2];
    uint8_t n[2] = { T_RING, T_RING };
    uint32_t ml[2] = { sizeof x->mem[0], sizeof x->mem[1] };
    memset(&c, 0, sizeof c);
    c.baud = baud;
    c.bits_per_char = 10; /* 8N1 */
    c.framing = framing;
    c.leading_end = 1;
    c.qlen = qlen;
    c.mtu = T_MTU;
    c.latency_us[0] = c.latency_us[1] = latency;
    r[0] = x->ring[0];
    r[1] = x->ring[1];
    m[0] = x->mem[0];
    m[1] = x->mem[1];
    return link_serial_init(&x->l, &c, r, n, m, ml);
}

/* An 84-byte datagram (ping -s 56) with no byte needing a SLIP escape. */
static void dgram84(uint8_t *d)
{
    uint16_t i;
    for (i = 0; i < 84; i++)
        d[i] = (uint8_t)(i & 0x3F);
}

/* RFC 1055 escaping, written again here so the test does not trust slip_encode. */
static uint32_t test_slip_escape(const uint8_t *in, uint32_t n, uint8_t *out)
{
    uint32_t i, o = 0;
    out[o++] = 0xC0;
    for (i = 0; i < n; i++) {
        if (in[i] == 0xC0) {
            out[o++] = 0xDB;
            out[o++] = 0xDC;
        } else if (in[i] == 0xDB) {
            out[o++] = 0xDB;
            out[o++] = 0xDD;
        } else {
            out[o++] = in[i];
        }
    }
    out[o++] = 0xC0;
    return o;
}

static void test_slip_84_bytes_at_57600(void)
{
    static struct ser_fix x;
    struct link_delivery d;
    uint8_t dg[84];
    uint64_t t;
    dgram84(dg);
    CHECK_EQ(ser_setup(&x, 57600, LINK_SERIAL_SLIP, 10, 0), ERR_OK);
    CHECK_EQ(link_serial_submit(&x.l, LINK_DIR_AB, 1000, dg, 84, 7), ERR_OK);
    CHECK(link_serial_next_event(&x.l, &t));
    /* 84 + leading END + END = 86 bytes x 10 bits = 860 bits; 860 / 57600 s =
     * 14930.555... us, rounded up (the last stop bit ends inside microsecond 14930):
     * 14931 us, the 14.93 ms. */
    CHECK_EQ(t, 1000 + 14931);
    CHECK_EQ(link_serial_take(&x.l, 1000 + 14930, &d), 0);
    CHECK_EQ(link_serial_take(&x.l, 1000 + 14931, &d), 1);
    CHECK_EQ(d.fate, LINK_FATE_DELIVERED);
    CHECK_EQ(d.tag, 7);
    CHECK_EQ(d.dir, LINK_DIR_AB);
    CHECK_EQ(d.wire_len, 86);
    CHECK_EQ(d.wire[0], 0xC0);
    CHECK_EQ(d.wire[85], 0xC0);
    CHECK_EQ(d.wire_start, 1000);
    CHECK_EQ(d.wire_end, 15931);
    CHECK_EQ(d.time, 15931);
    CHECK_EQ(d.len, 84);
    CHECK_MEM(d.data, dg, 84);
    CHECK_EQ(link_serial_next_event(&x.l, &t), 0);
}

static void test_slip_escapes_lengthen_frame(void)
{
    static struct ser_fix x;
    struct link_delivery d;
    uint8_t dg[84], wire[200];
    dgram84(dg);
    dg[10] = 0xC0;
    dg[11] = 0xC0;
    dg[50] = 0xC0;
    dg[83] = 0xDB;
    CHECK_EQ(ser_setup(&x, 57600, LINK_SERIAL_SLIP, 10, 0), ERR_OK);
    CHECK_EQ(link_serial_submit(&x.l, LINK_DIR_BA, 0, dg, 84, 1), ERR_OK);
    CHECK_EQ(link_serial_take(&x.l, 1000000, &d), 1);
    /* 84 + 4 escapes + 2 END = 90 bytes = 900 bits; 900 / 57600 s = 15625 us exactly. */
    CHECK_EQ(d.wire_len, 90);
    CHECK_EQ(test_slip_escape(dg, 84, wire), 90);
    CHECK_MEM(d.wire, wire, 90);
    CHECK_EQ(d.wire_end, 15625);
    CHECK_EQ(d.dir, LINK_DIR_BA);
    CHECK_EQ(d.len, 84);
    CHECK_MEM(d.data, dg, 84);
}

static void test_back_to_back_frames_do_not_drift(void)
{
    static struct ser_fix x;
    struct link_delivery d;
    uint8_t dg[84];
    int i;
    dgram84(dg);
    CHECK_EQ(ser_setup(&x, 57600, LINK_SERIAL_SLIP, 60, 0), ERR_OK);
    for (i = 0; i < 50; i++)
        CHECK_EQ(link_serial_submit(&x.l, LINK_DIR_AB, 0, dg, 84, (uint32_t)i), ERR_OK);
    CHECK_EQ(link_serial_take(&x.l, 10000000, &d), 1);
    CHECK_EQ(d.wire_end, 14931);
    CHECK_EQ(link_serial_take(&x.l, 10000000, &d), 1);
    /* Frame 2 starts where frame 1 ended; it ends after 1720 bits:
     * 1720 / 57600 s = 29861.11 us -> 29862. */
    CHECK_EQ(d.wire_start, 14931);
    CHECK_EQ(d.wire_end, 29862);
    for (i = 2; i < 50; i++)
        CHECK_EQ(link_serial_take(&x.l, 10000000, &d), 1);
    /* Frame 50 ends after 50 x 860 = 43000 bits = 746527.78 us -> 746528; rounding each
     * frame alone would give 50 x 14931 = 746550, 22 us of drift. */
    CHECK_EQ(d.tag, 49);
    CHECK_EQ(d.wire_end, 746528);
}

static void test_queue_overflow_at_qlen_10(void)
{
    static struct ser_fix x;
    struct link_delivery d;
    uint8_t dg[84];
    int i, ok = 0, dropped = 0;
    dgram84(dg);
    CHECK_EQ(ser_setup(&x, 57600, LINK_SERIAL_SLIP, 10, 0), ERR_OK);
    /* A burst of 15 at t = 0: the first goes on the line, 10 wait, 4 are dropped. */
    for (i = 0; i < 15; i++) {
        int r = link_serial_submit(&x.l, LINK_DIR_AB, 0, dg, 84, (uint32_t)i);
        if (r == ERR_OK)
            ok++;
        else if (r == (int)DROP_LINK_QUEUE_FULL)
            dropped++;
    }
    CHECK_EQ(ok, 11);
    CHECK_EQ(dropped, 4);
    CHECK_EQ(x.l.dir[0].stats.drop_queue_full, 4);
    CHECK_EQ(x.l.dir[0].stats.submitted, 15);
    CHECK_EQ(link_serial_queue_len(&x.l, LINK_DIR_AB, 0), 10);
    CHECK_EQ(x.l.dir[0].stats.max_queue, 10);
    /* At 14931 frame 2 goes on the line: 9 wait, room for one more, not two. */
    CHECK_EQ(link_serial_take(&x.l, 14931, &d), 1);
    CHECK_EQ(link_serial_queue_len(&x.l, LINK_DIR_AB, 14931), 9);
    CHECK_EQ(link_serial_submit(&x.l, LINK_DIR_AB, 14931, dg, 84, 100), ERR_OK);
    CHECK_EQ(link_serial_submit(&x.l, LINK_DIR_AB, 14931, dg, 84, 101), (int)DROP_LINK_QUEUE_FULL);
    CHECK_EQ(x.l.dir[0].stats.drop_queue_full, 5);
    /* The other direction is unaffected. */
    CHECK_EQ(x.l.dir[1].stats.drop_queue_full, 0);
    CHECK_EQ(link_serial_submit(&x.l, LINK_DIR_BA, 14931, dg, 84, 200), ERR_OK);
}

static void test_full_duplex_directions_independent(void)
{
    static struct ser_fix x;
    struct link_delivery d1, d2;
    uint8_t dg[84];
    dgram84(dg);
    CHECK_EQ(ser_setup(&x, 57600, LINK_SERIAL_SLIP, 10, 0), ERR_OK);
    CHECK_EQ(link_serial_submit(&x.l, LINK_DIR_AB, 0, dg, 84, 1), ERR_OK);
    CHECK_EQ(link_serial_submit(&x.l, LINK_DIR_BA, 0, dg, 84, 2), ERR_OK);
    CHECK_EQ(link_serial_take(&x.l, 14931, &d1), 1);
    CHECK_EQ(link_serial_take(&x.l, 14931, &d2), 1);
    /* Both on the line at once, both done after 14931 us. */
    CHECK_EQ(d1.wire_start, 0);
    CHECK_EQ(d2.wire_start, 0);
    CHECK_EQ(d1.time, 14931);
    CHECK_EQ(d2.time, 14931);
    CHECK(d1.dir != d2.dir);
}

static void test_latency_and_ping_rtt(void)
{
    static struct ser_fix x;
    struct link_delivery d;
    uint8_t dg[84];
    dgram84(dg);
    /* Arduino seed: 1 ms each way for the USB-serial converter. */
    CHECK_EQ(ser_setup(&x, 57600, LINK_SERIAL_SLIP, 10, 1000), ERR_OK);
    CHECK_EQ(link_serial_submit(&x.l, LINK_DIR_AB, 0, dg, 84, 1), ERR_OK);
    CHECK_EQ(link_serial_take(&x.l, 15930, &d), 0);
    CHECK_EQ(link_serial_take(&x.l, 15931, &d), 1);
    CHECK_EQ(d.wire_end, 14931);
    CHECK_EQ(d.time, 14931 + 1000);
    /* The echo reply leaves at once: RTT = 2 x (14931 + 1000) = 31862 us, against the
     * seed's 31.361 ms measured average (its theory, 29.2 ms, leaves out END bytes and
     * the converter). */
    CHECK_EQ(link_serial_submit(&x.l, LINK_DIR_BA, d.time, dg, 84, 2), ERR_OK);
    CHECK_EQ(link_serial_take(&x.l, 100000, &d), 1);
    CHECK_EQ(d.time, 31862);
}

static void test_slip6_frame_size_and_time(void)
{
    static struct ser_fix x;
    struct link_delivery d;
    uint8_t dg[84];
    struct vjt_tcp s;
    uint8_t seg[VJT_BUF];
    uint16_t n;
    dgram84(dg);
    CHECK_EQ(ser_setup(&x, 57600, LINK_SERIAL_SLIP6, 10, 0), ERR_OK);
    CHECK_EQ(link_serial_submit(&x.l, LINK_DIR_AB, 0, dg, 84, 1), ERR_OK);
    CHECK_EQ(link_serial_take(&x.l, 1000000, &d), 1);
    /* 84 bytes = 672 bits = 112 six-bit characters, + 2 END = 114 characters =
     * 1140 bits; 1140 / 57600 s = 19791.67 us -> 19792. */
    CHECK_EQ(d.wire_len, 114);
    CHECK_EQ(d.wire[0], 0x70);
    CHECK_EQ(d.wire_end, 19792);
    CHECK_EQ(d.len, 84);
    CHECK_MEM(d.data, dg, 84);
    /* A 60-byte TCP segment (20 bytes of data): 480 bits = 80 characters + 2 = 82 =
     * 820 bits = 14236.11 us -> 14237, sent at 100000. */
    memset(&s, 0, sizeof s);
    s.src = 0x0A000701;
    s.dst = 0x0A000702;
    s.sport = 1025;
    s.dport = 7;
    s.id = 1;
    s.seq = 1000;
    s.ack = 5000;
    s.flags = TCP_ACK;
    s.wnd = 4096;
    s.dlen = 20;
    n = vjt_build(seg, &s);
    CHECK_EQ(n, 60);
    CHECK_EQ(link_serial_submit(&x.l, LINK_DIR_AB, 100000, seg, n, 2), ERR_OK);
    CHECK_EQ(link_serial_take(&x.l, 1000000, &d), 1);
    CHECK_EQ(d.wire_len, 82);
    CHECK_EQ(d.wire_end, 100000 + 14237);
    CHECK_EQ(d.len, 60);
    CHECK_MEM(d.data, seg, 60);
}

static void test_cslip_second_segment_compressed(void)
{
    static struct ser_fix x;
    struct link_delivery d;
    struct vjt_tcp s;
    uint8_t seg1[VJT_BUF], seg2[VJT_BUF], frame[VJT_BUF], wire[2 * VJT_BUF];
    uint32_t wl;
    uint16_t n1, n2;
    memset(&s, 0, sizeof s);
    s.src = 0x0A000701;
    s.dst = 0x0A000702;
    s.sport = 1025;
    s.dport = 7;
    s.id = 1;
    s.seq = 1000;
    s.ack = 5000;
    s.flags = TCP_ACK;
    s.wnd = 4096;
    s.dlen = 20;
    n1 = vjt_build(seg1, &s);
    s.id = 2;
    s.seq = 1020; /* advanced by the previous segment's 20 bytes */
    n2 = vjt_build(seg2, &s);
    CHECK_EQ(ser_setup(&x, 57600, LINK_SERIAL_CSLIP, 10, 0), ERR_OK);
    CHECK_EQ(link_serial_submit(&x.l, LINK_DIR_AB, 0, seg1, n1, 1), ERR_OK);
    CHECK_EQ(link_serial_submit(&x.l, LINK_DIR_AB, 100000, seg2, n2, 2), ERR_OK);

    /* Segment 1, a new connection: UNCOMPRESSED_TCP (RFC 1144 3.2), the datagram with
     * its first byte 0x45 | 0x70 = 0x75 and the protocol byte replaced by slot 0. */
    CHECK_EQ(link_serial_take(&x.l, 1000000, &d), 1);
    memcpy(frame, seg1, n1);
    frame[0] = 0x75;
    frame[9] = 0;
    wl = test_slip_escape(frame, n1, wire);
    CHECK_EQ(d.wire_len, wl);
    CHECK_MEM(d.wire, wire, wl);
    CHECK_EQ(d.len, 60);
    CHECK_MEM(d.data, seg1, 60);

    /* Segment 2: only the sequence number moved, by the last data length: SPECIAL_D
     * (S|U = 0x09), no C bit (same connection), then the TCP checksum: 3 header bytes +
     * 20 data = 23 bytes instead of 60 (payload byte (1020 + 7) x 37 mod 256 = 0xDB is
     * escaped). */
    CHECK_EQ(link_serial_take(&x.l, 1000000, &d), 1);
    frame[0] = 0x89;
    frame[1] = seg2[36];
    frame[2] = seg2[37];
    memcpy(frame + 3, seg2 + 40, 20);
    wl = test_slip_escape(frame, 23, wire);
    CHECK_EQ(wl, 23 + 1 + 2 + (uint32_t)(seg2[36] == 0xC0 || seg2[36] == 0xDB) +
                     (uint32_t)(seg2[37] == 0xC0 || seg2[37] == 0xDB));
    CHECK_EQ(d.wire_len, wl);
    CHECK_MEM(d.wire, wire, wl);
    /* Its time: wl x 10 bits at 57600, rounded up, from 100000. */
    CHECK_EQ(d.wire_end, 100000 + ((uint64_t)wl * 10u * 1000000u + 57599u) / 57600u);
    /* The receiver rebuilt the whole datagram, checksums included, byte for byte. */
    CHECK_EQ(d.fate, LINK_FATE_DELIVERED);
    CHECK_EQ(d.len, 60);
    CHECK_MEM(d.data, seg2, 60);
    CHECK(vjt_valid(d.data, d.len));
    CHECK_EQ(x.l.dir[0].vj.stats.out_compressed, 1);
    CHECK_EQ(x.l.dir[0].vj.stats.in_compressed, 1);
}

static void test_damaged_frame_is_dropped_with_reason(void)
{
    static struct ser_fix x;
    struct link_delivery d;
    struct link_serial_frame *f;
    uint8_t dg[84], dir = 9;
    dgram84(dg);
    CHECK_EQ(ser_setup(&x, 57600, LINK_SERIAL_SLIP, 10, 0), ERR_OK);
    CHECK_EQ(link_serial_submit(&x.l, LINK_DIR_AB, 0, dg, 84, 1), ERR_OK);
    CHECK(link_serial_peek(&x.l, 14930, &dir) == NULL);
    f = link_serial_peek(&x.l, 14931, &dir);
    CHECK(f != NULL);
    CHECK_EQ(dir, LINK_DIR_AB);
    f->wire[5] = SLIP_ESC; /* ESC followed by an ordinary byte */
    CHECK_EQ(link_serial_take(&x.l, 14931, &d), 1);
    CHECK_EQ(d.fate, LINK_FATE_DROPPED);
    CHECK_EQ(d.reason, DROP_SLIP_BAD_ESCAPE);
    /* The decoder is back in step: the next frame arrives whole. */
    CHECK_EQ(link_serial_submit(&x.l, LINK_DIR_AB, 20000, dg, 84, 2), ERR_OK);
    CHECK_EQ(link_serial_take(&x.l, 40000, &d), 1);
    CHECK_EQ(d.fate, LINK_FATE_DELIVERED);
    CHECK_MEM(d.data, dg, 84);
}

UNIT_MAIN(UNIT(test_slip_84_bytes_at_57600), UNIT(test_slip_escapes_lengthen_frame),
          UNIT(test_back_to_back_frames_do_not_drift), UNIT(test_queue_overflow_at_qlen_10),
          UNIT(test_full_duplex_directions_independent), UNIT(test_latency_and_ping_rtt),
          UNIT(test_slip6_frame_size_and_time), UNIT(test_cslip_second_segment_compressed),
          UNIT(test_damaged_frame_is_dropped_with_reason))
