/* Cause links: every stack event becomes a trace record, and a retransmitted segment is tied
 * to the event that re-sent it, to the timer expiry or duplicate ACK behind that event, and
 * to the frame that first carried the same sequence number. That is what lets the page say
 * "re-sends frame 12 because timer 4 expired" where Wireshark can only guess. */
#include "world_internal.h"

#include <stdio.h>
#include <string.h>

#include "bytes.h"
#include "ip.h"
#include "tcp.h"
#include "text_fmt.h"

static uint8_t world_host_index(const struct world *w, const struct host *h)
{
    uint8_t i;
    for (i = 0; i < w->cfg.n_hosts; i++)
        if (&w->hosts[i].h == h)
            return i;
    return 0xFF;
}

static uint32_t world_event_cause(struct world_host *wh, const struct trace_event *ev)
{
    if (ev->kind != TRACE_RETRANSMIT || ev->conn >= WORLD_MAX_CONNS)
        return TREC_NONE;
    switch (TRACE_FIELD(ev, TRACE_RETRANSMIT_cause)) {
    case TCP_RETX_FAST:
    case TCP_RETX_PARTIAL_ACK:
    case TCP_RETX_SACK_LOSS: return wh->last_dupack[ev->conn];
    default: return wh->last_expire[ev->conn];
    }
}

void world_tracer(void *ctx, const struct host *h, const struct trace_event *ev)
{
    struct world *w = ctx;
    uint8_t hi = world_host_index(w, h);
    struct world_host *wh;
    uint32_t seq = w->next_event++, cause;

    if (hi == 0xFF)
        return;
    wh = &w->hosts[hi];
    cause = world_event_cause(wh, ev);
    if (ev->conn < WORLD_MAX_CONNS) {
        if (ev->kind == TRACE_RTO_EXPIRE)
            wh->last_expire[ev->conn] = seq;
        else if (ev->kind == TRACE_DUPACK)
            wh->last_dupack[ev->conn] = seq;
    }
    if (ev->kind == TRACE_RETRANSMIT && wh->n_retx < sizeof wh->retx / sizeof wh->retx[0]) {
        struct world_retx *x = &wh->retx[wh->n_retx++];
        x->lport = ev->lport;
        x->rport = ev->rport;
        x->seq = TRACE_FIELD(ev, TRACE_RETRANSMIT_seq);
        x->event = seq;
        x->cause = (uint8_t)TRACE_FIELD(ev, TRACE_RETRANSMIT_cause);
    }
    world_event_write(w, hi, seq, ev, cause);
}

void world_event_write(struct world *w, uint8_t node, uint32_t seq, const struct trace_event *ev,
                       uint32_t cause)
{
    uint8_t *r = trec_buf_begin(&w->trace, TREC_EVENT, TREC_EVENT_SIZE);
    if (!r)
        return;
    trec_wr64(r + TREC_EVENT_OFF_TIME, w->now);
    trec_wr32(r + TREC_EVENT_OFF_SEQ, seq);
    trec_wr16(r + TREC_EVENT_OFF_KIND, ev->kind);
    r[TREC_EVENT_OFF_HOST] = node;
    r[TREC_EVENT_OFF_CONN] = ev->conn;
    trec_wr16(r + TREC_EVENT_OFF_LPORT, ev->lport);
    trec_wr16(r + TREC_EVENT_OFF_RPORT, ev->rport);
    trec_wr32(r + TREC_EVENT_OFF_A, ev->a);
    trec_wr32(r + TREC_EVENT_OFF_A + 4, ev->b);
    trec_wr32(r + TREC_EVENT_OFF_A + 8, ev->c);
    trec_wr32(r + TREC_EVENT_OFF_A + 12, ev->d);
    trec_wr32(r + TREC_EVENT_OFF_CAUSE, cause);
    trec_buf_commit(&w->trace, r);
}

/* The TCP header of an unfragmented IPv4 datagram, or NULL. */
static const uint8_t *world_tcp_header(const uint8_t *d, uint16_t len, uint16_t *tcp_len)
{
    uint16_t ihl;
    if (len < IP_HLEN || (d[IP_OFF_VHL] >> 4) != 4 || d[IP_OFF_PROTO] != IP_PROTO_TCP)
        return NULL;
    ihl = (uint16_t)((d[IP_OFF_VHL] & 0x0F) * 4u);
    if ((rd16(d + IP_OFF_FRAG) & 0x3FFF) != 0 || len < ihl + TCP_HLEN)
        return NULL;
    *tcp_len = (uint16_t)(len - ihl);
    return d + ihl;
}

/* Does the segment occupy sequence space (data, SYN or FIN)? Only those can be re-sent. */
static int world_tcp_uses_seq(const uint8_t *t, uint16_t tcp_len)
{
    uint16_t off = (uint16_t)((t[TCP_OFF_DATAOFF] >> 4) * 4u);
    return tcp_len > off || (t[TCP_OFF_FLAGS] & (TCP_SYN | TCP_FIN));
}

static const struct world_seg *world_seg_find(const struct world *w, uint8_t node, uint16_t sport,
                                              uint16_t dport, uint32_t seq)
{
    uint32_t n = w->n_segs < WORLD_SEG_HISTORY ? w->n_segs : WORLD_SEG_HISTORY, k;
    for (k = 1; k <= n; k++) {
        const struct world_seg *s = &w->segs[(w->n_segs - k) % WORLD_SEG_HISTORY];
        if (s->node == node && s->sport == sport && s->dport == dport && s->seq == seq)
            return s;
    }
    return NULL;
}

