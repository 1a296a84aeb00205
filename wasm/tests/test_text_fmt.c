/* The bounded text builder (text_fmt.h): decimal widths, milliseconds, and a buffer that
 * is too short, which cuts the text and keeps it terminated. */
#include <string.h>

#include "text_fmt.h"
#include "unit.h"

static void test_numbers_and_widths(void)
{
    char buf[64];
    struct fmt f;
    fmt_init(&f, buf, sizeof buf);
    fmt_u64(&f, 0, 1);
    fmt_char(&f, ' ');
    fmt_u64(&f, 7, 3);
    fmt_char(&f, ' ');
    fmt_u64(&f, 4294967295u, 1);
    fmt_char(&f, ' ');
    fmt_u64(&f, 18446744073709551615ull, 1);
    CHECK(strcmp(buf, "0 007 4294967295 18446744073709551615") == 0);
    CHECK_EQ(f.pos, strlen(buf));
}

/* As printf's "%u.%03u" of us / 1000 and us % 1000. */
static void test_ms3(void)
{
    char buf[32];
    struct fmt f;
    fmt_init(&f, buf, sizeof buf);
    fmt_ms3(&f, 20136);
    fmt_char(&f, ' ');
    fmt_ms3(&f, 5);
    fmt_char(&f, ' ');
    fmt_ms3(&f, 1000000);
    CHECK(strcmp(buf, "20.136 0.005 1000.000") == 0);
}

static void test_cut_when_full(void)
{
    char buf[8];
    struct fmt f;
    fmt_init(&f, buf, sizeof buf);
    fmt_str(&f, "cwnd=");
    fmt_u64(&f, 123456, 1);
    CHECK(strcmp(buf, "cwnd=12") == 0);
    CHECK_EQ(f.pos, 7);
    fmt_init(&f, buf, 0); /* no room at all: nothing written */
    fmt_str(&f, "x");
    CHECK_EQ(f.pos, 0);
}

UNIT_MAIN(UNIT(test_numbers_and_widths), UNIT(test_ms3), UNIT(test_cut_when_full))
