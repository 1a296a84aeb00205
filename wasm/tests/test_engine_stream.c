/* The engine's capture handed out slice by slice (engine_pcapng_clear): the pieces put
 * together are the file a caller that never clears gets, byte for byte, and the trace hash
 * does not change; and a capture that cannot grow is an error of engine_run, never a short
 * file. The allocator here refuses any block over 16 MiB (the sanitizer's
 * max_allocation_size_mb), so a 20 MB transfer's capture, about 21 MB, cannot be held
 * whole, while the same run taken slice by slice never needs more than a slice. */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "trace_rec.h"
#include "unit.h"

const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1:max_allocation_size_mb=16";
}

/* A bulk transfer of `bytes` over a clean 10 Mbit/s Ethernet link. */
static char *bulk_scenario(unsigned bytes)
{
    static const char fmt[] =
        "{\"version\":1,\"name\":\"t\",\"title\":\"t\",\"seed\":3,\"duration_ms\":60000,"
        "\"hosts\":[{\"name\":\"s\",\"addr\":\"10.0.9.1/24\"},"
        "{\"name\":\"r\",\"addr\":\"10.0.9.2/24\"}],"
        "\"links\":[{\"name\":\"eth\",\"type\":\"ethernet\",\"a\":\"s\",\"b\":\"r\","
        "\"rate_bps\":10000000,\"delay_us\":2000,"
        "\"faults\":[{\"action\":\"drop\",\"p\":0.01}]}],"
        "\"apps\":[{\"type\":\"bulk_sender\",\"host\":\"s\",\"to\":\"r\",\"bytes\":%u},"
        "{\"type\":\"bulk_receiver\",\"host\":\"r\"}]}";
    size_t n = sizeof fmt + 16;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, fmt, bytes);
    return s;
}

/* capture: 0 or 1 for engine_capture before the load, -1 to leave the default. */
static struct engine *load_capture(unsigned bytes, int capture)
{
    char *json = bulk_scenario(bytes);
    struct engine *e = engine_create();
    int rc = json && e ? ENGINE_OK : ENGINE_ERR_FAILED;
    if (rc == ENGINE_OK && capture >= 0)
        rc = engine_capture(e, capture);
    if (rc == ENGINE_OK)
        rc = engine_load(e, json, (uint32_t)strlen(json));
    free(json);
    if (rc != ENGINE_OK) {
        printf("    engine_load: %s\n", e ? engine_error(e) : "no engine");
        engine_destroy(e);
        return NULL;
    }
    return e;
}

static struct engine *load(unsigned bytes)
{
    return load_capture(bytes, -1);
}

/* Runs to the end in steps of `step_us`, the trace cleared after each. With `len`, the
 * capture is taken after each step too: counted in *len, and copied to `out` (of `cap`
 * bytes) when given. Returns engine_run's last result. */
static int run_all(struct engine *e, double step_us, uint8_t *out, size_t cap, size_t *len)
{
    int rc = 0;
    while (rc == 0) {
        rc = engine_run(e, engine_now(e) + step_us);
        engine_trace_clear(e);
        if (!len)
            continue;
        if (out && *len + engine_pcapng_len(e) > cap)
            return ENGINE_ERR_FAILED;
        if (out)
            memcpy(out + *len, engine_pcapng_ptr(e), engine_pcapng_len(e));
        *len += engine_pcapng_len(e);
        engine_pcapng_clear(e);
    }
    return rc;
}

/* Taken in slices of 0.3 s, the capture is the whole-run file byte for byte, and the
 * trace's hash is the same. */
static void test_slices_make_the_whole_file(void)
{
    struct engine *whole = load(1000000), *sliced = load(1000000);
    size_t cap = 4u << 20, len = 0;
    uint8_t *out = malloc(cap);
    CHECK(whole && sliced && out);
    CHECK_EQ(run_all(whole, 1e6, NULL, 0, NULL), 1);
    CHECK_EQ(run_all(sliced, 3e5, out, cap, &len), 1);
    CHECK(engine_pcapng_len(whole) > 1000000);
    CHECK_EQ(len, engine_pcapng_len(whole));
    CHECK(memcmp(out, engine_pcapng_ptr(whole), len) == 0);
    CHECK(strcmp(engine_hash(whole), engine_hash(sliced)) == 0);
    free(out);
    engine_destroy(whole);
    engine_destroy(sliced);
}

/* A capture held whole outgrows what the allocator gives: engine_run fails and says so,
 * and goes on failing (the run cannot be completed). */
