/* A datagram's passage: from the sender's hand (the capture tap, the faults, the link's
 * queue) to the receiver (a host's input, or a bridge that sends it on), with the trace
 * records of both ends. */
#include "world_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void world_open_add(struct world *w, uint32_t id, uint8_t link, uint8_t dir)
{
    if (w->n_open < sizeof w->open / sizeof w->open[0]) {
        w->open[w->n_open].id = id;
        w->open[w->n_open].link = link;
        w->open[w->n_open].dir = dir;
        w->n_open++;
    }
}

static void world_open_remove(struct world *w, uint32_t id)
{
    uint32_t i;
    for (i = 0; i < w->n_open; i++)
        if (w->open[i].id == id) {
            w->open[i] = w->open[--w->n_open];
            return;
        }
}

void world_link_event(struct world *w, uint8_t link, uint8_t dir, uint8_t kind, uint32_t value,
                      uint32_t frame, uint64_t t)
{
    uint8_t *r = trec_buf_begin(&w->trace, TREC_LINK, TREC_LINK_SIZE);
    if (!r)
        return;
    trec_wr64(r + TREC_LINK_OFF_TIME, t);
    trec_wr16(r + TREC_LINK_OFF_LINK, link);
    r[TREC_LINK_OFF_DIR] = dir;
    r[TREC_LINK_OFF_KIND] = kind;
    trec_wr32(r + TREC_LINK_OFF_VALUE, value);
    trec_wr32(r + TREC_LINK_OFF_FRAME, frame);
    trec_buf_commit(&w->trace, r);
}

/* Returns -1 when WORLD_FLIPS_MAX corrupted frames are already in flight. */
static int world_flip_remember(struct world *w, uint32_t id, int32_t bit)
{
    if (w->n_flips >= sizeof w->flips / sizeof w->flips[0])
        return -1;
    w->flips[w->n_flips].id = id;
    w->flips[w->n_flips].bit = bit;
    w->n_flips++;
    return 0;
}

static int32_t world_flip_take(struct world *w, uint32_t id)
{
    uint8_t i;
    for (i = 0; i < w->n_flips; i++)
        if (w->flips[i].id == id) {
            int32_t bit = w->flips[i].bit;
            w->flips[i] = w->flips[--w->n_flips];
            return bit;
        }
    return -1;
}

void world_frame_fate(struct world *w, uint32_t id, uint8_t link, uint8_t dir, uint8_t fate,
                      uint16_t reason, const struct link_delivery *d)
{
    uint8_t *r = trec_buf_begin(&w->trace, TREC_FATE, TREC_FATE_SIZE);
    if (!r)
        return;
    trec_wr32(r + TREC_FATE_OFF_ID, id);
    trec_wr16(r + TREC_FATE_OFF_LINK, link);
    r[TREC_FATE_OFF_DIR] = dir;
    r[TREC_FATE_OFF_FATE] = fate;
    trec_wr16(r + TREC_FATE_OFF_REASON, reason);
    if (d) {
        trec_wr64(r + TREC_FATE_OFF_T_WIRE, d->wire_start);
        trec_wr64(r + TREC_FATE_OFF_T_WIRE_END, d->wire_end);
        trec_wr64(r + TREC_FATE_OFF_T_END, d->time);
        trec_wr16(r + TREC_FATE_OFF_SLOTS, d->slots);
        trec_wr32(r + TREC_FATE_OFF_WIRE_LEN, d->wire_len);
        trec_wr64(r + TREC_FATE_OFF_FIRST_SLOT, d->first_slot);
    } else {
        trec_wr64(r + TREC_FATE_OFF_T_END, w->now);
    }
    trec_buf_commit(&w->trace, r);
}

/* What a frame looks like to the capture and to the analysis of its datagram. */
struct world_view {
    const uint8_t *frame; /* as captured */
    uint16_t len;
    const uint8_t *dgram; /* the IPv4 datagram (or ARP packet) inside */
    uint16_t dgram_len;
};

