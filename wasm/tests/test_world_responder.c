/* The TCP responder as a host of the simulated world, with stackscope's full stack as its
 * peer: the echo client streams into it over SLIP at 57600 baud, MTU 576, with 1 and 50
 * connections, and every byte must come back as it was sent (the client checks each one;
 * the world reports a difference in the app's report text). Discard answers a send-only
 * client; the engine refuses a TCP app on a responder host, naming the field. */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "stack_err.h"
#include "trace_rec.h"
#include "engine_run.h"
#include "unit.h"

/* A pc (full stack; `tsq` frames of TCP small queues, 0 = off) and an arduino (the
 * responder, 50 entries, a 2-MSS window), `apps` the apps array. */
static char *scenario_tsq(const char *apps, unsigned duration_ms, unsigned tsq,
                          unsigned syn_retries)
{
    static const char fmt[] =
        "{\"version\":1,\"name\":\"t\",\"title\":\"t\",\"seed\":1,\"duration_ms\":%u,"
        "\"hosts\":[{\"name\":\"pc\",\"addr\":\"10.0.7.1/24\",\"stack\":{\"tcp_max_pcbs\":64,"
        "\"tcp_small_queues\":%u%s}},"
        "{\"name\":\"arduino\",\"addr\":\"10.0.7.2/24\",\"stack\":{\"tcp_responder\":true,"
        "\"tcp_responder_wnd\":1072}}],"
        "\"links\":[{\"name\":\"s\",\"type\":\"serial\",\"a\":\"pc\",\"b\":\"arduino\","
        "\"baud\":57600,\"mtu\":576,\"latency_us\":1000}],"
        "\"apps\":[%s]}";
    char syn[32] = "";
    size_t n = sizeof fmt + sizeof syn + strlen(apps) + 16;
    char *s = malloc(n);
    if (syn_retries)
        snprintf(syn, sizeof syn, ",\"tcp_syn_retries\":%u", syn_retries);
    if (s)
        snprintf(s, n, fmt, duration_ms, tsq, syn, apps);
    return s;
}

static char *scenario(const char *apps, unsigned duration_ms)
{
    return scenario_tsq(apps, duration_ms, 2, 0);
}

