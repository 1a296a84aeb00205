#include "sim_queue.h"

#include "stack_err.h"

/* a runs before b: earlier time, or the same time and scheduled first. */
static int event_before(const struct sim_event *a, const struct sim_event *b)
{
    if (a->time != b->time)
        return a->time < b->time;
    /* The order counter may wrap after 2^32 pushes; compare as a wrapping difference,
     * as sequence numbers are (events that coexist are far fewer than 2^31 apart). */
    return (int32_t)(a->order - b->order) < 0;
}

static void swap(struct sim_event *a, struct sim_event *b)
{
    struct sim_event t = *a;
    *a = *b;
    *b = t;
}

static void sift_up(struct sim_queue *q, uint32_t i)
{
    while (i > 0) {
        uint32_t parent = (i - 1u) / 2u;
        if (!event_before(&q->heap[i], &q->heap[parent]))
            return;
        swap(&q->heap[i], &q->heap[parent]);
        i = parent;
    }
}

static void sift_down(struct sim_queue *q, uint32_t i)
{
    for (;;) {
        uint32_t l = 2u * i + 1u, r = l + 1u, m = i;
        if (l < q->len && event_before(&q->heap[l], &q->heap[m]))
            m = l;
        if (r < q->len && event_before(&q->heap[r], &q->heap[m]))
            m = r;
        if (m == i)
            return;
        swap(&q->heap[i], &q->heap[m]);
        i = m;
    }
}

void sim_queue_init(struct sim_queue *q, struct sim_event *storage, uint32_t cap)
{
    q->heap = storage;
    q->cap = cap;
    q->len = 0;
    q->next_order = 0;
}

int sim_queue_push(struct sim_queue *q, const struct sim_event *ev)
{
    if (q->len >= q->cap)
        return ERR_MEM;
    q->heap[q->len] = *ev;
    q->heap[q->len].order = q->next_order++;
    sift_up(q, q->len++);
    return 0;
}

const struct sim_event *sim_queue_peek(const struct sim_queue *q)
{
    return q->len ? &q->heap[0] : 0;
}

int sim_queue_pop(struct sim_queue *q, struct sim_event *out)
{
    if (!q->len)
        return 0;
    *out = q->heap[0];
    q->heap[0] = q->heap[--q->len];
    sift_down(q, 0);
    return 1;
}

uint32_t sim_queue_cancel(struct sim_queue *q, uint16_t kind, uint16_t target)
{
    uint32_t i, kept = 0, gone;
    /* Keep the others in place order, then rebuild the heap (Floyd's bottom-up build). */
    for (i = 0; i < q->len; i++)
        if (q->heap[i].kind != kind || q->heap[i].target != target)
            q->heap[kept++] = q->heap[i];
    gone = q->len - kept;
    q->len = kept;
    for (i = kept / 2u; i-- > 0;)
        sift_down(q, i);
    return gone;
}
