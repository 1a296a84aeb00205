/* CSLIP, RFC 1144: state set-up and the pieces shared by both directions. The compressor
 * is in vj_compress.c, the decompressor in vj_decompress.c; vj.h describes the format. */
#include "vj.h"

#include <stddef.h>
#include <string.h>

#include "stack_err.h"

int vj_init(struct vj_state *s, struct vj_slot *tx, uint8_t n_tx, struct vj_slot *rx, uint8_t n_rx)
{
    uint8_t i;
    if (n_tx > VJ_MAX_SLOTS || n_rx > VJ_MAX_SLOTS || (n_tx && !tx) || (n_rx && !rx))
        return ERR_ARG;
    s->tx = n_tx ? tx : NULL;
    s->n_tx = n_tx;
    s->rx = n_rx ? rx : NULL;
    s->n_rx = n_rx;

    /* RFC 1144 A.2 sl_compress_init(): a ring n-1 -> n-2 -> ... -> 0 -> n-1 with last_cs
     * (the oldest) at slot 0, so the first connection seen takes slot 0, the next slot 1,
     * and so on. */
    for (i = 0; i < n_tx; i++) {
        tx[i].hlen = 0;
        tx[i].next = (uint8_t)(i == 0 ? n_tx - 1u : i - 1u);
    }
    for (i = 0; i < n_rx; i++) {
        rx[i].hlen = 0;
        rx[i].next = 0;
    }
    s->last_cs = 0;
    s->last_xmit = 0xFF;
    s->compress_cid = 1;
    s->last_recv = 0xFF;
    s->toss = 1;
    s->last_error = DROP_NONE;
    memset(&s->stats, 0, sizeof s->stats);
    return ERR_OK;
}

uint8_t vj_frame_type(uint8_t first)
{
    uint8_t c = (uint8_t)(first & 0xF0u);
    /* RFC 1144 A.1 (sl input): IP version 4 is TYPE_IP, any byte with the top bit set is
     * COMPRESSED_TCP, 0x7X is UNCOMPRESSED_TCP; the rest is nothing we know. */
    if (c == VJ_TYPE_IP)
        return VJ_TYPE_IP;
    if (c & VJ_TYPE_COMPRESSED_TCP)
        return VJ_TYPE_COMPRESSED_TCP;
    if (c == VJ_TYPE_UNCOMPRESSED_TCP)
        return VJ_TYPE_UNCOMPRESSED_TCP;
    return VJ_TYPE_ERROR;
}

void vj_decompress_error(struct vj_state *s)
{
    /* RFC 1144 4.1: after a damaged or lost frame, the deltas of the frames that follow
     * apply to a header we no longer have. */
    s->toss = 1;
    s->stats.in_link_errors++;
}
