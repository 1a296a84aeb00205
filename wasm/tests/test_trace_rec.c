/* The trace's fingerprint (wasm/sim/trace_rec.c): whatever the records' sizes, so wherever
 * a record starts among the four lanes, it is the definition applied to the whole stream at
 * once (word i into lane i mod 4, lanes combined in order), computed here word by word;
 * and one word changed changes it. */
#include "trace_rec.h"
#include "unit.h"

#define T_PRIME  0x100000001B3ull
#define T_OFFSET 0xCBF29CE484222325ull

static uint64_t t_step(uint64_t h, uint64_t word)
{
    h ^= word;
    h *= T_PRIME;
    return h ^ (h >> 32);
}

/* The definition, over the bytes of the stream as one piece. */
static uint64_t t_reference(const uint8_t *p, size_t len)
{
    uint64_t lane[4] = { T_OFFSET, T_OFFSET, T_OFFSET, T_OFFSET }, h;
    size_t i;
    for (i = 0; i < len / 8u; i++)
        lane[i % 4u] = t_step(lane[i % 4u], trec_rd64(p + 8u * i));
    h = lane[0];
    for (i = 1; i < 4u; i++)
        h = t_step(h, lane[i]);
    return h;
}

/* Records of 1 to 9 words, in an order that starts them in every lane, each filled with
 * bytes that say where they are. */
static void t_fill(struct trec_buf *b, uint8_t salt)
{
    static const uint32_t words[] = { 1, 2, 3, 5, 4, 7, 9, 6, 8, 1, 1, 3, 2 };
    uint32_t r, k;
    for (r = 0; r < sizeof words / sizeof words[0]; r++) {
        uint8_t *rec = trec_buf_begin(b, (uint16_t)(r + 1u), 8u * words[r]);
        for (k = 8; k < 8u * words[r]; k++)
            rec[k] = (uint8_t)(r * 31u + k + salt);
        trec_buf_commit(b, rec);
    }
}

static void test_hash_is_the_definition_whatever_the_cut(void)
{
    struct trec_buf b;
    trec_buf_init(&b);
    t_fill(&b, 0);
    CHECK(!b.failed);
    CHECK_EQ(b.total, (uint64_t)b.len);
    CHECK_EQ(trec_buf_hash(&b), t_reference(b.p, b.len));
    trec_buf_free(&b);
}

/* The same stream with the first half handed out and cleared: the hash still covers it. */
static void test_hash_survives_clear(void)
{
    struct trec_buf whole, cut;
    trec_buf_init(&whole);
    trec_buf_init(&cut);
    t_fill(&whole, 0);
    t_fill(&whole, 0);
    t_fill(&cut, 0);
    trec_buf_clear(&cut);
    t_fill(&cut, 0);
    CHECK_EQ(cut.total, whole.total);
    CHECK_EQ(trec_buf_hash(&cut), trec_buf_hash(&whole));
    trec_buf_free(&whole);
    trec_buf_free(&cut);
}

static void test_one_word_changes_the_hash(void)
{
    struct trec_buf a, b;
    trec_buf_init(&a);
    trec_buf_init(&b);
    t_fill(&a, 0);
    t_fill(&b, 0);
    CHECK_EQ(trec_buf_hash(&a), trec_buf_hash(&b));
    trec_buf_free(&b);
    trec_buf_init(&b);
    t_fill(&b, 1);
    CHECK(trec_buf_hash(&a) != trec_buf_hash(&b));
    trec_buf_free(&a);
    trec_buf_free(&b);
}

UNIT_MAIN(UNIT(test_hash_is_the_definition_whatever_the_cut), UNIT(test_hash_survives_clear),
          UNIT(test_one_word_changes_the_hash))
