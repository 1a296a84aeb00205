/* SLIP framing, RFC 1055: a datagram on a serial line, ended by END.
 *
 * On the wire a frame is the datagram with two bytes replaced by two-byte sequences:
 *
 *     END (0xC0) in the data  ->  ESC ESC_END  (0xDB 0xDC)
 *     ESC (0xDB) in the data  ->  ESC ESC_ESC  (0xDB 0xDD)
 *
 * followed by one END. RFC 1055 ("SEND_PACKET") also sends an END *before* the datagram:
 * any line noise received since the last frame is then ended as a (bad) frame of its own
 * and thrown away by the receiver instead of being glued to the front of the next
 * datagram. Linux's slip_esc() always does it. The leading END is a flag here
 * (`leading_end`) because it costs one byte time per frame, and the byte counts of a
 * replay (the Arduino echo server sends none) depend on it.
 *
 * The decoder is a byte-at-a-time state machine over a buffer the caller owns, so it
 * works from a UART interrupt as well as on a whole capture. What it does with bad input:
 *
 *   - END END (an empty frame, normal after a leading END): ignored, counted in `empty`.
 *   - A frame longer than the buffer: dropped whole (DROP_SLIP_OVERSIZE), the rest of it
 *     skipped up to the next END, where decoding starts again.
 *   - ESC followed by anything but ESC_END / ESC_ESC: the frame is dropped
 *     (DROP_SLIP_BAD_ESCAPE) and skipped up to the next END. If the offending byte is END
 *     itself it also ends the frame, so the next frame is not lost.
 *     This is stricter than both RFC 1055, whose receive routine keeps the byte after a
 *     bad ESC ("the best bet seems to be to leave the byte alone"), and Linux's
 *     slip_unesc() (drivers/net/slip/slip.c), which stores the byte and leaves the escape
 *     pending. A bad escape means the line damaged the frame; neither SLIP nor CSLIP has
 *     a CRC, so dropping it here, with a reason the trace can show, is the most useful
 *     thing a teaching stack can do with it (IP or TCP checksums would catch most such
 *     frames a layer later). Linux also silently ignores frames of 1 or 2 bytes
 *     (sl_bump() needs rcount > 2); this decoder delivers them and leaves the verdict
 *     to IP.
 *
 * No state outside the structures the caller passes; no allocation.
 */
#ifndef STACK_SLIP_H
#define STACK_SLIP_H

#include <stdint.h>

#include "drop_reason.h"

#define SLIP_END     0xC0
#define SLIP_ESC     0xDB
#define SLIP_ESC_END 0xDC
#define SLIP_ESC_ESC 0xDD

/* Bytes needed in the worst case (every byte escaped) for a datagram of `len` bytes. */
#define SLIP_MAX_ENCODED(len) (2u * (uint32_t)(len) + 2u)

/* ---- encoder ---- */

/* Where the byte-at-a-time encoder sends each byte (a UART, a ring buffer, ...). */
typedef void (*slip_put_fn)(void *ctx, uint8_t b);

/* Length of the encoded frame for `in` (escapes, the final END, and the leading END if
 * `leading_end` is non-zero), without writing it. */
uint32_t slip_encoded_len(const uint8_t *in, uint16_t len, int leading_end);

/* Encodes one frame into out[0..cap). Returns its length, or ERR_BUF (nothing useful
 * written) if it does not fit. */
int32_t slip_encode(const uint8_t *in, uint16_t len, uint8_t *out, uint16_t cap, int leading_end);

/* The same frame, one byte at a time through `put`. */
void slip_encode_stream(const uint8_t *in, uint16_t len, int leading_end, slip_put_fn put,
                        void *ctx);

/* Pieces of the above, to send a frame that is not contiguous in memory (a CSLIP header
 * then the payload): slip_put_end() (optional leading END), slip_put_data() for each
 * piece, slip_put_end() to close the frame. */
void slip_put_data(const uint8_t *data, uint16_t len, slip_put_fn put, void *ctx);
void slip_put_end(slip_put_fn put, void *ctx);

/* ---- decoder ---- */

enum slip_result {
    SLIP_FRAME_NONE, /* byte taken, no frame finished */
    SLIP_FRAME_DONE, /* a frame is complete in d->buf[0..d->len) */
    SLIP_FRAME_ERROR /* the frame under way was dropped; why is in d->last_error */
};

struct slip_stats {
    uint32_t bytes;           /* bytes fed to the decoder (the wire) */
    uint32_t frames;          /* frames delivered */
    uint32_t frame_bytes;     /* bytes in the frames delivered (after unescaping) */
    uint32_t empty;           /* END END: ignored */
    uint32_t drop_oversize;   /* DROP_SLIP_OVERSIZE */
    uint32_t drop_bad_escape; /* DROP_SLIP_BAD_ESCAPE */
};

struct slip_decoder {
    uint8_t *buf;  /* the caller's buffer: the frame being received */
    uint16_t cap;  /* its size: the largest frame accepted */
    uint16_t len;  /* bytes of the current frame so far; after SLIP_FRAME_DONE, its length */
    uint8_t state; /* internal: in a frame, after ESC, skipping a dropped frame */
    enum drop_reason last_error; /* reason of the last SLIP_FRAME_ERROR, DROP_NONE before */
    struct slip_stats stats;
};

/* Starts a decoder on buf[0..cap). Clears the counters. */
void slip_decoder_init(struct slip_decoder *d, uint8_t *buf, uint16_t cap);

/* Feeds one byte from the line. After SLIP_FRAME_DONE the frame is d->buf[0..d->len),
 * valid until the next call. SLIP_FRAME_ERROR is returned once per dropped frame, at the
 * byte where the decoder saw the fault, with d->len = bytes received before it; the rest
 * of that frame is skipped quietly. */
enum slip_result slip_decode_byte(struct slip_decoder *d, uint8_t byte);

/* Called by slip_decode() for every finished frame (reason == DROP_NONE) and every
 * dropped one (frame == NULL, len == bytes received before the fault, reason set). A
 * delivered frame lives in the decoder's buffer: the callee may modify it in place (CSLIP
 * decompression) but must copy what it keeps. */
typedef void (*slip_frame_fn)(void *ctx, uint8_t *frame, uint16_t len, enum drop_reason reason);

/* Feeds n bytes; calls fn for every frame finished or dropped. Returns the number of
 * frames delivered. */
uint16_t slip_decode(struct slip_decoder *d, const uint8_t *bytes, uint16_t n, slip_frame_fn fn,
                     void *ctx);

#endif
