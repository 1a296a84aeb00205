/* TCP: the connection table, its memory, the clocks, and the glue to the host (poll,
 * deadline, channel sensing). Input is in tcp_in.c / tcp_in_data.c, output in tcp_out.c
 * (options in tcp_opts.c), timers in tcp_timer.c, the socket calls in socket_tcp.c. */
#include "tcp.h"

#include <string.h>

#include "host.h"
#include "tcp_pcb.h"

/* Ring pairs: cfg.tcp_buf_pairs when that is fewer than the blocks (shared, "pooled"),
 * else one per block. */
static uint8_t buf_pairs(const struct host_config *cfg)
{
    uint8_t n = cfg->tcp_buf_pairs;
    return n && n < cfg->tcp_max_pcbs ? n : cfg->tcp_max_pcbs;
}

static size_t pair_size(const struct host_config *cfg)
{
    return host_arena_cost(cfg->tcp_snd_buf) + host_arena_cost(cfg->tcp_rcv_buf);
}

size_t tcp_mem_required(const struct host_config *cfg)
{
    size_t n = cfg->tcp_max_pcbs;
    return host_arena_cost(n * sizeof(struct tcp_pcb)) + buf_pairs(cfg) * pair_size(cfg);
}

/* Gives a block pair k of the pooled rings. */
static void take_pair(struct host *h, struct tcp_pcb *pcb, uint8_t k)
{
    uint8_t *sb = h->tcp.bufs + k * pair_size(&HOST_CFG(h));
    tcp_ring_init(&pcb->snd, sb, HOST_CFG(h).tcp_snd_buf);
    tcp_ring_init(&pcb->rcv, sb + host_arena_cost(HOST_CFG(h).tcp_snd_buf),
                  HOST_CFG(h).tcp_rcv_buf);
}

/* Pooled rings: the first pair no block in use holds, or -1. */
static int free_pair(const struct host *h)
{
    uint8_t k, i;
    for (k = 0; k < buf_pairs(&HOST_CFG(h)); k++) {
        const uint8_t *sb = h->tcp.bufs + k * pair_size(&HOST_CFG(h));
        for (i = 0; i < HOST_CFG(h).tcp_max_pcbs; i++)
            if (h->tcp.pcbs[i].in_use && h->tcp.pcbs[i].snd.buf == sb)
                break;
        if (i == HOST_CFG(h).tcp_max_pcbs)
            return k;
    }
    return -1;
}

void tcp_pcb_listening(struct host *h, struct tcp_pcb *pcb)
{
    if (!h->tcp.bufs)
        return; /* rings of its own: kept */
    tcp_ring_init(&pcb->snd, NULL, 0);
    tcp_ring_init(&pcb->rcv, NULL, 0);
}

/* The latest instant <= now of the train phase + k x period (host time wraps; the
 * instant may lie before 0, which the unsigned differences of tcp_clock_update() read
 * correctly). */
static stack_time_t tick_floor(stack_time_t now, uint32_t period_us, uint32_t phase_us)
{
    uint32_t p = phase_us % period_us;
    if (now >= p)
        return now - (now - p) % period_us;
    return p - period_us;
}

