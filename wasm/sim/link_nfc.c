/* NFC link timing model: see link_nfc.h for the model and where each rule comes from. */
#include "link_nfc.h"

#include <string.h>

#include "stack_err.h"

void link_nfc_config_default(struct link_nfc_config *c, int kbps424)
{
    memset(c, 0, sizeof *c);
    c->slot_period_us = 10000;          /* 5.1: one slot every 10 ms */
    c->slot_air_us = 1500;              /* 5.1: "one time slot of 1.5 ms" */
    c->lead_us = 2000;                  /* 5.1: chunk ready 2 ms before the slot */
    c->chunk_bytes = kbps424 ? 30 : 14; /* 5.1: 14 B at 212 kbps, 30 B at 424 kbps */
    c->chunk_overhead = 4;              /* Table 5.2: NFC protocol 4 per time slot */
    c->pkt_overhead = 16;               /* Table 5.2: UI protocol 8 + packet handling 8 */
    c->uart_baud = 115200;              /* reproduces Eq. 5.2's 2373.24 ms */
    c->uart_bits_per_char = 10;
    c->qlen = 10;
    c->mtu = 1500;                      /* 5.1: Ethernet MTU; the MCU buffer is 2 kB */
    c->channel = LINK_NFC_CHANNEL_SLOT; /* Fig. 5.6: packets cross both ways at once */
    c->module_buffer[0] = 0;            /* the appliance's side: one packet (5.2.2) */
    c->module_buffer[1] = 2048;         /* the PTx's side: its 2 kB MCU buffer (5.1) */
}

uint32_t link_nfc_slots(const struct link_nfc_config *c, uint16_t len)
{
    uint32_t pkt = (uint32_t)len + c->pkt_overhead;
    uint32_t pay = (uint32_t)c->chunk_bytes - c->chunk_overhead;
    return (pkt + pay - 1u) / pay;
}

int link_nfc_init(struct link_nfc *l, const struct link_nfc_config *cfg,
                  struct link_nfc_frame *ring[2], const uint8_t n_frames[2], uint8_t *mem[2],
                  const uint32_t mem_len[2])
{
    uint8_t d, i;
    if (cfg->slot_period_us == 0 || cfg->slot_air_us > cfg->slot_period_us ||
        cfg->chunk_bytes <= cfg->chunk_overhead || cfg->uart_baud == 0 ||
        cfg->uart_bits_per_char == 0 || cfg->mtu == 0)
        return ERR_ARG;
    memset(l, 0, sizeof *l);
    l->cfg = *cfg;
    l->last_dir = 1; /* so that end 0 goes first on the very first tie */
    for (d = 0; d < 2; d++) {
        struct link_nfc_end *e = &l->end[d];
        if (ring[d] == NULL || mem[d] == NULL || n_frames[d] == 0 || n_frames[d] > 127)
            return ERR_ARG;
        if (mem_len[d] < (uint32_t)n_frames[d] * cfg->mtu)
            return ERR_BUF;
        e->ring = ring[d];
        e->n = n_frames[d];
        e->held = -1;
        for (i = 0; i < e->n; i++) {
            memset(&e->ring[i], 0, sizeof e->ring[i]);
            e->ring[i].data = mem[d] + (uint32_t)i * cfg->mtu;
            e->ring[i].state = LINK_NFC_FREE;
        }
    }
    return ERR_OK;
}

void link_nfc_set_pause_fn(struct link_nfc *l, link_nfc_pause_fn fn, void *arg)
{
    l->on_pause = fn;
    l->pause_arg = arg;
}

static uint64_t link_nfc_slot_start(const struct link_nfc *l, uint64_t k)
{
    return l->cfg.slot_phase_us + k * l->cfg.slot_period_us;
}

/* The first slot index end d may be granted: after the channel's last grant, or after
 * its own when each slot carries a chunk each way. */
static uint64_t link_nfc_slots_free_from(const struct link_nfc *l, uint8_t d)
{
    if (l->cfg.channel == LINK_NFC_CHANNEL_PACKET)
        return l->next_slot;
    if (l->cfg.channel == LINK_NFC_CHANNEL_A_FIRST && d == LINK_DIR_BA &&
        l->end[LINK_DIR_AB].next_slot > l->end[d].next_slot)
        return l->end[LINK_DIR_AB].next_slot; /* end a's packet has the slots */
    return l->end[d].next_slot;
}

/* The first slot end d's packet ready (wholly in the module) at `ready` can use: its
 * chunk must be there lead_us before the slot starts; the slots must be free. */
static uint64_t link_nfc_first_slot(const struct link_nfc *l, uint8_t d, uint64_t ready)
{
    uint64_t need = ready + l->cfg.lead_us, k = 0, from = link_nfc_slots_free_from(l, d);
    if (need > l->cfg.slot_phase_us)
        k = (need - l->cfg.slot_phase_us + l->cfg.slot_period_us - 1u) / l->cfg.slot_period_us;
    return k > from ? k : from;
}

