#include "trace_rec.h"

#include <stdlib.h>
#include <string.h>

/* FNV-1a, 64-bit (Fowler, Noll, Vo; draft-eastlake-fnv): byte-at-a-time, so the hash does
 * not depend on how the stream is cut into records or batches. */
#define FNV64_OFFSET 0xCBF29CE484222325ull
#define FNV64_PRIME  0x100000001B3ull

void trec_buf_init(struct trec_buf *b)
{
    memset(b, 0, sizeof *b);
    b->hash = FNV64_OFFSET;
}

void trec_buf_free(struct trec_buf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

void trec_buf_clear(struct trec_buf *b)
{
    b->len = 0;
}

static int trec_buf_grow(struct trec_buf *b, size_t need)
{
    size_t cap = b->cap ? b->cap : 65536;
    uint8_t *p;
    while (cap < need)
        cap *= 2;
    if (cap == b->cap)
        return 0;
    p = realloc(b->p, cap);
    if (!p)
        return -1;
    b->p = p;
    b->cap = cap;
    return 0;
}

uint8_t *trec_buf_begin(struct trec_buf *b, uint16_t type, uint32_t size)
{
    uint8_t *rec;
    size = (size + 7u) & ~7u;
    if (b->failed || trec_buf_grow(b, b->len + size) != 0) {
        b->failed = 1;
        return NULL;
    }
    rec = b->p + b->len;
    memset(rec, 0, size);
    trec_wr16(rec + TREC_OFF_TYPE, type);
    trec_wr32(rec + TREC_OFF_SIZE, size);
    b->len += size;
    return rec;
}

void trec_buf_commit(struct trec_buf *b, const uint8_t *rec)
{
    uint32_t size = trec_rd32(rec + TREC_OFF_SIZE), i;
    uint64_t h = b->hash;
    for (i = 0; i < size; i++) {
        h ^= rec[i];
        h *= FNV64_PRIME;
    }
    b->hash = h;
    b->total += size;
}
