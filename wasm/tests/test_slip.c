/* SLIP (RFC 1055): encoder output checked byte by byte against hand-escaped frames, and
 * the streaming decoder against chunk boundaries, empty frames, oversize and bad escapes,
 * with exact counters. */
#include <stdint.h>

#include "slip.h"
#include "stack_err.h"
#include "unit.h"

/* ---- helpers ---- */

static uint32_t prng_state;

static uint32_t prng(void)
{
    /* xorshift32: the same sequence on every run. */
    uint32_t x = prng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    prng_state = x;
    return x;
}

struct sink {
    uint8_t buf[4096];
    uint16_t n;
};

static void sink_put(void *ctx, uint8_t b)
{
    struct sink *s = (struct sink *)ctx;
    if (s->n < sizeof s->buf)
        s->buf[s->n++] = b;
}

/* Frames collected by the bulk decoder's callback. */
struct collected {
    uint8_t data[64][300];
    uint16_t len[64];
    enum drop_reason reason[64];
    int n;
};

static void collect(void *ctx, uint8_t *frame, uint16_t len, enum drop_reason reason)
{
    struct collected *c = (struct collected *)ctx;
    if (c->n >= 64)
        return;
    c->len[c->n] = len;
    c->reason[c->n] = reason;
    if (frame)
        memcpy(c->data[c->n], frame, len);
    c->n++;
}

/* ---- encoder ---- */

static void test_encode_plain_with_and_without_leading_end(void)
{
    static const uint8_t in[] = { 0x41, 0x42, 0x43 };
    static const uint8_t with[] = { 0xC0, 0x41, 0x42, 0x43, 0xC0 };
    static const uint8_t without[] = { 0x41, 0x42, 0x43, 0xC0 };
    uint8_t out[16];
    CHECK_EQ(slip_encode(in, 3, out, sizeof out, 1), 5);
    CHECK_MEM(out, with, 5);
    CHECK_EQ(slip_encode(in, 3, out, sizeof out, 0), 4);
    CHECK_MEM(out, without, 4);
    CHECK_EQ(slip_encoded_len(in, 3, 1), 5);
    CHECK_EQ(slip_encoded_len(in, 3, 0), 4);
}

static void test_escapes_at_frame_edges(void)
{
    /* END first and ESC last: C0 -> DB DC, DB -> DB DD (RFC 1055). */
    static const uint8_t in1[] = { 0xC0, 0x01, 0xDB };
    static const uint8_t out1[] = { 0xC0, 0xDB, 0xDC, 0x01, 0xDB, 0xDD, 0xC0 };
    /* Only specials, back to back: ESC END END ESC. */
    static const uint8_t in2[] = { 0xDB, 0xC0, 0xC0, 0xDB };
    static const uint8_t out2[] = { 0xDB, 0xDD, 0xDB, 0xDC, 0xDB, 0xDC, 0xDB, 0xDD, 0xC0 };
    /* ESC_END and ESC_ESC on their own are ordinary data. */
    static const uint8_t in3[] = { 0xDC, 0xDD };
    static const uint8_t out3[] = { 0xDC, 0xDD, 0xC0 };
    uint8_t out[32];
    CHECK_EQ(slip_encode(in1, 3, out, sizeof out, 1), 7);
    CHECK_MEM(out, out1, 7);
    CHECK_EQ(slip_encoded_len(in1, 3, 1), 7);
    CHECK_EQ(slip_encode(in2, 4, out, sizeof out, 0), 9);
    CHECK_MEM(out, out2, 9);
    CHECK_EQ(slip_encode(in3, 2, out, sizeof out, 0), 3);
    CHECK_MEM(out, out3, 3);
}

static void test_encode_empty_and_cap(void)
{
    static const uint8_t in[] = { 0xC0, 0x00 };
    uint8_t out[8];
    /* An empty datagram is just the END(s). */
    CHECK_EQ(slip_encode(in, 0, out, sizeof out, 1), 2);
    CHECK_EQ(out[0], SLIP_END);
    CHECK_EQ(out[1], SLIP_END);
    /* C0 00 needs 1 + 2 + 1 + 1 = 5 with the leading END. */
    CHECK_EQ(slip_encode(in, 2, out, 4, 1), ERR_BUF);
    CHECK_EQ(slip_encode(in, 2, out, 5, 1), 5);
    CHECK_EQ(slip_encode(in, 2, out, 3, 0), ERR_BUF);
    CHECK_EQ(slip_encode(in, 2, out, 4, 0), 4);
    CHECK_EQ(SLIP_MAX_ENCODED(2), 6);
}