static uint64_t rd64le(const uint8_t *p)
{
    uint64_t v = 0;
    int i;
    for (i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

struct report {
    int found, done, error;
    uint64_t bytes;
    uint32_t text_len;
};

/* The final report of app 0, from a batch of records. */
static void report_of_app0(void *ctx, const uint8_t *t, uint32_t len)
{
    struct report *rep = ctx;
    uint32_t off = 0;
    while (off + TREC_HDR <= len) {
        const uint8_t *r = t + off;
        if (trec_rd16(r) == TREC_APP && r[TREC_APP_OFF_APP] == 0 &&
            r[TREC_APP_OFF_KIND] == TREC_APP_REPORT) {
            rep->found = 1;
            rep->done = r[TREC_APP_OFF_DONE];
            rep->error = (int)trec_rd32(r + TREC_APP_OFF_ERROR);
            rep->bytes = rd64le(r + TREC_APP_OFF_BYTES);
            rep->text_len = trec_rd32(r + TREC_APP_OFF_TEXT_LEN);
            if (rep->text_len)
                printf("    app 0: %.*s\n", (int)rep->text_len, (const char *)r + TREC_APP_FIXED);
        }
        off += trec_rd32(r + TREC_OFF_SIZE);
    }
}

/* Runs the scenario to its end; the final report of app 0. */
static int run_report(const char *json, struct report *rep)
{
    memset(rep, 0, sizeof *rep);
    return engine_run_scenario(json, report_of_app0, rep);
}

/* syn_retries: the pc's tcp_syn_retries, 0 for its default */
static void echo_run_syn(unsigned connections, uint32_t bytes, unsigned duration_ms, unsigned tsq,
                         unsigned syn_retries)
{
    char apps[200];
    char *json;
    struct report rep;
    snprintf(apps, sizeof apps,
             "{\"type\":\"tcp_echo_client\",\"host\":\"pc\",\"to\":\"arduino\",\"port\":7,"
             "\"bytes\":%u,\"connections\":%u}",
             (unsigned)bytes, connections);
    json = scenario_tsq(apps, duration_ms, tsq, syn_retries);
    CHECK(json != NULL);
    CHECK(run_report(json, &rep) == 0);
    free(json);
    CHECK(rep.found);
    CHECK_EQ(rep.done, 1);
    CHECK_EQ(rep.error, 0);
    CHECK_EQ(rep.bytes, bytes);
    CHECK_EQ(rep.text_len, 0); /* no byte differs */
}

static void echo_run(unsigned connections, uint32_t bytes, unsigned duration_ms, unsigned tsq)
{
    echo_run_syn(connections, bytes, duration_ms, tsq, 0);
}

static void test_echo_one_connection(void)
{
    echo_run(1, 60000, 60000, 2);
}

static void test_echo_fifty_connections(void)
{
    echo_run(50, 100000, 120000, 2);
}

/* Without TCP small queues the pc overfills its own queue of 10 frames: segments and SYNs
 * are lost, retransmitted, some answered twice; still every byte comes back right. The
 * connections waiting their turn (tcp_responder.h) probe the zero window meanwhile, and
 * their probes share the queue with the SYNs of the last connections: with 6 SYN retries
 * (63 s) two of them never got in, so the pc retries 8 times, as arduino-echo-throughput's. */
static void test_echo_fifty_connections_with_loss(void)
{
    echo_run_syn(50, 276000, 1000000, 0, 8);
}

/* The responder's sixth frame (an echo) lost on the line: the next echo's ACK covers its
 * data, which nobody holds any more. The connection is reset, so the client ends with an
 * error instead of waiting for ever. */
static void test_lost_echo_resets(void)
{
    char *json = scenario("{\"type\":\"tcp_echo_client\",\"host\":\"pc\",\"to\":\"arduino\","
                          "\"port\":7,\"bytes\":20000}",
                          100000);
    char *faulty, *at;
    struct report rep;
    static const char fault[] = ",\"faults\":[{\"action\":\"drop\",\"nth\":6,\"dir\":\"ba\"}]";
    CHECK(json != NULL);
    at = strstr(json, "\"latency_us\":1000");
    CHECK(at != NULL);
    at += strlen("\"latency_us\":1000");
    faulty = malloc(strlen(json) + sizeof fault);
    CHECK(faulty != NULL);
    memcpy(faulty, json, (size_t)(at - json));
    strcpy(faulty + (at - json), fault);
    strcat(faulty, at);
    free(json);
    CHECK(run_report(faulty, &rep) == 0);
    free(faulty);
    CHECK(rep.found);
    CHECK_EQ(rep.done, 1);
    CHECK_EQ(rep.error, ERR_RST);
    CHECK(rep.bytes < 20000);
}

static void test_discard(void)
{
    char *json = scenario("{\"type\":\"tcp_echo_client\",\"host\":\"pc\",\"to\":\"arduino\","
                          "\"port\":9,\"bytes\":20000,\"send_only\":true}",
                          30000);
    struct report rep;
    CHECK(json != NULL);
    CHECK(run_report(json, &rep) == 0);
    free(json);
    CHECK(rep.found);
    CHECK_EQ(rep.done, 1);
    CHECK_EQ(rep.error, 0);
    CHECK_EQ(rep.bytes, 20000);
}

/* The capture's comment on a frame the responder sent names its entry's state. */
static void test_capture_comment(void)
{
    static const char want[] = "arduino: responder ESTABLISHED rcv_nxt=";
    char *json = scenario("{\"type\":\"tcp_echo_client\",\"host\":\"pc\",\"to\":\"arduino\","
                          "\"port\":7,\"bytes\":2000}",
                          10000);
    struct engine *e = engine_create();
    const uint8_t *p;
    uint32_t len, i, found = 0;
    CHECK(json != NULL);
    CHECK(engine_load(e, json, (uint32_t)strlen(json)) == ENGINE_OK);
    free(json);
    while (!engine_run(e, engine_now(e) + 1e6))
        engine_trace_clear(e);
    p = engine_pcapng_ptr(e);
    len = engine_pcapng_len(e);
    for (i = 0; i + sizeof want - 1 <= len && !found; i++)
        found = memcmp(p + i, want, sizeof want - 1) == 0;
    engine_destroy(e);
    CHECK(found);
}

static void test_refuses_tcp_app(void)
{
    char *json = scenario("{\"type\":\"tcp_echo_server\",\"host\":\"arduino\",\"port\":7}", 1000);
    struct engine *e = engine_create();
    CHECK(json != NULL);
    CHECK(engine_load(e, json, (uint32_t)strlen(json)) != ENGINE_OK);
    CHECK(strstr(engine_error(e), "apps[0].host: names host \"arduino\", a TCP responder "
                                  "(hosts[1].stack.tcp_responder), which has no TCP sockets for a "
                                  "tcp_echo_server") != NULL);
    engine_destroy(e);
    free(json);
}

UNIT_MAIN(UNIT(test_echo_one_connection), UNIT(test_echo_fifty_connections),
          UNIT(test_echo_fifty_connections_with_loss), UNIT(test_lost_echo_resets),
          UNIT(test_discard), UNIT(test_capture_comment), UNIT(test_refuses_tcp_app))
