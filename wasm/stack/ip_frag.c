/* IPv4 fragmentation and reassembly: RFC 791 sections 2.3 and 3.2 (the procedures),
 * RFC 815 (tracking what is still missing), RFC 1122 3.3.2 (reassembly timeout).
 *
 * Output cuts a datagram into pieces whose data is a multiple of 8 bytes (the offset
 * field counts 8-byte units) and that fit the interface MTU; each piece is built in
 * h->ip.fragbuf and sent at once. Fragmenting an already fragmented datagram (a router
 * forwarding one) keeps its offset and its MF flag on the last piece, as RFC 791 3.2
 * describes; options without the copy flag stay in the first piece only.
 *
 * Reassembly keeps cfg.ip_reass_slots datagrams, keyed by (source, destination,
 * protocol, identification) as RFC 791 says. Instead of RFC 815's hole list each slot
 * has a bitmap of the 8-byte blocks received: the same information, bounded memory, no
 * list to corrupt. A slot's buffer has room for the largest header (60 bytes) before the
 * payload, so the finished datagram is contiguous: the header of fragment zero is put in
 * front of the data and fixed up (total length, no MF, offset 0, new checksum).
 *
 * Full slots: a fragment of a new datagram that finds every slot taken evicts the oldest
 * incomplete datagram (DROP_IP_REASS_EVICTED), as RFC 815 and lwIP do when buffers run
 * out; a fragment that never completes (lost companions, a stray) would otherwise block
 * every later datagram until its timeout. Late duplicates: the keys of the last
 * IP_REASS_DONE_MAX completed datagrams are kept for one reassembly timeout, and their
 * fragments are dropped (DROP_IP_REASS_DONE) instead of starting a datagram that cannot
 * complete. That is safe: a source must not reuse an identification for the same
 * destination and protocol while a fragmented datagram may still be alive (RFC 791 3.2,
 * kept by RFC 6864), longer than this timeout.
 *
 * Overlaps: bytes that arrive again must be identical to what is held (a duplicate, or a
 * retransmission re-fragmented differently); a fragment that disagrees is dropped
 * (DROP_IP_REASS_OVERLAP) and the slot keeps what it had. RFC 5722 makes IPv6 drop the
 * whole datagram on any overlap; for IPv4, accepting identical overlaps is what RFC 791's
 * procedure does and what lets the duplicated fragments of a lossy link through.
 *
 * Timeout: cfg.ip_reass_timeout_ms after the first fragment (RFC 1122 3.3.2: the timer
 * starts with the first fragment to arrive). On expiry the partial datagram is dropped
 * (DROP_IP_REASS_TIMEOUT) and, if fragment zero had arrived, an ICMP time exceeded, code
 * 1 "fragment reassembly time exceeded", quotes it (RFC 792; RFC 1122 3.3.2 asks for it,
 * and Linux sends it too). Without fragment zero there is nothing meaningful to quote.
 */
#include "ip_frag.h"

#include <string.h>

#include "bytes.h"
#include "host.h"
#include "icmp.h"
#include "inet_chksum.h"

#define IP_MAX_HLEN 60 /* 15 words, RFC 791 3.1 */

/* What identifies the fragments of one datagram (RFC 791 3.2). */
struct ip_reass_key {
    uint32_t src, dst;
    uint16_t id;
    uint8_t proto;
};

struct ip_reass {
    struct ip_reass_key key;
    uint8_t used;
    uint8_t have_first; /* fragment zero arrived: its header is in front of the data */
    uint8_t have_last;  /* the fragment without MF arrived: `total` is known */
    uint8_t hlen;       /* header length of fragment zero */
    uint8_t nfrags;     /* fragments that brought bytes not held yet */
    uint16_t total;     /* payload bytes of the whole datagram, once have_last */
    uint16_t hi;        /* end of the highest byte range received */
    stack_time_t deadline;
    uint8_t *buf;    /* IP_MAX_HLEN bytes of header room, then the payload */
    uint8_t *blocks; /* one bit per 8-byte block of payload received */
};

/* A datagram completed lately: its fragments arriving again are duplicates. */
struct ip_reass_done {
    struct ip_reass_key key;
    uint8_t used;
    stack_time_t until; /* forgotten then: one reassembly timeout after completion */
};

