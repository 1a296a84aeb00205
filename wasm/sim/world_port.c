/* The external link of real-time mode: end a is a host of the world, end b is the caller's
 * serial port (the page's Web Serial port, or an emulated Arduino's USART). Datagrams the
 * host sends are SLIP (or SLIP6) encoded into a byte buffer the caller drains; bytes the
 * caller received are decoded by the stack's own SLIP decoder and handed to the host at
 * the world's current time, which the caller sets with world_run_until(). Both directions
 * pass the capture tap like any other link; a frame is delivered the moment it is handed
 * over (the real line's timing is the real line's business). */
#include "world_internal.h"

#include <stdlib.h>
#include <string.h>

int world_port_build(struct world *w, struct world_link *l)
{
    uint16_t mtu = l->cfg.serial.mtu;
    (void)w;
    if (l->cfg.serial.framing == LINK_SERIAL_CSLIP || mtu < 68)
        return ERR_ARG;
    l->storage = malloc(mtu);
    if (!l->storage)
        return ERR_MEM;
    l->rx_buf = l->storage;
    slip_decoder_init(&l->rx_slip, l->rx_buf, mtu);
    slip6_decoder_init(&l->rx_slip6, l->rx_buf, mtu);
    return ERR_OK;
}

/* The host sent a datagram: frame it for the port and record its (immediate) delivery. */
int world_port_send(struct world *w, uint8_t link, const uint8_t *data, uint16_t len, uint32_t id)
{
    struct world_link *l = &w->links[link];
    struct link_delivery d;
    int32_t n = l->cfg.serial.framing == LINK_SERIAL_SLIP6
                    ? slip6_encode(data, len, w->scratch, 0xFFFFu, 1)
                    : slip_encode(data, len, w->scratch, 0xFFFFu, 1);
    if (n < 0)
        return n;
    if (sim_buf_append(&l->tx, w->scratch, (size_t)n) != 0)
        return ERR_MEM;
    memset(&d, 0, sizeof d);
    d.wire_start = d.wire_end = d.time = w->now;
    d.wire_len = (uint32_t)n;
    world_frame_fate(w, id, link, LINK_DIR_AB, TREC_FATE_DELIVERED, 0, &d);
    return WORLD_SUBMIT_DONE;
}

uint32_t world_port_output(struct world *w, uint8_t link, uint8_t *buf, uint32_t cap)
{
    struct world_link *l;
    uint32_t n;
    if (link >= w->cfg.n_links || w->links[link].cfg.type != WORLD_LINK_EXTERNAL)
        return 0;
    l = &w->links[link];
    n = l->tx.len < cap ? (uint32_t)l->tx.len : cap;
    memcpy(buf, l->tx.p, n);
    memmove(l->tx.p, l->tx.p + n, l->tx.len - n);
    l->tx.len -= n;
    return n;
}

/* A frame from the port reaches the host the moment it is whole (after the faults). */
void world_port_deliver(struct world *w, uint8_t link, const uint8_t *data, uint16_t len,
                        uint32_t id)
{
    struct world_link *l = &w->links[link];
    struct link_delivery d;
    memset(&d, 0, sizeof d);
    d.tag = id;
    d.dir = LINK_DIR_BA;
    d.fate = LINK_FATE_DELIVERED;
    /* The receiver may change the bytes in place (link_line.h): a copy of the caller's. */
    memcpy(w->scratch, data, len);
    d.data = w->scratch;
    d.len = len;
    d.wire_start = d.wire_end = d.time = w->now;
    d.wire_len = l->rx_wire;
    world_frame_deliver(w, link, &d);
}

/* Frames came in between two steps of the world: the applications get their turn now, as
 * in a step after a delivery (world.c, world_step), so what they make of the frames (a
 * tcp_client's "Connected", its data) is written at the time of the input, whenever the
 * caller runs the world next. Every host is polled first, so that the socket calls the
 * applications make carry this time. */
static void world_port_settle(struct world *w)
{
    uint8_t i;
    for (i = 0; i < w->cfg.n_hosts; i++) {
        host_poll(&w->hosts[i].h, (stack_time_t)w->now);
        world_flush(w);
    }
    world_apps_poll(w);
    for (i = 0; i < w->cfg.n_links; i++)
        world_link_signals(w, i);
}

int world_port_input(struct world *w, uint8_t link, const uint8_t *bytes, uint32_t n)
{
    struct world_link *l;
    uint32_t i, frames = 0;
    if (link >= w->cfg.n_links || w->links[link].cfg.type != WORLD_LINK_EXTERNAL)
        return ERR_ARG;
    l = &w->links[link];
    for (i = 0; i < n; i++) {
        enum slip_result r = l->cfg.serial.framing == LINK_SERIAL_SLIP6
                                 ? slip6_decode_byte(&l->rx_slip6, bytes[i])
                                 : slip_decode_byte(&l->rx_slip, bytes[i]);
        l->rx_count++;
        if (r == SLIP_FRAME_DONE) {
            uint16_t len =
                l->cfg.serial.framing == LINK_SERIAL_SLIP6 ? l->rx_slip6.len : l->rx_slip.len;
            l->rx_wire = l->rx_count;
            l->rx_count = 0;
            world_frame_send(w, link, LINK_DIR_BA, WORLD_NODE_NONE, l->rx_buf, len, TREC_NONE);
            frames++;
        } else if (r == SLIP_FRAME_ERROR) {
            enum drop_reason why = l->cfg.serial.framing == LINK_SERIAL_SLIP6
                                       ? l->rx_slip6.last_error
                                       : l->rx_slip.last_error;
            host_drop(&w->hosts[l->cfg.a].h, why, 0,
                      (uint16_t)(l->rx_count > 0xFFFF ? 0xFFFF : l->rx_count));
            l->rx_count = 0;
        }
    }
    if (frames)
        world_port_settle(w);
    return ERR_OK;
}
