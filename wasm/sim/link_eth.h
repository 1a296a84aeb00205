/* An ethernet link between two nodes: the timing model of wasm/sim (DESIGN.md, "The
 * simulator"; docs/scenario-format.md, "ethernet").
 *
 *   - Full duplex: each direction has its own transmitter, queue and receiver, as a
 *     switched or point-to-point link (no CSMA/CD, no collisions).
 *   - The link carries Ethernet II frames (wasm/stack/eth.h): a frame of len bytes, its
 *     14-byte header included and padded by the sender to 60 (RFC 894), takes len + 4
 *     bytes with its FCS, at least 64 (IEEE 802.3 clause 3.2.8 / 4.4.2 minFrameSize 512
 *     bits). On the wire the frame is preceded by 8 bytes of preamble and SFD and followed
 *     by the 12-byte (96 bit times) inter-frame gap: a 40-byte datagram (a 54-byte frame,
 *     padded to 60) costs 64 + 20 = 84 bytes, 672 bit times.
 *   - The gap is counted in the frame's slot, as docs/scenario-format.md prices a frame
 *     ("datagram plus 38 bytes"): wire_end is the end of the gap, 96 bit times after the
 *     FCS's last bit (9.6 us at 10 Mbit/s, under 1 us at 100 Mbit/s). Back-to-back frames
 *     therefore follow each other exactly at line rate.
 *   - Serialization is exact: bits are counted from the start of the transmitter's busy
 *     period and converted once, rounding up (as link_line.h), so frames sent back to back
 *     never drift however many there are.
 *   - Delivery = wire_end + delay_us + jitter, jitter uniform in 0 .. jitter_us drawn from
 *     the run's PRNG at submit. A frame is never delivered before the previous frame of
 *     its direction (a wire does not reorder): delivery = max(that, previous delivery).
 *   - A transmit queue per direction limited to qlen frames waiting behind the one on the
 *     wire (Linux's txqueuelen; a NIC holds the frame it is sending): beyond it the frame
 *     is dropped, DROP_LINK_QUEUE_FULL, counted. A datagram above the MTU is dropped,
 *     DROP_ETH_OVERSIZE, counted.
 *
 * Storage: each direction takes a ring of frame records and one byte buffer. Datagrams
 * are copied into the buffer back to back, as a circular byte queue, not into fixed
 * slots of mtu bytes: deliveries of a direction leave in submission order, so the oldest
 * frame's bytes are always the first to be freed. This keeps the memory proportional to
 * the bytes actually held: with qlen up to 1000 and an MTU of 9000, fixed slots would
 * cost 9 MB per direction for a queue that usually holds small segments.
 * LINK_ETH_DIR_MEM(mtu, n) bytes guarantee the buffer never fills before the ring; less
 * is allowed, then submit may say ERR_MEM earlier.
 *
 * Use: link_eth_init() with the caller's storage; link_eth_submit() each datagram at its
 * time (times never go backwards within a direction); link_eth_next_event() says when to
 * come back; link_eth_take() hands out what is due, in time order.
 *
 * No allocation, no state outside the structure.
 */
#ifndef SIM_LINK_ETH_H
#define SIM_LINK_ETH_H

#include <stdint.h>

#include "link_line.h"
#include "sim_rng.h"

/* IEEE 802.3 frame and wire overheads, in bytes. */
#define LINK_ETH_HDR       14 /* destination 6, source 6, EtherType 2 */
#define LINK_ETH_FCS       4
#define LINK_ETH_MIN_FRAME 64 /* minFrameSize: header + 46 data bytes + FCS */
#define LINK_ETH_PREAMBLE  8  /* 7 preamble + 1 start frame delimiter */
#define LINK_ETH_IFG       12 /* interFrameGap, 96 bit times */

/* Largest rate accepted (bit/s): keeps the exact time arithmetic inside 64 bits. The
 * scenario format allows up to 10^10. */
#define LINK_ETH_MAX_RATE 1000000000000ull

/* Bytes a frame of len bytes (header included, FCS not) occupies on the wire, preamble
 * and gap included. */
#define LINK_ETH_WIRE_LEN(len)                                        \
    ((uint32_t)(((uint32_t)(len) + LINK_ETH_FCS) < LINK_ETH_MIN_FRAME \
                    ? LINK_ETH_MIN_FRAME                              \
                    : ((uint32_t)(len) + LINK_ETH_FCS)) +             \
     LINK_ETH_PREAMBLE + LINK_ETH_IFG)

/* Buffer bytes per direction that never run out before a ring of n records does: n - 1
 * held frames of mtu + 14 bytes, the unused tail where a frame did not fit before the
 * buffer's end, and room for one more. */
#define LINK_ETH_DIR_MEM(mtu, n) (((uint32_t)(n) + 1u) * ((uint32_t)(mtu) + LINK_ETH_HDR))

