#include "trace_rec.h"

#include <stdlib.h>
#include <string.h>

/* The trace's fingerprint: the stream read as 64-bit little-endian words, word i going to
 * lane i mod 4, where it is xored in and the lane multiplied by FNV's
 * 64-bit prime (Fowler, Noll, Vo; draft-eastlake-fnv), the product folded (its high half
 * xored into its low half, so every bit of a word reaches every bit of the lane). The lanes
 * are then combined the same way, lane 0 first (trec_buf_hash). A word's lane depends only
 * on its place in the stream, and records are whole words long (trec_buf_begin rounds their
 * size up to 8), so the fingerprint does not depend on how the stream is cut into records
 * or batches. Four lanes because one chain waited for each multiplication before the next:
 * 18 % of a bulk transfer's run, four chains run side by side (docs/performance.md). Every
 * step is a bijection of the running value, so two streams that differ in one word never
 * meet. */
#define TREC_HASH_OFFSET 0xCBF29CE484222325ull
#define TREC_HASH_PRIME  0x100000001B3ull

void trec_buf_init(struct trec_buf *b)
{
    uint32_t k;
    memset(b, 0, sizeof *b);
    for (k = 0; k < 4u; k++)
        b->lane[k] = TREC_HASH_OFFSET;
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

static uint64_t trec_hash_step(uint64_t h, uint64_t word)
{
    h ^= word;
    h *= TREC_HASH_PRIME;
    return h ^ (h >> 32);
}

void trec_buf_commit(struct trec_buf *b, const uint8_t *rec)
{
    uint32_t size = trec_rd32(rec + TREC_OFF_SIZE), n = size / 8u, i = 0;
    /* hK is the lane of the record's words K, K + 4, ...: the stream's word total / 8 is
     * the record's first. Four named values, not an array, so that they stay in registers. */
    uint32_t f = (uint32_t)(b->total / 8u);
    uint64_t h0 = b->lane[f & 3u], h1 = b->lane[(f + 1u) & 3u];
    uint64_t h2 = b->lane[(f + 2u) & 3u], h3 = b->lane[(f + 3u) & 3u];
    for (; i + 4u <= n; i += 4u) {
        h0 = trec_hash_step(h0, trec_rd64(rec + 8u * i));
        h1 = trec_hash_step(h1, trec_rd64(rec + 8u * i + 8u));
        h2 = trec_hash_step(h2, trec_rd64(rec + 8u * i + 16u));
        h3 = trec_hash_step(h3, trec_rd64(rec + 8u * i + 24u));
    }
    if (i < n)
        h0 = trec_hash_step(h0, trec_rd64(rec + 8u * i));
    if (i + 1u < n)
        h1 = trec_hash_step(h1, trec_rd64(rec + 8u * i + 8u));
    if (i + 2u < n)
        h2 = trec_hash_step(h2, trec_rd64(rec + 8u * i + 16u));
    b->lane[f & 3u] = h0;
    b->lane[(f + 1u) & 3u] = h1;
    b->lane[(f + 2u) & 3u] = h2;
    b->lane[(f + 3u) & 3u] = h3;
    b->total += size;
}

uint64_t trec_buf_hash(const struct trec_buf *b)
{
    uint64_t h = b->lane[0];
    uint32_t k;
    for (k = 1; k < 4u; k++)
        h = trec_hash_step(h, b->lane[k]);
    return h;
}