/* The packet still on (or waiting for) end d's stack-side UART whose first byte comes
 * first, or -1. */
static int link_nfc_next_queued(const struct link_nfc_end *e)
{
    int best = -1;
    uint8_t i;
    for (i = 0; i < e->n; i++) {
        if (e->ring[i].state == LINK_NFC_QUEUED &&
            (best < 0 || e->ring[i].uart_start < e->ring[best].uart_start))
            best = i;
    }
    return best;
}

/* The next internal decision: a module accept/discard (*kind 1) or a slot grant (*kind 2)
 * at *t for end *dir. Returns 0 if none is pending. Grants win ties: a grant never frees
 * a module at its own instant (the slot starts lead_us later). */
static int link_nfc_next_decision(const struct link_nfc *l, uint64_t *t, int *kind, uint8_t *dir,
                                  uint64_t *slot)
{
    uint8_t d;
    int has = 0;
    for (d = 0; d < 2; d++) {
        const struct link_nfc_end *e = &l->end[d];
        if (e->held >= 0 && e->ring[e->held].state == LINK_NFC_HELD) {
            uint64_t k = link_nfc_first_slot(l, d, e->ring[e->held].uart_end);
            uint64_t td = link_nfc_slot_start(l, k) - l->cfg.lead_us;
            /* Same slot for both ends: the one that did not send last goes first, or
             * end a when it has the slots first (end a is looked at first). */
            if (!has || td < *t ||
                (td == *t && *kind == 2 && d != l->last_dir &&
                 l->cfg.channel != LINK_NFC_CHANNEL_A_FIRST)) {
                *t = td;
                *kind = 2;
                *dir = d;
                *slot = k;
                has = 1;
            }
        }
    }
    for (d = 0; d < 2; d++) {
        int q = link_nfc_next_queued(&l->end[d]);
        if (q >= 0 && (!has || l->end[d].ring[q].uart_start < *t)) {
            *t = l->end[d].ring[q].uart_start;
            *kind = 1;
            *dir = d;
            has = 1;
        }
    }
    return has;
}

/* Bytes end d's module holds at t: its packets waiting for slots or still on the air. */
static uint32_t link_nfc_module_bytes(const struct link_nfc *l, uint8_t d, uint64_t t)
{
    const struct link_nfc_end *e = &l->end[d];
    uint32_t n = 0;
    uint8_t i;
    for (i = 0; i < e->n; i++) {
        const struct link_nfc_frame *f = &e->ring[i];
        if (f->state == LINK_NFC_HELD || (f->state == LINK_NFC_GRANTED && f->air_end > t))
            n += (uint32_t)f->len + l->cfg.pkt_overhead;
    }
    return n;
}

/* Whether end d's module refuses a packet whose first byte arrives at t (rule 3). */
static int link_nfc_module_refuses(const struct link_nfc *l, uint8_t d,
                                   const struct link_nfc_frame *f)
{
    const struct link_nfc_end *e = &l->end[d];
    uint64_t t = f->uart_start;
    uint16_t buffer = l->cfg.module_buffer[d];
    if (buffer == 0) {
        const struct link_nfc_frame *h = e->held >= 0 ? &e->ring[e->held] : NULL;
        return h != NULL && (h->state != LINK_NFC_GRANTED || h->air_end > t);
    }
    if (e->air_until > t && e->air_from <= t)
        return 1; /* transmitting */
    return link_nfc_module_bytes(l, d, t) + f->len + l->cfg.pkt_overhead > buffer;
}

/* The packet end d's module holds that is next to be granted slots, or -1. */
static int link_nfc_next_held(const struct link_nfc_end *e)
{
    int best = -1;
    uint8_t i;
    for (i = 0; i < e->n; i++) {
        if (e->ring[i].state == LINK_NFC_HELD &&
            (best < 0 || (int32_t)(e->ring[i].order - e->ring[best].order) < 0))
            best = i;
    }
    return best;
}

/* The module of end d gets the first byte of packet q: it takes it or discards it. */
static void link_nfc_module_decide(struct link_nfc *l, uint8_t d, int q)
{
    struct link_nfc_end *e = &l->end[d];
    struct link_nfc_frame *f = &e->ring[q];
    if (link_nfc_module_refuses(l, d, f)) {
        f->state = LINK_NFC_DROPPED;
        f->due = f->uart_start;
        e->stats.drop_module_busy++;
        return;
    }
    f->state = LINK_NFC_HELD;
    f->order = e->order++;
    if (e->held < 0 || e->ring[e->held].state != LINK_NFC_HELD)
        e->held = (int8_t)link_nfc_next_held(e);
}