static void test_stream_encoder_matches_buffer_encoder(void)
{
    static const uint8_t in[] = { 0xDB, 0x10, 0xC0, 0xC0, 0x20, 0xDB };
    uint8_t out[32];
    struct sink s;
    int32_t n;
    int lead;
    for (lead = 0; lead <= 1; lead++) {
        s.n = 0;
        n = slip_encode(in, sizeof in, out, sizeof out, lead);
        slip_encode_stream(in, sizeof in, lead, sink_put, &s);
        CHECK_EQ(s.n, n);
        CHECK_MEM(s.buf, out, (size_t)n);
        /* The same frame sent in two pieces, as a CSLIP header then its payload. */
        s.n = 0;
        if (lead)
            slip_put_end(sink_put, &s);
        slip_put_data(in, 2, sink_put, &s);
        slip_put_data(in + 2, sizeof in - 2, sink_put, &s);
        slip_put_end(sink_put, &s);
        CHECK_EQ(s.n, n);
        CHECK_MEM(s.buf, out, (size_t)n);
    }
}

/* ---- decoder ---- */

static void test_decode_byte_by_byte(void)
{
    /* C0 (empty) | DB DC 01 DB DD = C0 01 DB | C0 */
    static const uint8_t wire[] = { 0xC0, 0xDB, 0xDC, 0x01, 0xDB, 0xDD, 0xC0 };
    static const uint8_t want[] = { 0xC0, 0x01, 0xDB };
    static const enum slip_result res[] = { SLIP_FRAME_NONE, SLIP_FRAME_NONE, SLIP_FRAME_NONE,
                                            SLIP_FRAME_NONE, SLIP_FRAME_NONE, SLIP_FRAME_NONE,
                                            SLIP_FRAME_DONE };
    uint8_t buf[16];
    struct slip_decoder d;
    size_t i;
    slip_decoder_init(&d, buf, sizeof buf);
    for (i = 0; i < sizeof wire; i++)
        CHECK_EQ(slip_decode_byte(&d, wire[i]), res[i]);
    CHECK_EQ(d.len, 3);
    CHECK_MEM(d.buf, want, 3);
    CHECK_EQ(d.stats.frames, 1);
    CHECK_EQ(d.stats.frame_bytes, 3);
    CHECK_EQ(d.stats.bytes, 7);
    CHECK_EQ(d.stats.empty, 1);
    CHECK_EQ(d.last_error, DROP_NONE);
    /* The next byte starts a new frame. */
    CHECK_EQ(slip_decode_byte(&d, 0x55), SLIP_FRAME_NONE);
    CHECK_EQ(slip_decode_byte(&d, 0xC0), SLIP_FRAME_DONE);
    CHECK_EQ(d.len, 1);
    CHECK_EQ(d.buf[0], 0x55);
}

static void test_decode_random_chunks(void)
{
    /* 40 frames of random length (1..200) and content biased towards END and ESC, half
     * with a leading END, concatenated and fed in random pieces (and byte by byte). The
     * expected counters come from the generator, not from the decoder. */
    static uint8_t frames[40][200];
    static uint16_t lens[40];
    static uint8_t wire[40 * 402];
    static uint8_t buf[256];
    static struct collected got;
    struct slip_decoder d;
    uint32_t wire_len = 0, payload = 0, leading = 0;
    int f, pass;
    prng_state = 0x12345678u;
    for (f = 0; f < 40; f++) {
        uint16_t i;
        int lead = f % 2;
        int32_t n;
        lens[f] = (uint16_t)(1u + prng() % 200u);
        for (i = 0; i < lens[f]; i++) {
            uint32_t r = prng() % 8u;
            frames[f][i] = r == 0 ? 0xC0 : r == 1 ? 0xDB : r == 2 ? 0xDC : (uint8_t)prng();
        }
        n = slip_encode(frames[f], lens[f], wire + wire_len, 402, lead);
        CHECK(n > 0);
        wire_len += (uint32_t)n;
        payload += lens[f];
        leading += (uint32_t)lead;
    }
    for (pass = 0; pass < 2; pass++) {
        uint32_t off = 0;
        memset(&got, 0, sizeof got);
        slip_decoder_init(&d, buf, sizeof buf);
        while (off < wire_len) {
            uint32_t chunk = pass == 0 ? 1u : 1u + prng() % 97u;
            if (chunk > wire_len - off)
                chunk = wire_len - off;
            slip_decode(&d, wire + off, (uint16_t)chunk, collect, &got);
            off += chunk;
        }
        CHECK_EQ(got.n, 40);
        for (f = 0; f < 40; f++) {
            CHECK_EQ(got.reason[f], DROP_NONE);
            CHECK_EQ(got.len[f], lens[f]);
            CHECK_MEM(got.data[f], frames[f], lens[f]);
        }
        CHECK_EQ(d.stats.frames, 40);
        CHECK_EQ(d.stats.frame_bytes, payload);
        CHECK_EQ(d.stats.bytes, wire_len);
        /* Every leading END follows the previous frame's END (or starts the stream): an
         * empty frame each. */
        CHECK_EQ(d.stats.empty, leading);
        CHECK_EQ(d.stats.drop_oversize + d.stats.drop_bad_escape, 0);
    }
}

