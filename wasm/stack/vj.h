/* CSLIP: Van Jacobson TCP/IP header compression, RFC 1144.
 *
 * Each end of a serial link keeps, per TCP connection ("slot", RFC 1144 "connection
 * state"), a copy of the last IP+TCP header sent (compressor) or received (decompressor).
 * A datagram then travels as one of three frame types, told apart by the high bits of
 * the frame's first byte (RFC 1144 section 3.1 and the sl_input code of its appendix;
 * Linux's slip.c and slhc.c do the same):
 *
 *   TYPE_IP                0x40  first byte 0x4X: the datagram as it is (not TCP, a
 *                                fragment, SYN/FIN/RST set or ACK clear: RFC 1144 A.2).
 *   TYPE_UNCOMPRESSED_TCP  0x70  the datagram with its first byte ORed with 0x70 (0x45 ->
 *                                0x75) and the IP protocol field replaced by the slot
 *                                number; it (re)loads the receiver's slot.
 *   TYPE_COMPRESSED_TCP    0x80  a compressed header followed by the TCP payload:
 *
 *      byte 0   0x80 | change mask:  C 0x40  I 0x20  P 0x10  S 0x08  A 0x04  W 0x02  U 0x01
 *      [slot]   present if C: the connection number
 *      cksum    2 bytes, the TCP checksum, sent as it is (end-to-end check survives)
 *      [U]      urgent pointer (value)        each field: 1 byte if 1..255,
 *      [W]      window delta (signed, mod 2^16)            else 0x00 + 2 bytes big-endian;
 *      [A]      ack delta                     U and I may be 0 and then take 3 bytes
 *      [S]      sequence delta
 *      [I]      IP ID delta, present when the ID did not go up by exactly 1
 *
 *   The mask values S|W|U (SPECIAL_I) and S|U (SPECIAL_D) cannot occur naturally and are
 *   reused for the two commonest cases, with no delta bytes: SPECIAL_I, sequence and ack
 *   both advanced by the previous segment's data length (echoed terminal traffic);
 *   SPECIAL_D, sequence advanced by the previous segment's data length (bulk data one
 *   way). P copies the TCP PSH flag. The total length and IP header checksum are not
 *   sent: the receiver rebuilds them.
 *
 * Frames are whole buffers: vj_compress() turns a datagram into the frame to hand to
 * SLIP, with the type already in its first byte; vj_decompress() turns a frame back into
 * the datagram, reading the type from the first byte. Neither allocates: the slot tables
 * are arrays the caller gives to vj_init(), with as many slots as it can afford (RFC 1144
 * and Linux use 16; both ends must agree on the receiver's count, since connection numbers
 * up to n_tx - 1 are sent).
 *
 * Errors on receive (RFC 1144 section 4): a frame the decompressor cannot use (unknown
 * type, truncated, connection number out of range) is dropped, counted with its
 * drop_reason, and sets `toss`; so does vj_decompress_error(), which the link calls when
 * SLIP dropped a damaged frame. While `toss` is set, COMPRESSED frames without an
 * explicit connection number (C bit) are dropped (DROP_VJ_TOSS): their deltas would
 * apply to a header the receiver no longer has. The next UNCOMPRESSED_TCP frame, or a
 * COMPRESSED one with C, clears it. The sender needs no message: TCP retransmits what
 * was lost, and a retransmission moves the sequence number backwards, which the
 * compressor can only send as UNCOMPRESSED_TCP (section 4.2).
 *
 * Where this compressor is stricter than RFC 1144's sl_compress_tcp (any frame may be
 * sent uncompressed, so the decompressor is unaffected): a change in TCP flags other
 * than PSH (URG, or ECE/CWR, which came after RFC 1144), in the reserved bits next to the
 * data offset, or an IP total length disagreeing with the buffer length sends the
 * datagram uncompressed (or as TYPE_IP for the last). The RFC code would lose those
 * changes in a COMPRESSED frame; the result must be byte-exact. And any change pattern
 * that, masked with SPECIALS_MASK, equals SPECIAL_I or SPECIAL_D (U|S or U|W|S, with or
 * without A) is sent uncompressed: the RFC's compressor only avoids the exact values,
 * yet its decompressor (and Linux's slhc) switches on the masked value, so a segment
 * with URG whose ack and sequence both moved would be rebuilt wrongly.
 */
#ifndef STACK_VJ_H
#define STACK_VJ_H

#include <stdint.h>

#include "drop_reason.h"

/* Frame types: the high bits of the first byte of a CSLIP frame (RFC 1144 A.1). */
#define VJ_TYPE_ERROR            0x00
#define VJ_TYPE_IP               0x40
#define VJ_TYPE_UNCOMPRESSED_TCP 0x70
#define VJ_TYPE_COMPRESSED_TCP   0x80

/* Change mask bits of a compressed header. */
#define VJ_NEW_C         0x40
#define VJ_NEW_I         0x20
#define VJ_PUSH          0x10
#define VJ_NEW_S         0x08
#define VJ_NEW_A         0x04
#define VJ_NEW_W         0x02
#define VJ_NEW_U         0x01
#define VJ_SPECIAL_I     (VJ_NEW_S | VJ_NEW_W | VJ_NEW_U)
#define VJ_SPECIAL_D     (VJ_NEW_S | VJ_NEW_U)
#define VJ_SPECIALS_MASK (VJ_NEW_S | VJ_NEW_W | VJ_NEW_U)

