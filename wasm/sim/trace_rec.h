/* The trace as records: what the simulator hands the page, the command line and the tests.
 *
 * A trace is a stream of records, each a whole number of 8-byte words, little-endian,
 * read through the offsets below (docs/trace-format.md describes the same layout for the
 * TypeScript reader, web/src/core/engine/trace_reader.ts). Every record starts with
 *     u16 type, u16 reserved (0), u32 size (bytes of the whole record, a multiple of 8)
 * so a reader can skip types it does not know. Records are appended in the order things
 * happen in the run. A datagram handed to a link gives two records: TREC_FRAME when it is
 * sent (with its bytes) and TREC_FATE, under the same id, once it is delivered or dropped
 * (or the run ends with it still in flight).
 *
 * The stream is the same byte for byte natively and in wasm, and its 64-bit hash (trace_rec.c)
 * (over every byte appended since the start of the run) is the run's fingerprint in the
 * determinism tests.
 */
#ifndef SIM_TRACE_REC_H
#define SIM_TRACE_REC_H

#include <stddef.h>
#include <stdint.h>

#define TREC_NONE 0xFFFFFFFFu /* "no frame / no event" in a cause link */

enum trec_type {
    TREC_FRAME = 1, /* one datagram's passage over one link */
    TREC_EVENT = 2, /* a decision of a host's stack (trace.h kinds) */
    TREC_LINK = 3,  /* a link's own event: queue length, NFC slots, module busy/free */
    TREC_APP = 4,   /* an application's output line or final report */
    TREC_FATE = 5   /* what became of a frame: delivered (when), dropped (where, why) */
};

/* Common header. */
#define TREC_OFF_TYPE 0
#define TREC_OFF_SIZE 4
#define TREC_HDR      8

/* TREC_FRAME: written when the sender hands the datagram to the link (the capture tap's
 * instant). 48 bytes, then the datagram as sent (len bytes), zero-padded to 8; on an
 * Ethernet link the frame as its capture at end a shows it (world_frame_tap). */
#define TREC_FRAME_OFF_ID     8  /* u32: frame id, from 0, in the order frames were sent */
#define TREC_FRAME_OFF_PARENT 12 /* u32: frame a bridge forwarded this from, or NONE */
#define TREC_FRAME_OFF_T_SENT 16 /* u64 us */
#define TREC_FRAME_OFF_LINK   24 /* u16: link index */
#define TREC_FRAME_OFF_DIR    26 /* u8: 0 = a to b, 1 = b to a */
#define TREC_FRAME_OFF_RETX \
    27                           /* u8: enum tcp_retx_cause when the sender re-sent data,
                                        0xFF otherwise */
#define TREC_FRAME_OFF_LEN    28 /* u16: datagram bytes (the Ethernet frame on an Ethernet link) */
#define TREC_FRAME_OFF_FAULTS 30 /* u8: TREC_FAULT_* bits applied to this frame */
#define TREC_FRAME_OFF_NODE   31 /* u8: the sending node (host or bridge index) */
#define TREC_FRAME_OFF_ORIG   32 /* u32: first transmission of the same data, or NONE */
#define TREC_FRAME_OFF_CAUSE  36 /* u32: seq of the tcp.retransmit event behind it, or NONE */
#define TREC_FRAME_OFF_QUEUE  40 /* u32: frames waiting on the link when it came */
#define TREC_FRAME_OFF_RULE   44 /* u32: index of the fault rule that acted, or NONE */
#define TREC_FRAME_FIXED      48

/* TREC_FATE: what became of frame `id`, written when it is known. 56 bytes. */
#define TREC_FATE_OFF_ID         8  /* u32 */
#define TREC_FATE_OFF_LINK       12 /* u16 */
#define TREC_FATE_OFF_DIR        14 /* u8 */
#define TREC_FATE_OFF_FATE       15 /* u8: enum trec_fate */
#define TREC_FATE_OFF_T_WIRE     16 /* u64 us: first bit on the line (nfc: first UART byte) */
#define TREC_FATE_OFF_T_WIRE_END 24 /* u64 us: last bit on the line (nfc: end of last slot) */
#define TREC_FATE_OFF_T_END      32 /* u64 us: delivered to the receiver, or dropped */
#define TREC_FATE_OFF_REASON     40 /* u16: enum drop_reason, 0 when delivered */
#define TREC_FATE_OFF_SLOTS      42 /* u16: NFC slots used */
#define TREC_FATE_OFF_WIRE_LEN   44 /* u32: bytes on the line, framing included (0: never sent) */
#define TREC_FATE_OFF_FIRST_SLOT 48 /* u64 us: start of its first NFC slot (0 if none) */
#define TREC_FATE_SIZE           56

enum trec_fate {
    TREC_FATE_DELIVERED = 0,
    TREC_FATE_DROPPED = 1,    /* reason says where: queue, module, fault, framing */
    TREC_FATE_UNFINISHED = 2, /* serial: its END never arrived */
    TREC_FATE_IN_FLIGHT = 3   /* the run ended first */
};

#define TREC_FAULT_CORRUPTED 1
#define TREC_FAULT_DUPLICATE 2 /* this frame is the extra copy */
#define TREC_FAULT_DELAYED   4