int tcp_init(struct host *h, struct host_arena *arena)
{
    struct tcp_host_state *t = &h->tcp;
    uint8_t i, n = HOST_CFG(h).tcp_max_pcbs;
    if (HOST_CFG(h).tcp_snd_buf == 0 || HOST_CFG(h).tcp_rcv_buf == 0)
        return n ? ERR_ARG : ERR_OK;
    t->pcbs = host_arena_take(arena, (size_t)n * sizeof(struct tcp_pcb));
    if (!t->pcbs && n)
        return ERR_MEM;
    if (buf_pairs(&HOST_CFG(h)) < n) {
        /* Pooled: blocks take a pair in tcp_pcb_alloc(). */
        t->bufs = host_arena_take(arena, buf_pairs(&HOST_CFG(h)) * pair_size(&HOST_CFG(h)));
        if (!t->bufs)
            return ERR_MEM;
        for (i = 0; i < n; i++)
            t->pcbs[i].slot = i;
        n = 0;
    }
    for (i = 0; i < n; i++) {
        struct tcp_pcb *pcb = &t->pcbs[i];
        uint8_t *sb = host_arena_take(arena, HOST_CFG(h).tcp_snd_buf);
        uint8_t *rb = host_arena_take(arena, HOST_CFG(h).tcp_rcv_buf);
        if (!sb || !rb)
            return ERR_MEM;
        pcb->slot = i;
        tcp_ring_init(&pcb->snd, sb, HOST_CFG(h).tcp_snd_buf);
        tcp_ring_init(&pcb->rcv, rb, HOST_CFG(h).tcp_rcv_buf);
    }
    /* Ephemeral ports 49152-65535 (RFC 6335 6), starting at a seeded place. */
    t->next_port = (uint16_t)(49152u + host_random(h) % 16384u);
    t->clk_last = h->now;
    t->clk_ms = 1; /* TSval starts at 1: an echoed 0 keeps meaning "nothing to echo" */
    if (HOST_CFG(h).tcp_timer_tick_ms) {
        uint32_t T = STACK_MS(HOST_CFG(h).tcp_timer_tick_ms);
        t->slow_at = tick_floor(h->now, T, STACK_MS(HOST_CFG(h).tcp_timer_phase_ms));
        t->slow_ticks = 0; /* only differences of the count are read */
    }
    if (HOST_CFG(h).tcp_fast_tick_ms)
        t->fast_at = tick_floor(h->now, STACK_MS(HOST_CFG(h).tcp_fast_tick_ms),
                                STACK_MS(HOST_CFG(h).tcp_timer_phase_ms));
    return ERR_OK;
}

void tcp_clock_update(struct host *h)
{
    struct tcp_host_state *t = &h->tcp;
    uint32_t elapsed = h->now - t->clk_last, rem;
    if ((int32_t)elapsed <= 0)
        return; /* same instant, or a caller went back in time: keep the clocks */
    t->clk_last = h->now;
    rem = t->clk_rem_us + elapsed;
    t->clk_ms += rem / 1000u;
    t->clk_rem_us = rem % 1000u;
    if (HOST_CFG(h).tcp_timer_tick_ms) {
        uint32_t T = STACK_MS(HOST_CFG(h).tcp_timer_tick_ms);
        uint32_t k = (h->now - t->slow_at) / T;
        t->slow_at += k * T;
        t->slow_ticks += k;
    }
    if (HOST_CFG(h).tcp_fast_tick_ms) {
        uint32_t F = STACK_MS(HOST_CFG(h).tcp_fast_tick_ms);
        t->fast_at += (h->now - t->fast_at) / F * F;
    }
}

void tcp_poll(struct host *h)
{
    uint8_t i;
    tcp_clock_update(h);
    for (i = 0; i < HOST_CFG(h).tcp_max_pcbs; i++) {
        struct tcp_pcb *pcb = &h->tcp.pcbs[i];
        if (pcb->in_use)
            tcp_timers_poll(h, pcb);
    }
}

void tcp_next_deadline(const struct host *h, stack_time_t *deadline, int *has)
{
    uint8_t i;
    for (i = 0; i < HOST_CFG(h).tcp_max_pcbs; i++) {
        const struct tcp_pcb *pcb = &h->tcp.pcbs[i];
        if (pcb->in_use)
            tcp_timers_deadline(pcb, deadline, has);
    }
}