static void test_capture_out_of_memory_is_an_error(void)
{
    struct engine *e = load(20000000);
    CHECK(e);
    CHECK_EQ(run_all(e, 1e6, NULL, 0, NULL), ENGINE_ERR_FAILED);
    CHECK(strstr(engine_error(e), "out of memory: the capture (pcapng) could not grow") != NULL);
    CHECK_EQ(engine_run(e, engine_now(e) + 1e6), ENGINE_ERR_FAILED);
    engine_destroy(e);
}

/* The same run with its capture taken after each slice goes to the end, and its capture
 * is larger than any one block the allocator gives. */
static void test_capture_taken_in_slices_runs_to_the_end(void)
{
    struct engine *e = load(20000000);
    size_t len = 0;
    CHECK(e);
    CHECK_EQ(run_all(e, 1e6, NULL, 0, &len), 1);
    CHECK(len > (16u << 20));
    engine_destroy(e);
}

/* engine_capture(e, 1) is the default: the same file, byte for byte. */
static void test_capture_on_is_the_default(void)
{
    struct engine *dflt = load(300000), *on = load_capture(300000, 1);
    CHECK(dflt && on);
    CHECK_EQ(run_all(dflt, 1e6, NULL, 0, NULL), 1);
    CHECK_EQ(run_all(on, 1e6, NULL, 0, NULL), 1);
    CHECK(engine_pcapng_len(dflt) > 300000);
    CHECK_EQ(engine_pcapng_len(on), engine_pcapng_len(dflt));
    CHECK(memcmp(engine_pcapng_ptr(on), engine_pcapng_ptr(dflt), engine_pcapng_len(on)) == 0);
    engine_destroy(dflt);
    engine_destroy(on);
}

/* Capture off, the 20 MB transfer whose capture held whole cannot be allocated
 * (test_capture_out_of_memory_is_an_error) runs to the end without the capture ever
 * being taken: nothing is written to it, not even the section header; and the trace is
 * the one of the run with a capture. */
static void test_capture_off_builds_nothing(void)
{
    struct engine *off = load_capture(20000000, 0), *on = load(20000000);
    size_t len = 0;
    int rc = 0;
    CHECK(off && on);
    while (rc == 0) {
        rc = engine_run(off, engine_now(off) + 1e6);
        engine_trace_clear(off);
        CHECK_EQ(engine_pcapng_len(off), 0);
    }
    CHECK_EQ(rc, 1);
    CHECK_EQ(run_all(on, 1e6, NULL, 0, &len), 1);
    CHECK(len > (16u << 20));
    CHECK(strcmp(engine_hash(off), engine_hash(on)) == 0);
    engine_destroy(off);
    engine_destroy(on);
}

/* engine_frames counts the TREC_FRAME records, those dropped by the link included, without
 * the trace being read; and it goes on counting across engine_trace_clear. */
static void test_frames_counts_the_frame_records(void)
{
    struct engine *e = load(300000);
    double frames = 0;
    int rc = 0;
    CHECK(e);
    while (rc == 0) {
        const uint8_t *p;
        uint32_t off = 0, len;
        rc = engine_run(e, engine_now(e) + 3e5);
        p = engine_trace_ptr(e);
        len = engine_trace_len(e);
        for (; off + TREC_HDR <= len; off += trec_rd32(p + off + TREC_OFF_SIZE))
            frames += p[off] == TREC_FRAME;
        engine_trace_clear(e);
        CHECK_EQ(engine_frames(e), frames);
    }
    CHECK_EQ(rc, 1);
    CHECK(frames > 200);
    engine_destroy(e);
}

/* The file starts with the world: once it is loaded the choice is made. */
static void test_capture_after_load_is_refused(void)
{
    struct engine *e = load(1000);
    CHECK(e);
    CHECK_EQ(engine_capture(e, 0), ENGINE_ERR_FAILED);
    CHECK(strcmp(engine_error(e), "engine_capture: called after engine_load") == 0);
    CHECK_EQ(run_all(e, 1e6, NULL, 0, NULL), 1);
    CHECK(engine_pcapng_len(e) > 0);
    engine_destroy(e);
}

UNIT_MAIN(UNIT(test_slices_make_the_whole_file), UNIT(test_capture_out_of_memory_is_an_error),
          UNIT(test_capture_taken_in_slices_runs_to_the_end), UNIT(test_capture_on_is_the_default),
          UNIT(test_capture_off_builds_nothing), UNIT(test_capture_after_load_is_refused),
          UNIT(test_frames_counts_the_frame_records))