#define VJ_MAX_SLOTS \
    16                       /* RFC 1144 MAX_STATES; connection numbers are one byte, but
                             more slots than this buys nothing on a serial line */
#define VJ_SLOT_HDR      120 /* largest IPv4 + TCP header: 60 + 60 */
/* Largest compressed header: mask, slot, checksum (4) + U, W, A, S, I at 3 each. */
#define VJ_COMP_HDR_MAX  19
/* Bytes vj_compress_parts() may write into hdr: a compressed header, or the first 10
 * bytes of an UNCOMPRESSED_TCP datagram (through the protocol field). */
#define VJ_PARTS_HDR_MAX 20

/* One connection's saved header. */
struct vj_slot {
    uint8_t hdr[VJ_SLOT_HDR];
    uint8_t hlen; /* bytes of IP+TCP header in hdr; 0: slot never used */
    uint8_t next; /* compressor: next slot in the LRU ring (RFC 1144 cs_next) */
};

struct vj_stats {
    /* compressor */
    uint32_t out_ip;           /* sent as TYPE_IP */
    uint32_t out_uncompressed; /* sent as TYPE_UNCOMPRESSED_TCP */
    uint32_t out_compressed;   /* sent as TYPE_COMPRESSED_TCP */
    uint32_t out_misses;       /* connections not found: a slot was (re)assigned */
    uint32_t out_saved;        /* header bytes saved by compression */
    /* decompressor */
    uint32_t in_ip;
    uint32_t in_uncompressed;
    uint32_t in_compressed;  /* compressed frames decoded */
    uint32_t in_link_errors; /* vj_decompress_error() calls */
    uint32_t drop_bad_type;  /* DROP_VJ_BAD_TYPE */
    uint32_t drop_short;     /* DROP_VJ_SHORT */
    uint32_t drop_bad_slot;  /* DROP_VJ_BAD_SLOT */
    uint32_t drop_toss;      /* DROP_VJ_TOSS */
    uint32_t drop_not_tcp;   /* DROP_VJ_NOT_TCP */
};

struct vj_state {
    /* compressor: the datagrams this end sends */
    struct vj_slot *tx;
    uint8_t n_tx;
    uint8_t last_cs;      /* the least recently used slot: the end of the LRU ring */
    uint8_t last_xmit;    /* connection number in the last frame sent, 0xFF none */
    uint8_t compress_cid; /* 1 (default): leave the C bit out when the connection is the
                              same as in the previous frame sent; 0: always send it */
    /* decompressor: the frames this end receives */
    struct vj_slot *rx;
    uint8_t n_rx;
    uint8_t last_recv;           /* connection of frames without the C bit */
    uint8_t toss;                /* RFC 1144 SLF_TOSS: drop implicit-connection frames */
    enum drop_reason last_error; /* reason of the last drop, DROP_NONE before any */
    struct vj_stats stats;
};

/* Starts compressor and decompressor. tx[0..n_tx) and rx[0..n_rx) are the caller's
 * (1..VJ_MAX_SLOTS each; n = 0 with NULL disables that direction: everything is sent as
 * TYPE_IP, or every TCP frame received is dropped). The decompressor starts with toss set,
 * as RFC 1144's sl_compress_init() does. Returns 0, or ERR_ARG for a bad count. */
int vj_init(struct vj_state *s, struct vj_slot *tx, uint8_t n_tx, struct vj_slot *rx, uint8_t n_rx);

/* The frame type of a CSLIP frame starting with byte `first` (VJ_TYPE_*). */
uint8_t vj_frame_type(uint8_t first);

/* Compresses the IPv4 datagram pkt[0..len) into out[0..cap) and returns the frame's
 * length, its type in the high bits of out[0]; *type (if not NULL) gets VJ_TYPE_*.
 * out may be pkt (in place): the frame is never longer than the datagram. Returns ERR_BUF
 * without touching any state if cap < len. */
int32_t vj_compress(struct vj_state *s, const uint8_t *pkt, uint16_t len, uint8_t *out,
                    uint16_t cap, uint8_t *type);

/* The same, without copying the payload, for senders that stream a frame to a UART: the
 * frame is hdr[0..*hdr_len) followed by pkt[*rest_off..len). hdr must hold
 * VJ_PARTS_HDR_MAX bytes. Returns the type (VJ_TYPE_*). */
uint8_t vj_compress_parts(struct vj_state *s, const uint8_t *pkt, uint16_t len, uint8_t *hdr,
                          uint8_t *hdr_len, uint16_t *rest_off);

/* Turns the frame in[0..len) back into the datagram it carried, in out[0..cap); returns
 * the datagram's length. Returns 0 if the frame was dropped (counted, reason in
 * s->last_error; forward it to host_drop()). Returns ERR_BUF if out is too small: the
 * connection state was still updated, so only this datagram is lost. out may be in (in
 * place) if cap leaves room for the rebuilt header: up to VJ_SLOT_HDR - 3 bytes more than
 * the frame. */
int32_t vj_decompress(struct vj_state *s, const uint8_t *in, uint16_t len, uint8_t *out,
                      uint16_t cap);

/* The link lost or dropped a frame (bad SLIP escape, oversize, a loss on the line):
 * RFC 1144 section 4.1, toss compressed frames until an explicit connection number. */
void vj_decompress_error(struct vj_state *s);

#endif