/* TREC_EVENT: 48 bytes. */
#define TREC_EVENT_OFF_TIME  8  /* u64 us */
#define TREC_EVENT_OFF_SEQ   16 /* u32: event number, from 0 */
#define TREC_EVENT_OFF_KIND  20 /* u16: enum trace_kind */
#define TREC_EVENT_OFF_HOST  22 /* u8: host index */
#define TREC_EVENT_OFF_CONN  23 /* u8: connection slot or 0xFF */
#define TREC_EVENT_OFF_LPORT 24 /* u16 */
#define TREC_EVENT_OFF_RPORT 26 /* u16 */
#define TREC_EVENT_OFF_A     28 /* u32 x 4: the kind's values (trace.h) */
#define TREC_EVENT_OFF_CAUSE \
    44 /* u32: seq of the event that caused this one (a
                                        retransmission's timer expiry or dup ACK), or NONE */
#define TREC_EVENT_SIZE 48

/* TREC_LINK: 32 bytes. */
#define TREC_LINK_OFF_TIME  8  /* u64 us */
#define TREC_LINK_OFF_LINK  16 /* u16 */
#define TREC_LINK_OFF_DIR   18 /* u8 */
#define TREC_LINK_OFF_KIND  19 /* u8: enum trec_link_kind */
#define TREC_LINK_OFF_VALUE 20 /* u32 */
#define TREC_LINK_OFF_FRAME 24 /* u32: the frame concerned, or NONE */
#define TREC_LINK_SIZE      32

enum trec_link_kind {
    TREC_LINK_QUEUE = 1,       /* value = frames waiting after this change */
    TREC_LINK_NFC_SLOTS = 2,   /* value = slots granted to the frame, from its first slot
                                   (the record's time) */
    TREC_LINK_MODULE_BUSY = 3, /* the sender's NFC module took the frame */
    TREC_LINK_MODULE_FREE = 4, /* ... and is free again */
    TREC_LINK_NFC_PAUSE = 5    /* value = slots the frame's chunks pause for, from the record's
                                   time (a slot's start) on: end a's packet has them
                                   (channel "a_first", link_nfc.h rule 5) */
};

/* TREC_APP: 40 bytes, then `text_len` bytes of text (no NUL), zero-padded to 8: UTF-8 for
 * a line or a report, the bytes as received (any bytes) for data. */
#define TREC_APP_OFF_TIME 8  /* u64 us */
#define TREC_APP_OFF_HOST 16 /* u8 */
#define TREC_APP_OFF_APP \
    17                           /* u8: app index in the scenario (or the slot an app
                                        added to the running world got) */
#define TREC_APP_OFF_KIND     18 /* u8: enum trec_app_kind */
#define TREC_APP_OFF_DONE     19 /* u8: report: finished */
#define TREC_APP_OFF_ERROR    20 /* i32: report: 0 or the stack error */
#define TREC_APP_OFF_BYTES    24 /* u64: report: application bytes moved */
#define TREC_APP_OFF_ELAPSED  32 /* u32: report: microseconds they took */
#define TREC_APP_OFF_TEXT_LEN 36 /* u32 */
#define TREC_APP_FIXED        40

enum trec_app_kind {
    TREC_APP_LINE = 0,   /* a line of output */
    TREC_APP_REPORT = 1, /* the final report */
    TREC_APP_DATA = 2    /* bytes a tcp_client received, as they came; the other fields 0 */
};

/* A growing buffer of records and the running hash. */
struct trec_buf {
    uint8_t *p;
    size_t len, cap;
    uint64_t lane[4]; /* the fingerprint of every byte ever appended, word i of the stream
                       * in lane i mod 4 (trace_rec.c): read it with trec_buf_hash */
    uint64_t total;   /* bytes ever appended (len is reset by trec_buf_clear) */
    int failed;       /* an allocation failed: records were lost, the run is invalid */
};

void trec_buf_init(struct trec_buf *b);
void trec_buf_free(struct trec_buf *b);
/* Forgets the records handed out so far (the hash and total keep counting). */
void trec_buf_clear(struct trec_buf *b);
/* Reserves a record of `size` bytes (rounded up to 8) of `type`, zeroed, header written;
 * NULL if memory ran out. trec_buf_commit hashes it once it is filled in. */
uint8_t *trec_buf_begin(struct trec_buf *b, uint16_t type, uint32_t size);
/* The same for a record of `fixed` bytes of fields followed by n bytes of data: only the
 * fields and the padding are zeroed, the data copied in once (a frame's bytes). */
uint8_t *trec_buf_begin_data(struct trec_buf *b, uint16_t type, uint32_t fixed, const uint8_t *data,
                             uint32_t n);
void trec_buf_commit(struct trec_buf *b, const uint8_t *rec);
/* The fingerprint of the whole stream so far (its lanes combined). */
uint64_t trec_buf_hash(const struct trec_buf *b);

static inline void trec_wr16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void trec_wr32(uint8_t *p, uint32_t v)
{
    trec_wr16(p, (uint16_t)v);
    trec_wr16(p + 2, (uint16_t)(v >> 16));
}

static inline void trec_wr64(uint8_t *p, uint64_t v)
{
    trec_wr32(p, (uint32_t)v);
    trec_wr32(p + 4, (uint32_t)(v >> 32));
}

static inline uint16_t trec_rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t trec_rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t trec_rd64(const uint8_t *p)
{
    return (uint64_t)trec_rd32(p) | (uint64_t)trec_rd32(p + 4) << 32;
}

#endif