static void test_empty_frames_ignored(void)
{
    static const uint8_t wire[] = { 0xC0, 0xC0, 0xC0, 0x41, 0xC0, 0xC0 };
    static struct collected got;
    uint8_t buf[8];
    struct slip_decoder d;
    memset(&got, 0, sizeof got);
    slip_decoder_init(&d, buf, sizeof buf);
    CHECK_EQ(slip_decode(&d, wire, sizeof wire, collect, &got), 1);
    CHECK_EQ(got.n, 1);
    CHECK_EQ(got.len[0], 1);
    CHECK_EQ(got.data[0][0], 0x41);
    CHECK_EQ(d.stats.empty, 4);
    CHECK_EQ(d.stats.frames, 1);
}

static void test_oversize_dropped_and_next_frame_decoded(void)
{
    /* cap 4: a 4-byte frame fits; a 6-byte one is dropped at its 5th byte, the rest
     * skipped to END; the frame after it arrives intact. */
    static const uint8_t wire[] = { 0x01, 0x02, 0x03, 0x04, 0xC0,             /* fits */
                                    0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0xC0, /* 6 bytes */
                                    0x0A, 0x0B, 0xC0 };
    static const uint8_t fit[] = { 0x01, 0x02, 0x03, 0x04 };
    static const uint8_t last[] = { 0x0A, 0x0B };
    uint8_t buf[4];
    struct slip_decoder d;
    size_t i;
    slip_decoder_init(&d, buf, sizeof buf);
    for (i = 0; i < 4; i++)
        CHECK_EQ(slip_decode_byte(&d, wire[i]), SLIP_FRAME_NONE);
    CHECK_EQ(slip_decode_byte(&d, wire[4]), SLIP_FRAME_DONE);
    CHECK_MEM(d.buf, fit, 4);
    for (i = 5; i < 9; i++)
        CHECK_EQ(slip_decode_byte(&d, wire[i]), SLIP_FRAME_NONE);
    CHECK_EQ(slip_decode_byte(&d, wire[9]), SLIP_FRAME_ERROR); /* 0x15: the 5th byte */
    CHECK_EQ(d.last_error, DROP_SLIP_OVERSIZE);
    CHECK_EQ(d.len, 4);
    CHECK_EQ(slip_decode_byte(&d, wire[10]), SLIP_FRAME_NONE);
    CHECK_EQ(slip_decode_byte(&d, wire[11]), SLIP_FRAME_NONE); /* END of the dropped one */
    CHECK_EQ(slip_decode_byte(&d, wire[12]), SLIP_FRAME_NONE);
    CHECK_EQ(slip_decode_byte(&d, wire[13]), SLIP_FRAME_NONE);
    CHECK_EQ(slip_decode_byte(&d, wire[14]), SLIP_FRAME_DONE);
    CHECK_EQ(d.len, 2);
    CHECK_MEM(d.buf, last, 2);
    CHECK_EQ(d.stats.frames, 2);
    CHECK_EQ(d.stats.frame_bytes, 6);
    CHECK_EQ(d.stats.drop_oversize, 1);
    CHECK_EQ(d.stats.drop_bad_escape, 0);
    CHECK_EQ(d.stats.empty, 0); /* the END ending the dropped frame is not an empty frame */
    CHECK_EQ(d.stats.bytes, sizeof wire);
}

static void test_oversize_on_escaped_byte(void)
{
    /* The 3rd decoded byte of a cap-2 frame comes from DB DC: dropped at the DC. */
    static const uint8_t wire[] = { 0x01, 0x02, 0xDB, 0xDC, 0xC0, 0x07, 0xC0 };
    static struct collected got;
    uint8_t buf[2];
    struct slip_decoder d;
    memset(&got, 0, sizeof got);
    slip_decoder_init(&d, buf, sizeof buf);
    CHECK_EQ(slip_decode(&d, wire, sizeof wire, collect, &got), 1);
    CHECK_EQ(got.n, 2);
    CHECK_EQ(got.reason[0], DROP_SLIP_OVERSIZE);
    CHECK_EQ(got.len[0], 2);
    CHECK_EQ(got.reason[1], DROP_NONE);
    CHECK_EQ(got.len[1], 1);
    CHECK_EQ(got.data[1][0], 0x07);
}

