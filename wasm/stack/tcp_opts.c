/* TCP options (RFC 9293 3.1): their lengths, writing them on our segments and parsing
 * the peer's. MSS (RFC 9293 3.7.1, RFC 6691), timestamps (RFC 7323) and SACK (RFC 2018);
 * other kinds are skipped by their length. */
#include <string.h>

#include "bytes.h"
#include "tcp_pcb.h"

uint16_t tcp_opt_len(const struct tcp_pcb *pcb)
{
    return pcb->ts_ok ? TCP_OPT_TS_LEN : 0;
}

/* RFC 6691 / RFC 9293 3.7.1: the MSS counts data only, so options come out of it. */
uint16_t tcp_seg_max(const struct host *h, const struct tcp_pcb *pcb)
{
    uint16_t opt = tcp_opt_len(pcb);
    uint16_t m = pcb->mss > opt ? (uint16_t)(pcb->mss - opt) : 1;
    uint16_t cap = (uint16_t)(ip_tx_capacity(h) - TCP_HLEN - opt);
    return m < cap ? m : cap;
}

static uint32_t tcp_ts_now(const struct host *h)
{
    return h->tcp.clk_ms;
}

static void write_ts(uint8_t *p, uint32_t val, uint32_t ecr)
{
    /* RFC 7323 Appendix A layout: NOP, NOP, kind 8, length 10, TSval, TSecr. */
    p[0] = 1;
    p[1] = 1;
    p[2] = 8;
    p[3] = 10;
    wr32(p + 4, val);
    wr32(p + 8, ecr);
}

/* RFC 2018 2: offer SACK on our SYN; answer with it only if the peer's SYN offered it. */
static int syn_offers_sack(const struct host *h, const struct tcp_pcb *pcb)
{
    return STACK_SACK && HOST_CFG(h).tcp_sack && (pcb->state == TCP_SYN_SENT || tcp_sack_on(pcb));
}

uint16_t tcp_syn_opt_len(const struct host *h, const struct tcp_pcb *pcb)
{
    uint16_t n = 4;
    if (HOST_CFG(h).tcp_timestamps && (pcb->state == TCP_SYN_SENT || pcb->ts_ok))
        n += TCP_OPT_TS_LEN;
    if (syn_offers_sack(h, pcb))
        n += TCP_OPT_SACKOK_LEN;
    return n;
}

/* Our options for a SYN (or SYN-ACK); returns their length. */
static uint16_t tcp_opts_write_syn(struct host *h, const struct tcp_pcb *pcb, uint8_t *p)
{
    uint16_t n = 4;
    /* RFC 9293 3.2: MSS, kind 2, length 4, only on SYN segments. */
    p[0] = 2;
    p[1] = 4;
    wr16(p + 2, pcb->rcv_mss);
    /* RFC 7323 3.2: offer TSopt on the SYN; answer with it only if the SYN had one. */
    if (HOST_CFG(h).tcp_timestamps && (pcb->state == TCP_SYN_SENT || pcb->ts_ok)) {
        write_ts(p + n, tcp_ts_now(h), pcb->state == TCP_SYN_SENT ? 0 : pcb->ts_recent);
        n += TCP_OPT_TS_LEN;
    }
    if (syn_offers_sack(h, pcb)) {
        /* NOP, NOP, kind 4, length 2 (RFC 2018 2), padded to a 32-bit boundary. */
        p[n] = 1;
        p[n + 1] = 1;
        p[n + 2] = 4;
        p[n + 3] = 2;
        n += TCP_OPT_SACKOK_LEN;
    }
    return n;
}

int tcp_opts_parse(const uint8_t *p, uint16_t len, struct tcp_opts *o)
{
    uint16_t i = 0;
    memset(o, 0, sizeof *o);
    while (i < len) {
        uint8_t kind = p[i], olen;
        if (kind == 0) /* end of option list */
            break;
        if (kind == 1) { /* no-operation */
            i++;
            continue;
        }
        if (i + 1 >= len)
            return -1;
        olen = p[i + 1];
        if (olen < 2 || olen > len - i)
            return -1;
        if (kind == 2) {
            if (olen != 4)
                return -1;
            o->has_mss = 1;
            o->mss = rd16(p + i + 2);
        } else if (kind == 8) {
            if (olen != 10)
                return -1;
            o->has_ts = 1;
            o->ts_val = rd32(p + i + 2);
            o->ts_ecr = rd32(p + i + 6);
        }
#if STACK_SACK
        else if (kind == 4 && olen == 2) {
            o->sack_perm = 1; /* RFC 2018 2 */
        } else if (kind == 5 && olen >= 10 && (olen - 2u) % 8u == 0) {
            /* RFC 2018 3: blocks of left and right edges; more than fit in 40 bytes
             * cannot be, and a block of the wrong length is skipped as unknown. */
            uint16_t b;
            for (b = 0; b < (olen - 2u) / 8u && o->n_sack < TCP_SACK_MAX_BLOCKS; b++) {
                o->sack_l[o->n_sack] = rd32(p + i + 2 + 8u * b);
                o->sack_r[o->n_sack] = rd32(p + i + 6 + 8u * b);
                o->n_sack++;
            }
        }
#endif
        /* RFC 9293 3.1: other kinds (window scale, ...) are skipped by their length. */
        i = (uint16_t)(i + olen);
    }
    return 0;
}

/* The options of a segment we send (SYN or not), written at p (just past the fixed TCP
 * header); returns their length. `len` is the segment's data, which SACK blocks must
 * leave room for. */
uint16_t tcp_opts_write(struct host *h, const struct tcp_pcb *pcb, uint8_t *p, uint8_t flags,
                        uint16_t len)
{
    uint16_t n = 0;
    (void)len; /* only SACK blocks need it */
    if (flags & TCP_SYN)
        return tcp_opts_write_syn(h, pcb, p);
    if (pcb->ts_ok) {
        write_ts(p, tcp_ts_now(h), pcb->ts_recent);
        n = TCP_OPT_TS_LEN;
    }
#if STACK_SACK
    if ((flags & TCP_ACK) && pcb->sack_ok && pcb->ooo.n > 0) {
        /* RFC 2018 4: while out-of-order data is held, every ACK carries SACK blocks, as
         * many as fit in the 40 option bytes and, with data, in the MSS and the
         * interface (RFC 6691: options come out of the MSS). */
        uint32_t room = TCP_OPT_MAX_LEN - n;
        uint32_t cap = (uint32_t)ip_tx_capacity(h) - TCP_HLEN;
        if (len && pcb->mss < cap)
            cap = pcb->mss;
        cap = cap > (uint32_t)n + len ? cap - n - len : 0;
        if (room > cap)
            room = cap;
        n = (uint16_t)(n + tcp_sack_write(pcb, p + n, (uint16_t)room));
    }
#endif
    return n;
}
