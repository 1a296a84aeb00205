/* SLIP6, Linux's 6-bit printable SLIP: hand-computed vectors, a bit-by-bit reference
 * encoder written independently of slip6.c for every length 0..64, and the decoder's
 * handling of bad characters, spare characters, oversize frames and chunking. */
#include <stdint.h>

#include "slip6.h"
#include "stack_err.h"
#include "unit.h"

struct sink {
    uint8_t buf[512];
    uint16_t n;
};

static void sink_put(void *ctx, uint8_t b)
{
    struct sink *s = (struct sink *)ctx;
    if (s->n < sizeof s->buf)
        s->buf[s->n++] = b;
}

struct collected {
    uint8_t data[16][128];
    uint16_t len[16];
    enum drop_reason reason[16];
    int n;
};

static void collect(void *ctx, uint8_t *frame, uint16_t len, enum drop_reason reason)
{
    struct collected *c = (struct collected *)ctx;
    if (c->n >= 16)
        return;
    c->len[c->n] = len;
    c->reason[c->n] = reason;
    if (frame)
        memcpy(c->data[c->n], frame, len);
    c->n++;
}

/* The reference: bit k of the datagram (MSB of byte 0 first) is bit (5 - k % 6) of
 * character k / 6; characters past the data are zero-padded; each is 0x30 + value; 'p'
 * before and after. Written from the description of slip_esc6(), one bit at a time, so
 * it shares nothing with the shift-register in slip6.c. */
static uint16_t ref_encode(const uint8_t *in, uint16_t len, uint8_t *out)
{
    uint16_t nbits = (uint16_t)(len * 8u), nchars = (uint16_t)((nbits + 5u) / 6u), k, o = 0;
    out[o++] = 'p';
    for (k = 0; k < nchars; k++)
        out[o + k] = 0;
    for (k = 0; k < nbits; k++) {
        uint8_t bit = (uint8_t)((in[k / 8] >> (7 - k % 8)) & 1u);
        out[o + k / 6] = (uint8_t)(out[o + k / 6] | (bit << (5 - k % 6)));
    }
    for (k = 0; k < nchars; k++)
        out[o + k] = (uint8_t)(out[o + k] + 0x30);
    o = (uint16_t)(o + nchars);
    out[o++] = 'p';
    return o;
}

static void test_known_vectors(void)
{
    /* "Hi!" = 01001000 01101001 00100001 -> 010010 000110 100100 100001 = 18 6 36 33
     * -> 0x30 + each = 'B' '6' 'T' 'Q'. */
    static const uint8_t hi[] = { 'H', 'i', '!' };
    /* 0xFF = 111111 11 -> 63, then 11 padded with 0000 = 110000 = 48 -> 'o' '`'. */
    static const uint8_t ff[] = { 0xFF };
    /* 00000000 00000001 -> 000000 000000 0001 padded to 000100 = 4 -> '0' '0' '4'. */
    static const uint8_t z1[] = { 0x00, 0x01 };
    /* 3 x 0xFF: four groups of 63 -> "oooo": the top of the alphabet. */
    static const uint8_t f3[] = { 0xFF, 0xFF, 0xFF };
    uint8_t out[32];
    CHECK_EQ(slip6_encode(hi, 3, out, sizeof out, 1), 6);
    CHECK_MEM(out, "pB6TQp", 6);
    CHECK_EQ(slip6_encode(hi, 3, out, sizeof out, 0), 5);
    CHECK_MEM(out, "B6TQp", 5);
    CHECK_EQ(slip6_encode(ff, 1, out, sizeof out, 1), 4);
    CHECK_MEM(out, "po`p", 4);
    CHECK_EQ(slip6_encode(z1, 2, out, sizeof out, 1), 5);
    CHECK_MEM(out, "p004p", 5);
    CHECK_EQ(slip6_encode(f3, 3, out, sizeof out, 1), 6);
    CHECK_MEM(out, "poooop", 6);
    CHECK_EQ(slip6_encode(hi, 0, out, sizeof out, 1), 2);
    CHECK_MEM(out, "pp", 2);
    /* Lengths: ceil(8n/6) + ENDs. 100 bytes -> 134 characters (800/6 = 133.3). */
    CHECK_EQ(slip6_encoded_len(100, 1), 136);
    CHECK_EQ(slip6_encoded_len(3, 0), 5);
    CHECK_EQ(slip6_encoded_len(0, 0), 1);
}

