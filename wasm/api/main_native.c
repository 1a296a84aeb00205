/* stackscope-engine: the engine natively, for the determinism test (its hash must equal
 * the wasm engine's) and the benchmark (native beside wasm). The `stackscope` command
 * calls it; people use `stackscope run`.
 *
 *   stackscope-engine [--trace FILE] [--pcapng FILE] [--describe] SCENARIO.json
 *
 * Prints one line of JSON: {"hash":"...","frames":N,"records":N,"virtual_us":T,"wall_us":W}.
 * Exit status 0, 2 for an invalid scenario (the message on stderr), 1 otherwise. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine.h"
#include "trace_rec.h"

static char *read_file(const char *path, uint32_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long n;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)n + 1);
        if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            buf = NULL;
        } else if (buf) {
            *len = (uint32_t)n;
        }
    }
    fclose(f);
    return buf;
}

static double wall_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static uint64_t count_frames(const uint8_t *p, uint32_t len)
{
    uint64_t n = 0;
    uint32_t off = 0;
    while (off + TREC_HDR <= len) {
        uint32_t size = trec_rd32(p + off + TREC_OFF_SIZE);
        if (p[off] == TREC_FRAME)
            n++;
        if (size < TREC_HDR)
            break;
        off += size;
    }
    return n;
}

int main(int argc, char **argv)
{
    const char *trace_path = NULL, *pcap_path = NULL, *scenario = NULL;
    int describe = 0, i, done = 0;
    uint32_t len = 0;
    char *json;
    struct engine *e;
    FILE *trace = NULL;
    uint64_t frames = 0;
    double t0, t1, step = 1e6;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--trace") == 0 && i + 1 < argc)
            trace_path = argv[++i];
        else if (strcmp(argv[i], "--pcapng") == 0 && i + 1 < argc)
            pcap_path = argv[++i];
        else if (strcmp(argv[i], "--describe") == 0)
            describe = 1;
        else if (argv[i][0] != '-' && !scenario)
            scenario = argv[i];
        else {
            fprintf(stderr, "usage: stackscope-engine [--trace FILE] [--pcapng FILE] [--describe] SCENARIO.json\n");
            return 1;
        }
    }
    if (!scenario) {
        fprintf(stderr, "stackscope-engine: no scenario file given\n");
        return 1;
    }
    json = read_file(scenario, &len);
    if (!json) {
        fprintf(stderr, "stackscope-engine: cannot read %s\n", scenario);
        return 1;
    }
    t0 = wall_us();
    e = engine_create();
    if (!e)
        return 1;
    if (engine_load(e, json, len) != ENGINE_OK) {
        fprintf(stderr, "%s: %s\n", scenario, engine_error(e));
        return 2;
    }
    if (describe)
        fprintf(stdout, "%s\n", engine_describe(e));
    if (trace_path && !(trace = fopen(trace_path, "wb"))) {
        fprintf(stderr, "stackscope-engine: cannot write %s\n", trace_path);
        return 1;
    }
    while (!done) {
        done = engine_run(e, engine_now(e) + step);
        frames += count_frames(engine_trace_ptr(e), engine_trace_len(e));
        if (trace)
            fwrite(engine_trace_ptr(e), 1, engine_trace_len(e), trace);
        engine_trace_clear(e);
    }
    t1 = wall_us();
    if (trace)
        fclose(trace);
    if (pcap_path) {
        FILE *f = fopen(pcap_path, "wb");
        if (!f || fwrite(engine_pcapng_ptr(e), 1, engine_pcapng_len(e), f) != engine_pcapng_len(e)) {
            fprintf(stderr, "stackscope-engine: cannot write %s\n", pcap_path);
            return 1;
        }
        fclose(f);
    }
    printf("{\"hash\":\"%s\",\"frames\":%llu,\"trace_bytes\":%.0f,\"virtual_us\":%.0f,\"wall_us\":%.0f}\n",
           engine_hash(e), (unsigned long long)frames, engine_trace_total(e), engine_now(e),
           t1 - t0);
    engine_destroy(e);
    free(json);
    return 0;
}
