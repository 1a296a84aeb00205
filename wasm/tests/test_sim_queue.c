/* The simulator's event queue: time order, first-in-first-out among equal times (the
 * determinism rule), capacity, and cancellation keeping the heap valid. */
#include "sim_queue.h"
#include "stack_err.h"
#include "unit.h"

static struct sim_event ev(uint64_t time, uint16_t kind, uint16_t target, uint32_t arg)
{
    struct sim_event e;
    e.time = time;
    e.order = 0;
    e.kind = kind;
    e.target = target;
    e.arg = arg;
    return e;
}

static void test_time_order(void)
{
    struct sim_event store[8], out;
    struct sim_queue q;
    static const uint64_t times[] = { 50, 10, 40, 30, 20 };
    unsigned i;
    sim_queue_init(&q, store, 8);
    for (i = 0; i < 5; i++) {
        struct sim_event e = ev(times[i], 1, 0, i);
        CHECK_EQ(sim_queue_push(&q, &e), 0);
    }
    CHECK_EQ(sim_queue_peek(&q)->time, 10);
    for (i = 0; i < 5; i++) {
        CHECK(sim_queue_pop(&q, &out));
        CHECK_EQ(out.time, 10u * (i + 1u));
    }
    CHECK(!sim_queue_pop(&q, &out));
    CHECK(sim_queue_peek(&q) == 0);
}

static void test_equal_times_run_in_scheduling_order(void)
{
    /* 20 events at two instants, pushed interleaved: each instant's events come out in
     * the order they were pushed, whatever the heap did with them. */
    struct sim_event store[32], out;
    struct sim_queue q;
    uint32_t i, last_arg[2] = { 0, 0 };
    int seen[2] = { 0, 0 };
    sim_queue_init(&q, store, 32);
    for (i = 0; i < 20; i++) {
        struct sim_event e = ev(i % 2 ? 700 : 300, 1, 0, i);
        CHECK_EQ(sim_queue_push(&q, &e), 0);
    }
    for (i = 0; i < 20; i++) {
        int k;
        CHECK(sim_queue_pop(&q, &out));
        k = out.time == 700;
        CHECK_EQ(out.arg % 2, (uint32_t)k);
        if (seen[k])
            CHECK(out.arg > last_arg[k]);
        seen[k] = 1;
        last_arg[k] = out.arg;
        CHECK_EQ(out.time, i < 10 ? 300 : 700);
    }
}

static void test_full_queue_refuses(void)
{
    struct sim_event store[2];
    struct sim_queue q;
    struct sim_event e = ev(1, 1, 0, 0);
    sim_queue_init(&q, store, 2);
    CHECK_EQ(sim_queue_push(&q, &e), 0);
    CHECK_EQ(sim_queue_push(&q, &e), 0);
    CHECK_EQ(sim_queue_push(&q, &e), ERR_MEM);
    CHECK_EQ(q.len, 2);
}

static void test_cancel_removes_only_matches(void)
{
    /* 30 events: kind 2 for target 5 at every third; cancelling them leaves the other 20
     * in time order. The last pushed event matches, so the removal of an event that the
     * compaction moves is covered too. */
    struct sim_event store[32], out;
    struct sim_queue q;
    uint32_t i;
    uint64_t prev = 0;
    sim_queue_init(&q, store, 32);
    for (i = 0; i < 30; i++) {
        struct sim_event e = ev((i * 7919u) % 1000u, i % 3 == 2 ? 2 : 1, 5, i);
        CHECK_EQ(sim_queue_push(&q, &e), 0);
    }
    CHECK_EQ(sim_queue_cancel(&q, 2, 5), 10);
    CHECK_EQ(sim_queue_cancel(&q, 2, 5), 0);
    CHECK_EQ(sim_queue_cancel(&q, 1, 4), 0); /* other target: nothing */
    for (i = 0; i < 20; i++) {
        CHECK(sim_queue_pop(&q, &out));
        CHECK_EQ(out.kind, 1);
        CHECK(out.time >= prev);
        prev = out.time;
    }
    CHECK(!sim_queue_pop(&q, &out));
}

UNIT_MAIN(UNIT(test_time_order), UNIT(test_equal_times_run_in_scheduling_order),
          UNIT(test_full_queue_refuses), UNIT(test_cancel_removes_only_matches))
