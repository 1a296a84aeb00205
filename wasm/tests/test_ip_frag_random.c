/* Reassembly as a property: however a datagram is cut (8-byte aligned pieces, overlapping
 * or not), in whatever order and with whatever duplicates the pieces arrive, the socket
 * gets exactly the original data once, and nothing is dropped (RFC 791 3.2: overlapping
 * pieces carry the same bytes here, so all of them are acceptable). */
#include "socket.h"
#include "udp.h"
#include "test_host.h"
#include "unit.h"

#define A_ADDR     IP4(10, 0, 7, 1)
#define B_ADDR     IP4(10, 0, 7, 2)
#define TOTAL      1408 /* UDP header + 1400 data bytes */
#define MAX_PIECES 48

static struct th T;
static uint8_t whole[20 + TOTAL];

static uint32_t rng;

static uint32_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

struct cut {
    uint16_t off, len;
};

/* Random pieces covering [0, TOTAL): each starts at a multiple of 8 at or before the end
 * of the previous one (so they may overlap) and, unless it is the last, is a multiple of
 * 8 long. */
static int make_cuts(struct cut *c)
{
    int n = 0;
    uint16_t covered = 0;
    while (covered < TOTAL && n < MAX_PIECES - 8) {
        uint16_t back = (uint16_t)(8u * (next_random() % 4u));
        uint16_t off = covered > back ? (uint16_t)(covered - back) : 0;
        uint16_t len = (uint16_t)(8u * (1u + next_random() % 69u)); /* up to 552 */
        off = (uint16_t)(off & ~7u);
        if (off + len >= TOTAL)
            len = (uint16_t)(TOTAL - off);
        c[n].off = off;
        c[n].len = len;
        n++;
        covered = (uint16_t)(off + len);
    }
    return covered == TOTAL ? n : -1;
}

static void send_piece(const struct cut *c, stack_time_t now)
{
    uint8_t f[600];
    int last = c->off + c->len == TOTAL;
    th_ip(f, (uint16_t)(20 + c->len), 0x7777, (uint16_t)((last ? 0 : IP_FLAG_MF) | (c->off / 8)),
          64, IP_PROTO_UDP, A_ADDR, B_ADDR);
    memcpy(f + 20, whole + 20 + c->off, c->len);
    th_input(&T, f, (uint16_t)(20 + c->len), now);
}

static void test_any_cut_any_order_any_duplicates(void)
{
    struct host_config cfg;
    struct stack_sockaddr any = { 0, 5000 }, src;
    static uint8_t got[1500];
    struct cut cuts[MAX_PIECES];
    uint32_t round;
    uint16_t i;

    host_config_default(&cfg);
    th_ip(whole, 20 + TOTAL, 0x7777, 0, 64, IP_PROTO_UDP, A_ADDR, B_ADDR);
    wr16(whole + 20, 4000);
    wr16(whole + 22, 5000);
    wr16(whole + 24, TOTAL);
    wr16(whole + 26, 0);
    for (i = 0; i < 1400; i++)
        whole[28 + i] = (uint8_t)(i * 31u + 7u);
    rng = 12345;
    for (round = 0; round < 300; round++) {
        int n = make_cuts(cuts), k, s;
        CHECK(n > 0);
        CHECK(th_start(&T, &cfg, B_ADDR, 576) == 0);
        s = udpsocket(&T.h);
        CHECK_EQ(udpbind(&T.h, s, &any), ERR_OK);
        for (k = n - 1; k > 0; k--) { /* shuffle */
            int j = (int)(next_random() % (uint32_t)(k + 1));
            struct cut t = cuts[k];
            cuts[k] = cuts[j];
            cuts[j] = t;
        }
        if (round % 3 == 1) /* a duplicate of a random piece, sent early */
            send_piece(&cuts[next_random() % (uint32_t)n], 0);
        for (k = 0; k < n && udp_next_len(&T.h, s) < 0; k++)
            send_piece(&cuts[k], (stack_time_t)(k + 1)); /* until the datagram is whole */
        CHECK_EQ(udprecvfrom(&T.h, s, &src, got, sizeof got), 1400);
        CHECK_MEM(got, whole + 28, 1400);
        CHECK_EQ(src.port, 4000);
        CHECK_EQ(T.h.ip.counters.reass_ok, 1);
        for (k = 0; k < DROP_REASON_COUNT; k++)
            CHECK_EQ(T.h.stats.drops[k], 0);
        th_free(&T);
    }
}

UNIT_MAIN(UNIT(test_any_cut_any_order_any_duplicates))