static void test_cap_too_small(void)
{
    static const uint8_t hi[] = { 'H', 'i', '!' };
    uint8_t out[8];
    CHECK_EQ(slip6_encode(hi, 3, out, 5, 1), ERR_BUF);
    CHECK_EQ(slip6_encode(hi, 3, out, 6, 1), 6);
}

static void test_round_trip_all_lengths_all_values(void)
{
    /* For every length 0..64 and four starting values, bytes start, start+1, ... (mod
     * 256): the length-64 frames together hold all 256 byte values. Encoded must equal
     * the reference, contain only the alphabet between the ENDs, and decode back. */
    static uint8_t in[64], out[128], ref[128], buf[64];
    static const uint8_t starts[4] = { 0x00, 0x40, 0x80, 0xC0 };
    struct slip6_decoder d;
    uint32_t frames = 0, bytes = 0, chars = 0, empty = 0;
    uint16_t len, i;
    int si;
    slip6_decoder_init(&d, buf, sizeof buf);
    for (len = 0; len <= 64; len++) {
        for (si = 0; si < 4; si++) {
            int32_t n;
            uint16_t rn;
            for (i = 0; i < len; i++)
                in[i] = (uint8_t)(starts[si] + i);
            n = slip6_encode(in, len, out, sizeof out, 1);
            rn = ref_encode(in, len, ref);
            CHECK_EQ(n, rn);
            CHECK_MEM(out, ref, rn);
            CHECK_EQ(n, (int32_t)slip6_encoded_len(len, 1));
            for (i = 1; i + 1 < rn; i++)
                CHECK(out[i] >= 0x30 && out[i] <= 0x6F);
            for (i = 0; i < rn; i++) {
                enum slip_result r = slip6_decode_byte(&d, out[i]);
                CHECK(r != SLIP_FRAME_ERROR);
                if (i + 1 < rn || len == 0) {
                    CHECK_EQ(r, SLIP_FRAME_NONE);
                } else {
                    CHECK_EQ(r, SLIP_FRAME_DONE);
                    CHECK_EQ(d.len, len);
                    CHECK_MEM(d.buf, in, len);
                }
            }
            chars += rn;
            if (len) {
                frames++;
                bytes += len;
            }
            /* Each frame's leading 'p' follows the previous closing 'p': empty; so does
             * the closing 'p' of a 0-byte frame. */
            empty += len ? 1u : 2u;
        }
    }
    CHECK_EQ(d.stats.frames, frames);
    CHECK_EQ(d.stats.frame_bytes, bytes);
    CHECK_EQ(d.stats.bytes, chars);
    CHECK_EQ(d.stats.empty, empty);
    CHECK_EQ(d.stats.drop_bad_char + d.stats.drop_trailing_bits + d.stats.drop_oversize, 0);
}

static void test_stream_encoder_in_pieces(void)
{
    /* Pieces of 1, 2 and 4 bytes carry 2 or 4 bits across the boundaries. */
    static const uint8_t in[] = { 0xC0, 0xDB, 0x00, 0xFF, 0x45, 0x70, 0x30 };
    struct slip6_encoder e;
    struct sink s;
    uint8_t ref[32];
    uint16_t rn = ref_encode(in, sizeof in, ref);
    s.n = 0;
    slip6_put_begin(&e, 1, sink_put, &s);
    slip6_put_data(&e, in, 1, sink_put, &s);
    slip6_put_data(&e, in + 1, 2, sink_put, &s);
    slip6_put_data(&e, in + 3, 4, sink_put, &s);
    slip6_put_end(&e, sink_put, &s);
    CHECK_EQ(s.n, rn);
    CHECK_MEM(s.buf, ref, rn);
    s.n = 0;
    slip6_encode_stream(in, sizeof in, 1, sink_put, &s);
    CHECK_EQ(s.n, rn);
    CHECK_MEM(s.buf, ref, rn);
}

