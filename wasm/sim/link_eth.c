/* Ethernet link timing model: see link_eth.h. */
#include "link_eth.h"

#include <string.h>

#include "stack_err.h"

uint64_t link_eth_bits_us(uint64_t bits, uint64_t rate_bps)
{
    /* ceil(bits x 10^6 / rate) without forming bits x 10^6, which would overflow after
     * 1.8 x 10^13 bits (half an hour of a busy 10 Gbit/s transmitter): whole seconds
     * first, then the remainder (below rate <= 10^12, so x 10^6 stays under 2^64). */
    uint64_t whole = bits / rate_bps, rem = bits % rate_bps;
    return whole * 1000000u + (rem * 1000000u + rate_bps - 1u) / rate_bps;
}

int link_eth_init(struct link_eth *l, const struct link_eth_config *cfg,
                  struct link_eth_frame *ring[2], const uint32_t n_frames[2], uint8_t *mem[2],
                  const uint32_t mem_len[2])
{
    uint8_t d;
    if (cfg->rate_bps == 0 || cfg->rate_bps > LINK_ETH_MAX_RATE || cfg->mtu == 0 ||
        cfg->jitter_us == UINT32_MAX)
        return ERR_ARG;
    memset(l, 0, sizeof *l);
    l->cfg = *cfg;
    for (d = 0; d < 2; d++) {
        struct link_eth_dir *s = &l->dir[d];
        if (n_frames[d] == 0 || ring[d] == NULL || mem[d] == NULL)
            return ERR_ARG;
        if (mem_len[d] < (uint32_t)cfg->mtu + LINK_ETH_HDR)
            return ERR_BUF;
        s->ring = ring[d];
        s->n = n_frames[d];
        memset(s->ring, 0, (size_t)s->n * sizeof s->ring[0]);
        s->mem = mem[d];
        s->mem_len = mem_len[d];
    }
    return ERR_OK;
}

uint16_t link_eth_queue_len(const struct link_eth *l, uint8_t dir, uint64_t t)
{
    const struct link_eth_dir *s = &l->dir[dir & 1u];
    uint32_t i = s->count;
    uint16_t q = 0;
    /* The transmitter is FIFO, so start times grow along the ring: the frames not yet
     * on the wire at t are its newest ones. Counting from the newest stops after at most
     * qlen + 1 records, however many frames are still within the delay. */
    while (i > 0 && s->ring[(s->head + i - 1u) % s->n].start > t) {
        q++;
        i--;
    }
    return q;
}

/* Room for len bytes in the direction's circular byte queue: the free bytes run from
 * wr to the oldest held frame's bytes (wrapping at the end of the buffer). A datagram is
 * kept contiguous, so when it does not fit before the end it goes to the start and the
 * tail is left unused until the queue wraps past it. Returns 1 and *off, or 0 if full. */
static int link_eth_alloc(struct link_eth_dir *s, uint16_t len, uint32_t *off)
{
    uint32_t oldest;
    if (s->count == 0) {
        s->wr = 0;
        if (len > s->mem_len)
            return 0;
        *off = 0;
        return 1;
    }
    oldest = s->ring[s->head].off;
    if (s->wr > oldest) {
        /* Held bytes are [oldest, wr): free are [wr, end) and [0, oldest). */
        if (s->mem_len - s->wr >= len) {
            *off = s->wr;
            return 1;
        }
        if (oldest >= len) {
            *off = 0;
            return 1;
        }
        return 0;
    }
    /* Wrapped (or exactly full when wr == oldest): free are [wr, oldest). */
    if (oldest - s->wr >= len) {
        *off = s->wr;
        return 1;
    }
    return 0;
}