/* Chunks first .. last - 1 of f in consecutive slots from k on, forwarded over the
 * receiving UART *rx as each slot ends (Eq. 5.6 for the last). Returns the end of the
 * last one's forwarding. */
static uint64_t link_nfc_chunks(const struct link_nfc *l, struct link_line *rx,
                                const struct link_nfc_frame *f, uint32_t first, uint32_t last,
                                uint64_t k)
{
    uint32_t pkt = (uint32_t)f->len + l->cfg.pkt_overhead;
    uint32_t pay = (uint32_t)l->cfg.chunk_bytes - l->cfg.chunk_overhead;
    uint64_t start = 0, end = rx->free_at;
    uint32_t i;
    for (i = first; i < last; i++) {
        uint32_t bytes = pkt - i * pay < pay ? pkt - i * pay : pay;
        end = link_line_send(rx, link_nfc_slot_start(l, k + i - first) + l->cfg.slot_air_us, bytes,
                             l->cfg.uart_bits_per_char, l->cfg.uart_baud, &start);
    }
    return end;
}

/* Places f's chunks from i_resume on at slots k_resume on: its air end, its delivery and
 * the slots its end can use next. */
static void link_nfc_place(struct link_nfc *l, struct link_nfc_end *e, struct link_nfc_frame *f)
{
    uint64_t k_end = f->k_resume + (uint64_t)(f->slots - f->i_resume);
    e->uart_rx = f->rx_resume;
    f->due = link_nfc_chunks(l, &e->uart_rx, f, f->i_resume, f->slots, f->k_resume);
    f->air_end = link_nfc_slot_start(l, k_end - 1u) + l->cfg.slot_air_us;
    e->next_slot = k_end;
    e->air_until = f->air_end;
}

/* LINK_NFC_CHANNEL_A_FIRST: end a takes slots k .. k + n - 1, so end b's packet on the
 * air keeps the chunks it sent before slot k and sends the rest after end a's. */
static void link_nfc_pause_b(struct link_nfc *l, uint64_t k, uint32_t n)
{
    struct link_nfc_end *e = &l->end[LINK_DIR_BA];
    uint8_t i;
    for (i = 0; i < e->n; i++) {
        struct link_nfc_frame *f = &e->ring[i];
        uint32_t sent = k > f->k_resume ? (uint32_t)(k - f->k_resume) : 0u;
        if (f->state != LINK_NFC_GRANTED || sent >= (uint32_t)(f->slots - f->i_resume))
            continue; /* wholly on the air before slot k */
        link_nfc_chunks(l, &f->rx_resume, f, f->i_resume, f->i_resume + sent, f->k_resume);
        f->i_resume = (uint16_t)(f->i_resume + sent);
        f->k_resume = k + n;
        link_nfc_place(l, e, f);
        if (l->on_pause)
            l->on_pause(l->pause_arg, f->tag, link_nfc_slot_start(l, k), n);
    }
}

/* End d's held packet gets slots k .. k + n - 1. */
static void link_nfc_grant(struct link_nfc *l, uint8_t d, uint64_t k)
{
    struct link_nfc_end *e = &l->end[d];
    struct link_nfc_frame *f = &e->ring[e->held];
    uint32_t n = link_nfc_slots(&l->cfg, f->len);
    int next;
    f->slots = (uint16_t)n;
    f->first_slot = link_nfc_slot_start(l, k);
    f->i_resume = 0;
    f->k_resume = k;
    f->rx_resume = e->uart_rx;
    link_nfc_place(l, e, f);
    f->state = LINK_NFC_GRANTED;
    e->stats.slots += n;
    l->next_slot = k + n;
    l->last_dir = d;
    e->air_from = f->first_slot - l->cfg.lead_us;
    if (l->cfg.channel == LINK_NFC_CHANNEL_A_FIRST && d == LINK_DIR_AB)
        link_nfc_pause_b(l, k, n);
    /* A buffering module's next packet waits for the slots after these. */
    next = link_nfc_next_held(e);
    if (next >= 0)
        e->held = (int8_t)next;
}

void link_nfc_advance(struct link_nfc *l, uint64_t now)
{
    uint64_t t = 0, k = 0;
    int kind = 0;
    uint8_t d = 0;
    while (link_nfc_next_decision(l, &t, &kind, &d, &k) && t <= now) {
        if (kind == 2)
            link_nfc_grant(l, d, k);
        else
            link_nfc_module_decide(l, d, link_nfc_next_queued(&l->end[d]));
    }
    if (now > l->now)
        l->now = now;
}