struct ip_reass_table {
    struct ip_reass_done done[IP_REASS_DONE_MAX];
    uint8_t done_next;      /* the entry the next completion overwrites */
    struct ip_reass slot[]; /* cfg.ip_reass_slots */
};

/* Payload bytes a slot can hold: ip_reass_max counts a 20-byte header. */
static uint16_t reass_cap(const struct host_config *cfg)
{
    return cfg->ip_reass_max > IP_HLEN ? (uint16_t)(cfg->ip_reass_max - IP_HLEN) : 0;
}

static size_t bitmap_len(const struct host_config *cfg)
{
    size_t nblocks = ((size_t)reass_cap(cfg) + 7u) / 8u;
    return (nblocks + 7u) / 8u;
}

static size_t table_len(const struct host_config *cfg)
{
    return sizeof(struct ip_reass_table) + (size_t)cfg->ip_reass_slots * sizeof(struct ip_reass);
}

size_t ip_frag_mem_required(const struct host_config *cfg)
{
    size_t per_slot;
    if (!cfg->ip_frag)
        return 0;
    per_slot =
        host_arena_cost(IP_MAX_HLEN + (size_t)reass_cap(cfg)) + host_arena_cost(bitmap_len(cfg));
    return host_arena_cost(cfg->ip_max_datagram) +
           (cfg->ip_reass_slots ? host_arena_cost(table_len(cfg)) : 0) +
           (size_t)cfg->ip_reass_slots * per_slot;
}

int ip_frag_init(struct host *h, struct host_arena *arena)
{
    const struct host_config *cfg = &HOST_CFG(h);
    uint8_t i;
    if (!cfg->ip_frag)
        return ERR_OK; /* fragments are dropped and oversized datagrams refused */
    h->ip.fragbuf = host_arena_take(arena, cfg->ip_max_datagram);
    h->ip.fragbuf_len = cfg->ip_max_datagram;
    if (!h->ip.fragbuf)
        return ERR_MEM;
    if (cfg->ip_reass_slots == 0)
        return ERR_OK;
    h->ip.reass = host_arena_take(arena, table_len(cfg));
    if (!h->ip.reass)
        return ERR_MEM;
    for (i = 0; i < cfg->ip_reass_slots; i++) {
        struct ip_reass *r = &h->ip.reass->slot[i];
        r->buf = host_arena_take(arena, IP_MAX_HLEN + (size_t)reass_cap(cfg));
        r->blocks = host_arena_take(arena, bitmap_len(cfg));
        if (!r->buf || !r->blocks)
            return ERR_MEM;
    }
    return ERR_OK;
}

/* Is there a reassembly table? Asked of the configuration first, so that a build whose
 * configuration is fixed at compile time without reassembly (the firmware) leaves the
 * timer code out. */
static int reass_on(const struct host *h)
{
    return HOST_CFG(h).ip_frag && HOST_CFG(h).ip_reass_slots && h->ip.reass;
}

static int block_has(const struct ip_reass *r, uint16_t b)
{
    return (r->blocks[b >> 3] >> (b & 7u)) & 1u;
}

static void block_set(struct ip_reass *r, uint16_t b)
{
    r->blocks[b >> 3] = (uint8_t)(r->blocks[b >> 3] | (1u << (b & 7u)));
}

static struct ip_reass_key reass_key_of(const struct ip_rx *rx)
{
    struct ip_reass_key k;
    k.src = rx->src;
    k.dst = rx->dst;
    k.id = rd16(rx->dgram + IP_OFF_ID);
    k.proto = rx->proto;
    return k;
}

static int reass_key_eq(const struct ip_reass_key *a, const struct ip_reass_key *b)
{
    return a->src == b->src && a->dst == b->dst && a->id == b->id && a->proto == b->proto;
}

/* The slot reassembling this fragment's datagram, or NULL. */
static struct ip_reass *reass_lookup(struct host *h, const struct ip_reass_key *k)
{
    uint8_t i;
    for (i = 0; i < HOST_CFG(h).ip_reass_slots; i++) {
        struct ip_reass *r = &h->ip.reass->slot[i];
        if (r->used && reass_key_eq(&r->key, k))
            return r;
    }
    return NULL;
}

/* Was this fragment's datagram completed lately? */
static int reass_done_lately(const struct host *h, const struct ip_reass_key *k)
{
    uint8_t i;
    for (i = 0; i < IP_REASS_DONE_MAX; i++) {
        const struct ip_reass_done *d = &h->ip.reass->done[i];
        if (d->used && reass_key_eq(&d->key, k))
            return 1;
    }
    return 0;
}