/* The TREC_FRAME record and the pcapng packet: what a sniffer sees. On a serial or NFC
 * link it sits beside the sender. An Ethernet link is captured at end a's NIC, as the NFC
 * paper's Wireshark ran on the PTx: what a sends appears as its stack built it, what it
 * receives padded to the 60-byte minimum the sending NIC put on the wire (eth.h). */
static void world_frame_tap(struct world *w, uint32_t id, uint8_t link, uint8_t dir, uint8_t node,
                            const struct world_view *v, uint32_t parent, uint8_t faults,
                            uint32_t rule)
{
    const uint8_t *data = v->frame;
    uint16_t len = v->len;
    struct world_link *l = &w->links[link];
    struct world_cause c = { 0xFF, TREC_NONE, 0, TREC_NONE };
    uint32_t pkt = l->iface >= 0 ? l->captured + 1 : 0;
    char comment[320];
    uint8_t *r;

    if (world_node_is_host(w, node))
        world_cause_frame(w, node, v->dgram, v->dgram_len, id, pkt, &c);
    r = trec_buf_begin_data(&w->trace, TREC_FRAME, TREC_FRAME_FIXED, data, len);
    if (r) {
        trec_wr32(r + TREC_FRAME_OFF_ID, id);
        trec_wr32(r + TREC_FRAME_OFF_PARENT, parent);
        trec_wr64(r + TREC_FRAME_OFF_T_SENT, w->now);
        trec_wr16(r + TREC_FRAME_OFF_LINK, link);
        r[TREC_FRAME_OFF_DIR] = dir;
        r[TREC_FRAME_OFF_RETX] = c.retx;
        trec_wr16(r + TREC_FRAME_OFF_LEN, len);
        r[TREC_FRAME_OFF_FAULTS] = faults;
        r[TREC_FRAME_OFF_NODE] = node;
        trec_wr32(r + TREC_FRAME_OFF_ORIG, c.orig);
        trec_wr32(r + TREC_FRAME_OFF_CAUSE, c.cause);
        trec_wr32(r + TREC_FRAME_OFF_QUEUE, l->last_queue[dir]);
        trec_wr32(r + TREC_FRAME_OFF_RULE, rule);
        trec_buf_commit(&w->trace, r);
    }
    if (l->iface >= 0)
        l->captured++;
    /* The comment and the block are most of a frame's cost after the stacks' own work:
     * made only for a caller that takes the file. */
    if (l->iface >= 0 && !w->cfg.pcapng_off) {
        size_t n =
            world_state_comment(w, node, v->dgram, v->dgram_len, &c, comment, sizeof comment);
        if (parent != TREC_NONE && n < sizeof comment)
            snprintf(comment + n, sizeof comment - n, "%sforwarded by %s", n ? "; " : "",
                     w->cfg.bridges[node - w->cfg.n_hosts]);
        pcapng_packet(&w->pcapng, (uint32_t)l->iface, w->now, data, len, len,
                      dir == LINK_DIR_AB ? PCAPNG_DIR_OUT : PCAPNG_DIR_IN,
                      comment[0] ? comment : NULL);
    }
}

static void world_frame_submit(struct world *w, uint8_t link, uint8_t dir, const uint8_t *data,
                               uint16_t len, uint32_t id)
{
    uint32_t queue = 0;
    int rc;
    if (w->links[link].cfg.type == WORLD_LINK_EXTERNAL && dir == LINK_DIR_BA) {
        world_port_deliver(w, link, data, len, id);
        return;
    }
    rc = world_link_submit(w, link, dir, data, len, id, &queue);
    if (rc == WORLD_SUBMIT_DONE)
        return;
    if (rc > 0) {
        world_frame_fate(w, id, link, dir, TREC_FATE_DROPPED, (uint16_t)rc, NULL);
        return;
    }
    if (rc < 0) {
        world_frame_fate(w, id, link, dir, TREC_FATE_DROPPED, DROP_NETIF_DOWN, NULL);
        return;
    }
    world_open_add(w, id, link, dir);
}

