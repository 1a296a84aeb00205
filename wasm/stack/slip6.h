/* SLIP6: "printable SLIP", the 6-bit mode of Linux's SLIP driver (slattach -p slip6,
 * CONFIG_SLIP_MODE_SLIP6; slip_esc6() / slip_unesc6() in drivers/net/slip/slip.c, which
 * credits Matt Dillon, "borrowed from NET2E"). No RFC describes it; this module matches
 * that driver bit for bit on the wire.
 *
 * The mapping
 *   The datagram is read as one bit string, most significant bit of each byte first, and
 *   cut into 6-bit groups from the front. Each group g (0..63) is sent as the character
 *   0x30 + g, so the alphabet is the 64 characters 0x30..0x6F:
 *
 *       0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\]^_`abcdefghijklmno
 *
 *   Three bytes make four characters:
 *
 *       bytes  aaaaaaaa bbbbbbbb cccccccc
 *       groups aaaaaa aabbbb bbbbcc cccccc
 *
 *   If the length is not a multiple of 3, the last 2 or 4 bits are sent in one more
 *   character, padded on the right with zero bits (1 byte -> 2 characters, 2 -> 3).
 *   END is 'p' (0x70), just past the alphabet. Linux sends END before and after every
 *   frame; here the leading END is a flag as in slip.h. No escaping exists or is needed.
 *   A frame of n bytes costs ceil(8n/6) characters plus the ENDs: 6 data bits per 10-bit
 *   character on an 8N1 line, the 60% ceiling the CSLIP seed quotes for SLIP6.
 *
 *   Worked example: "Hi!" = 0x48 0x69 0x21 = 010010 000110 100100 100001
 *   = groups 18, 6, 36, 33 = characters 'B' '6' 'T' 'Q': on the wire "pB6TQp".
 *
 * The decoder, and where it differs from Linux's slip_unesc6()
 *   - Every character in the alphabet adds 6 bits; each time 8 are collected a byte is
 *     stored. At END, the 0, 2 or 4 bits left over are the encoder's padding and are
 *     ignored, as Linux ignores them (their value is not checked either: Linux never
 *     looks at it).
 *   - 6 bits left over at END mean a whole character too many, which no encoder
 *     produces (a character was inserted or a byte's worth lost): the frame is dropped
 *     as DROP_SLIP6_TRAILING_BITS. Linux delivers such a frame.
 *   - A character outside 0x30..0x70 drops the frame (DROP_SLIP6_BAD_CHAR) and the
 *     decoder skips to the next END. Linux skips the character alone and keeps decoding,
 *     which shifts every later bit; the result would fail IP's checksum anyway, so here
 *     the damage is reported where it happened.
 *   - Empty frames are ignored; a frame longer than the buffer is dropped whole
 *     (DROP_SLIP_OVERSIZE) and skipped to the next END; same as slip.h.
 *   - Linux ignores frames of 1 or 2 bytes; this decoder delivers them.
 */
#ifndef STACK_SLIP6_H
#define STACK_SLIP6_H

#include <stdint.h>

#include "drop_reason.h"
#include "slip.h" /* enum slip_result, slip_put_fn, slip_frame_fn */

#define SLIP6_END  0x70 /* 'p' */
#define SLIP6_BASE 0x30 /* '0': the character for the 6-bit group 0 */

/* Characters of a frame of `len` bytes: ceil(8 len / 6) + the final END + the leading
 * END if asked for. */
uint32_t slip6_encoded_len(uint16_t len, int leading_end);

/* Encodes one frame into out[0..cap). Returns its length or ERR_BUF if it does not fit. */
int32_t slip6_encode(const uint8_t *in, uint16_t len, uint8_t *out, uint16_t cap, int leading_end);

/* Byte-at-a-time encoder, for a frame sent in pieces (CSLIP header, then payload). The
 * bits of a partial group are carried from one piece to the next. */
struct slip6_encoder {
    uint16_t acc; /* bits not yet sent, in the low `bits` bits */
    uint8_t bits; /* 0, 2 or 4 between bytes */
};

/* Starts a frame: clears the carried bits and sends the leading END if asked for. */
void slip6_put_begin(struct slip6_encoder *e, int leading_end, slip_put_fn put, void *ctx);
void slip6_put_data(struct slip6_encoder *e, const uint8_t *data, uint16_t len, slip_put_fn put,
                    void *ctx);
/* Sends the padded last group, if any, and END. */
void slip6_put_end(struct slip6_encoder *e, slip_put_fn put, void *ctx);

/* A whole frame through `put`. */
void slip6_encode_stream(const uint8_t *in, uint16_t len, int leading_end, slip_put_fn put,
                         void *ctx);

struct slip6_stats {
    uint32_t bytes;              /* characters fed to the decoder */
    uint32_t frames;             /* frames delivered */
    uint32_t frame_bytes;        /* bytes in the frames delivered */
    uint32_t empty;              /* END END: ignored */
    uint32_t drop_oversize;      /* DROP_SLIP_OVERSIZE */
    uint32_t drop_bad_char;      /* DROP_SLIP6_BAD_CHAR */
    uint32_t drop_trailing_bits; /* DROP_SLIP6_TRAILING_BITS */
};

struct slip6_decoder {
    uint8_t *buf; /* the caller's buffer */
    uint16_t cap;
    uint16_t len;  /* bytes of the current frame; after SLIP_FRAME_DONE its length; after
                       SLIP_FRAME_ERROR the bytes received before the fault */
    uint16_t acc;  /* bits not yet making a byte, in the low `bits` bits */
    uint8_t bits;  /* 0..6 */
    uint8_t state; /* internal */
    enum drop_reason last_error;
    struct slip6_stats stats;
};

void slip6_decoder_init(struct slip6_decoder *d, uint8_t *buf, uint16_t cap);

/* Same contract as slip_decode_byte(). */
enum slip_result slip6_decode_byte(struct slip6_decoder *d, uint8_t c);

/* Same contract as slip_decode(). */
uint16_t slip6_decode(struct slip6_decoder *d, const uint8_t *chars, uint16_t n, slip_frame_fn fn,
                      void *ctx);

#endif
