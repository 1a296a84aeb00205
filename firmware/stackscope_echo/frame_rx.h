/* Frames from the UART into the stack's one datagram buffer, also while the board sends.
 *
 * The line is full duplex: while the board sends a 576-byte answer (108 ms), as much can
 * arrive. The seed kept 1024 bytes of raw SLIP for that; here there is no room for it (the
 * table of 50 connections takes 750 bytes). Instead, what arrives is decoded into the
 * datagram buffer itself, wherever the answer leaving from it is not:
 *
 *   - into the part of the answer already sent. An answer leaves front to back and the
 *     bytes arrive no faster than its bytes leave (one byte time each, both ways), so a
 *     frame that starts at the front of the buffer follows just behind the answer;
 *   - behind the frame being answered, when more arrived while it was being worked on
 *     (short frames, a pure ACK, come in whole while a long answer leaves): up to
 *     FRAME_RX_HELD whole frames wait there, in order, and move to the front as each
 *     answer before them has left; a frame still arriving behind a frame taken moves to
 *     the front even before (frame_rx.c: rotate, move_up), so that it does not stop at
 *     the end of the buffer.
 *
 * What cannot be decoded at once (the board is working on a frame, or the frame coming in
 * is ahead of the answer leaving) waits in the UART's ring (ECHO_RX_RING). A burst of short
 * frames that each need an answer (zero-window probes, tcp_responder.h: turns) can hold the
 * frame coming in behind them at the buffer's end for longer than the ring lasts: each
 * answer takes as long to leave as its frame took to come. Then the last frame waiting is
 * given up, as if lost on the line, so that the frame coming in is not (frame_rx.c).
 *
 * That is sound because every datagram gets at most one answer, built over it from the
 * front of the buffer (the TCP responder and ICMP echo, tcp_responder.h, icmp.c; UDP,
 * fragments and ICMP errors are off, echo_config.c), and nothing of the request is read
 * once its answer is leaving. An answer is never longer than its request but for a SYN-ACK
 * to a SYN without options, by its 4-byte MSS option: FRAME_RX_SLACK.
 *
 * Decoding is the stack's (slip.h), with its rules for bad input: a frame longer than the
 * MTU, or with ESC followed by anything but ESC_END or ESC_ESC, is dropped up to the next
 * END. Its decoder only ever sees a frame's place in the buffer (dec.buf). */
#ifndef FRAME_RX_H
#define FRAME_RX_H

#include <stdint.h>

#include "src/stack/slip.h"

#define FRAME_RX_HELD       16 /* whole frames waiting behind the one being answered */
#define FRAME_RX_RING_SPARE 4  /* the ring this close to full: a frame waiting is given up */
#define FRAME_RX_SLACK      4  /* after each: what its answer may grow (a SYN-ACK's MSS option) */
/* A frame taken away from the front is answered where it lies, in its own bytes and
 * slack, only if its answer cannot outgrow it: the stack builds a SYN-ACK to a SYN without
 * options (40 bytes) in the datagram buffer's first bytes (tcp_responder.h), and a frame of
 * 44 bytes or more holds any SYN-ACK. */
#define FRAME_RX_ROTATE_MIN (40 + FRAME_RX_SLACK)

struct frame_rx {
    uint8_t *buf;                 /* the datagram buffer, ECHO_MTU bytes */
    uint16_t shift;               /* the frame being answered and its slack: the frames
                                     behind it move down this much once its answer left */
    uint16_t held[FRAME_RX_HELD]; /* lengths of the whole frames waiting, in order from
                                     buf + shift, each followed by FRAME_RX_SLACK bytes */
    uint8_t n_held;
    uint16_t at;             /* where the frame being received starts: dec.buf */
    uint16_t taken_at;       /* where the frame taken lies (not at the front once rotated) */
    struct slip_decoder dec; /* the frame being received, ECHO_MTU bytes at most */
    uint16_t last_byte_ms;   /* when a byte last came (millis(), wraps) */
};

/* Decodes into buf[0 .. ECHO_MTU). */
void frame_rx_init(struct frame_rx *f, uint8_t *buf);

/* Decodes what the UART ring holds, writing nothing into unsent[0 .. left) (the part of an
 * answer not sent yet; left 0 when none is leaving), while there is room. Returns the
 * number of bytes taken from the ring. */
uint16_t frame_rx_pump(struct frame_rx *f, const uint8_t *unsent, uint16_t left);

/* The first whole frame: its length (0: none) and where it lies, at the front of the
 * buffer or, when a frame was arriving behind it, behind that one (rotated: see
 * frame_rx.c). It is the caller's until frame_rx_release(). */
uint16_t frame_rx_take(struct frame_rx *f, uint8_t **frame);

/* The frame taken has been answered (or needed no answer): what came in behind it moves
 * to the front. */
void frame_rx_release(struct frame_rx *f);

/* Gives up a frame whose bytes stopped coming ECHO_FRAME_TIMEOUT_MS ago: what follows, if
 * anything, is a frame of its own (and fails IP's checks if it was the rest). */
void frame_rx_expire(struct frame_rx *f);

#endif