/* Holds a delayed frame until its time (a WEV_FRAME_SUBMIT event). */
static int world_hold(struct world *w, uint8_t link, uint8_t dir, const uint8_t *data, uint16_t len,
                      uint32_t id, uint32_t delay_us)
{
    uint32_t i;
    struct sim_event ev = { 0 };
    for (i = 0; i < sizeof w->held / sizeof w->held[0]; i++)
        if (!w->held[i].data)
            break;
    if (i == sizeof w->held / sizeof w->held[0])
        return -1;
    ev.time = w->now + delay_us;
    ev.kind = WEV_FRAME_SUBMIT;
    ev.target = link;
    ev.arg = i;
    w->held[i].data = malloc(len);
    if (!w->held[i].data)
        return -1;
    if (sim_queue_push(&w->queue, &ev) != 0) {
        free(w->held[i].data);
        w->held[i].data = NULL;
        return -1;
    }
    w->held[i].id = id;
    w->held[i].dir = dir;
    w->held[i].len = len;
    memcpy(w->held[i].data, data, len);
    world_open_add(w, id, link, dir);
    return 0;
}

void world_frame_submit_held(struct world *w, uint8_t link, uint32_t slot)
{
    struct world_held *hd;
    if (slot >= sizeof w->held / sizeof w->held[0] || !w->held[slot].data)
        return;
    hd = &w->held[slot];
    world_open_remove(w, hd->id);
    world_frame_submit(w, link, hd->dir, hd->data, hd->len, hd->id);
    free(hd->data);
    hd->data = NULL;
}

/* The view of a frame of len bytes sent in direction dir of link: on Ethernet, a frame from
 * end b is padded into pad[] (the capture is at end a, world_frame_tap) and the datagram is
 * what follows the 14-byte header. */
static void world_frame_view(const struct world *w, uint8_t link, uint8_t dir, const uint8_t *data,
                             uint16_t len, uint8_t pad[ETH_MIN_FRAME], struct world_view *v)
{
    v->frame = v->dgram = data;
    v->len = v->dgram_len = len;
    if (!world_link_is_eth(w, link) || len < ETH_HDR_LEN)
        return;
    v->dgram = data + ETH_HDR_LEN;
    v->dgram_len = (uint16_t)(len - ETH_HDR_LEN);
    if (len < ETH_MIN_FRAME) {
        memcpy(pad, data, len);
        if (dir == LINK_DIR_BA) {
            v->frame = pad;
            v->len = eth_pad(pad, len);
        }
    }
}

/* One frame from `node` onto `link` in direction dir: faults decide (on the datagram it
 * carries), the tap records, the link takes it (now, later, twice or never), padded on
 * Ethernet as the sending NIC pads. */
void world_frame_send(struct world *w, uint8_t link, uint8_t dir, uint8_t node, const uint8_t *data,
                      uint16_t len, uint32_t parent)
{
    struct world_link *l = &w->links[link];
    struct fault_verdict v;
    struct world_view view;
    uint8_t pad[ETH_MIN_FRAME];
    uint32_t id = w->next_frame++;
    uint8_t faults = 0;
    uint32_t rule;

    world_frame_view(w, link, dir, data, len, pad, &view);
    fault_decide(l->cfg.faults, l->cfg.n_faults, dir, view.dgram, view.dgram_len, &w->rng, &v);
    rule = v.rule >= 0 ? (uint32_t)v.rule : TREC_NONE;
    if (v.flip_bit >= 0)
        faults |= TREC_FAULT_CORRUPTED;
    if (v.delay_us)
        faults |= TREC_FAULT_DELAYED;
    world_frame_tap(w, id, link, dir, node, &view, parent, faults, rule);
    if (v.drop) {
        world_frame_fate(w, id, link, dir, TREC_FATE_DROPPED, (uint16_t)v.reason, NULL);
        return;
    }
    if (view.dgram != data) { /* the bit is the datagram's: past the Ethernet header */
        if (v.flip_bit >= 0)
            v.flip_bit += ETH_HDR_LEN * 8;
        if (len < ETH_MIN_FRAME) {
            data = pad;
            len = eth_pad(pad, len);
        }
    }
    /* A corrupted frame whose flip cannot be kept would arrive intact although the
     * capture shows it corrupted: it is dropped instead, as a full queue would. */
    if (v.flip_bit >= 0 && world_flip_remember(w, id, v.flip_bit) != 0) {
        world_frame_fate(w, id, link, dir, TREC_FATE_DROPPED, DROP_LINK_QUEUE_FULL, NULL);
        return;
    }
    if (v.delay_us) {
        if (world_hold(w, link, dir, data, len, id, v.delay_us) != 0)
            world_frame_fate(w, id, link, dir, TREC_FATE_DROPPED, DROP_LINK_QUEUE_FULL, NULL);
    } else {
        world_frame_submit(w, link, dir, data, len, id);
    }
    if (v.duplicate) { /* the copy follows the original, delayed with it if it is */
        uint32_t dup = w->next_frame++;
        world_frame_tap(w, dup, link, dir, node, &view, parent,
                        (uint8_t)(TREC_FAULT_DUPLICATE | (faults & TREC_FAULT_DELAYED)), rule);
        if (!v.delay_us)
            world_frame_submit(w, link, dir, data, len, dup);
        else if (world_hold(w, link, dir, data, len, dup, v.delay_us) != 0)
            world_frame_fate(w, dup, link, dir, TREC_FATE_DROPPED, DROP_LINK_QUEUE_FULL, NULL);
    }
}

