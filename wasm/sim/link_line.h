/* What the link models (link_serial.h, link_nfc.h) share: directions, the record of one
 * datagram's passage (what a capture tap and the trace need), and the exact clock of a
 * byte-serial line.
 *
 * Simulator time is a uint64_t count of microseconds from the start of the run; it never
 * wraps (the stack's wrapping 32-bit clock, stack_time.h, is derived from it per host).
 */
#ifndef SIM_LINK_LINE_H
#define SIM_LINK_LINE_H

#include <stdint.h>

#include "drop_reason.h"

#define LINK_DIR_AB     0 /* sent by end A, received by end B */
#define LINK_DIR_BA     1
#define LINK_TIME_NEVER UINT64_MAX

enum link_fate {
    LINK_FATE_DELIVERED, /* data[0..len) reached the receiver at `time` */
    LINK_FATE_DROPPED,   /* lost at `time`; `reason` says why, data is the datagram sent */
    LINK_FATE_UNFINISHED /* serial: the frame's END never arrived (damaged on the line);
                             its bytes run into the next frame, which then fails */
};

/* One datagram's passage, handed out by link_serial_take() / link_nfc_take(). The
 * pointers are into the link's storage and stay valid until the next call on the link. */
struct link_delivery {
    uint32_t tag;            /* the caller's id, given at submit */
    uint8_t dir;             /* LINK_DIR_* */
    uint8_t fate;            /* enum link_fate */
    enum drop_reason reason; /* DROP_NONE when delivered */
    uint8_t *data; /* the datagram as the receiver got it (or as sent, if lost): the receiver
                    * may change it in place, the link never reads these bytes again */
    uint16_t len;
    const uint8_t *wire; /* the bytes on the line with framing; NULL if not modelled */
    uint32_t wire_len;   /* bytes on the line, framing included */
    uint64_t submitted;  /* when the sender handed it to the link */
    uint64_t wire_start; /* first bit on the line (serial) / first byte on the UART (nfc) */
    uint64_t wire_end;   /* last bit on the line / end of the last NFC slot used */
    uint64_t time;       /* delivery (or drop) instant */
    /* NFC only (0 on serial): slots used and the start of the first one. */
    uint16_t slots;
    uint64_t first_slot;
};

/* A byte-serial line (UART): characters of `bits_per_char` bits at `baud` bits/s, back to
 * back while there is something to send.
 *
 * Rounding: a character's bits take a fractional number of microseconds (86 bytes of
 * 8N1 at 57600 baud = 14930.56 us). Times are counted from the start of the current busy
 * period (`epoch`) in bits, and converted once, rounding up (a receiver has a byte only
 * once its stop bit is over): end = epoch + ceil(bits * 10^6 / baud). Frames sent back to
 * back therefore never drift (the error stays under 1 us however many are sent), and each
 * frame starts exactly where the previous one ended. When the line falls idle the next
 * frame opens a new busy period at its own (whole-microsecond) start time. */
struct link_line {
    uint64_t epoch;   /* start of the current busy period */
    uint64_t bits;    /* bits sent since epoch */
    uint64_t free_at; /* end of the last character sent */
};

static inline uint64_t link_line_bits_us(uint64_t bits, uint32_t baud)
{
    return (bits * 1000000u + baud - 1u) / baud;
}

/* Sends `bytes` characters, not before t. Returns the end of the last one; *start gets
 * the start of the first. */
static inline uint64_t link_line_send(struct link_line *ln, uint64_t t, uint32_t bytes,
                                      uint8_t bits_per_char, uint32_t baud, uint64_t *start)
{
    if (t >= ln->free_at) {
        ln->epoch = t;
        ln->bits = 0;
    }
    *start = ln->epoch + link_line_bits_us(ln->bits, baud);
    ln->bits += (uint64_t)bytes * bits_per_char;
    ln->free_at = ln->epoch + link_line_bits_us(ln->bits, baud);
    return ln->free_at;
}

#endif