static void reass_remember_done(struct host *h, const struct ip_reass *r)
{
    struct ip_reass_table *t = h->ip.reass;
    struct ip_reass_done *d = &t->done[t->done_next];
    t->done_next = (uint8_t)((t->done_next + 1u) % IP_REASS_DONE_MAX);
    d->used = 1;
    d->key = r->key;
    d->until = h->now + STACK_MS(HOST_CFG(h).ip_reass_timeout_ms);
}

static void reass_drop(struct host *h, struct ip_reass *r, enum drop_reason why, uint16_t len)
{
    host_drop(h, why, r->key.proto, len);
    h->ip.counters.reass_fail++;
    r->used = 0;
}

/* A slot for a new datagram: a free one, else the one whose first fragment came first
 * (all share one timeout, so it has the earliest deadline), evicted. */
static struct ip_reass *reass_take(struct host *h, const struct ip_reass_key *k)
{
    struct ip_reass *r = NULL;
    uint8_t i;
    for (i = 0; i < HOST_CFG(h).ip_reass_slots; i++) {
        struct ip_reass *s = &h->ip.reass->slot[i];
        if (!s->used) {
            r = s;
            break;
        }
        if (!r || time_before(s->deadline, r->deadline))
            r = s;
    }
    if (r->used)
        reass_drop(h, r, DROP_IP_REASS_EVICTED, r->hi);
    memset(r->blocks, 0, bitmap_len(&HOST_CFG(h)));
    r->key = *k;
    r->used = 1;
    r->have_first = r->have_last = 0;
    r->hlen = 0;
    r->nfrags = 0;
    r->total = r->hi = 0;
    /* RFC 1122 3.3.2: the timer runs from the first fragment received. */
    r->deadline = h->now + STACK_MS(HOST_CFG(h).ip_reass_timeout_ms);
    return r;
}

/* Do the bytes [off, end) agree with what the slot already holds? */
static int reass_agrees(const struct ip_reass *r, const uint8_t *data, uint16_t off, uint16_t end)
{
    uint16_t b;
    for (b = (uint16_t)(off / 8u); (uint32_t)b * 8u < end; b++) {
        uint16_t lo, up;
        if (!block_has(r, b))
            continue;
        lo = (uint16_t)(b * 8u) > off ? (uint16_t)(b * 8u) : off;
        up = (uint32_t)b * 8u + 8u < end ? (uint16_t)(b * 8u + 8u) : end;
        if (memcmp(r->buf + IP_MAX_HLEN + lo, data + (lo - off), (size_t)(up - lo)) != 0)
            return 0;
    }
    return 1;
}

static int reass_complete(const struct ip_reass *r)
{
    uint16_t b, nblocks;
    if (!r->have_first || !r->have_last)
        return 0;
    nblocks = (uint16_t)((r->total + 7u) / 8u);
    for (b = 0; b < nblocks; b++)
        if (!block_has(r, b))
            return 0;
    return 1;
}

