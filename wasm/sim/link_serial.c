/* Serial line timing model: see link_serial.h. */
#include "link_serial.h"

#include <string.h>

#include "stack_err.h"

int link_serial_init(struct link_serial *l, const struct link_serial_config *cfg,
                     struct link_serial_frame *ring[2], const uint8_t n_frames[2], uint8_t *mem[2],
                     const uint32_t mem_len[2])
{
    uint8_t d, i;
    if (cfg->baud == 0 || cfg->bits_per_char == 0 || cfg->mtu == 0 ||
        cfg->framing > LINK_SERIAL_SLIP6 || LINK_SERIAL_WIRE_CAP(cfg->mtu) > 0xFFFFu)
        return ERR_ARG;
    memset(l, 0, sizeof *l);
    l->cfg = *cfg;
    for (d = 0; d < 2; d++) {
        struct link_serial_dir *s = &l->dir[d];
        uint8_t *p = mem[d];
        if (n_frames[d] == 0 || ring[d] == NULL || p == NULL)
            return ERR_ARG;
        if (mem_len[d] < LINK_SERIAL_DIR_MEM(cfg->mtu, n_frames[d]))
            return ERR_BUF;
        s->ring = ring[d];
        s->n = n_frames[d];
        for (i = 0; i < s->n; i++) {
            memset(&s->ring[i], 0, sizeof s->ring[i]);
            s->ring[i].wire = p;
            p += LINK_SERIAL_WIRE_CAP(cfg->mtu);
        }
        s->rx_frame = p;
        p += cfg->mtu;
        s->rx_dgram = p;
        slip_decoder_init(&s->slip, s->rx_frame, cfg->mtu);
        slip6_decoder_init(&s->slip6, s->rx_frame, cfg->mtu);
        /* One compressor (the sender's) and one decompressor (the receiver's) per
         * direction, 16 slots each as RFC 1144 and Linux. */
        vj_init(&s->vj, s->vj_tx, VJ_MAX_SLOTS, s->vj_rx, VJ_MAX_SLOTS);
    }
    return ERR_OK;
}

uint8_t link_serial_queue_len(const struct link_serial *l, uint8_t dir, uint64_t t)
{
    const struct link_serial_dir *s = &l->dir[dir & 1u];
    uint8_t i, q = 0;
    for (i = 0; i < s->count; i++) {
        if (s->ring[(s->head + i) % s->n].start > t)
            q++;
    }
    return q;
}

/* Frame bytes for the line, by the stack's encoders. CSLIP: vj_compress() writes the
 * frame (never longer than the datagram) into the upper mtu bytes of the wire buffer, it is
 * moved to the direction's datagram buffer (free between takes: a delivery's pointers
 * live until the next call on the link) and SLIP-encoded from there into the wire buffer. */
static int32_t link_serial_encode(struct link_serial *l, struct link_serial_dir *s,
                                  const uint8_t *data, uint16_t len, uint8_t *wire)
{
    uint16_t cap = (uint16_t)LINK_SERIAL_WIRE_CAP(l->cfg.mtu);
    int lead = l->cfg.leading_end != 0;
    if (l->cfg.framing == LINK_SERIAL_SLIP6)
        return slip6_encode(data, len, wire, cap, lead);
    if (l->cfg.framing == LINK_SERIAL_CSLIP) {
        uint8_t *tmp = wire + cap - l->cfg.mtu;
        int32_t n = vj_compress(&s->vj, data, len, tmp, l->cfg.mtu, NULL);
        if (n < 0)
            return n;
        memmove(s->rx_dgram, tmp, (size_t)n);
        return slip_encode(s->rx_dgram, (uint16_t)n, wire, cap, lead);
    }
    return slip_encode(data, len, wire, cap, lead);
}

int link_serial_submit(struct link_serial *l, uint8_t dir, uint64_t t, const uint8_t *data,
                       uint16_t len, uint32_t tag)
{
    struct link_serial_dir *s;
    struct link_serial_frame *f;
    uint8_t q;
    int32_t wl;
    if (dir > 1 || len == 0 || len > l->cfg.mtu)
        return ERR_ARG;
    s = &l->dir[dir];
    s->stats.submitted++;
    q = link_serial_queue_len(l, dir, t);
    /* The frame would wait if the line is still busy at t: then the queue limit applies
     * (the frame on the line is not in the queue). */
    if (s->line.free_at > t && q >= l->cfg.qlen) {
        s->stats.drop_queue_full++;
        return (int)DROP_LINK_QUEUE_FULL;
    }
    if (s->count == s->n)
        return ERR_MEM;
    f = &s->ring[(s->head + s->count) % s->n];
    wl = link_serial_encode(l, s, data, len, f->wire);
    if (wl < 0)
        return ERR_BUF;
    s->count++;
    f->tag = tag;
    f->len = len;
    f->wire_len = (uint32_t)wl;
    f->submitted = t;
    f->end = link_line_send(&s->line, t, f->wire_len, l->cfg.bits_per_char, l->cfg.baud, &f->start);
    f->due = f->end + l->cfg.latency_us[dir];
    s->stats.sent++;
    s->stats.wire_bytes += f->wire_len;
    q = link_serial_queue_len(l, dir, t);
    if (q > s->stats.max_queue)
        s->stats.max_queue = q;
    return ERR_OK;
}

