/* A minimal unit-test framework for the C tests.
 *
 * Each test file is its own program:
 *
 *     static void test_escape_at_edges(void) { CHECK_EQ(out[0], SLIP_END); ... }
 *     UNIT_MAIN(UNIT(test_escape_at_edges), UNIT(test_other))
 *
 * A failed CHECK ends the test (the rest of the file still runs). Each program ends with
 * "N passed, M failed" and exits non-zero on a failure; scripts/run-c-tests.sh adds the
 * programs' counts up.
 */
#ifndef STACK_TEST_UNIT_H
#define STACK_TEST_UNIT_H

#include <stdio.h>
#include <string.h>

struct unit_test {
    const char *name;
    void (*fn)(void);
};

static int unit_failed_now;
static unsigned long unit_checks;

static inline void unit_fail(const char *file, int line, const char *what)
{
    printf("    FAIL %s:%d: %s\n", file, line, what);
    unit_failed_now = 1;
}

#define CHECK(cond)                               \
    do {                                          \
        unit_checks++;                            \
        if (!(cond)) {                            \
            unit_fail(__FILE__, __LINE__, #cond); \
            return;                               \
        }                                         \
    } while (0)

#define CHECK_EQ(a, b)                                                                        \
    do {                                                                                      \
        long long unit_a_ = (long long)(a), unit_b_ = (long long)(b);                         \
        unit_checks++;                                                                        \
        if (unit_a_ != unit_b_) {                                                             \
            char unit_msg_[512];                                                              \
            snprintf(unit_msg_, sizeof unit_msg_, "%s == %s (%lld != %lld)", #a, #b, unit_a_, \
                     unit_b_);                                                                \
            unit_fail(__FILE__, __LINE__, unit_msg_);                                         \
            return;                                                                           \
        }                                                                                     \
    } while (0)

#define CHECK_MEM(a, b, n)                                                        \
    do {                                                                          \
        unit_checks++;                                                            \
        if (memcmp((a), (b), (n)) != 0) {                                         \
            unit_fail(__FILE__, __LINE__, "memcmp(" #a ", " #b ", " #n ") != 0"); \
            return;                                                               \
        }                                                                         \
    } while (0)

#define UNIT(fn) \
    {            \
#fn, fn  \
    }

static inline int unit_run(const char *file, const struct unit_test *tests, size_t n)
{
    size_t i, passed = 0, failed = 0;
    printf("%s\n", file);
    for (i = 0; i < n; i++) {
        unsigned long before = unit_checks;
        unit_failed_now = 0;
        tests[i].fn();
        if (!unit_failed_now && unit_checks == before) {
            /* A test that checks nothing proves nothing. */
            unit_fail(file, 0, "test made no CHECK");
        }
        if (unit_failed_now) {
            failed++;
            printf("  not ok %s\n", tests[i].name);
        } else {
            passed++;
            printf("  ok %s\n", tests[i].name);
        }
    }
    printf("%zu passed, %zu failed\n", passed, failed);
    return failed ? 1 : 0;
}

#define UNIT_MAIN(...)                                                                      \
    int main(void)                                                                          \
    {                                                                                       \
        static const struct unit_test unit_tests_[] = { __VA_ARGS__ };                      \
        return unit_run(__FILE__, unit_tests_, sizeof unit_tests_ / sizeof unit_tests_[0]); \
    }

#endif