void world_cause_frame(struct world *w, uint8_t node, const uint8_t *data, uint16_t len,
                       uint32_t id, uint32_t pkt, struct world_cause *out)
{
    struct world_host *wh = &w->hosts[node];
    uint16_t tcp_len, sport, dport;
    uint32_t seq;
    const uint8_t *t = world_tcp_header(data, len, &tcp_len);
    struct world_seg *s;
    const struct world_seg *first;
    uint8_t k;

    out->retx = 0xFF;
    out->orig = out->cause = TREC_NONE;
    out->orig_pkt = 0;
    if (!t || !world_tcp_uses_seq(t, tcp_len))
        return;
    sport = rd16(t + TCP_OFF_SRC_PORT);
    dport = rd16(t + TCP_OFF_DST_PORT);
    seq = rd32(t + TCP_OFF_SEQ);
    for (k = 0; k < wh->n_retx; k++) {
        struct world_retx *x = &wh->retx[k];
        if (x->lport != sport || x->rport != dport || x->seq != seq)
            continue;
        out->retx = x->cause;
        out->cause = x->event;
        first = world_seg_find(w, node, sport, dport, seq);
        if (first) {
            out->orig = first->frame;
            out->orig_pkt = first->pkt;
        }
        *x = wh->retx[--wh->n_retx];
        return;
    }
    s = &w->segs[w->n_segs % WORLD_SEG_HISTORY];
    w->n_segs++;
    s->frame = id;
    s->pkt = pkt;
    s->seq = seq;
    s->sport = sport;
    s->dport = dport;
    s->node = node;
}

static void world_ms(struct fmt *f, const char *name, uint32_t us)
{
    fmt_char(f, ' ');
    fmt_str(f, name);
    fmt_char(f, '=');
    fmt_ms3(f, us);
    fmt_str(f, "ms");
}

/* A TCP responder's entry for the segment it sent ("arduino: responder ESTABLISHED
 * rcv_nxt=... snd_nxt=..."); none once the entry is free. */
static size_t world_responder_comment(struct world *w, uint8_t node, const uint8_t *data,
                                      const uint8_t *t, char *buf, size_t cap)
{
    const struct host *h = &w->hosts[node].h;
    int i = tcp_responder_find(h, rd16(t + TCP_OFF_SRC_PORT), rd32(data + IP_OFF_DST),
                               rd16(t + TCP_OFF_DST_PORT));
    const struct tcp_responder_conn *c;
    struct fmt f;
    if (i < 0)
        return 0;
    c = tcp_responder_conn(h, (uint8_t)i);
    fmt_init(&f, buf, cap);
    fmt_str(&f, w->cfg.hosts[node].name);
    fmt_str(&f, ": responder ");
    fmt_str(&f, tcp_state_name((enum tcp_state)(c->flags & TCP_RESPONDER_F_STATE)));
    fmt_str(&f, " rcv_nxt=");
    fmt_u64(&f, c->rcv_nxt, 1);
    fmt_str(&f, " snd_nxt=");
    fmt_u64(&f, c->snd_nxt, 1);
    return f.pos;
}

/* The sender's state as a pcapng comment (frame numbers are the capture's, from 1: "pc: cwnd=4096 ssthresh=65535 rto=1000.000ms
 * srtt=... rttvar=... snd_una=... snd_nxt=...; retransmission (RTO) of frame 3"). */
size_t world_state_comment(struct world *w, uint8_t node, const uint8_t *data, uint16_t len,
                           const struct world_cause *c, char *buf, size_t cap)
{
    uint16_t tcp_len;
    const uint8_t *t;
    struct tcp_info info;
    struct host *h;
    struct fmt f;
    int s;

    buf[0] = 0;
    if (!world_node_is_host(w, node))
        return 0;
    t = world_tcp_header(data, len, &tcp_len);
    if (!t)
        return 0;
    h = &w->hosts[node].h;
    if (HOST_TCP_RESPONDER(h))
        return world_responder_comment(w, node, data, t, buf, cap);
    s = tcp_find_conn(h, rd16(t + TCP_OFF_SRC_PORT), rd32(data + IP_OFF_DST),
                      rd16(t + TCP_OFF_DST_PORT));
    if (s < 0 || tcpstatus(h, s, &info) != ERR_OK)
        return 0;
    fmt_init(&f, buf, cap);
    fmt_str(&f, w->cfg.hosts[node].name);
    fmt_str(&f, ": ");
    fmt_str(&f, tcp_state_name((enum tcp_state)info.state));
    fmt_str(&f, " cwnd=");
    fmt_u64(&f, info.cwnd, 1);
    fmt_str(&f, " ssthresh=");
    fmt_u64(&f, info.ssthresh, 1);
    world_ms(&f, "rto", info.rto_us);
    world_ms(&f, "srtt", info.srtt_us);
    world_ms(&f, "rttvar", info.rttvar_us);
    if (c->retx != 0xFF) {
        fmt_str(&f, "; retransmission (");
        fmt_str(&f, tcp_retx_cause_text((enum tcp_retx_cause)c->retx));
        fmt_char(&f, ')');
        if (c->orig_pkt) {
            fmt_str(&f, " of frame ");
            fmt_u64(&f, c->orig_pkt, 1);
        }
    }
    return f.pos;
}
