/* The ethernet link model (wasm/sim/link_eth.h): frame sizes and times to the
 * microsecond at 10 and 100 Mbit/s, no drift over long bursts, the queue limit, the MTU,
 * seeded jitter that keeps the order, full duplex, and the byte queue that holds the
 * datagrams. Expected times are derived by hand in the comments (or from the closed form
 * ceil(k x bits / rate) computed here), never copied from the model's output. */
#include "link_eth.h"
#include "stack_err.h"
#include "unit.h"

#define T_RING 1100
#define T_MEM  200000

struct eth_fix {
    struct link_eth l;
    struct link_eth_frame ring[2][T_RING];
    uint8_t mem[2][T_MEM];
    struct sim_rng rng;
};

static int eth_setup_mem(struct eth_fix *x, uint64_t rate, uint32_t delay, uint32_t jitter,
                         uint16_t qlen, uint16_t mtu, uint32_t mem_len, uint32_t n_frames)
{
    struct link_eth_config c;
    struct link_eth_frame *r[2];
    uint8_t *m[2];
    uint32_t n[2];
    uint32_t ml[2];
    memset(&c, 0, sizeof c);
    c.rate_bps = rate;
    c.delay_us = delay;
    c.jitter_us = jitter;
    c.qlen = qlen;
    c.mtu = mtu;
    r[0] = x->ring[0];
    r[1] = x->ring[1];
    m[0] = x->mem[0];
    m[1] = x->mem[1];
    ml[0] = ml[1] = mem_len;
    n[0] = n[1] = n_frames;
    sim_rng_seed(&x->rng, 1);
    return link_eth_init(&x->l, &c, r, n, m, ml);
}

static int eth_setup(struct eth_fix *x, uint64_t rate, uint32_t delay, uint32_t jitter,
                     uint16_t qlen)
{
    return eth_setup_mem(x, rate, delay, jitter, qlen, 1500, T_MEM, T_RING);
}

/* A datagram whose bytes say which frame it is. */
static void dgram_fill(uint8_t *d, uint16_t len, uint32_t tag)
{
    uint16_t i;
    for (i = 0; i < len; i++)
        d[i] = (uint8_t)(tag * 7u + i);
}

/* A frame of exactly len bytes. */
static int eth_raw(struct eth_fix *x, uint8_t dir, uint64_t t, uint16_t len, uint32_t tag)
{
    uint8_t d[1600 + LINK_ETH_HDR];
    dgram_fill(d, len, tag);
    return link_eth_submit(&x->l, dir, t, d, len, tag, &x->rng);
}

/* A datagram of len bytes in its Ethernet frame (14-byte header; the wire time of a short
 * one is the padded frame's either way). */
static int eth_send(struct eth_fix *x, uint8_t dir, uint64_t t, uint16_t len, uint32_t tag)
{
    return eth_raw(x, dir, t, (uint16_t)(len + LINK_ETH_HDR), tag);
}

static void test_40_bytes_at_10_mbit(void)
{
    static struct eth_fix x;
    struct link_delivery d;
    uint8_t dg[40];
    uint64_t t;
    CHECK_EQ(eth_setup(&x, 10000000, 0, 0, 100), ERR_OK);
    CHECK_EQ(link_eth_next_event(&x.l, &t), 0);
    dgram_fill(dg, 40, 5);
    CHECK_EQ(link_eth_submit(&x.l, LINK_DIR_AB, 1000, dg, 40, 5, &x.rng), ERR_OK);
    CHECK(link_eth_next_event(&x.l, &t));
    /* 40 bytes of datagram + 14 + 4 = 58, padded to the 64-byte minimum frame; + 8
     * preamble + 12 gap = 84 bytes = 672 bits; 672 / 10^7 s = 67.2 us, rounded up: 68. */
    CHECK_EQ(t, 1000 + 68);
    CHECK_EQ(link_eth_take(&x.l, 1067, &d), 0);
    CHECK_EQ(link_eth_take(&x.l, 1068, &d), 1);
    CHECK_EQ(d.fate, LINK_FATE_DELIVERED);
    CHECK_EQ(d.reason, DROP_NONE);
    CHECK_EQ(d.tag, 5);
    CHECK_EQ(d.dir, LINK_DIR_AB);
    CHECK(d.wire == NULL);
    CHECK_EQ(d.wire_len, 84);
    CHECK_EQ(d.submitted, 1000);
    CHECK_EQ(d.wire_start, 1000);
    CHECK_EQ(d.wire_end, 1068);
    CHECK_EQ(d.time, 1068);
    CHECK_EQ(d.len, 40);
    CHECK_MEM(d.data, dg, 40);
    CHECK_EQ(d.slots, 0);
    CHECK_EQ(link_eth_next_event(&x.l, &t), 0);
    CHECK_EQ(link_eth_take(&x.l, 100000, &d), 0);
    CHECK_EQ(x.l.dir[0].stats.delivered, 1);
    CHECK_EQ(x.l.dir[0].stats.wire_bytes, 84);
}

