/* SLIP, RFC 1055. See slip.h for the framing and for what the decoder does with bad
 * input. */
#include "slip.h"

#include <stddef.h>

#include "stack_err.h"

/* Decoder states. */
enum {
    SLIP_ST_DATA,    /* inside a frame (or between frames, len == 0) */
    SLIP_ST_ESC,     /* the previous byte was ESC */
    SLIP_ST_DISCARD, /* the frame was dropped: skip to the next END */
    SLIP_ST_RESTART  /* a frame just ended (delivered, or dropped at its END): len still
                        describes it; the next byte starts a new one */
};

/* ---- encoder ---- */

uint32_t slip_encoded_len(const uint8_t *in, uint16_t len, int leading_end)
{
    uint32_t n = (uint32_t)len + 1u + (leading_end ? 1u : 0u);
    uint16_t i;
    for (i = 0; i < len; i++) {
        if (in[i] == SLIP_END || in[i] == SLIP_ESC)
            n++;
    }
    return n;
}

int32_t slip_encode(const uint8_t *in, uint16_t len, uint8_t *out, uint16_t cap, int leading_end)
{
    uint16_t i, o = 0;
    if (slip_encoded_len(in, len, leading_end) > cap)
        return ERR_BUF;
    /* RFC 1055 SEND_PACKET: an END first flushes whatever noise the receiver collected. */
    if (leading_end)
        out[o++] = SLIP_END;
    for (i = 0; i < len; i++) {
        uint8_t b = in[i];
        if (b == SLIP_END) {
            out[o++] = SLIP_ESC;
            out[o++] = SLIP_ESC_END;
        } else if (b == SLIP_ESC) {
            out[o++] = SLIP_ESC;
            out[o++] = SLIP_ESC_ESC;
        } else {
            out[o++] = b;
        }
    }
    out[o++] = SLIP_END;
    return (int32_t)o;
}

void slip_put_data(const uint8_t *data, uint16_t len, slip_put_fn put, void *ctx)
{
    uint16_t i;
    for (i = 0; i < len; i++) {
        uint8_t b = data[i];
        if (b == SLIP_END) {
            put(ctx, SLIP_ESC);
            put(ctx, SLIP_ESC_END);
        } else if (b == SLIP_ESC) {
            put(ctx, SLIP_ESC);
            put(ctx, SLIP_ESC_ESC);
        } else {
            put(ctx, b);
        }
    }
}

void slip_put_end(slip_put_fn put, void *ctx)
{
    put(ctx, SLIP_END);
}

void slip_encode_stream(const uint8_t *in, uint16_t len, int leading_end, slip_put_fn put,
                        void *ctx)
{
    if (leading_end)
        slip_put_end(put, ctx);
    slip_put_data(in, len, put, ctx);
    slip_put_end(put, ctx);
}

/* ---- decoder ---- */

void slip_decoder_init(struct slip_decoder *d, uint8_t *buf, uint16_t cap)
{
    d->buf = buf;
    d->cap = cap;
    d->len = 0;
    d->state = SLIP_ST_DATA;
    d->last_error = DROP_NONE;
    d->stats.bytes = 0;
    d->stats.frames = 0;
    d->stats.frame_bytes = 0;
    d->stats.empty = 0;
    d->stats.drop_oversize = 0;
    d->stats.drop_bad_escape = 0;
}

/* Drops the frame under way; `skip` says whether the rest of it is still to come (skip
 * to the next END) or the fault was at its END (start afresh with the next byte). len is
 * left as the number of bytes received before the fault. */
static enum slip_result slip_drop(struct slip_decoder *d, enum drop_reason reason, int skip)
{
    d->last_error = reason;
    if (reason == DROP_SLIP_OVERSIZE)
        d->stats.drop_oversize++;
    else
        d->stats.drop_bad_escape++;
    d->state = skip ? SLIP_ST_DISCARD : SLIP_ST_RESTART;
    return SLIP_FRAME_ERROR;
}

/* Appends one decoded byte, or drops the frame if the buffer is full. */
static enum slip_result slip_store(struct slip_decoder *d, uint8_t b)
{
    if (d->len >= d->cap)
        return slip_drop(d, DROP_SLIP_OVERSIZE, 1);
    d->buf[d->len++] = b;
    return SLIP_FRAME_NONE;
}

enum slip_result slip_decode_byte(struct slip_decoder *d, uint8_t byte)
{
    d->stats.bytes++;

    if (d->state == SLIP_ST_RESTART) {
        d->state = SLIP_ST_DATA;
        d->len = 0;
    }

    if (d->state == SLIP_ST_DISCARD) {
        /* The dropped frame was counted when the fault was seen; resynchronise at END. */
        if (byte == SLIP_END) {
            d->state = SLIP_ST_DATA;
            d->len = 0;
        }
        return SLIP_FRAME_NONE;
    }

    if (d->state == SLIP_ST_ESC) {
        d->state = SLIP_ST_DATA;
        if (byte == SLIP_ESC_END)
            return slip_store(d, SLIP_END);
        if (byte == SLIP_ESC_ESC)
            return slip_store(d, SLIP_ESC);
        /* ESC then anything else: the line damaged the frame (see slip.h). An END here
         * still ends the frame, so decoding restarts right after it. */
        return slip_drop(d, DROP_SLIP_BAD_ESCAPE, byte != SLIP_END);
    }

    /* SLIP_ST_DATA */
    if (byte == SLIP_END) {
        if (d->len == 0) {
            /* END END: an empty frame, the normal result of a leading END. */
            d->stats.empty++;
            return SLIP_FRAME_NONE;
        }
        d->stats.frames++;
        d->stats.frame_bytes += d->len;
        /* len stays for the caller; the next byte starts a new frame. */
        d->state = SLIP_ST_RESTART;
        return SLIP_FRAME_DONE;
    }
    if (byte == SLIP_ESC) {
        d->state = SLIP_ST_ESC;
        return SLIP_FRAME_NONE;
    }
    return slip_store(d, byte);
}

uint16_t slip_decode(struct slip_decoder *d, const uint8_t *bytes, uint16_t n, slip_frame_fn fn,
                     void *ctx)
{
    uint16_t i, frames = 0;
    for (i = 0; i < n; i++) {
        enum slip_result r = slip_decode_byte(d, bytes[i]);
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