int ip_reass_input(struct host *h, struct ip_rx *rx)
{
    uint16_t fo = rd16(rx->dgram + IP_OFF_FRAG);
    int more = (fo & IP_FLAG_MF) != 0;
    uint16_t flen = (uint16_t)(rx->len - rx->hlen);
    uint32_t off = (uint32_t)(fo & IP_OFFSET_MASK) * 8u;
    uint32_t end = off + flen;
    uint32_t hlen_after, hi_after;
    const uint8_t *data = rx->dgram + rx->hlen;
    struct ip_reass_key key;
    struct ip_reass *r;
    uint16_t b;
    int fresh = 0;

    if (!HOST_CFG(h).ip_frag || !h->ip.fragbuf) {
        host_drop(h, DROP_IP_FRAG_OFF, rx->proto, rx->len);
        return 0;
    }
    /* RFC 791 3.2: every fragment but the last carries a multiple of 8 bytes, and no
     * datagram is longer than 65535 bytes. Such a fragment's total length is wrong. */
    if ((more && (flen & 7u)) || end + rx->hlen > 65535u) {
        host_drop(h, DROP_IP_TOTLEN, rx->proto, rx->len);
        return 0;
    }
    if (!h->ip.reass) {
        host_drop(h, DROP_IP_REASS_FULL, rx->proto, rx->len); /* no slots configured */
        return 0;
    }
    key = reass_key_of(rx);
    r = reass_lookup(h, &key);
    if (!r && reass_done_lately(h, &key)) {
        host_drop(h, DROP_IP_REASS_DONE, rx->proto, rx->len);
        return 0;
    }
    if (!r)
        r = reass_take(h, &key);
    hlen_after = r->have_first ? r->hlen : (off == 0 ? rx->hlen : IP_HLEN);
    hi_after = end > r->hi ? end : r->hi;
    if (hlen_after + hi_after > HOST_CFG(h).ip_reass_max) {
        reass_drop(h, r, DROP_IP_REASS_TOO_BIG, rx->len); /* it can never be completed */
        return 0;
    }
    /* The end of the datagram must not move, and nothing may lie beyond it. */
    if ((r->have_last && (end > r->total || (!more && end != r->total))) ||
        (!more && r->hi > end) || !reass_agrees(r, data, (uint16_t)off, (uint16_t)end)) {
        host_drop(h, DROP_IP_REASS_OVERLAP, rx->proto, rx->len);
        return 0;
    }

    memcpy(r->buf + IP_MAX_HLEN + off, data, flen);
    for (b = (uint16_t)(off / 8u); (uint32_t)b * 8u < end; b++) {
        if (!block_has(r, b)) {
            block_set(r, b);
            fresh = 1;
        }
    }
    if (fresh)
        r->nfrags++;
    if (off == 0 && !r->have_first) {
        r->have_first = 1;
        r->hlen = (uint8_t)rx->hlen;
        memcpy(r->buf + IP_MAX_HLEN - rx->hlen, rx->dgram, rx->hlen);
    }
    if (!more) {
        r->have_last = 1;
        r->total = (uint16_t)end;
    }
    r->hi = (uint16_t)hi_after;
    if (!reass_complete(r))
        return 0;

    {
        uint8_t *d = r->buf + IP_MAX_HLEN - r->hlen;
        uint16_t len = (uint16_t)(r->hlen + r->total);
        wr16(d + IP_OFF_LEN, len);
        wr16(d + IP_OFF_FRAG, (uint16_t)(rd16(d + IP_OFF_FRAG) & IP_FLAG_DF));
        wr16(d + IP_OFF_CHKSUM, 0);
        wr16(d + IP_OFF_CHKSUM, inet_chksum(d, r->hlen));
        rx->dgram = d;
        rx->hlen = r->hlen;
        rx->len = len;
        rx->ttl = d[IP_OFF_TTL];
        r->used = 0; /* the bytes stay put until the next fragment takes the slot */
        reass_remember_done(h, r);
        h->ip.counters.reass_ok++;
        trace_simple(h, TRACE_IP_REASS, r->key.id, r->nfrags, len);
    }
    return 1;
}

void ip_reass_poll(struct host *h)
{
    uint8_t i;
    if (!reass_on(h))
        return;
    for (i = 0; i < IP_REASS_DONE_MAX; i++) {
        struct ip_reass_done *d = &h->ip.reass->done[i];
        if (d->used && !time_before(h->now, d->until))
            d->used = 0;
    }
    for (i = 0; i < HOST_CFG(h).ip_reass_slots; i++) {
        struct ip_reass *r = &h->ip.reass->slot[i];
        if (!r->used || time_before(h->now, r->deadline))
            continue;
        reass_drop(h, r, DROP_IP_REASS_TIMEOUT, r->hi);
        if (r->have_first) {
            /* Quote fragment zero: its header as received and its first 8 data bytes. */
            struct ip_rx q;
            q.dgram = r->buf + IP_MAX_HLEN - r->hlen;
            q.hlen = r->hlen;
            q.len = (uint16_t)(r->hlen + (r->hi < 8 ? r->hi : 8));
            q.src = r->key.src;
            q.dst = r->key.dst;
            q.proto = r->key.proto;
            q.ttl = q.dgram[IP_OFF_TTL];
            q.netif = 0xFF;
            icmp_send_error(h, &q, ICMP_TIME_EXCEEDED, ICMP_EXC_FRAGTIME, 0);
        }
    }
}

