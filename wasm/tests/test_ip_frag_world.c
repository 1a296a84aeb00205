/* Fragments and datagram sizes in a simulated world, through the engine.
 *
 * Duplicated fragments no longer stop large pings (RFC 791 3.2, RFC 815): two hosts on
 * Ethernet with a 576-byte MTU; a ping of 1472 bytes is a 1500-byte datagram, sent as
 * fragments of 572, 572 and 396 bytes. Before the reassembly kept the keys of completed
 * datagrams and evicted the oldest incomplete one, each late duplicate held one of the two
 * slots for the 15 s timeout.
 *
 * Pings up to 65507 bytes run when the hosts are configured for them (ip_max_datagram,
 * ip_reass_max), and the engine refuses, when it loads the scenario, a size the sender
 * cannot build or the other end cannot reassemble: before, such a scenario loaded and its
 * ping said "could not start: ERR_ARG". */
#include <stdlib.h>
#include <string.h>

#include "drop_reason.h"
#include "engine.h"
#include "trace.h"
#include "trace_rec.h"
#include "engine_run.h"
#include "unit.h"

struct outcome {
    uint64_t received; /* the ping's report: replies received */
    int all_received;  /* its summary says "N packets transmitted, N received" */
    uint32_t drops[DROP_REASON_COUNT];
};

/* Two hosts on Ethernet, a with `stack_a` and b with `stack_b` (JSON objects); `faults` is
 * the link's faults array, then a ping of `count` x `size` bytes every `interval_ms`. */
static char *scenario(const char *stack_a, const char *stack_b, unsigned mtu, const char *faults,
                      unsigned count, unsigned size, unsigned interval_ms, unsigned duration_ms)
{
    static const char fmt[] =
        "{\"version\":1,\"name\":\"t\",\"title\":\"t\",\"seed\":1,\"duration_ms\":%u,"
        "\"hosts\":[{\"name\":\"a\",\"addr\":\"10.0.7.1/24\",\"stack\":%s},"
        "{\"name\":\"b\",\"addr\":\"10.0.7.2/24\",\"stack\":%s}],"
        "\"links\":[{\"name\":\"eth\",\"type\":\"ethernet\",\"a\":\"a\",\"b\":\"b\",\"mtu\":%u,"
        "\"faults\":%s}],"
        "\"apps\":[{\"type\":\"ping\",\"host\":\"a\",\"to\":\"b\",\"count\":%u,\"size\":%u,"
        "\"interval_ms\":%u}]}";
    size_t n = sizeof fmt + strlen(stack_a) + strlen(stack_b) + strlen(faults) + 80;
    char *s = malloc(n);
    snprintf(s, n, fmt, duration_ms, stack_a, stack_b, mtu, faults, count, size, interval_ms);
    return s;
}