void tcp_netif_free(struct host *h, uint8_t netif)
{
    uint8_t n = HOST_CFG(h).tcp_max_pcbs, k;
    tcp_clock_update(h);
    if (n == 0)
        return;
    /* In turn: with small queues the first connection served may take all the room, so
     * the first place goes round (Linux's per-socket limit leaves every socket its own). */
    h->tcp.free_first = (uint8_t)((h->tcp.free_first + 1u) % n);
    for (k = 0; k < n; k++) {
        struct tcp_pcb *pcb = &h->tcp.pcbs[(h->tcp.free_first + k) % n];
        if (pcb->in_use && pcb->netif == netif && pcb->state != TCP_LISTEN &&
            pcb->state != TCP_CLOSED)
            tcp_output(h, pcb);
    }
}

int tcp_small_queue_room(const struct host *h, uint8_t netif)
{
    /* Linux's TSQ (tcp_small_queue_check): new data waits in the socket while its frames
     * already fill the device queue, so each leaves carrying the time it really left
     * (its timestamp, its RTT sample) and the queue stays short. */
    uint8_t limit = HOST_CFG(h).tcp_small_queues;
    return limit == 0 || netif >= h->n_netifs || h->netifs[netif].unsent < limit;
}

void tcp_set_next_iss(struct host *h, uint32_t iss)
{
    h->tcp.iss_forced = 1;
    h->tcp.iss_next = iss;
}

/* RFC 9293 3.4.1 wants ISNs that are hard to guess; RFC 6528 builds them from a clock and a
 * keyed hash. Here determinism matters more (same seed, same trace): the host's PRNG. */
uint32_t tcp_new_iss(struct host *h)
{
    if (h->tcp.iss_forced) {
        h->tcp.iss_forced = 0;
        return h->tcp.iss_next;
    }
    return host_random(h);
}

struct tcp_pcb *tcp_pcb_get(const struct host *h, int s)
{
    struct tcp_pcb *pcb;
    if (s < 0 || s >= (int)HOST_CFG(h).tcp_max_pcbs)
        return NULL;
    pcb = &h->tcp.pcbs[s];
    return pcb->in_use && pcb->has_socket ? pcb : NULL;
}

struct tcp_pcb *tcp_pcb_alloc(struct host *h)
{
    uint8_t i;
    int pair = h->tcp.bufs ? free_pair(h) : 0;
    if (pair < 0)
        return NULL; /* every pair of rings is taken */
    for (i = 0; i < HOST_CFG(h).tcp_max_pcbs; i++) {
        struct tcp_pcb *pcb = &h->tcp.pcbs[i];
        struct tcp_ring snd, rcv;
        if (pcb->in_use)
            continue;
        snd = pcb->snd;
        rcv = pcb->rcv;
        memset(pcb, 0, sizeof *pcb);
        pcb->in_use = 1;
        pcb->slot = i;
        pcb->state = TCP_CLOSED;
        pcb->parent = TCP_NO_PARENT;
        if (h->tcp.bufs) {
            take_pair(h, pcb, (uint8_t)pair);
        } else {
            tcp_ring_init(&pcb->snd, snd.buf, snd.size);
            tcp_ring_init(&pcb->rcv, rcv.buf, rcv.size);
        }
        tcp_rto_init(&pcb->est, &HOST_CFG(h));
        pcb->mss = TCP_DEFAULT_MSS;
        pcb->rcv_mss = TCP_DEFAULT_MSS;
        pcb->rcv_seg_max = TCP_DEFAULT_MSS;
        return pcb;
    }
    return NULL;
}

void tcp_pcb_free(struct host *h, struct tcp_pcb *pcb)
{
    tcp_timers_stop(h, pcb);
    if (pcb->state != TCP_CLOSED)
        tcp_set_state(h, pcb, TCP_CLOSED);
    pcb->in_use = 0;
    pcb->has_socket = 0;
}

void tcp_trace(struct host *h, const struct tcp_pcb *pcb, enum trace_kind kind, uint32_t a,
               uint32_t b, uint32_t c, uint32_t d)
{
    struct trace_event ev;
    if (!STACK_TRACE || !h->tracer.fn)
        return;
    memset(&ev, 0, sizeof ev);
    ev.kind = (uint16_t)kind;
    ev.conn = pcb->slot;
    ev.netif = pcb->netif;
    ev.lport = pcb->local_port;
    ev.rport = pcb->remote_port;
    ev.a = a;
    ev.b = b;
    ev.c = c;
    ev.d = d;
    trace_emit(h, &ev);
}