struct link_eth_config {
    uint64_t rate_bps;  /* 1 .. LINK_ETH_MAX_RATE */
    uint32_t delay_us;  /* propagation delay, both directions */
    uint32_t jitter_us; /* extra delay, uniform in 0 .. jitter_us per frame */
    uint16_t qlen;      /* frames allowed to wait behind the one on the wire */
    uint16_t mtu;       /* largest datagram: frames up to mtu + 14 bytes */
};

/* One frame in a direction's ring (the caller provides the array). */
struct link_eth_frame {
    uint32_t tag;
    uint16_t len;      /* frame as submitted */
    uint32_t off;      /* its bytes in the direction's buffer */
    uint32_t wire_len; /* LINK_ETH_WIRE_LEN(len) */
    uint64_t submitted, start, end, due;
};

struct link_eth_stats {
    uint32_t submitted;       /* calls that were not ERR_ARG */
    uint32_t drop_queue_full; /* DROP_LINK_QUEUE_FULL */
    uint32_t drop_oversize;   /* DROP_ETH_OVERSIZE */
    uint32_t sent;            /* frames put on the wire */
    uint64_t wire_bytes;      /* bytes put on the wire, preamble and gap included */
    uint32_t delivered;
    uint16_t max_queue; /* most frames ever waiting */
};

struct link_eth_dir {
    struct link_eth_frame *ring;
    uint32_t n;           /* ring size */
    uint32_t head, count; /* oldest undelivered frame; frames held */
    uint8_t *mem;         /* circular byte queue of the held datagrams */
    uint32_t mem_len;
    uint32_t wr; /* where the next datagram's bytes go */
    /* The transmitter: start of the current busy period, bits sent since, and the end
     * of the last frame's slot (link_line.h, with a 64-bit rate). */
    uint64_t epoch, bits, free_at;
    uint64_t last_due; /* delivery time of the last frame put on the wire */
    struct link_eth_stats stats;
};

struct link_eth {
    struct link_eth_config cfg;
    struct link_eth_dir dir[2];
};

/* Microseconds that `bits` take at rate_bps, rounded up: ceil(bits x 10^6 / rate). */
uint64_t link_eth_bits_us(uint64_t bits, uint64_t rate_bps);

/* Starts the link. For each direction d: ring[d][0..n_frames[d]) frame records and
 * mem[d][0..mem_len[d]) bytes, at least mtu. The ring holds the frames queued, the one on
 * the wire and those still within delay + jitter: qlen + 2 plus the frames that fit in
 * that time (the senders' windows bound them). When the ring or the buffer is full submit
 * says ERR_MEM (a sizing error, not a modelled drop). Returns ERR_OK, ERR_ARG (rate 0 or
 * above LINK_ETH_MAX_RATE, mtu 0, jitter_us = UINT32_MAX, missing storage) or ERR_BUF
 * (mem_len below mtu + 14). */
int link_eth_init(struct link_eth *l, const struct link_eth_config *cfg,
                  struct link_eth_frame *ring[2], const uint32_t n_frames[2], uint8_t *mem[2],
                  const uint32_t mem_len[2]);

/* Hands the frame data[0..len) to direction dir at time t (not before the previous
 * submit in that direction); a frame above mtu + 14 bytes is DROP_ETH_OVERSIZE. Returns ERR_OK (copied and queued; its times are fixed now),
 * DROP_ETH_OVERSIZE or DROP_LINK_QUEUE_FULL as positive values (dropped and counted: the
 * caller records the drop), ERR_MEM (ring or buffer full) or ERR_ARG (dir above 1, len 0,
 * data or rng NULL).
 *
 * PRNG: every call that is not ERR_ARG draws exactly one number (the jitter, drawn even
 * when jitter_us is 0 or the frame is dropped), so the draws of the rest of the run do not
 * depend on this link's jitter setting nor on its queue. */
int link_eth_submit(struct link_eth *l, uint8_t dir, uint64_t t, const uint8_t *data, uint16_t len,
                    uint32_t tag, struct sim_rng *rng);

/* Frames waiting in dir's queue at time t (the one on the wire not counted). */
uint16_t link_eth_queue_len(const struct link_eth *l, uint8_t dir, uint64_t t);

/* Earliest pending delivery time over both directions into *t: returns 1, or 0 if
 * nothing is pending. */
int link_eth_next_event(const struct link_eth *l, uint64_t *t);

/* Hands out the earliest delivery due at or before now (direction AB first on a tie):
 * returns 1 and fills *out (wire = NULL, wire_len = bytes on the wire; data points into
 * the link's buffer and stays valid until the next call on the link), or 0 if none is
 * due. */
int link_eth_take(struct link_eth *l, uint64_t now, struct link_delivery *out);

#endif
