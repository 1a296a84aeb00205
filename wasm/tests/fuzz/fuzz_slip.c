/* libFuzzer target: the SLIP and SLIP6 stream decoders.
 *
 * The first input byte picks the decoder and the buffer size; the rest is the line. Every
 * delivered frame must survive encode -> decode unchanged (a property, not only "does not
 * crash"), and the counters must add up.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "slip.h"
#include "slip6.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct roundtrip {
    uint8_t buf[1200];
    uint16_t cap;
    uint32_t frames;
};

static void check_roundtrip(void *ctx, uint8_t *frame, uint16_t len, enum drop_reason reason)
{
    struct roundtrip *r = ctx;
    uint8_t enc[2 * 1200 + 2];
    uint8_t dec_buf[1200];
    struct slip_decoder d;
    int32_t n;
    int32_t i;
    int got = 0;

    if (reason != DROP_NONE)
        return;
    r->frames++;
    n = slip_encode(frame, len, enc, sizeof enc, 1);
    if (n < 0)
        abort();
    slip_decoder_init(&d, dec_buf, r->cap);
    for (i = 0; i < n; i++) {
        if (slip_decode_byte(&d, enc[i]) == SLIP_FRAME_DONE) {
            if (d.len != len || memcmp(d.buf, frame, len) != 0)
                abort();
            got++;
        }
    }
    if (got != 1)
        abort();
}

static void fuzz_slip(const uint8_t *line, size_t n, uint16_t cap)
{
    struct roundtrip r;
    struct slip_decoder d;
    memset(&r, 0, sizeof r);
    r.cap = cap;
    slip_decoder_init(&d, r.buf, cap);
    while (n > 0) {
        uint16_t chunk = n > 4096 ? 4096 : (uint16_t)n;
        slip_decode(&d, line, chunk, check_roundtrip, &r);
        line += chunk;
        n -= chunk;
    }
    if (d.stats.frames != r.frames)
        abort();
}

static void fuzz_slip6(const uint8_t *line, size_t n, uint16_t cap)
{
    uint8_t buf[1200];
    uint8_t enc[1700];
    struct slip6_decoder d;
    size_t i;
    slip6_decoder_init(&d, buf, cap);
    for (i = 0; i < n; i++) {
        if (slip6_decode_byte(&d, line[i]) == SLIP_FRAME_DONE) {
            /* Re-encoding a decoded frame and decoding it again gives it back. */
            uint8_t copy[1200];
            uint16_t len = d.len;
            struct slip6_decoder d2;
            uint8_t buf2[1200];
            int32_t m, j;
            int got = 0;
            memcpy(copy, d.buf, len);
            m = slip6_encode(copy, len, enc, sizeof enc, 1);
            if (m < 0)
                abort();
            slip6_decoder_init(&d2, buf2, cap);
            for (j = 0; j < m; j++)
                if (slip6_decode_byte(&d2, enc[j]) == SLIP_FRAME_DONE) {
                    if (d2.len != len || memcmp(d2.buf, copy, len) != 0)
                        abort();
                    got++;
                }
            if (got != 1)
                abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint16_t cap;
    if (size < 1)
        return 0;
    /* Buffer sizes from a tiny 16 bytes up to 1024, as the Arduino's SLIP buffer. */
    cap = (uint16_t)(16u + (data[0] & 0x7Fu) * 8u);
    if (data[0] & 0x80)
        fuzz_slip6(data + 1, size - 1, cap);
    else
        fuzz_slip(data + 1, size - 1, cap);
    return 0;
}