static int state_keeps_timer(uint8_t s)
{
    return s != TCP_CLOSED && s != TCP_LISTEN; /* lwIP's tcp_active_pcbs and tcp_tw_pcbs */
}

static int other_keeps_timer(const struct host *h, const struct tcp_pcb *self)
{
    uint8_t i;
    for (i = 0; i < HOST_CFG(h).tcp_max_pcbs; i++) {
        const struct tcp_pcb *p = &h->tcp.pcbs[i];
        if (p != self && p->in_use && state_keeps_timer(p->state))
            return 1;
    }
    return 0;
}

/* lwIP arms its one TCP timer in tcp_timer_needed() when a connection joins the active
 * list with the timer stopped, and the timer stops at its first expiry that finds no
 * active or TIME_WAIT connection. Each expiry runs tcp_fasttmr() and every other one
 * tcp_slowtmr(), the first included: both trains then start one fast tick after the
 * connection opens. (lwIP's odd/even counter carries over a stop; a restart here always
 * opens with a slow tick.) */
static void ticks_follow_pcbs(struct host *h, const struct tcp_pcb *pcb, uint8_t old)
{
    struct tcp_host_state *t = &h->tcp;
    uint32_t T = STACK_MS(HOST_CFG(h).tcp_timer_tick_ms);
    uint32_t F = STACK_MS(HOST_CFG(h).tcp_fast_tick_ms);
    uint32_t first = F && (F < T || !T) ? F : T;
    int stopped;
    if (!HOST_CFG(h).tcp_timer_on_demand || other_keeps_timer(h, pcb))
        return;
    if (state_keeps_timer(old) && !state_keeps_timer(pcb->state)) {
        t->ticks_idle = 1;
        t->ticks_idle_at = h->now;
        return;
    }
    if (state_keeps_timer(old) || !state_keeps_timer(pcb->state))
        return;
    tcp_clock_update(h);
    stopped = !t->ticks_running ||
              (t->ticks_idle && (int32_t)((F ? t->fast_at : t->slow_at) - t->ticks_idle_at) >= 0);
    t->ticks_idle = 0;
    if (!stopped)
        return; /* no expiry since the last connection closed: still running */
    t->ticks_running = 1;
    if (T)
        t->slow_at = h->now + first - T; /* the last tick before the first one */
    if (F)
        t->fast_at = h->now + first - F;
}

void tcp_set_state(struct host *h, struct tcp_pcb *pcb, enum tcp_state s)
{
    uint8_t old = pcb->state;
    if (old == (uint8_t)s)
        return;
    pcb->state = (uint8_t)s;
    tcp_trace(h, pcb, TRACE_TCP_STATE, old, (uint32_t)s, 0, 0);
    ticks_follow_pcbs(h, pcb, old);
}

void tcp_conn_done(struct host *h, struct tcp_pcb *pcb)
{
    tcp_timers_stop(h, pcb);
    tcp_set_state(h, pcb, TCP_CLOSED);
    if (!pcb->has_socket)
        tcp_pcb_free(h, pcb);
}

void tcp_conn_fail(struct host *h, struct tcp_pcb *pcb, int err)
{
    tcp_trace(h, pcb, TRACE_TCP_ERROR, (uint32_t)err, 0, 0, 0);
    pcb->error = (int8_t)err;
    tcp_conn_done(h, pcb);
}

int tcp_port_used(const struct host *h, uint32_t addr, uint16_t port)
{
    uint8_t i;
    for (i = 0; i < HOST_CFG(h).tcp_max_pcbs; i++) {
        const struct tcp_pcb *pcb = &h->tcp.pcbs[i];
        if (pcb->in_use && pcb->local_port == port &&
            (addr == 0 || pcb->local_addr == 0 || pcb->local_addr == addr))
            return 1;
    }
    return 0;
}