int link_serial_next_event(const struct link_serial *l, uint64_t *t)
{
    uint8_t d;
    int has = 0;
    for (d = 0; d < 2; d++) {
        const struct link_serial_dir *s = &l->dir[d];
        /* Deliveries of one direction leave in submission order (same latency). */
        if (s->count && (!has || s->ring[s->head].due < *t)) {
            *t = s->ring[s->head].due;
            has = 1;
        }
    }
    return has;
}

struct link_serial_frame *link_serial_peek(struct link_serial *l, uint64_t now, uint8_t *dir)
{
    struct link_serial_frame *best = NULL;
    uint8_t d;
    for (d = 0; d < 2; d++) {
        struct link_serial_dir *s = &l->dir[d];
        struct link_serial_frame *f = &s->ring[s->head];
        if (s->count && f->due <= now && (best == NULL || f->due < best->due)) {
            best = f;
            *dir = d;
        }
    }
    return best;
}

/* The receiver: feeds the frame's wire bytes to the decoder of the framing in use. The
 * first finished or dropped frame is the verdict; the remaining bytes are still fed so the
 * decoder stays in step with the line. */
static void link_serial_receive(struct link_serial *l, struct link_serial_dir *s,
                                const struct link_serial_frame *f, struct link_delivery *out)
{
    uint32_t i;
    int verdict = 0;
    out->fate = LINK_FATE_UNFINISHED;
    for (i = 0; i < f->wire_len; i++) {
        enum slip_result r;
        uint16_t flen;
        enum drop_reason why;
        if (l->cfg.framing == LINK_SERIAL_SLIP6) {
            r = slip6_decode_byte(&s->slip6, f->wire[i]);
            flen = s->slip6.len;
            why = s->slip6.last_error;
        } else {
            r = slip_decode_byte(&s->slip, f->wire[i]);
            flen = s->slip.len;
            why = s->slip.last_error;
        }
        if (verdict || r == SLIP_FRAME_NONE)
            continue;
        verdict = 1;
        if (r == SLIP_FRAME_ERROR) {
            out->fate = LINK_FATE_DROPPED;
            out->reason = why;
            if (l->cfg.framing == LINK_SERIAL_CSLIP)
                vj_decompress_error(&s->vj); /* RFC 1144 4.1 */
            continue;
        }
        out->fate = LINK_FATE_DELIVERED;
        out->data = s->rx_frame;
        out->len = flen;
        if (l->cfg.framing == LINK_SERIAL_CSLIP) {
            int32_t n = vj_decompress(&s->vj, s->rx_frame, flen, s->rx_dgram,
                                      (uint16_t)(l->cfg.mtu + VJ_SLOT_HDR));
            if (n <= 0) {
                out->fate = LINK_FATE_DROPPED;
                out->reason = n == 0 ? s->vj.last_error : DROP_SLIP_OVERSIZE;
                out->data = NULL;
                out->len = 0;
            } else {
                out->data = s->rx_dgram;
                out->len = (uint16_t)n;
            }
        }
    }
}

int link_serial_take(struct link_serial *l, uint64_t now, struct link_delivery *out)
{
    uint8_t d = 0;
    struct link_serial_frame *f = link_serial_peek(l, now, &d);
    struct link_serial_dir *s;
    if (f == NULL)
        return 0;
    s = &l->dir[d];
    memset(out, 0, sizeof *out);
    out->tag = f->tag;
    out->dir = d;
    out->reason = DROP_NONE;
    out->wire = f->wire;
    out->wire_len = f->wire_len;
    out->submitted = f->submitted;
    out->wire_start = f->start;
    out->wire_end = f->end;
    out->time = f->due;
    link_serial_receive(l, s, f, out);
    if (out->fate == LINK_FATE_DELIVERED)
        s->stats.delivered++;
    else if (out->fate == LINK_FATE_DROPPED)
        s->stats.drop_decode++;
    else
        s->stats.unfinished++;
    s->head = (uint8_t)((s->head + 1u) % s->n);
    s->count--;
    return 1;
}
