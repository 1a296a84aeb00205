/* The pieces of ping's text that must match iputils digit for digit: the RTT after
 * "time=", the loss percentage (printf's %g of a float), and iputils' integer square root
 * for mdev. The oracles are iputils' own loop and the C library's printf. */
#include <stdio.h>
#include <string.h>

#include "ping.h"
#include "unit.h"

static void test_llsqrt_matches_iputils_newton(void)
{
    /* iputils: x = a; while (x < prev) { prev = x; x = (x + a / x) / 2; } return x.
     * By hand: a = 3: 3 -> 2 -> 1 -> 2, stops, returns 2. a = 8: 8 -> 4 -> 3 -> 2 -> 3,
     * returns 3. Both are s * s + 2s, where the last step goes up instead of staying. */
    CHECK_EQ(ping_llsqrt(0), 0);
    CHECK_EQ(ping_llsqrt(1), 1);
    CHECK_EQ(ping_llsqrt(2), 1);
    CHECK_EQ(ping_llsqrt(3), 2);
    CHECK_EQ(ping_llsqrt(4), 2);
    CHECK_EQ(ping_llsqrt(8), 3);
    CHECK_EQ(ping_llsqrt(9), 3);
    CHECK_EQ(ping_llsqrt(15), 4);
    CHECK_EQ(ping_llsqrt(99225), 315);
    CHECK_EQ(ping_llsqrt(99854), 315);
    CHECK_EQ(ping_llsqrt(99855), 316); /* 315^2 + 2 x 315 */
    CHECK_EQ(ping_llsqrt(1171875), 1082);
}

static void test_llsqrt_against_newton_loop(void)
{
    /* The loop itself, run here as iputils writes it, over a range and some large values. */
    uint64_t a;
    for (a = 0; a < 200000u; a += (a < 5000 ? 1u : 7u)) {
        uint64_t prev = UINT64_MAX, x = a;
        if (x > 0)
            while (x < prev) {
                prev = x;
                x = (x + a / x) / 2;
            }
        CHECK_EQ(ping_llsqrt(a), x);
    }
}

static void test_rtt_formatting(void)
{
    static const struct {
        uint32_t us;
        const char *text;
    } cases[] = { { 0, "0.000" },    { 999, "0.999" }, { 1000, "1.00" },
                  { 9994, "9.99" },  { 9995, "10.0" }, { 31361, "31.4" },
                  { 99949, "99.9" }, { 99950, "100" }, { 202560, "203" } };
    char buf[16];
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ping_format_rtt(cases[i].us, buf, sizeof buf);
        CHECK(strcmp(buf, cases[i].text) == 0);
    }
}

static void test_loss_matches_printf_g_of_float(void)
{
    /* The oracle is the C library: iputils prints (float)(lost * 100.0 / tx) with %g.
     * 23 of 31 lost is 74.193548..., whose float is 74.193550...: Linux says 74.1936. */
    uint32_t tx, rx;
    char want[32], got[32];
    ping_format_loss(31, 8, got, sizeof got);
    CHECK(strcmp(got, "74.1936") == 0);
    ping_format_loss(15, 14, got, sizeof got);
    CHECK(strcmp(got, "6.66667") == 0);
    for (tx = 1; tx <= 1000; tx++) {
        for (rx = 0; rx <= tx; rx++) {
            float v = (float)((((long long)(tx - rx)) * 100.0) / tx);
            snprintf(want, sizeof want, "%g", v);
            ping_format_loss(tx, rx, got, sizeof got);
            if (strcmp(want, got) != 0)
                printf("    tx %u rx %u: libc %s, ours %s\n", tx, rx, want, got);
            CHECK(strcmp(want, got) == 0);
        }
    }
    /* Large counts, small losses (exponent form below 1e-4) and ones close to 100%. */
    for (tx = 4000000000u; tx > 1000; tx = tx / 3u * 2u) {
        static const uint32_t lost[] = { 1, 2, 3, 7, 1000 };
        size_t i;
        for (i = 0; i < sizeof lost / sizeof lost[0]; i++) {
            uint32_t l = lost[i] < tx ? lost[i] : tx;
            snprintf(want, sizeof want, "%g", (float)((((long long)l) * 100.0) / tx));
            ping_format_loss(tx, tx - l, got, sizeof got);
            CHECK(strcmp(want, got) == 0);
            snprintf(want, sizeof want, "%g", (float)((((long long)(tx - l)) * 100.0) / tx));
            ping_format_loss(tx, l, got, sizeof got);
            CHECK(strcmp(want, got) == 0);
        }
    }
}

UNIT_MAIN(UNIT(test_llsqrt_matches_iputils_newton), UNIT(test_llsqrt_against_newton_loop),
          UNIT(test_rtt_formatting), UNIT(test_loss_matches_printf_g_of_float))