int link_eth_submit(struct link_eth *l, uint8_t dir, uint64_t t, const uint8_t *data, uint16_t len,
                    uint32_t tag, struct sim_rng *rng)
{
    struct link_eth_dir *s;
    struct link_eth_frame *f;
    uint32_t jitter, off;
    uint64_t due;
    if (dir > 1 || len == 0 || data == NULL || rng == NULL)
        return ERR_ARG;
    s = &l->dir[dir];
    s->stats.submitted++;
    /* One draw per submit whatever happens to the frame (link_eth.h). Uniform in
     * 0 .. jitter_us inclusive, as the scenario format says. */
    jitter = sim_rng_below(rng, l->cfg.jitter_us + 1u);
    if (len > (uint32_t)l->cfg.mtu + LINK_ETH_HDR) {
        s->stats.drop_oversize++;
        return (int)DROP_ETH_OVERSIZE;
    }
    /* The frame would wait if the wire is still busy at t: then the queue limit applies
     * (the frame on the wire is not in the queue). */
    if (s->free_at > t && link_eth_queue_len(l, dir, t) >= l->cfg.qlen) {
        s->stats.drop_queue_full++;
        return (int)DROP_LINK_QUEUE_FULL;
    }
    if (s->count == s->n || !link_eth_alloc(s, len, &off))
        return ERR_MEM;
    f = &s->ring[(s->head + s->count) % s->n];
    s->count++;
    memcpy(s->mem + off, data, len);
    s->wr = off + len;
    f->tag = tag;
    f->len = len;
    f->off = off;
    f->wire_len = LINK_ETH_WIRE_LEN(len);
    f->submitted = t;
    /* The transmitter, as link_line_send() with a 64-bit rate: a frame sent while the
     * wire is idle opens a new busy period at its own start. */
    if (t >= s->free_at) {
        s->epoch = t;
        s->bits = 0;
    }
    f->start = s->epoch + link_eth_bits_us(s->bits, l->cfg.rate_bps);
    s->bits += (uint64_t)f->wire_len * 8u;
    s->free_at = s->epoch + link_eth_bits_us(s->bits, l->cfg.rate_bps);
    f->end = s->free_at;
    /* A wire keeps the order of what it carries: jitter may stretch a frame's delivery
     * but never move it before the previous frame's. */
    due = f->end + l->cfg.delay_us + jitter;
    if (due < s->last_due)
        due = s->last_due;
    f->due = due;
    s->last_due = due;
    s->stats.sent++;
    s->stats.wire_bytes += f->wire_len;
    {
        uint16_t q = link_eth_queue_len(l, dir, t);
        if (q > s->stats.max_queue)
            s->stats.max_queue = q;
    }
    return ERR_OK;
}

int link_eth_next_event(const struct link_eth *l, uint64_t *t)
{
    uint8_t d;
    int has = 0;
    for (d = 0; d < 2; d++) {
        const struct link_eth_dir *s = &l->dir[d];
        /* Deliveries of a direction leave in submission order: its head is its earliest. */
        if (s->count && (!has || s->ring[s->head].due < *t)) {
            *t = s->ring[s->head].due;
            has = 1;
        }
    }
    return has;
}

int link_eth_take(struct link_eth *l, uint64_t now, struct link_delivery *out)
{
    struct link_eth_dir *s = NULL;
    struct link_eth_frame *f = NULL;
    uint8_t d, dir = 0;
    for (d = 0; d < 2; d++) {
        struct link_eth_dir *c = &l->dir[d];
        struct link_eth_frame *h = &c->ring[c->head];
        if (c->count && h->due <= now && (f == NULL || h->due < f->due)) {
            f = h;
            s = c;
            dir = d;
        }
    }
    if (f == NULL)
        return 0;
    memset(out, 0, sizeof *out);
    out->tag = f->tag;
    out->dir = dir;
    out->fate = LINK_FATE_DELIVERED;
    out->reason = DROP_NONE;
    out->data = s->mem + f->off;
    out->len = f->len;
    out->wire = NULL;
    out->wire_len = f->wire_len;
    out->submitted = f->submitted;
    out->wire_start = f->start;
    out->wire_end = f->end;
    out->time = f->due;
    s->stats.delivered++;
    /* The bytes stay where they are until the next submit of this direction reuses
     * them, so out->data lives until the next call on the link. */
    s->head = (s->head + 1u) % s->n;
    s->count--;
    return 1;
}