static void test_frame_sizes_and_delay(void)
{
    static struct eth_fix x;
    struct link_delivery d;
    /* The wire length of a frame by hand (header in it, FCS not): up to a 64-byte frame
     * with its FCS, 24 bytes above it (FCS, preamble, gap). */
    CHECK_EQ(LINK_ETH_WIRE_LEN(15), 84);
    CHECK_EQ(LINK_ETH_WIRE_LEN(60), 84); /* a 46-byte datagram: 60 + 4 = 64 exactly */
    CHECK_EQ(LINK_ETH_WIRE_LEN(61), 85);
    CHECK_EQ(LINK_ETH_WIRE_LEN(1514), 1538);
    CHECK_EQ(LINK_ETH_WIRE_LEN(9014), 9038);

    /* 100 Mbit/s, 500 us propagation. */
    CHECK_EQ(eth_setup(&x, 100000000, 500, 0, 100), ERR_OK);
    /* 1500 bytes: 1538 on the wire = 12304 bits = 123.04 us -> 124. */
    CHECK_EQ(eth_send(&x, LINK_DIR_AB, 0, 1500, 1), ERR_OK);
    CHECK_EQ(link_eth_take(&x.l, 623, &d), 0);
    CHECK_EQ(link_eth_take(&x.l, 624, &d), 1);
    CHECK_EQ(d.wire_end, 124);
    CHECK_EQ(d.time, 124 + 500);
    CHECK_EQ(d.wire_len, 1538);
    /* 40 bytes: 672 bits = 6.72 us -> 7, sent on an idle wire at 10000. */
    CHECK_EQ(eth_send(&x, LINK_DIR_AB, 10000, 40, 2), ERR_OK);
    CHECK_EQ(link_eth_take(&x.l, 20000, &d), 1);
    CHECK_EQ(d.wire_start, 10000);
    CHECK_EQ(d.wire_end, 10007);
    CHECK_EQ(d.time, 10507);
    /* 47 bytes: frame 65, wire 85 bytes = 680 bits = 6.8 us -> 7. */
    CHECK_EQ(eth_send(&x, LINK_DIR_AB, 20000, 47, 3), ERR_OK);
    CHECK_EQ(link_eth_take(&x.l, 30000, &d), 1);
    CHECK_EQ(d.wire_len, 85);
    CHECK_EQ(d.wire_end, 20007);

    /* 10 Mbit/s: 1500 bytes = 12304 bits = 1230.4 us -> 1231. */
    CHECK_EQ(eth_setup(&x, 10000000, 0, 0, 100), ERR_OK);
    CHECK_EQ(eth_send(&x, LINK_DIR_BA, 0, 1500, 4), ERR_OK);
    CHECK_EQ(link_eth_take(&x.l, 1230, &d), 0);
    CHECK_EQ(link_eth_take(&x.l, 1231, &d), 1);
    CHECK_EQ(d.dir, LINK_DIR_BA);
    CHECK_EQ(d.time, 1231);

    /* 10 Gbit/s: 672 bits = 0.0672 us, still a whole microsecond after the start. */
    CHECK_EQ(eth_setup(&x, 10000000000ull, 0, 0, 100), ERR_OK);
    CHECK_EQ(eth_send(&x, LINK_DIR_AB, 5, 40, 5), ERR_OK);
    CHECK_EQ(link_eth_take(&x.l, 100, &d), 1);
    CHECK_EQ(d.time, 6);
}

static void test_bits_us_rounding(void)
{
    CHECK_EQ(link_eth_bits_us(0, 10000000), 0);
    CHECK_EQ(link_eth_bits_us(672, 10000000), 68);
    CHECK_EQ(link_eth_bits_us(670, 10000000), 67); /* 67.0 exactly: no rounding */
    CHECK_EQ(link_eth_bits_us(671, 10000000), 68);
    /* Past the point where bits x 10^6 overflows 64 bits: 2 x 10^13 bits at 10 Gbit/s =
     * 2000 s, + 1 bit = 0.0001 us more, rounded up. */
    CHECK_EQ(link_eth_bits_us(20000000000000ull, 10000000000ull), 2000000000ull);
    CHECK_EQ(link_eth_bits_us(20000000000001ull, 10000000000ull), 2000000001ull);
}

