#include "sim_buf.h"

#include <stdlib.h>
#include <string.h>

uint8_t *sim_buf_reserve(struct sim_buf *b, size_t need)
{
    if (need > b->cap) {
        size_t cap = b->cap ? b->cap : 16384;
        uint8_t *q;
        while (cap < need)
            cap *= 2;
        q = realloc(b->p, cap);
        if (!q) {
            b->failed = 1;
            return NULL;
        }
        b->p = q;
        b->cap = cap;
    }
    return b->p + b->len;
}

int sim_buf_append(struct sim_buf *b, const void *data, size_t n)
{
    uint8_t *at = sim_buf_reserve(b, b->len + n);
    if (!at)
        return -1;
    memcpy(at, data, n);
    b->len += n;
    return 0;
}

void sim_buf_free(struct sim_buf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}
