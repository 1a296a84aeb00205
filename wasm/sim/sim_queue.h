/* The simulator's event queue: a binary min-heap of events ordered by time, and among
 * events at the same time by the order they were scheduled (first in, first out).
 *
 * That second key is what makes a run deterministic: two events due in the same
 * microsecond (a frame arriving as a timer fires) always run in the same order, natively
 * and in wasm, whatever the heap's internal layout. Storage is the caller's array; the
 * queue never allocates.
 */
#ifndef SIM_QUEUE_H
#define SIM_QUEUE_H

#include <stdint.h>

struct sim_event {
    uint64_t time;   /* virtual microseconds from the start of the run */
    uint32_t order;  /* scheduling order, set by sim_queue_push */
    uint16_t kind;   /* what happens (the world's enum) */
    uint16_t target; /* which host, link or application */
    uint32_t arg;    /* kind-specific: a direction, a frame tag, a timer id */
};

struct sim_queue {
    struct sim_event *heap; /* the caller's array of `cap` events */
    uint32_t cap;
    uint32_t len;
    uint32_t next_order;
};

void sim_queue_init(struct sim_queue *q, struct sim_event *storage, uint32_t cap);

/* Schedules `ev` (its `order` is assigned here). Returns 0, or ERR_MEM when full. */
int sim_queue_push(struct sim_queue *q, const struct sim_event *ev);

/* The earliest event without removing it; NULL when the queue is empty. */
const struct sim_event *sim_queue_peek(const struct sim_queue *q);

/* Removes the earliest event into *out. Returns 1, or 0 when the queue is empty. */
int sim_queue_pop(struct sim_queue *q, struct sim_event *out);

/* Removes every event with this kind and target (a cancelled timer, a host removed).
 * Returns how many went. */
uint32_t sim_queue_cancel(struct sim_queue *q, uint16_t kind, uint16_t target);

#endif
