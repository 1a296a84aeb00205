/* Reassembly in a simulated world, through the engine: duplicated fragments no longer
 * stop large pings (RFC 791 3.2, RFC 815). Two hosts on Ethernet with a 576-byte MTU; a
 * ping of 1472 bytes is a 1500-byte datagram, sent as fragments of 572, 572 and 396 bytes.
 * Before the reassembly kept the keys of completed datagrams and evicted the oldest
 * incomplete one, each late duplicate held one of the two slots for the 15 s timeout. */
#include <stdlib.h>
#include <string.h>

#include "drop_reason.h"
#include "engine.h"
#include "trace.h"
#include "trace_rec.h"
#include "unit.h"

struct outcome {
    uint64_t received;           /* the ping's report: replies received */
    int all_received;            /* its summary says "N packets transmitted, N received" */
    uint32_t drops[DROP_REASON_COUNT];
};

/* Two hosts on Ethernet, MTU 576; `faults` is the link's faults array, then a ping of
 * `count` x 1472 bytes every `interval_ms`. */
static char *scenario(const char *faults, unsigned count, unsigned interval_ms,
                      unsigned duration_ms)
{
    static const char fmt[] =
        "{\"version\":1,\"name\":\"t\",\"title\":\"t\",\"seed\":1,\"duration_ms\":%u,"
        "\"hosts\":[{\"name\":\"a\",\"addr\":\"10.0.7.1/24\"},{\"name\":\"b\",\"addr\":\"10.0.7.2/24\"}],"
        "\"links\":[{\"name\":\"eth\",\"type\":\"ethernet\",\"a\":\"a\",\"b\":\"b\",\"mtu\":576,"
        "\"faults\":%s}],"
        "\"apps\":[{\"type\":\"ping\",\"host\":\"a\",\"to\":\"b\",\"count\":%u,\"size\":1472,"
        "\"interval_ms\":%u}]}";
    size_t n = sizeof fmt + strlen(faults) + 48;
    char *s = malloc(n);
    snprintf(s, n, fmt, duration_ms, faults, count, interval_ms);
    return s;
}

static void tally(struct outcome *o, const uint8_t *p, uint32_t len, unsigned count)
{
    uint32_t off = 0;
    char want[64];
    snprintf(want, sizeof want, "%u packets transmitted, %u received", count, count);
    while (off + TREC_HDR <= len) {
        const uint8_t *r = p + off;
        uint32_t size = trec_rd32(r + TREC_OFF_SIZE);
        uint16_t type = trec_rd16(r);
        if (type == TREC_EVENT && trec_rd16(r + TREC_EVENT_OFF_KIND) == TRACE_DROP &&
            trec_rd32(r + TREC_EVENT_OFF_A) < DROP_REASON_COUNT)
            o->drops[trec_rd32(r + TREC_EVENT_OFF_A)]++;
        if (type == TREC_APP && r[TREC_APP_OFF_KIND] == TREC_APP_REPORT) {
            char text[512];
            uint32_t n = trec_rd32(r + TREC_APP_OFF_TEXT_LEN);
            if (n >= sizeof text)
                n = sizeof text - 1;
            memcpy(text, r + TREC_APP_FIXED, n);
            text[n] = 0;
            o->received = trec_rd32(r + TREC_APP_OFF_BYTES);
            o->all_received = strstr(text, want) != NULL;
        }
        off += size;
    }
}

/* Runs the scenario to its end and tallies what the ping got and what was dropped. */
static int run(const char *json, unsigned count, struct outcome *o)
{
    struct engine *e = engine_create();
    memset(o, 0, sizeof *o);
    if (engine_load(e, json, (uint32_t)strlen(json)) != ENGINE_OK) {
        printf("    engine_load: %s\n", engine_error(e));
        engine_destroy(e);
        return -1;
    }
    for (;;) {
        int done = engine_run(e, engine_now(e) + 1e6);
        tally(o, engine_trace_ptr(e), engine_trace_len(e), count);
        engine_trace_clear(e);
        if (done)
            break;
    }
    engine_destroy(e);
    return 0;
}

/* The last fragment (396 bytes) of every request duplicated: each copy arrives after its
 * datagram is complete. Before the fix: 6 of 20 answered (two copies fill both slots, and
 * only their timeouts free them, every 15 s). */
static void test_one_fragment_of_each_request_duplicated(void)
{
    char *s = scenario("[{\"action\":\"duplicate\",\"p\":1,\"dir\":\"ab\","
                       "\"match\":{\"max_len\":500}}]",
                       20, 2000, 60000);
    struct outcome o;
    CHECK_EQ(run(s, 20, &o), 0);
    free(s);
    CHECK_EQ(o.received, 20);
    CHECK(o.all_received);
    CHECK_EQ(o.drops[DROP_IP_REASS_DONE], 20); /* each copy, at b */
    CHECK_EQ(o.drops[DROP_IP_REASS_FULL], 0);
    CHECK_EQ(o.drops[DROP_IP_REASS_TIMEOUT], 0);
    CHECK_EQ(o.drops[DROP_IP_REASS_EVICTED], 0);
}

/* Every frame duplicated both ways, a request every 200 ms. The copies of the first two
 * fragments land while their datagram is incomplete and agree with it; the copy of the
 * last one comes after. Before the fix: 4 of 100 answered. */
static void test_every_fragment_duplicated(void)
{
    char *s = scenario("[{\"action\":\"duplicate\",\"p\":1}]", 100, 200, 30000);
    struct outcome o;
    CHECK_EQ(run(s, 100, &o), 0);
    free(s);
    CHECK_EQ(o.received, 100);
    CHECK(o.all_received);
    CHECK_EQ(o.drops[DROP_IP_REASS_DONE], 200); /* 100 at b, 100 at a */
    CHECK_EQ(o.drops[DROP_IP_REASS_OVERLAP], 0);
    CHECK_EQ(o.drops[DROP_IP_REASS_FULL], 0);
    CHECK_EQ(o.drops[DROP_IP_REASS_TIMEOUT], 0);
}

UNIT_MAIN(UNIT(test_one_fragment_of_each_request_duplicated), UNIT(test_every_fragment_duplicated))