static void test_back_to_back_1000_frames_no_drift(void)
{
    static struct eth_fix x;
    struct link_delivery d;
    uint64_t prev_end = 0;
    uint32_t k;
    CHECK_EQ(eth_setup(&x, 10000000, 0, 0, 999), ERR_OK);
    /* 1 on the wire + 999 waiting: all 1000 fit. */
    for (k = 1; k <= 1000; k++)
        CHECK_EQ(eth_send(&x, LINK_DIR_AB, 0, 40, k), ERR_OK);
    CHECK_EQ(link_eth_queue_len(&x.l, LINK_DIR_AB, 0), 999);
    for (k = 1; k <= 1000; k++) {
        /* Frame k ends after k x 672 bits: ceil(67.2 k) us = (672 k + 9) / 10. */
        uint64_t end = ((uint64_t)k * 672u + 9u) / 10u;
        CHECK_EQ(link_eth_take(&x.l, 10000000, &d), 1);
        CHECK_EQ(d.tag, k);
        CHECK_EQ(d.wire_start, prev_end);
        CHECK_EQ(d.wire_end, end);
        prev_end = end;
    }
    /* 1000 x 672 bits = 67200 us exactly; rounding each frame alone would give 68000. */
    CHECK_EQ(prev_end, 67200);

    /* 100 Mbit/s, full frames: frame k ends at ceil(123.04 k); 100 frames end at 12304. */
    CHECK_EQ(eth_setup(&x, 100000000, 0, 0, 999), ERR_OK);
    for (k = 1; k <= 100; k++)
        CHECK_EQ(eth_send(&x, LINK_DIR_BA, 0, 1500, k), ERR_OK);
    for (k = 1; k <= 100; k++) {
        CHECK_EQ(link_eth_take(&x.l, 10000000, &d), 1);
        CHECK_EQ(d.wire_end, ((uint64_t)k * 12304u + 99u) / 100u);
    }
    CHECK_EQ(d.wire_end, 12304);
}

static void test_queue_overflow_counted(void)
{
    static struct eth_fix x;
    struct link_delivery d;
    int i, ok = 0, dropped = 0;
    CHECK_EQ(eth_setup(&x, 10000000, 0, 0, 10), ERR_OK);
    /* A burst of 15 at t = 0: the first goes on the wire, 10 wait, 4 are dropped. */
    for (i = 0; i < 15; i++) {
        int r = eth_send(&x, LINK_DIR_AB, 0, 40, (uint32_t)i);
        if (r == ERR_OK)
            ok++;
        else if (r == (int)DROP_LINK_QUEUE_FULL)
            dropped++;
    }
    CHECK_EQ(ok, 11);
    CHECK_EQ(dropped, 4);
    CHECK_EQ(x.l.dir[0].stats.submitted, 15);
    CHECK_EQ(x.l.dir[0].stats.sent, 11);
    CHECK_EQ(x.l.dir[0].stats.drop_queue_full, 4);
    CHECK_EQ(x.l.dir[0].stats.max_queue, 10);
    CHECK_EQ(link_eth_queue_len(&x.l, LINK_DIR_AB, 0), 10);
    /* At 68 frame 1 is through and frame 2 on the wire: 9 wait, room for one more. */
    CHECK_EQ(link_eth_queue_len(&x.l, LINK_DIR_AB, 67), 10);
    CHECK_EQ(link_eth_queue_len(&x.l, LINK_DIR_AB, 68), 9);
    CHECK_EQ(link_eth_take(&x.l, 68, &d), 1);
    CHECK_EQ(eth_send(&x, LINK_DIR_AB, 68, 40, 100), ERR_OK);
    CHECK_EQ(eth_send(&x, LINK_DIR_AB, 68, 40, 101), (int)DROP_LINK_QUEUE_FULL);
    CHECK_EQ(x.l.dir[0].stats.drop_queue_full, 5);
    /* The other direction is unaffected. */
    CHECK_EQ(x.l.dir[1].stats.drop_queue_full, 0);
    CHECK_EQ(eth_send(&x, LINK_DIR_BA, 68, 40, 200), ERR_OK);

    /* qlen 0: nothing may wait; once the wire is free a frame goes again. */
    CHECK_EQ(eth_setup(&x, 10000000, 0, 0, 0), ERR_OK);
    CHECK_EQ(eth_send(&x, LINK_DIR_AB, 0, 40, 1), ERR_OK);
    CHECK_EQ(eth_send(&x, LINK_DIR_AB, 67, 40, 2), (int)DROP_LINK_QUEUE_FULL);
    CHECK_EQ(eth_send(&x, LINK_DIR_AB, 68, 40, 3), ERR_OK);
    CHECK_EQ(link_eth_take(&x.l, 1000, &d), 1);
    CHECK_EQ(d.tag, 1);
    CHECK_EQ(link_eth_take(&x.l, 1000, &d), 1);
    CHECK_EQ(d.tag, 3);
    CHECK_EQ(d.wire_start, 68);
    CHECK_EQ(d.wire_end, 136);
}