static void test_bad_char_drops_frame(void)
{
    /* A newline inside "Hi!": dropped at the '\n', the rest skipped to the next 'p'
     * (which resynchronises, not an empty frame), then an empty frame, then "Hi!". */
    static const char wire[] = "pB6\nTQppB6TQp";
    static struct collected got;
    uint8_t buf[16];
    struct slip6_decoder d;
    memset(&got, 0, sizeof got);
    slip6_decoder_init(&d, buf, sizeof buf);
    CHECK_EQ(slip6_decode(&d, (const uint8_t *)wire, 13, collect, &got), 1);
    CHECK_EQ(got.n, 2);
    CHECK_EQ(got.reason[0], DROP_SLIP6_BAD_CHAR);
    CHECK_EQ(got.len[0], 1); /* 'B' '6' = 12 bits: one byte done before the '\n' */
    CHECK_EQ(got.reason[1], DROP_NONE);
    CHECK_EQ(got.len[1], 3);
    CHECK_MEM(got.data[1], "Hi!", 3);
    CHECK_EQ(d.stats.drop_bad_char, 1);
    CHECK_EQ(d.stats.empty, 2); /* the first 'p', and "pp" in the middle */
    CHECK_EQ(d.stats.frames, 1);
    CHECK_EQ(d.stats.bytes, 13);
    CHECK_EQ(d.last_error, DROP_SLIP6_BAD_CHAR);
}

static void test_alphabet_boundaries(void)
{
    /* 0x2F ('/') and 0x71 ('q') are just outside the alphabet; 0x30 and 0x6F are in. */
    uint8_t buf[8];
    struct slip6_decoder d;
    slip6_decoder_init(&d, buf, sizeof buf);
    CHECK_EQ(slip6_decode_byte(&d, 0x2F), SLIP_FRAME_ERROR);
    CHECK_EQ(d.last_error, DROP_SLIP6_BAD_CHAR);
    CHECK_EQ(slip6_decode_byte(&d, 'p'), SLIP_FRAME_NONE);
    CHECK_EQ(slip6_decode_byte(&d, 0x71), SLIP_FRAME_ERROR);
    CHECK_EQ(slip6_decode_byte(&d, 'p'), SLIP_FRAME_NONE);
    /* "o0" = 111111 000000 -> byte 11111100 = 0xFC, 4 padding bits left. */
    CHECK_EQ(slip6_decode_byte(&d, 0x6F), SLIP_FRAME_NONE);
    CHECK_EQ(slip6_decode_byte(&d, 0x30), SLIP_FRAME_NONE);
    CHECK_EQ(slip6_decode_byte(&d, 'p'), SLIP_FRAME_DONE);
    CHECK_EQ(d.len, 1);
    CHECK_EQ(d.buf[0], 0xFC);
    CHECK_EQ(d.stats.drop_bad_char, 2);
}

