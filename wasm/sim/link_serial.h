/* A serial line between two hosts: the timing model of wasm/sim (DESIGN.md, "The
 * simulator"; issue 4).
 *
 *   - Full duplex: each direction has its own transmitter, queue and receiver.
 *   - The line carries characters of `bits_per_char` bits (8N1 = 10) at `baud`; a frame
 *     takes wire_len x bits_per_char / baud, exact to the microsecond (link_line.h).
 *   - Framing is the stack's own code, not a copy: SLIP (slip_encode, RFC 1055), CSLIP
 *     (vj_compress, RFC 1144, then SLIP) or SLIP6 (slip6_encode). The receiver decodes the
 *     wire bytes with slip_decoder / slip6_decoder and, for CSLIP, vj_decompress: a
 *     compressed header really travels compressed and is really rebuilt.
 *   - A transmit queue per direction limited to `qlen` frames waiting behind the one on
 *     the line, as Linux's txqueuelen in front of the SLIP driver, which holds the frame
 *     being sent in its own buffer (drivers/net/slip/slip.c sl_xmit stops the queue).
 *     With qlen 10 (the CSLIP seed) a burst keeps 1 + 10 frames; the next is dropped,
 *     DROP_LINK_QUEUE_FULL, counted. Compression happens for frames that were queued
 *     only, in queue order, as when the driver compresses at dequeue.
 *   - An optional fixed latency per direction after the last bit (the USB-serial
 *     converter of the Arduino seed: about 1 ms each way).
 *
 * Use: link_serial_init() with the caller's storage; link_serial_submit() each datagram
 * at its time (times never go backwards); link_serial_next_event() says when to come
 * back; link_serial_take() hands out what is due, in time order. link_serial_peek() shows
 * the next due frame first, with its wire bytes writable, so the simulator can damage a
 * frame (bit flip) before the receiver decodes it.
 *
 * No allocation, no state outside the structure.
 */
#ifndef SIM_LINK_SERIAL_H
#define SIM_LINK_SERIAL_H

#include <stdint.h>

#include "link_line.h"
#include "slip.h"
#include "slip6.h"
#include "vj.h"

enum link_serial_framing { LINK_SERIAL_SLIP, LINK_SERIAL_CSLIP, LINK_SERIAL_SLIP6 };

struct link_serial_config {
    uint32_t baud;          /* line rate in bits per second, e.g. 57600 */
    uint8_t bits_per_char;  /* 10 for 8N1 */
    uint8_t framing;        /* enum link_serial_framing */
    uint8_t leading_end;    /* also send END before each frame (RFC 1055, Linux) */
    uint8_t qlen;           /* frames allowed to wait behind the one on the line */
    uint16_t mtu;           /* largest datagram */
    uint32_t latency_us[2]; /* per direction, added after the last bit */
};

/* Wire bytes of the largest frame: every byte escaped (SLIP); SLIP6 needs fewer. */
#define LINK_SERIAL_WIRE_CAP(mtu) SLIP_MAX_ENCODED(mtu)
/* Bytes of storage per direction for n frame records: their wire bytes, the receiver's
 * frame buffer and the buffer of the rebuilt datagram (room for a full rebuilt header). */
#define LINK_SERIAL_DIR_MEM(mtu, n) \
    ((uint32_t)(n)*LINK_SERIAL_WIRE_CAP(mtu) + 2u * (uint32_t)(mtu) + VJ_SLOT_HDR)

/* One frame in a direction's ring (the caller provides the array). */
struct link_serial_frame {
    uint32_t tag;
    uint16_t len;  /* datagram as submitted */
    uint8_t *wire; /* its frame on the line */
    uint32_t wire_len;
    uint64_t submitted, start, end, due;
};

struct link_serial_stats {
    uint32_t submitted;
    uint32_t drop_queue_full; /* DROP_LINK_QUEUE_FULL */
    uint32_t sent;            /* frames put on the line */
    uint64_t wire_bytes;      /* characters put on the line */
    uint32_t delivered;
    uint32_t drop_decode; /* SLIP/SLIP6/CSLIP receiver drops (reason in the delivery) */
    uint32_t unfinished;
    uint8_t max_queue; /* most frames ever waiting */
};

struct link_serial_dir {
    struct link_serial_frame *ring;
    uint8_t n;           /* ring size */
    uint8_t head, count; /* oldest undelivered frame; frames held */
    uint8_t *rx_frame;   /* receiver: the decoded frame */
    uint8_t *rx_dgram;   /* receiver: the datagram rebuilt from a CSLIP frame */
    struct link_line line;
    struct slip_decoder slip;
    struct slip6_decoder slip6;
    struct vj_state vj; /* tx side: sender's compressor; rx side: receiver's */
    struct vj_slot vj_tx[VJ_MAX_SLOTS];
    struct vj_slot vj_rx[VJ_MAX_SLOTS];
    struct link_serial_stats stats;
};

struct link_serial {
    struct link_serial_config cfg;
    struct link_serial_dir dir[2];
};

/* Starts the link. For each direction d: ring[d][0..n_frames[d]) frame records and
 * mem[d][0..mem_len[d]) bytes, at least LINK_SERIAL_DIR_MEM(mtu, n_frames). The ring must
 * hold the frames queued, the one on the line and those still in the latency (qlen + 2,
 * plus one per frame that fits in the latency, is plenty); when it is full submit says
 * ERR_MEM (a sizing error, not a modelled drop). Returns ERR_OK or ERR_ARG / ERR_BUF. */
int link_serial_init(struct link_serial *l, const struct link_serial_config *cfg,
                     struct link_serial_frame *ring[2], const uint8_t n_frames[2], uint8_t *mem[2],
                     const uint32_t mem_len[2]);

/* Hands the datagram data[0..len) to direction dir at time t (not before the previous
 * submit in that direction). Returns ERR_OK (queued; its times are fixed now),
 * DROP_LINK_QUEUE_FULL as a positive value (dropped and counted: the caller records the
 * drop), ERR_MEM (ring full) or ERR_ARG (len 0 or above the MTU). */
int link_serial_submit(struct link_serial *l, uint8_t dir, uint64_t t, const uint8_t *data,
                       uint16_t len, uint32_t tag);

/* Frames waiting in dir's queue at time t (the one on the line not counted). */
uint8_t link_serial_queue_len(const struct link_serial *l, uint8_t dir, uint64_t t);

/* Earliest pending delivery time over both directions; 0 if nothing is pending. */
int link_serial_next_event(const struct link_serial *l, uint64_t *t);

/* The frame link_serial_take(now) would hand out next, or NULL. Its wire bytes may be
 * changed (fault injection) before take decodes them. */
struct link_serial_frame *link_serial_peek(struct link_serial *l, uint64_t now, uint8_t *dir);

/* Decodes and hands out the earliest delivery due at or before now: returns 1 and fills
 * *out, or 0 if none is due. */
int link_serial_take(struct link_serial *l, uint64_t now, struct link_delivery *out);

#endif