int link_nfc_submit(struct link_nfc *l, uint8_t dir, uint64_t t, const uint8_t *data, uint16_t len,
                    uint32_t tag)
{
    struct link_nfc_end *e;
    struct link_nfc_frame *f = NULL;
    uint8_t i, waiting = 0;
    if (dir > 1 || len == 0 || len > l->cfg.mtu)
        return ERR_ARG;
    link_nfc_advance(l, t);
    e = &l->end[dir];
    e->stats.submitted++;
    for (i = 0; i < e->n; i++) {
        if (e->ring[i].state == LINK_NFC_QUEUED && e->ring[i].uart_start > t)
            waiting++;
        if (e->ring[i].state == LINK_NFC_FREE && f == NULL)
            f = &e->ring[i];
    }
    if (e->uart_tx.free_at > t && waiting >= l->cfg.qlen) {
        e->stats.drop_queue_full++;
        return (int)DROP_LINK_QUEUE_FULL;
    }
    if (f == NULL)
        return ERR_MEM;
    memcpy(f->data, data, len);
    f->len = len;
    f->tag = tag;
    f->state = LINK_NFC_QUEUED;
    f->submitted = t;
    f->slots = 0;
    f->first_slot = f->air_end = 0;
    f->due = LINK_TIME_NEVER;
    f->uart_end = link_line_send(&e->uart_tx, t, (uint32_t)len + l->cfg.pkt_overhead,
                                 l->cfg.uart_bits_per_char, l->cfg.uart_baud, &f->uart_start);
    /* A packet whose first byte goes out now meets the module now. */
    link_nfc_advance(l, t);
    return ERR_OK;
}

uint64_t link_nfc_module_free_at(const struct link_nfc *l, uint8_t dir)
{
    const struct link_nfc_end *e = &l->end[dir & 1u];
    if (link_nfc_next_queued(e) >= 0)
        return LINK_TIME_NEVER; /* a packet is on its way to the module */
    if (e->held < 0)
        return l->now;
    if (e->ring[e->held].state != LINK_NFC_GRANTED)
        return LINK_TIME_NEVER;
    return e->ring[e->held].air_end;
}

int link_nfc_next_event(const struct link_nfc *l, uint64_t *t)
{
    uint64_t td = 0, k = 0, best = LINK_TIME_NEVER;
    int kind = 0;
    uint8_t d = 0, i;
    if (link_nfc_next_decision(l, &td, &kind, &d, &k))
        best = td;
    for (d = 0; d < 2; d++) {
        const struct link_nfc_end *e = &l->end[d];
        for (i = 0; i < e->n; i++) {
            const struct link_nfc_frame *f = &e->ring[i];
            if ((f->state == LINK_NFC_GRANTED || f->state == LINK_NFC_DROPPED) && f->due < best)
                best = f->due;
        }
        if (e->held >= 0 && e->ring[e->held].state == LINK_NFC_GRANTED &&
            e->ring[e->held].air_end > l->now && e->ring[e->held].air_end < best)
            best = e->ring[e->held].air_end;
    }
    if (best == LINK_TIME_NEVER)
        return 0;
    *t = best;
    return 1;
}

int link_nfc_take(struct link_nfc *l, uint64_t now, struct link_delivery *out)
{
    struct link_nfc_frame *f = NULL;
    uint8_t d, i, fd = 0, fi = 0;
    link_nfc_advance(l, now);
    for (d = 0; d < 2; d++) {
        for (i = 0; i < l->end[d].n; i++) {
            struct link_nfc_frame *c = &l->end[d].ring[i];
            if ((c->state == LINK_NFC_GRANTED || c->state == LINK_NFC_DROPPED) && c->due <= now &&
                (f == NULL || c->due < f->due)) {
                f = c;
                fd = d;
                fi = i;
            }
        }
    }
    if (f == NULL)
        return 0;
    memset(out, 0, sizeof *out);
    out->tag = f->tag;
    out->dir = fd;
    out->data = f->data;
    out->len = f->len;
    out->wire = NULL; /* the UI / packet-handling / NFC framing is proprietary */
    out->submitted = f->submitted;
    out->wire_start = f->uart_start;
    out->time = f->due;
    if (f->state == LINK_NFC_DROPPED) {
        out->fate = LINK_FATE_DROPPED;
        out->reason = DROP_NFC_MODULE_BUSY;
        out->wire_len = (uint32_t)f->len + l->cfg.pkt_overhead; /* what crossed the UART */
        out->wire_end = f->uart_end;
    } else {
        out->fate = LINK_FATE_DELIVERED;
        out->reason = DROP_NONE;
        out->wire_len =
            (uint32_t)f->len + l->cfg.pkt_overhead + (uint32_t)f->slots * l->cfg.chunk_overhead;
        out->wire_end = f->air_end;
        out->slots = f->slots;
        out->first_slot = f->first_slot;
        l->end[fd].stats.delivered++;
        if (l->end[fd].held == (int8_t)fi)
            l->end[fd].held = -1; /* delivered after its last slot: the module is free */
    }
    f->state = LINK_NFC_FREE;
    return 1;
}
