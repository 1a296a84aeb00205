/* The byte ring under TCP's buffers and the out-of-order range list (tcp_ring.h). */
#include "tcp_ring.h"
#include "unit.h"

static void test_ring_wraps(void)
{
    uint8_t mem[8], out[8];
    struct tcp_ring r;
    tcp_ring_init(&r, mem, sizeof mem);
    CHECK_EQ(tcp_ring_write(&r, (const uint8_t *)"abcdef", 6), 6);
    CHECK_EQ(tcp_ring_read(&r, out, 4), 4);
    CHECK_MEM(out, "abcd", 4);
    /* head at 4, 2 held: 6 more fit, wrapping past the end of mem */
    CHECK_EQ(tcp_ring_free(&r), 6);
    CHECK_EQ(tcp_ring_write(&r, (const uint8_t *)"ghijklmn", 8), 6);
    CHECK_EQ(r.len, 8);
    tcp_ring_peek(&r, 1, out, 6);
    CHECK_MEM(out, "fghijk", 6);
    CHECK_EQ(tcp_ring_read(&r, out, 8), 8);
    CHECK_MEM(out, "efghijkl", 8);
    CHECK_EQ(tcp_ring_read(&r, out, 8), 0);
}

static void test_ring_put_at_and_commit(void)
{
    uint8_t mem[10], out[10];
    struct tcp_ring r;
    tcp_ring_init(&r, mem, sizeof mem);
    tcp_ring_write(&r, (const uint8_t *)"0123456", 7);
    tcp_ring_consume(&r, 7); /* empty, head at 7: what follows wraps */
    /* out of order: bytes 3..5 first, then 0..2 */
    tcp_ring_put_at(&r, 3, (const uint8_t *)"DEF", 3);
    CHECK_EQ(r.len, 0);
    tcp_ring_put_at(&r, 0, (const uint8_t *)"ABC", 3);
    tcp_ring_commit(&r, 6);
    CHECK_EQ(r.len, 6);
    CHECK_EQ(tcp_ring_read(&r, out, 10), 6);
    CHECK_MEM(out, "ABCDEF", 6);
}

static void test_ooo_add_merge_advance(void)
{
    struct tcp_ooo q;
    const uint32_t nxt = 0xFFFFFF00u; /* near the wrap, to check the order is relative */
    q.n = 0;
    CHECK_EQ(tcp_ooo_add(&q, nxt, nxt + 300, nxt + 400), 0);
    CHECK_EQ(tcp_ooo_add(&q, nxt, nxt + 100, nxt + 200), 0);
    CHECK_EQ(q.n, 2);
    CHECK_EQ(q.start[0], nxt + 100); /* sorted by distance from rcv_nxt */
    CHECK_EQ(q.start[1], nxt + 300); /* 0x2C: past the wrap */
    /* touching the first: merged */
    CHECK_EQ(tcp_ooo_add(&q, nxt, nxt + 200, nxt + 250), 0);
    CHECK_EQ(q.n, 2);
    CHECK_EQ(q.end[0], nxt + 250);
    /* bridging both: one range */
    CHECK_EQ(tcp_ooo_add(&q, nxt, nxt + 240, nxt + 310), 0);
    CHECK_EQ(q.n, 1);
    CHECK_EQ(q.start[0], nxt + 100);
    CHECK_EQ(q.end[0], nxt + 400);
    CHECK_EQ(tcp_ooo_highest(&q, nxt), nxt + 400);
    /* rcv_nxt reaching 100 absorbs the range */
    CHECK_EQ(tcp_ooo_advance(&q, nxt + 50), nxt + 50);
    CHECK_EQ(q.n, 1);
    CHECK_EQ(tcp_ooo_advance(&q, nxt + 100), nxt + 400);
    CHECK_EQ(q.n, 0);
}

static void test_ooo_full(void)
{
    struct tcp_ooo q;
    uint32_t i;
    q.n = 0;
    for (i = 0; i < TCP_OOO_MAX_RANGES; i++)
        CHECK_EQ(tcp_ooo_add(&q, 0, 10 + 20 * i, 20 + 20 * i), 0);
    CHECK_EQ(tcp_ooo_add(&q, 0, 500, 510), -1);
    CHECK_EQ(q.n, TCP_OOO_MAX_RANGES);
    CHECK_EQ(tcp_ooo_add(&q, 0, 20, 30), 0); /* joins the first two */
    CHECK_EQ(q.n, TCP_OOO_MAX_RANGES - 1);
    CHECK_EQ(q.end[0], 40);
    /* inside a range: nothing changes */
    CHECK_EQ(tcp_ooo_add(&q, 0, 12, 18), 0);
    CHECK_EQ(q.start[0], 10);
    CHECK_EQ(q.end[0], 40);
}

UNIT_MAIN(UNIT(test_ring_wraps), UNIT(test_ring_put_at_and_commit),
          UNIT(test_ooo_add_merge_advance), UNIT(test_ooo_full))