static void test_oversize_and_bad_arguments(void)
{
    static struct eth_fix x;
    struct link_delivery d;
    uint8_t dg[1600];
    uint64_t t;
    CHECK_EQ(eth_setup(&x, 100000000, 0, 0, 100), ERR_OK);
    dgram_fill(dg, 1515, 1); /* a 1501-byte datagram in its frame */
    CHECK_EQ(link_eth_submit(&x.l, LINK_DIR_AB, 0, dg, 1515, 1, &x.rng), (int)DROP_ETH_OVERSIZE);
    CHECK_EQ(x.l.dir[0].stats.drop_oversize, 1);
    CHECK_EQ(x.l.dir[0].stats.sent, 0);
    CHECK_EQ(link_eth_next_event(&x.l, &t), 0);
    /* The oversize frame never held the wire: the next one starts at once. */
    CHECK_EQ(link_eth_submit(&x.l, LINK_DIR_AB, 0, dg, 1514, 2, &x.rng), ERR_OK);
    CHECK_EQ(link_eth_take(&x.l, 1000, &d), 1);
    CHECK_EQ(d.wire_start, 0);
    CHECK_EQ(d.len, 1514);
    CHECK_EQ(link_eth_submit(&x.l, LINK_DIR_AB, 0, dg, 0, 3, &x.rng), ERR_ARG);
    CHECK_EQ(link_eth_submit(&x.l, 2, 0, dg, 40, 3, &x.rng), ERR_ARG);
    CHECK_EQ(link_eth_submit(&x.l, LINK_DIR_AB, 0, dg, 40, 3, NULL), ERR_ARG);
    CHECK_EQ(x.l.dir[0].stats.submitted, 2);
    /* Configurations the model cannot run. */
    CHECK_EQ(eth_setup(&x, 0, 0, 0, 100), ERR_ARG);
    CHECK_EQ(eth_setup(&x, LINK_ETH_MAX_RATE + 1u, 0, 0, 100), ERR_ARG);
    CHECK_EQ(eth_setup(&x, 1000, 0, UINT32_MAX, 100), ERR_ARG);
    CHECK_EQ(eth_setup_mem(&x, 1000, 0, 0, 100, 1500, 1499, T_RING), ERR_BUF);
    CHECK_EQ(eth_setup_mem(&x, 1000, 0, 0, 100, 0, 1500, T_RING), ERR_ARG);
}

/* 1000 frames 10 ms apart (no queueing, no ordering constraint: jitter < spacing) with
 * delay 100 and jitter 1000 under the given seed; their deliveries into times[]. */
static int jitter_run(struct eth_fix *x, uint64_t seed, uint64_t *times, uint64_t *ends)
{
    struct link_delivery d;
    uint32_t k;
    if (eth_setup(x, 100000000, 100, 1000, 100) != ERR_OK)
        return 0;
    sim_rng_seed(&x->rng, seed);
    for (k = 0; k < 1000; k++) {
        if (eth_send(x, LINK_DIR_AB, (uint64_t)k * 10000u, 40, k) != ERR_OK)
            return 0;
        if (link_eth_take(&x->l, UINT64_MAX - 1u, &d) != 1 || d.tag != k)
            return 0;
        times[k] = d.time;
        ends[k] = d.wire_end;
    }
    return 1;
}

