/* SLIP6, the 6-bit printable SLIP of Linux's driver. slip6.h has the mapping and the
 * decoder's choices. */
#include "slip6.h"

#include <stddef.h>

#include "stack_err.h"

enum {
    SLIP6_ST_DATA,
    SLIP6_ST_DISCARD, /* frame dropped: skip to the next END */
    SLIP6_ST_RESTART  /* a frame just ended; len still describes it */
};

/* ---- encoder ---- */

uint32_t slip6_encoded_len(uint16_t len, int leading_end)
{
    uint32_t chars = ((uint32_t)len * 8u + 5u) / 6u;
    return chars + 1u + (leading_end ? 1u : 0u);
}

void slip6_put_begin(struct slip6_encoder *e, int leading_end, slip_put_fn put, void *ctx)
{
    e->acc = 0;
    e->bits = 0;
    if (leading_end)
        put(ctx, SLIP6_END);
}

void slip6_put_data(struct slip6_encoder *e, const uint8_t *data, uint16_t len, slip_put_fn put,
                    void *ctx)
{
    uint16_t i;
    for (i = 0; i < len; i++) {
        /* At most 4 bits are carried, so 12 fit in acc after the shift. */
        e->acc = (uint16_t)((e->acc << 8) | data[i]);
        e->bits = (uint8_t)(e->bits + 8u);
        while (e->bits >= 6) {
            e->bits = (uint8_t)(e->bits - 6u);
            put(ctx, (uint8_t)(SLIP6_BASE + ((e->acc >> e->bits) & 0x3Fu)));
        }
        e->acc &= (uint16_t)((1u << e->bits) - 1u);
    }
}

void slip6_put_end(struct slip6_encoder *e, slip_put_fn put, void *ctx)
{
    if (e->bits) {
        /* The last 2 or 4 bits, padded on the right with zeros, as slip_esc6() does. */
        put(ctx, (uint8_t)(SLIP6_BASE + ((e->acc << (6u - e->bits)) & 0x3Fu)));
        e->bits = 0;
        e->acc = 0;
    }
    put(ctx, SLIP6_END);
}

void slip6_encode_stream(const uint8_t *in, uint16_t len, int leading_end, slip_put_fn put,
                         void *ctx)
{
    struct slip6_encoder e;
    slip6_put_begin(&e, leading_end, put, ctx);
    slip6_put_data(&e, in, len, put, ctx);
    slip6_put_end(&e, put, ctx);
}

/* slip6_encode() writes through the stream encoder into a buffer. */
struct slip6_buf {
    uint8_t *out;
    uint16_t n;
};

static void slip6_buf_put(void *ctx, uint8_t c)
{
    struct slip6_buf *b = (struct slip6_buf *)ctx;
    b->out[b->n++] = c;
}

int32_t slip6_encode(const uint8_t *in, uint16_t len, uint8_t *out, uint16_t cap, int leading_end)
{
    struct slip6_buf b;
    if (slip6_encoded_len(len, leading_end) > cap)
        return ERR_BUF;
    b.out = out;
    b.n = 0;
    slip6_encode_stream(in, len, leading_end, slip6_buf_put, &b);
    return (int32_t)b.n;
}

/* ---- decoder ---- */

void slip6_decoder_init(struct slip6_decoder *d, uint8_t *buf, uint16_t cap)
{
    d->buf = buf;
    d->cap = cap;
    d->len = 0;
    d->acc = 0;
    d->bits = 0;
    d->state = SLIP6_ST_DATA;
    d->last_error = DROP_NONE;
    d->stats.bytes = 0;
    d->stats.frames = 0;
    d->stats.frame_bytes = 0;
    d->stats.empty = 0;
    d->stats.drop_oversize = 0;
    d->stats.drop_bad_char = 0;
    d->stats.drop_trailing_bits = 0;
}

static void slip6_reset(struct slip6_decoder *d)
{
    d->len = 0;
    d->acc = 0;
    d->bits = 0;
    d->state = SLIP6_ST_DATA;
}

static enum slip_result slip6_drop(struct slip6_decoder *d, enum drop_reason reason, int skip)
{
    d->last_error = reason;
    if (reason == DROP_SLIP_OVERSIZE)
        d->stats.drop_oversize++;
    else if (reason == DROP_SLIP6_BAD_CHAR)
        d->stats.drop_bad_char++;
    else
        d->stats.drop_trailing_bits++;
    d->state = skip ? SLIP6_ST_DISCARD : SLIP6_ST_RESTART;
    return SLIP_FRAME_ERROR;
}

enum slip_result slip6_decode_byte(struct slip6_decoder *d, uint8_t c)
{
    d->stats.bytes++;

    if (d->state == SLIP6_ST_RESTART)
        slip6_reset(d);

    if (d->state == SLIP6_ST_DISCARD) {
        if (c == SLIP6_END)
            slip6_reset(d);
        return SLIP_FRAME_NONE;
    }

    if (c == SLIP6_END) {
        if (d->bits >= 6) {
            /* A whole spare character: no encoder sends one (see slip6.h). */
            return slip6_drop(d, DROP_SLIP6_TRAILING_BITS, 0);
        }
        if (d->len == 0) {
            d->stats.empty++;
            slip6_reset(d);
            return SLIP_FRAME_NONE;
        }
        d->stats.frames++;
        d->stats.frame_bytes += d->len;
        d->state = SLIP6_ST_RESTART;
        return SLIP_FRAME_DONE;
    }

    if (c < SLIP6_BASE || c >= SLIP6_END)
        return slip6_drop(d, DROP_SLIP6_BAD_CHAR, 1);

    /* bits <= 6 here, so acc < 64 and the shifted value fits in 12 bits. */
    d->acc = (uint16_t)((d->acc << 6) | (uint16_t)(c - SLIP6_BASE));
    d->bits = (uint8_t)(d->bits + 6u);
    if (d->bits >= 8) {
        d->bits = (uint8_t)(d->bits - 8u);
        if (d->len >= d->cap)
            return slip6_drop(d, DROP_SLIP_OVERSIZE, 1);
        d->buf[d->len++] = (uint8_t)(d->acc >> d->bits);
        d->acc &= (uint16_t)((1u << d->bits) - 1u);
    }
    return SLIP_FRAME_NONE;
}

uint16_t slip6_decode(struct slip6_decoder *d, const uint8_t *chars, uint16_t n, slip_frame_fn fn,
                      void *ctx)
{
    uint16_t i, frames = 0;
    for (i = 0; i < n; i++) {
        enum slip_result r = slip6_decode_byte(d, chars[i]);
        if (r == SLIP_FRAME_DONE) {
            frames++;
            if (fn)
                fn(ctx, d->buf, d->len, DROP_NONE);
        } else if (r == SLIP_FRAME_ERROR) {
            if (fn)
                fn(ctx, NULL, d->len, d->last_error);
        }
    }
    return frames;
}