/* A scenario of two hosts with default stacks, pinging `count` x 1472 bytes over MTU 576. */
static char *dup_scenario(const char *faults, unsigned count, unsigned interval_ms,
                          unsigned duration_ms)
{
    return scenario("{}", "{}", 576, faults, count, 1472, interval_ms, duration_ms);
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

struct tally_ctx {
    struct outcome *o;
    unsigned count;
};

static void tally_batch(void *ctx, const uint8_t *records, uint32_t len)
{
    struct tally_ctx *c = ctx;
    tally(c->o, records, len, c->count);
}

/* Runs the scenario to its end and tallies what the ping got and what was dropped. */
static int run(const char *json, unsigned count, struct outcome *o)
{
    struct tally_ctx c = { o, count };
    memset(o, 0, sizeof *o);
    return engine_run_scenario(json, tally_batch, &c);
}

/* The last fragment (396 bytes) of every request duplicated: each copy arrives after its
 * datagram is complete. Before the fix: 6 of 20 answered (two copies fill both slots, and
 * only their timeouts free them, every 15 s). */
static void test_one_fragment_of_each_request_duplicated(void)
{
    char *s = dup_scenario("[{\"action\":\"duplicate\",\"p\":1,\"dir\":\"ab\","
                           "\"match\":{\"max_len\":500}}]",
                           20, 2000, 60000);
    struct outcome o;
    int rc = run(s, 20, &o);
    free(s);
    CHECK_EQ(rc, 0);
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
    char *s = dup_scenario("[{\"action\":\"duplicate\",\"p\":1}]", 100, 200, 30000);
    struct outcome o;
    int rc = run(s, 100, &o);
    free(s);
    CHECK_EQ(rc, 0);
    CHECK_EQ(o.received, 100);
    CHECK(o.all_received);
    CHECK_EQ(o.drops[DROP_IP_REASS_DONE], 200); /* 100 at b, 100 at a */
    CHECK_EQ(o.drops[DROP_IP_REASS_OVERLAP], 0);
    CHECK_EQ(o.drops[DROP_IP_REASS_FULL], 0);
    CHECK_EQ(o.drops[DROP_IP_REASS_TIMEOUT], 0);
}

/* engine_load()'s message for a scenario it refuses; "" when it loads. */
static const char *load_error(const char *json)
{
    static char msg[512];
    struct engine *e = engine_create();
    msg[0] = 0;
    if (engine_load(e, json, (uint32_t)strlen(json)) != ENGINE_OK)
        snprintf(msg, sizeof msg, "%s", engine_error(e));
    engine_destroy(e);
    return msg;
}

#define BIG   "{\"ip_max_datagram\":8028,\"ip_reass_max\":8028}"
#define REASS "{\"ip_reass_max\":8028}"

/* 8000 bytes: 15 fragments each way over MTU 576, all three pings answered. b builds the
 * reply where the request lies, so its ip_max_datagram (1500) does not matter. */
static void test_ping_8000_with_the_buffers_for_it(void)
{
    char *s = scenario(BIG, REASS, 576, "[]", 3, 8000, 1000, 10000);
    struct outcome o;
    int rc = run(s, 3, &o);
    free(s);
    CHECK_EQ(rc, 0);
    CHECK_EQ(o.received, 3);
    CHECK(o.all_received);
}

/* The largest ping, 65507 bytes: a 65535-byte datagram, in 8 fragments over MTU 9000. */
static void test_ping_65507_with_64k_buffers(void)
{
    const char *max = "{\"ip_max_datagram\":65535,\"ip_reass_max\":65535}";
    char *s = scenario(max, max, 9000, "[]", 2, 65507, 1000, 10000);
    struct outcome o;
    int rc = run(s, 2, &o);
    free(s);
    CHECK_EQ(rc, 0);
    CHECK_EQ(o.received, 2);
    CHECK(o.all_received);
}

/* A datagram that fits the link's MTU travels whole: no reassembly buffer is needed. */
static void test_ping_within_the_mtu_needs_no_reassembly(void)
{
    char *s = scenario("{\"ip_max_datagram\":8028}", "{}", 9000, "[]", 2, 8000, 1000, 10000);
    struct outcome o;
    int loads = load_error(s)[0] == 0, rc = run(s, 2, &o);
    free(s);
    CHECK(loads);
    CHECK_EQ(rc, 0);
    CHECK_EQ(o.received, 2);
}

/* The engine names the field and the limit that applies: the sender's buffer first, then
 * the peer's reassembly of the request, then the host's reassembly of the reply. */
static void test_engine_refuses_sizes_the_hosts_cannot_handle(void)
{
    static const struct {
        const char *a, *b;
        const char *msg;
    } cases[] = {
        { "{}", "{}",
          "apps[0].size: 8000 bytes make a datagram of 8028 bytes, larger than host \"a\"'s "
          "ip_max_datagram 1500" },
        { BIG, "{}",
          "apps[0].size: 8000 bytes make a datagram of 8028 bytes, larger than host \"b\"'s "
          "ip_reass_max 1500 (link \"eth\", MTU 576, carries it in fragments)" },
        { "{\"ip_max_datagram\":8028}", REASS,
          "apps[0].size: 8000 bytes make a datagram of 8028 bytes, larger than host \"a\"'s "
          "ip_reass_max 1500 (link \"eth\", MTU 576, carries the echo reply in fragments)" },
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *s = scenario(cases[i].a, cases[i].b, 576, "[]", 1, 8000, 1000, 5000);
        const char *err = load_error(s);
        free(s);
        if (strstr(err, cases[i].msg) == NULL)
            printf("    case %u: %s\n", (unsigned)i, err);
        CHECK(strstr(err, cases[i].msg) != NULL);
    }
}

/* A configured buffer must be one the stack accepts: ip_reass_max from 576 (RFC 1122
 * 3.3.2), ip_max_datagram from 68 (RFC 791). */
static void test_engine_refuses_buffer_sizes_out_of_range(void)
{
    char *s = scenario("{\"ip_reass_max\":575}", "{}", 576, "[]", 1, 56, 1000, 5000);
    int named = strstr(load_error(s), "hosts[0].stack.ip_reass_max") != NULL;
    free(s);
    CHECK(named);
    s = scenario("{}", "{\"ip_max_datagram\":67}", 576, "[]", 1, 56, 1000, 5000);
    named = strstr(load_error(s), "hosts[1].stack.ip_max_datagram") != NULL;
    free(s);
    CHECK(named);
}

UNIT_MAIN(UNIT(test_one_fragment_of_each_request_duplicated), UNIT(test_every_fragment_duplicated),
          UNIT(test_ping_8000_with_the_buffers_for_it), UNIT(test_ping_65507_with_64k_buffers),
          UNIT(test_ping_within_the_mtu_needs_no_reassembly),
          UNIT(test_engine_refuses_sizes_the_hosts_cannot_handle),
          UNIT(test_engine_refuses_buffer_sizes_out_of_range))