/* The netif output of every host: its one link, in its direction, once the host's call
 * returns (world_flush). An outbox entry: link, dir, node, length (2 bytes), datagram. */
#define WORLD_OUTBOX_HDR 5

int world_netif_output(void *ctx, uint8_t netif, const uint8_t *dgram, uint16_t len)
{
    struct world_end *e = ctx;
    struct world *w = e->w;
    struct world_link *l = &w->links[e->link];
    uint8_t *p = sim_buf_reserve(&w->outbox, w->outbox.len + WORLD_OUTBOX_HDR + len);
    (void)netif;
    if (!p)
        return -1; /* counted by the stack as DROP_NETIF_DOWN */
    p[0] = e->link;
    p[1] = e->dir;
    p[2] = e->dir == LINK_DIR_AB ? l->cfg.a : l->cfg.b;
    p[3] = (uint8_t)(len >> 8);
    p[4] = (uint8_t)len;
    memcpy(p + WORLD_OUTBOX_HDR, dgram, len);
    w->outbox.len += WORLD_OUTBOX_HDR + len;
    /* One more frame of the host's not yet sent out (TCP small queues), before its next
     * segment; world_link_signals() sets the count from the link as frames leave. */
    if (world_node_is_host(w, p[2])) {
        struct host *h = &w->hosts[p[2]].h;
        if (h->netifs[0].unsent < 255)
            h->netifs[0].unsent++;
    }
    /* An NFC module's busy line rises as the stack starts writing to its UART, before the
     * stack's next segment: tell the host now, not when its call returns. */
    if (l->cfg.type == WORLD_LINK_NFC && world_node_is_host(w, p[2])) {
        struct world_host *wh = &w->hosts[p[2]];
        wh->port_busy = 1;
        host_set_netif_busy(&wh->h, 0, 1, (stack_time_t)w->now);
    }
    return 0;
}

void world_flush(struct world *w)
{
    size_t off = 0;
    uint8_t i;
    while (off < w->outbox.len) {
        const uint8_t *p = w->outbox.p + off;
        uint16_t len = (uint16_t)(p[3] << 8 | p[4]);
        uint8_t link = p[0], dir = p[1], node = p[2];
        /* Sent from the outbox itself: nothing adds to it while a frame is sent (only a
         * host's output does; a frame reaches a host only from a link's event, or from an
         * external link's end b, which is no host's output: world_port_deliver). */
        off += WORLD_OUTBOX_HDR + len;
        world_frame_send(w, link, dir, node, p + WORLD_OUTBOX_HDR, len, TREC_NONE);
    }
    w->outbox.len = 0;
    for (i = 0; i < w->cfg.n_hosts; i++)
        w->hosts[i].n_retx = 0;
}

/* A channel-sensing bridge keeps, in order, what it would send into a busy NFC module (or
 * behind datagrams it already keeps); others send at once. With its queue full it sends
 * anyway, and the module decides. */