static void test_bad_escape_dropped(void)
{
    /* 41 DB 42: ESC then 'B' -> frame dropped at 0x42, skipped to END; then "D". */
    static const uint8_t wire1[] = { 0x41, 0xDB, 0x42, 0x43, 0xC0, 0x44, 0xC0 };
    /* ESC then END: dropped, and the END still ends it, so "E" right after survives
     * even without a leading END. */
    static const uint8_t wire2[] = { 0x41, 0xDB, 0xC0, 0x45, 0xC0 };
    /* ESC ESC: also bad. */
    static const uint8_t wire3[] = { 0xDB, 0xDB, 0xDC, 0xC0, 0x46, 0xC0 };
    static struct collected got;
    uint8_t buf[16];
    struct slip_decoder d;
    size_t i;

    slip_decoder_init(&d, buf, sizeof buf);
    CHECK_EQ(slip_decode_byte(&d, wire1[0]), SLIP_FRAME_NONE);
    CHECK_EQ(slip_decode_byte(&d, wire1[1]), SLIP_FRAME_NONE);
    CHECK_EQ(slip_decode_byte(&d, wire1[2]), SLIP_FRAME_ERROR);
    CHECK_EQ(d.last_error, DROP_SLIP_BAD_ESCAPE);
    CHECK_EQ(d.len, 1);
    for (i = 3; i < 6; i++)
        CHECK_EQ(slip_decode_byte(&d, wire1[i]), SLIP_FRAME_NONE);
    CHECK_EQ(slip_decode_byte(&d, wire1[6]), SLIP_FRAME_DONE);
    CHECK_EQ(d.len, 1);
    CHECK_EQ(d.buf[0], 0x44);

    memset(&got, 0, sizeof got);
    slip_decode(&d, wire2, sizeof wire2, collect, &got);
    slip_decode(&d, wire3, sizeof wire3, collect, &got);
    CHECK_EQ(got.n, 4);
    CHECK_EQ(got.reason[0], DROP_SLIP_BAD_ESCAPE);
    CHECK_EQ(got.len[0], 1);
    CHECK_EQ(got.reason[1], DROP_NONE);
    CHECK_EQ(got.len[1], 1);
    CHECK_EQ(got.data[1][0], 0x45);
    CHECK_EQ(got.reason[2], DROP_SLIP_BAD_ESCAPE);
    CHECK_EQ(got.len[2], 0);
    CHECK_EQ(got.reason[3], DROP_NONE);
    CHECK_EQ(got.data[3][0], 0x46);

    /* All three streams: 3 frames delivered, 3 bad escapes, nothing else. */
    CHECK_EQ(d.stats.frames, 3);
    CHECK_EQ(d.stats.frame_bytes, 3);
    CHECK_EQ(d.stats.drop_bad_escape, 3);
    CHECK_EQ(d.stats.drop_oversize, 0);
    CHECK_EQ(d.stats.empty, 0);
    CHECK_EQ(d.stats.bytes, sizeof wire1 + sizeof wire2 + sizeof wire3);
}

static void test_noise_flushed_by_leading_end(void)
{
    /* Line noise before a frame sent with a leading END becomes a frame of its own
     * (delivered here: IP rejects it), and the real frame is untouched: RFC 1055's reason
     * for the leading END. */
    static const uint8_t noise[] = { 0x13, 0x37 };
    static const uint8_t payload[] = { 0x45, 0x00, 0xC0 };
    static struct collected got;
    uint8_t wire[16], buf[16];
    struct slip_decoder d;
    int32_t n;
    memcpy(wire, noise, 2);
    n = slip_encode(payload, 3, wire + 2, sizeof wire - 2, 1);
    CHECK_EQ(n, 6);
    memset(&got, 0, sizeof got);
    slip_decoder_init(&d, buf, sizeof buf);
    CHECK_EQ(slip_decode(&d, wire, (uint16_t)(n + 2), collect, &got), 2);
    CHECK_EQ(got.len[0], 2);
    CHECK_MEM(got.data[0], noise, 2);
    CHECK_EQ(got.len[1], 3);
    CHECK_MEM(got.data[1], payload, 3);
}

UNIT_MAIN(UNIT(test_encode_plain_with_and_without_leading_end), UNIT(test_escapes_at_frame_edges),
          UNIT(test_encode_empty_and_cap), UNIT(test_stream_encoder_matches_buffer_encoder),
          UNIT(test_decode_byte_by_byte), UNIT(test_decode_random_chunks),
          UNIT(test_empty_frames_ignored), UNIT(test_oversize_dropped_and_next_frame_decoded),
          UNIT(test_oversize_on_escaped_byte), UNIT(test_bad_escape_dropped),
          UNIT(test_noise_flushed_by_leading_end))
