#include "trace_rec.h"

#include <stdlib.h>
#include <string.h>

/* The trace's fingerprint: the stream read as 64-bit little-endian words, each xored in and
 * multiplied by FNV's 64-bit prime (Fowler, Noll, Vo; draft-eastlake-fnv), the product
 * folded (its high half xored into its low half, so every bit of a word reaches every bit
 * of the hash). Records are whole words long (trec_buf_begin rounds their size up to 8), so
 * the fingerprint does not depend on how the stream is cut into records or batches. One
 * multiplication per 8 bytes: FNV-1a byte by byte took one per byte, each waiting for the
 * last, and was 31 % of a bulk transfer's run (docs/performance.md). Both steps are
 * bijections of the running value, so two streams that differ in one word never meet. */
#define TREC_HASH_OFFSET 0xCBF29CE484222325ull
#define TREC_HASH_PRIME  0x100000001B3ull

void trec_buf_init(struct trec_buf *b)
{
    memset(b, 0, sizeof *b);
    b->hash = TREC_HASH_OFFSET;
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

/* Room for a record of `size` bytes (a multiple of 8), nothing written; NULL if memory
 * ran out. */
static uint8_t *trec_buf_reserve(struct trec_buf *b, uint32_t size)
{
    uint8_t *rec;
    if (b->failed || trec_buf_grow(b, b->len + size) != 0) {
        b->failed = 1;
        return NULL;
    }
    rec = b->p + b->len;
    b->len += size;
    return rec;
}

/* Writes the header of a record whose header bytes are zero. */
static uint8_t *trec_buf_header(uint8_t *rec, uint16_t type, uint32_t size)
{
    trec_wr16(rec + TREC_OFF_TYPE, type);
    trec_wr32(rec + TREC_OFF_SIZE, size);
    return rec;
}

uint8_t *trec_buf_begin(struct trec_buf *b, uint16_t type, uint32_t size)
{
    uint8_t *rec;
    size = (size + 7u) & ~7u;
    rec = trec_buf_reserve(b, size);
    if (!rec)
        return NULL;
    memset(rec, 0, size);
    return trec_buf_header(rec, type, size);
}

uint8_t *trec_buf_begin_data(struct trec_buf *b, uint16_t type, uint32_t fixed, const uint8_t *data,
                             uint32_t n)
{
    uint32_t size = (fixed + n + 7u) & ~7u;
    uint8_t *rec = trec_buf_reserve(b, size);
    if (!rec)
        return NULL;
    memset(rec, 0, fixed);
    memcpy(rec + fixed, data, n);
    memset(rec + fixed + n, 0, size - fixed - n);
    return trec_buf_header(rec, type, size);
}

void trec_buf_commit(struct trec_buf *b, const uint8_t *rec)
{
    uint32_t size = trec_rd32(rec + TREC_OFF_SIZE), i;
    uint64_t h = b->hash;
    for (i = 0; i < size; i += 8) {
        h ^= trec_rd64(rec + i);
        h *= TREC_HASH_PRIME;
        h ^= h >> 32;
    }
    b->hash = h;
    b->total += size;
}