void ip_reass_next_deadline(const struct host *h, stack_time_t *deadline, int *has)
{
    uint8_t i;
    if (!reass_on(h))
        return;
    for (i = 0; i < IP_REASS_DONE_MAX; i++)
        if (h->ip.reass->done[i].used)
            time_earliest(deadline, has, h->ip.reass->done[i].until);
    for (i = 0; i < HOST_CFG(h).ip_reass_slots; i++)
        if (h->ip.reass->slot[i].used)
            time_earliest(deadline, has, h->ip.reass->slot[i].deadline);
}

/* RFC 791 3.1: options whose copy flag (0x80) is set go into every fragment; the rest
 * only into the first. Writes them at `out`, padded with End of Option List to a whole
 * number of words; returns their length. */
static uint16_t copied_options(const uint8_t *opt, uint16_t n, uint8_t *out)
{
    uint16_t i = 0, o = 0;
    while (i < n) {
        uint8_t t = opt[i], l;
        if (t == 0) /* end of option list */
            break;
        if (t == 1) { /* no operation */
            i++;
            continue;
        }
        if (i + 1u >= n || (l = opt[i + 1]) < 2 || i + l > n)
            break; /* malformed: copy nothing further */
        if (t & 0x80u) {
            memcpy(out + o, opt + i, l);
            o = (uint16_t)(o + l);
        }
        i = (uint16_t)(i + l);
    }
    while (o & 3u)
        out[o++] = 0;
    return o;
}

int ip_frag_output(struct host *h, uint8_t netif, const uint8_t *dgram, uint16_t len)
{
    struct netif *nif = &h->netifs[netif];
    uint8_t *f = h->ip.fragbuf;
    uint16_t hlen = (uint16_t)((dgram[IP_OFF_VHL] & 0x0F) * 4);
    uint16_t fo = rd16(dgram + IP_OFF_FRAG);
    uint16_t mtu = nif->mtu < h->ip.fragbuf_len ? nif->mtu : h->ip.fragbuf_len;
    uint32_t base = (uint32_t)(fo & IP_OFFSET_MASK) * 8u; /* when re-fragmenting */
    uint16_t plen = (uint16_t)(len - hlen), pos = 0, n = 0;

    if ((fo & IP_FLAG_DF) || !HOST_CFG(h).ip_frag || !f) {
        host_drop(h, DROP_IP_DF, dgram[IP_OFF_PROTO], len);
        return ERR_MTU;
    }
    while (pos < plen || n == 0) {
        uint16_t fh, room, chunk = (uint16_t)(plen - pos);
        int last;
        if (n == 0) {
            memcpy(f, dgram, hlen);
            fh = hlen;
        } else {
            memcpy(f, dgram, IP_HLEN);
            fh = (uint16_t)(IP_HLEN + copied_options(dgram + IP_HLEN, (uint16_t)(hlen - IP_HLEN),
                                                     f + IP_HLEN));
            f[IP_OFF_VHL] = (uint8_t)(0x40 | (fh / 4));
        }
        /* RFC 791 3.2: data of every piece but the last is a multiple of 8 bytes. A
         * 68-byte MTU (the minimum) leaves 8 bytes even after a 60-byte header. */
        room = (uint16_t)((mtu - fh) & ~7u);
        last = chunk <= room;
        if (!last)
            chunk = room;
        wr16(f + IP_OFF_LEN, (uint16_t)(fh + chunk));
        wr16(f + IP_OFF_FRAG,
             (uint16_t)(((base + pos) / 8u) | (last ? (fo & IP_FLAG_MF) : IP_FLAG_MF)));
        wr16(f + IP_OFF_CHKSUM, 0);
        wr16(f + IP_OFF_CHKSUM, inet_chksum(f, fh));
        memcpy(f + fh, dgram + hlen + pos, chunk);
        nif->tx_frames++;
        nif->tx_bytes += (uint32_t)fh + chunk;
        if (ip_netif_send(h, netif, f, (uint16_t)(fh + chunk)) < 0) {
            host_drop(h, DROP_NETIF_DOWN, dgram[IP_OFF_PROTO], (uint16_t)(fh + chunk));
            return ERR_RTE; /* the rest would be useless without this piece */
        }
        n++;
        pos = (uint16_t)(pos + chunk);
    }
    h->ip.counters.frag_datagrams++;
    h->ip.counters.frag_created += n;
    trace_simple(h, TRACE_IP_FRAG, rd16(dgram + IP_OFF_ID), n, len);
    return ERR_OK;
}