static void test_jitter_bounded_and_seeded(void)
{
    static struct eth_fix x;
    static uint64_t t1[1000], t2[1000], t3[1000], e[1000];
    struct sim_rng r;
    uint64_t lo = UINT64_MAX, hi = 0;
    uint32_t k, differ = 0;
    CHECK(jitter_run(&x, 42, t1, e));
    /* Jitter is one draw of sim_rng_below(jitter + 1) per submit: replayed here. */
    sim_rng_seed(&r, 42);
    for (k = 0; k < 1000; k++) {
        uint64_t j = t1[k] - e[k] - 100u;
        CHECK_EQ(e[k], (uint64_t)k * 10000u + 7u);
        CHECK(t1[k] >= e[k] + 100u);
        CHECK(j <= 1000u);
        CHECK_EQ(j, sim_rng_below(&r, 1001));
        if (j < lo)
            lo = j;
        if (j > hi)
            hi = j;
    }
    /* Uniform over 0 .. 1000: 1000 draws reach both ends' neighbourhoods (each miss has
     * probability (0.95)^1000). */
    CHECK(lo < 50);
    CHECK(hi > 950);
    /* Same seed, same times; another seed, other times. */
    CHECK(jitter_run(&x, 42, t2, e));
    CHECK_MEM(t1, t2, sizeof t1);
    CHECK(jitter_run(&x, 43, t3, e));
    for (k = 0; k < 1000; k++)
        differ += t1[k] != t3[k];
    CHECK(differ > 900);
}

static void test_jitter_keeps_order(void)
{
    static struct eth_fix x;
    struct link_delivery d;
    struct sim_rng r;
    uint64_t expect = 0, end;
    uint32_t k, held_back = 0;
    /* Back-to-back frames every 7 us, jitter up to 10 ms: without the order rule most
     * would overtake each other. */
    CHECK_EQ(eth_setup(&x, 100000000, 250, 10000, 999), ERR_OK);
    sim_rng_seed(&x.rng, 7);
    sim_rng_seed(&r, 7);
    for (k = 1; k <= 500; k++)
        CHECK_EQ(eth_send(&x, LINK_DIR_AB, 0, 40, k), ERR_OK);
    for (k = 1; k <= 500; k++) {
        uint64_t own;
        end = ((uint64_t)k * 672u + 99u) / 100u; /* ceil(6.72 k) */
        own = end + 250u + sim_rng_below(&r, 10001);
        if (own < expect)
            held_back++;
        else
            expect = own;
        CHECK_EQ(link_eth_take(&x.l, UINT64_MAX - 1u, &d), 1);
        CHECK_EQ(d.tag, k);
        CHECK_EQ(d.wire_end, end);
        CHECK_EQ(d.time, expect);
    }
    /* The rule was exercised. */
    CHECK(held_back > 100);
}

static void test_directions_independent(void)
{
    static struct eth_fix x;
    struct link_delivery d;
    uint32_t k;
    CHECK_EQ(eth_setup(&x, 10000000, 30, 0, 100), ERR_OK);
    /* A burst of 5 a->b does not delay b->a. */
    for (k = 1; k <= 5; k++)
        CHECK_EQ(eth_send(&x, LINK_DIR_AB, 0, 40, k), ERR_OK);
    CHECK_EQ(eth_send(&x, LINK_DIR_BA, 0, 40, 100), ERR_OK);
    CHECK_EQ(link_eth_queue_len(&x.l, LINK_DIR_AB, 0), 4);
    CHECK_EQ(link_eth_queue_len(&x.l, LINK_DIR_BA, 0), 0);
    /* Both first frames end at 68 and arrive at 98: a->b first on the tie. */
    CHECK_EQ(link_eth_take(&x.l, 98, &d), 1);
    CHECK_EQ(d.dir, LINK_DIR_AB);
    CHECK_EQ(d.tag, 1);
    CHECK_EQ(d.time, 98);
    CHECK_EQ(link_eth_take(&x.l, 98, &d), 1);
    CHECK_EQ(d.dir, LINK_DIR_BA);
    CHECK_EQ(d.tag, 100);
    CHECK_EQ(d.wire_start, 0);
    CHECK_EQ(d.time, 98);
    CHECK_EQ(link_eth_take(&x.l, 98, &d), 0);
    /* a->b frame 2: 1344 bits = 134.4 -> 135, + 30. */
    CHECK_EQ(link_eth_take(&x.l, 1000, &d), 1);
    CHECK_EQ(d.tag, 2);
    CHECK_EQ(d.time, 165);
    CHECK_EQ(x.l.dir[1].stats.sent, 1);
    CHECK_EQ(x.l.dir[0].stats.sent, 5);
}

/* The circular byte queue: a buffer of 250 bytes holds two 100-byte frames, a third
 * waits for the oldest to leave and goes to the start; the bytes survive the wrap. */
