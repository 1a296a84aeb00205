/* Frames from the UART into the datagram buffer (frame_rx.h). */
#include "frame_rx.h"

#include <string.h>

#include "echo_config.h"
#include "serial_link.h"

#include <Arduino.h> /* millis(); last, so its min/max macros touch none of the above */

/* The decoder starts a frame at buf + at. */
static void restart(struct frame_rx *f)
{
    slip_decoder_init(&f->dec, f->buf + f->at, ECHO_MTU);
}

void frame_rx_init(struct frame_rx *f, uint8_t *buf)
{
    memset(f, 0, sizeof *f);
    f->buf = buf;
    restart(f);
}

/* May the next byte be decoded? It stores at most one byte, at buf[at + dec.len]: that
 * place must be in the buffer and not in the answer leaving (unsent[0 .. left)); and a
 * frame's end must find a place among the frames waiting. A frame of the MTU's size
 * stores nothing more: its next byte ends it or drops it. */
static uint8_t room(const struct frame_rx *f, const uint8_t *unsent, uint16_t left)
{
    uint16_t p = (uint16_t)(f->at + f->dec.len), from;
    if (f->n_held == FRAME_RX_HELD)
        return 0;
    if (f->dec.len >= f->dec.cap)
        return 1;
    if (p >= ECHO_MTU)
        return 0;
    from = (uint16_t)(unsent - f->buf);
    return left == 0 || p < from || p >= from + left;
}

/* A whole frame joins the ones waiting; the next starts behind it and its slack. */
static void hold(struct frame_rx *f)
{
    f->held[f->n_held++] = f->dec.len;
    f->at = (uint16_t)(f->at + f->dec.len + FRAME_RX_SLACK);
    restart(f);
}

/* What waits behind the frame being answered: up to the end of the frame under way (the
 * slack of a frame that ends the buffer holds nothing). */
static uint16_t waiting_end(const struct frame_rx *f)
{
    uint16_t end = (uint16_t)(f->at + f->dec.len);
    return end > ECHO_MTU ? ECHO_MTU : end;
}

/* Moves what waits behind the frame being answered to the front, into the part of the
 * answer already sent, as soon as that part can hold it. Left behind the answer, the frame
 * under way could grow no further than the end of the buffer, and would stop there until
 * the whole answer had left (a short frame after a long one, then a long one: the UART's
 * ring overflowed). At the front it follows the answer out. The answer is no longer than
 * its frame and slack (frame_rx.h), so nothing it has still to send is moved over. */
static void move_up(struct frame_rx *f, const uint8_t *unsent, uint16_t left)
{
    uint16_t n;
    if (f->shift == 0)
        return;
    n = (uint16_t)(waiting_end(f) - f->shift);
    if (left && n > (uint16_t)(unsent - f->buf))
        return; /* left 0: the answer has left (or leaves from elsewhere) */
    memmove(f->buf, f->buf + f->shift, n);
    f->at = (uint16_t)(f->at - f->shift);
    f->dec.buf = f->buf + f->at;
    f->shift = 0;
}

/* For looking in (stackscope-simavr --peek frames_given_up), as serial_link.c's
 * rx_overruns: frames given up for the one under way (give_up_last). */
static volatile uint16_t frames_given_up;

/* The frame under way has reached the end of the buffer behind whole frames waiting, and
 * the UART's ring is about to overflow: the bytes it would lose belong to the frame under
 * way, a segment of data more often than not, whose loss costs its sender a timeout. The
 * last frame waiting is given up instead, as if lost on the line (short frames come in
 * bursts from the peer's queue, and each one answered frees no more room than its answer
 * takes to leave), and the frame under way moves back over it. */
static uint8_t give_up_last(struct frame_rx *f)
{
    uint16_t gone;
    if (f->n_held == 0 || f->dec.len >= f->dec.cap || f->at + f->dec.len < ECHO_MTU ||
        serial_link_waiting() < ECHO_RX_RING - FRAME_RX_RING_SPARE)
        return 0;
    gone = (uint16_t)(f->held[--f->n_held] + FRAME_RX_SLACK);
    memmove(f->buf + f->at - gone, f->buf + f->at, f->dec.len);
    f->at = (uint16_t)(f->at - gone);
    f->dec.buf = f->buf + f->at;
    frames_given_up++;
    return 1;
}

uint16_t frame_rx_pump(struct frame_rx *f, const uint8_t *unsent, uint16_t left)
{
    uint16_t taken = 0;
    uint8_t b;
    move_up(f, unsent, left);
    do {
        while (room(f, unsent, left) && serial_link_read(&b)) {
            taken++;
            if (slip_decode_byte(&f->dec, b) == SLIP_FRAME_DONE)
                hold(f);
        }
    } while (give_up_last(f));
    if (taken)
        f->last_byte_ms = (uint16_t)millis();
    return taken;
}

/* Reverses buf[from .. to). */
static void reverse(uint8_t *buf, uint16_t from, uint16_t to)
{
    while (from + 1u < to) {
        uint8_t t = buf[from];
        buf[from++] = buf[--to];
        buf[to] = t;
    }
}

/* The frame taken, with its slack, and the frame under way behind it swap places: the
 * frame under way to the front, where it follows the answer out instead of stopping at the
 * end of the buffer (a short frame taken, a long one arriving: the ring overran by what the
 * long one could not store before the short one's answer had left). Three reversals turn
 * buf[0 .. end) in place, with no room of its own. */
static void rotate(struct frame_rx *f)
{
    uint16_t end = waiting_end(f);
    reverse(f->buf, 0, f->shift);
    reverse(f->buf, f->shift, end);
    reverse(f->buf, 0, end);
    f->taken_at = (uint16_t)(end - f->shift);
    f->at = 0;
    f->dec.buf = f->buf;
    f->shift = 0;
}

uint16_t frame_rx_take(struct frame_rx *f, uint8_t **frame)
{
    uint16_t n;
    if (f->n_held == 0)
        return 0;
    n = f->held[0];
    f->n_held--;
    memmove(f->held, f->held + 1, f->n_held * sizeof f->held[0]);
    f->shift = (uint16_t)(n + FRAME_RX_SLACK);
    f->taken_at = 0;
    if (f->n_held == 0 && f->dec.len == 0) {
        /* Nothing behind it: the next frame starts at the front, behind the answer. */
        f->at = 0;
        f->dec.buf = f->buf;
        f->shift = 0;
    } else if (f->n_held == 0 && n >= FRAME_RX_ROTATE_MIN) {
        rotate(f);
    }
    *frame = f->buf + f->taken_at;
    return n;
}

void frame_rx_release(struct frame_rx *f)
{
    if (f->shift == 0)
        return; /* nothing waited, or it moved up while the answer left */
    memmove(f->buf, f->buf + f->shift, (size_t)(waiting_end(f) - f->shift));
    f->at = (uint16_t)(f->at - f->shift);
    f->dec.buf = f->buf + f->at;
    f->shift = 0;
}

void frame_rx_expire(struct frame_rx *f)
{
    if (f->dec.len > 0 && (uint16_t)((uint16_t)millis() - f->last_byte_ms) >= ECHO_FRAME_TIMEOUT_MS)
        restart(f);
}