static void test_trailing_bits(void)
{
    static struct collected got;
    uint8_t buf[8];
    struct slip6_decoder d;
    memset(&got, 0, sizeof got);
    slip6_decoder_init(&d, buf, sizeof buf);
    /* One character: 6 bits, no byte: a spare character. */
    slip6_decode(&d, (const uint8_t *)"pBp", 3, collect, &got);
    /* "Hi!" plus one spare character: 3 bytes and 6 bits over. */
    slip6_decode(&d, (const uint8_t *)"pB6TQBp", 7, collect, &got);
    /* 0xFF with non-zero padding: 'a' = 49 = 110001: "11" completes the byte, "0001" is
     * padding Linux ignores, and so do we. */
    slip6_decode(&d, (const uint8_t *)"poap", 4, collect, &got);
    CHECK_EQ(got.n, 3);
    CHECK_EQ(got.reason[0], DROP_SLIP6_TRAILING_BITS);
    CHECK_EQ(got.len[0], 0);
    CHECK_EQ(got.reason[1], DROP_SLIP6_TRAILING_BITS);
    CHECK_EQ(got.len[1], 3);
    CHECK_EQ(got.reason[2], DROP_NONE);
    CHECK_EQ(got.len[2], 1);
    CHECK_EQ(got.data[2][0], 0xFF);
    CHECK_EQ(d.stats.drop_trailing_bits, 2);
    CHECK_EQ(d.stats.frames, 1);
    CHECK_EQ(d.stats.empty, 3); /* the leading 'p' of each of the three frames */
}

static void test_oversize_then_next_frame(void)
{
    /* cap 2: "Hi!" is dropped at its third byte ('Q' completes it); "p004p" = 00 01
     * then decodes. */
    static struct collected got;
    uint8_t buf[2];
    struct slip6_decoder d;
    memset(&got, 0, sizeof got);
    slip6_decoder_init(&d, buf, sizeof buf);
    CHECK_EQ(slip6_decode(&d, (const uint8_t *)"pB6TQpp004p", 11, collect, &got), 1);
    CHECK_EQ(got.n, 2);
    CHECK_EQ(got.reason[0], DROP_SLIP_OVERSIZE);
    CHECK_EQ(got.len[0], 2);
    CHECK_EQ(got.reason[1], DROP_NONE);
    CHECK_EQ(got.len[1], 2);
    CHECK_EQ(got.data[1][0], 0x00);
    CHECK_EQ(got.data[1][1], 0x01);
    CHECK_EQ(d.stats.drop_oversize, 1);
    /* The 'p' closing the dropped frame only resynchronises; the next 'p' is empty. */
    CHECK_EQ(d.stats.empty, 2);
}

static void test_chunked_decode(void)
{
    /* Two frames fed in every split position give the same two frames. */
    static const uint8_t a[] = { 0x45, 0x00, 0x00, 0x1C, 0xC0 };
    static const uint8_t b[] = { 0x70, 0x30, 0xDB };
    uint8_t wire[32], buf[16];
    struct slip6_decoder d;
    static struct collected got;
    int32_t na = slip6_encode(a, sizeof a, wire, sizeof wire, 1);
    int32_t nb = slip6_encode(b, sizeof b, wire + na, (uint16_t)(sizeof wire - (size_t)na), 0);
    uint16_t total = (uint16_t)(na + nb), cut;
    for (cut = 0; cut <= total; cut++) {
        memset(&got, 0, sizeof got);
        slip6_decoder_init(&d, buf, sizeof buf);
        slip6_decode(&d, wire, cut, collect, &got);
        slip6_decode(&d, wire + cut, (uint16_t)(total - cut), collect, &got);
        CHECK_EQ(got.n, 2);
        CHECK_EQ(got.len[0], sizeof a);
        CHECK_MEM(got.data[0], a, sizeof a);
        CHECK_EQ(got.len[1], sizeof b);
        CHECK_MEM(got.data[1], b, sizeof b);
    }
}

UNIT_MAIN(UNIT(test_known_vectors), UNIT(test_cap_too_small),
          UNIT(test_round_trip_all_lengths_all_values), UNIT(test_stream_encoder_in_pieces),
          UNIT(test_bad_char_drops_frame), UNIT(test_alphabet_boundaries), UNIT(test_trailing_bits),
          UNIT(test_oversize_then_next_frame), UNIT(test_chunked_decode))