static void test_byte_queue_wraps(void)
{
    static struct eth_fix x;
    struct link_delivery d;
    uint8_t want[1600];
    CHECK_EQ(eth_setup_mem(&x, 100000000, 0, 0, 100, 100, 250, T_RING), ERR_OK);
    CHECK_EQ(eth_raw(&x, LINK_DIR_AB, 0, 100, 1), ERR_OK);
    CHECK_EQ(eth_raw(&x, LINK_DIR_AB, 0, 100, 2), ERR_OK);
    CHECK_EQ(eth_raw(&x, LINK_DIR_AB, 0, 100, 3), ERR_MEM);
    CHECK_EQ(eth_raw(&x, LINK_DIR_AB, 0, 50, 4), ERR_OK); /* [200, 250) */
    CHECK_EQ(eth_raw(&x, LINK_DIR_AB, 0, 1, 5), ERR_MEM);
    CHECK_EQ(link_eth_take(&x.l, 1000, &d), 1);
    CHECK_EQ(d.tag, 1);
    dgram_fill(want, 100, 1);
    CHECK_MEM(d.data, want, 100);
    CHECK_EQ(eth_raw(&x, LINK_DIR_AB, 1000, 100, 6), ERR_OK); /* [0, 100) */
    CHECK_EQ(eth_raw(&x, LINK_DIR_AB, 1000, 1, 7), ERR_MEM);
    CHECK_EQ(link_eth_take(&x.l, 2000, &d), 1);
    CHECK_EQ(d.tag, 2);
    dgram_fill(want, 100, 2);
    CHECK_MEM(d.data, want, 100);
    CHECK_EQ(link_eth_take(&x.l, 2000, &d), 1);
    CHECK_EQ(d.tag, 4);
    dgram_fill(want, 50, 4);
    CHECK_MEM(d.data, want, 50);
    CHECK_EQ(link_eth_take(&x.l, 2000, &d), 1);
    CHECK_EQ(d.tag, 6);
    dgram_fill(want, 100, 6);
    CHECK_MEM(d.data, want, 100);
}

/* Many datagrams of varied sizes through a small buffer, taken at varied moments, each
 * overwritten by its receiver: every one arrives whole, in order, and the buffer's sizing rule never says ERR_MEM before the
 * ring is full. */
static void test_byte_queue_stress(void)
{
    static struct eth_fix x;
    struct link_delivery d;
    uint8_t want[1600];
    uint32_t sent = 0, got = 0, k;
    uint64_t t = 0;
    struct sim_rng r;
    CHECK_EQ(eth_setup_mem(&x, 100000000, 0, 0, 1000, 300, LINK_ETH_DIR_MEM(300, 8), 8), ERR_OK);
    sim_rng_seed(&r, 99);
    for (k = 0; k < 5000; k++) {
        uint16_t len = (uint16_t)(1u + sim_rng_below(&r, 300));
        int rc;
        if (x.l.dir[0].count < 8) {
            rc = eth_send(&x, LINK_DIR_AB, t, len, sent);
            CHECK_EQ(rc, ERR_OK);
            sent++;
        } else {
            CHECK_EQ(eth_send(&x, LINK_DIR_AB, t, len, 0xFFFF), ERR_MEM);
        }
        t += sim_rng_below(&r, 40);
        while (link_eth_take(&x.l, t, &d)) {
            CHECK_EQ(d.tag, got);
            dgram_fill(want, d.len, got);
            CHECK_MEM(d.data, want, d.len);
            /* The receiver may change what it was given in place (link_line.h): the
             * frames still queued must not feel it. */
            memset(d.data, 0xEE, d.len);
            got++;
        }
    }
    while (link_eth_take(&x.l, UINT64_MAX - 1u, &d)) {
        CHECK_EQ(d.tag, got);
        dgram_fill(want, d.len, got);
        CHECK_MEM(d.data, want, d.len);
        got++;
    }
    CHECK_EQ(got, sent);
    CHECK(sent > 2000);
}

UNIT_MAIN(UNIT(test_40_bytes_at_10_mbit), UNIT(test_frame_sizes_and_delay),
          UNIT(test_bits_us_rounding), UNIT(test_back_to_back_1000_frames_no_drift),
          UNIT(test_queue_overflow_counted), UNIT(test_oversize_and_bad_arguments),
          UNIT(test_jitter_bounded_and_seeded), UNIT(test_jitter_keeps_order),
          UNIT(test_directions_independent), UNIT(test_byte_queue_wraps),
          UNIT(test_byte_queue_stress))