static void world_bridge_forward(struct world *w, uint8_t node, uint8_t link, uint8_t dir,
                                 const uint8_t *data, uint16_t len, uint32_t parent)
{
    uint8_t b = (uint8_t)(node - w->cfg.n_hosts);
    struct world_bridge_hold *h = &w->bridge_hold[b];
    const struct world_link *l = &w->links[link];
    if (l->cfg.type == WORLD_LINK_ETHERNET) {
        world_eth_bridge_send(w, node, link, data, len, parent);
        return;
    }
    if (w->cfg.bridge_sensing[b] && l->cfg.type == WORLD_LINK_NFC &&
        (h->n > 0 || world_nfc_busy(l, dir, w->now)) && h->n < WORLD_BRIDGE_HOLD) {
        uint8_t i = (uint8_t)((h->head + h->n) % WORLD_BRIDGE_HOLD);
        h->q[i].data = malloc(len);
        if (h->q[i].data) {
            memcpy(h->q[i].data, data, len);
            h->q[i].len = len;
            h->q[i].parent = parent;
            h->q[i].link = link;
            h->q[i].dir = dir;
            h->n++;
            return;
        }
    }
    world_frame_send(w, link, dir, node, data, len, parent);
}

/* A bridge: out of its other link, as it came (the datagram, out of an Ethernet frame). */
static void world_bridge_input(struct world *w, uint8_t node, uint8_t link, const uint8_t *data,
                               uint16_t len, uint32_t parent)
{
    uint8_t other;
    if (world_link_is_eth(w, link)) {
        if (!world_eth_bridge_input(w, node, link, data, len, &len))
            return;
        data += ETH_HDR_LEN;
    }
    for (other = 0; other < w->cfg.n_links; other++) {
        const struct world_link_config *c = &w->links[other].cfg;
        if (other != link && (c->a == node || c->b == node)) {
            world_bridge_forward(w, node, other, c->a == node ? LINK_DIR_AB : LINK_DIR_BA, data,
                                 len, parent);
            return;
        }
    }
}

/* A delivery or drop handed out by a link model. */
void world_frame_deliver(struct world *w, uint8_t link, const struct link_delivery *d)
{
    struct world_link *l = &w->links[link];
    uint8_t node = world_rx_node(l, d->dir);
    uint8_t fate = d->fate == LINK_FATE_DELIVERED ? TREC_FATE_DELIVERED
                   : d->fate == LINK_FATE_DROPPED ? TREC_FATE_DROPPED
                                                  : TREC_FATE_UNFINISHED;
    int32_t bit = world_flip_take(w, d->tag);

    world_open_remove(w, d->tag);
    world_frame_fate(w, d->tag, link, d->dir, fate, (uint16_t)d->reason, d);
    if (d->slots)
        world_link_event(w, link, d->dir, TREC_LINK_NFC_SLOTS, d->slots, d->tag, d->first_slot);
    if (fate != TREC_FATE_DELIVERED || node == WORLD_NODE_NONE)
        return;
    /* The receiver takes the bytes where the link left them (link_line.h), not a copy. */
    if (bit >= 0 && (uint32_t)bit < (uint32_t)d->len * 8u)
        d->data[bit >> 3] ^= (uint8_t)(0x80u >> (bit & 7));
    if (world_node_is_host(w, node)) {
        host_input(&w->hosts[node].h, 0, d->data, d->len, (stack_time_t)w->now);
        world_flush(w);
        return;
    }
    world_bridge_input(w, node, link, d->data, d->len, d->tag);
}

void world_bridge_release(struct world *w, uint8_t bridge, uint8_t link, uint8_t dir)
{
    struct world_bridge_hold *h = &w->bridge_hold[bridge];
    uint8_t *data;
    uint16_t len;
    uint32_t parent;
    if (h->n == 0 || h->q[h->head].link != link || h->q[h->head].dir != dir)
        return;
    data = h->q[h->head].data;
    len = h->q[h->head].len;
    parent = h->q[h->head].parent;
    h->head = (uint8_t)((h->head + 1u) % WORLD_BRIDGE_HOLD);
    h->n--;
    world_frame_send(w, link, dir, (uint8_t)(w->cfg.n_hosts + bridge), data, len, parent);
    free(data);
}