uint16_t tcp_ephemeral_port(struct host *h)
{
    uint16_t tries;
    for (tries = 0; tries < 16384u; tries++) {
        uint16_t p = h->tcp.next_port;
        h->tcp.next_port = (uint16_t)(p == 65535u ? 49152u : p + 1u);
        if (!tcp_port_used(h, 0, p))
            return p;
    }
    return 0;
}

int tcp_pcb_route(struct host *h, struct tcp_pcb *pcb)
{
    int nif = ip_route(h, pcb->remote_addr);
    uint32_t mss;
    if (nif < 0)
        return ERR_RTE;
    pcb->netif = (uint8_t)nif;
    if (pcb->local_addr == 0)
        pcb->local_addr = h->netifs[nif].addr;
    /* RFC 9293 3.7.1: announce what we can receive, MTU - 40 unless configured. */
    mss = HOST_CFG(h).tcp_mss ? HOST_CFG(h).tcp_mss : (uint32_t)h->netifs[nif].mtu - 40u;
    if (mss > (uint32_t)ip_tx_capacity(h) - TCP_HLEN)
        mss = (uint32_t)ip_tx_capacity(h) - TCP_HLEN;
    pcb->rcv_mss = (uint16_t)mss;
    /* "full-sized" for the delayed ACK is the largest segment seen so far (options such
     * as timestamps make the peer's full segments smaller than our MSS), from 536 up */
    pcb->rcv_seg_max = mss < TCP_DEFAULT_MSS ? mss : TCP_DEFAULT_MSS;
    return ERR_OK;
}

void tcp_pcb_set_mss(struct host *h, struct tcp_pcb *pcb, const struct tcp_opts *o)
{
    /* RFC 9293 3.7.1: Eff.snd.MSS = min(SendMSS, what our own interface carries); 536 when
     * the peer sent no MSS option. Options are taken off per segment (tcp_seg_max). */
    uint16_t peer = o->has_mss ? o->mss : TCP_DEFAULT_MSS;
    uint16_t mss = peer < pcb->rcv_mss ? peer : pcb->rcv_mss;
    if (mss < 64)
        mss = 64; /* a peer announcing a tiny MSS must not stall us (Linux floors at 48) */
    pcb->mss = mss;
    if (!pcb->cc_ready) {
        tcp_cc_init(&pcb->cc, &HOST_CFG(h), mss);
        pcb->cc_ready = 1;
        tcp_trace(h, pcb, TRACE_CWND, pcb->cc.cwnd, 0, 0, 0);
        tcp_trace(h, pcb, TRACE_SSTHRESH, pcb->cc.ssthresh, 0, 0, 0);
    }
}

uint32_t tcp_snd_unsent(const struct tcp_pcb *pcb)
{
    uint32_t sent = pcb->snd_nxt - pcb->snd_buf_seq;
    if (tcp_seq_lt(pcb->snd_nxt, pcb->snd_buf_seq))
        return pcb->snd.len;
    return sent >= pcb->snd.len ? 0 : pcb->snd.len - sent;
}

uint8_t tcp_backlog_used(const struct host *h, const struct tcp_pcb *listener)
{
    uint8_t i, n = 0;
    for (i = 0; i < HOST_CFG(h).tcp_max_pcbs; i++) {
        const struct tcp_pcb *pcb = &h->tcp.pcbs[i];
        if (pcb->in_use && pcb->parent == listener->slot && !pcb->accepted)
            n++;
    }
    return n;
}

const char *tcp_state_name(enum tcp_state s)
{
    static const char *const names[] = {
        "CLOSED",     "LISTEN",     "SYN_SENT", "SYN_RECEIVED", "ESTABLISHED", "FIN_WAIT_1",
        "FIN_WAIT_2", "CLOSE_WAIT", "CLOSING",  "LAST_ACK",     "TIME_WAIT",
    };
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "UNKNOWN";
}
