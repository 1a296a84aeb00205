/* The simulated world through the engine API: scenarios in, trace records out. Exact frame
 * times on a serial line, targeted faults and the cause links of the retransmission they
 * provoke, the bridge's parent links, the NFC module's busy drop, real-time mode over an
 * external link, the engine's own refusal of bad scenarios, and determinism. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "drop_reason.h"
#include "engine.h"
#include "inet_chksum.h"
#include "slip.h"
#include "trace.h"
#include "trace_rec.h"
#include "unit.h"
#include "world_internal.h" /* WORLD_FLIPS_MAX */

/* Two hosts on SLIP at 57600 baud, no latency; `extra` goes into the link object and
 * `apps` is the apps array. */
static char *scenario(const char *extra, const char *apps, unsigned seed)
{
    static const char fmt[] =
        "{\"version\":1,\"name\":\"t\",\"title\":\"t\",\"seed\":%u,\"duration_ms\":20000,"
        "\"hosts\":[{\"name\":\"a\",\"addr\":\"10.0.7.1/24\",\"stack\":{\"tcp_delack\":\"off\"}},"
        "{\"name\":\"b\",\"addr\":\"10.0.7.2/24\",\"stack\":{\"tcp_delack\":\"off\"}}],"
        "\"links\":[{\"name\":\"s\",\"type\":\"serial\",\"a\":\"a\",\"b\":\"b\",\"baud\":57600%s}],"
        "\"apps\":[%s]}";
    size_t n = sizeof fmt + strlen(extra) + strlen(apps) + 16;
    char *s = malloc(n);
    snprintf(s, n, fmt, seed, extra, apps);
    return s;
}

/* Runs to the end; returns the engine, the records concatenated into *trace. */
static struct engine *run(const char *json, uint8_t **trace, uint32_t *len)
{
    struct engine *e = engine_create();
    *trace = NULL;
    *len = 0;
    if (engine_load(e, json, (uint32_t)strlen(json)) != ENGINE_OK) {
        printf("    engine_load: %s\n", engine_error(e));
        engine_destroy(e);
        return NULL;
    }
    for (;;) {
        int done = engine_run(e, engine_now(e) + 1e6);
        uint32_t n = engine_trace_len(e);
        *trace = realloc(*trace, *len + n + 1);
        if (n) /* an interval may record nothing (ARP's 2 s round trip in one test) */
            memcpy(*trace + *len, engine_trace_ptr(e), n);
        *len += n;
        engine_trace_clear(e);
        if (done)
            return e;
    }
}

/* The n-th record of `type` (from 0), or NULL. */
static const uint8_t *nth_record(const uint8_t *t, uint32_t len, uint16_t type, uint32_t n)
{
    uint32_t off = 0;
    while (off + TREC_HDR <= len) {
        uint32_t size = trec_rd32(t + off + TREC_OFF_SIZE);
        if (trec_rd16(t + off) == type && n-- == 0)
            return t + off;
        off += size;
    }
    return NULL;
}

static const uint8_t *fate_of(const uint8_t *t, uint32_t len, uint32_t id)
{
    const uint8_t *r;
    uint32_t i;
    for (i = 0; (r = nth_record(t, len, TREC_FATE, i)) != NULL; i++)
        if (trec_rd32(r + TREC_FATE_OFF_ID) == id)
            return r;
    return NULL;
}

static uint64_t rd64le(const uint8_t *p)
{
    return trec_rd32(p) | (uint64_t)trec_rd32(p + 4) << 32;
}

static const uint8_t *event_seq(const uint8_t *t, uint32_t len, uint32_t seq)
{
    const uint8_t *r;
    uint32_t i;
    for (i = 0; (r = nth_record(t, len, TREC_EVENT, i)) != NULL; i++)
        if (trec_rd32(r + TREC_EVENT_OFF_SEQ) == seq)
            return r;
    return NULL;
}

/* A ping of 56 bytes is an 84-byte datagram, 86 characters of SLIP with the two ENDs:
 * 860 bits at 57600 baud = 14930.56 us, delivered at the end of the last stop bit. */
static void test_serial_frame_times_exact(void)
{
    char *j = scenario("", "{\"type\":\"ping\",\"host\":\"a\",\"to\":\"b\",\"count\":1}", 1);
    uint8_t *t;
    uint32_t len;
    struct engine *e = run(j, &t, &len);
    const uint8_t *req, *rep, *f1, *f2;
    CHECK(e != NULL);
    req = nth_record(t, len, TREC_FRAME, 0);
    rep = nth_record(t, len, TREC_FRAME, 1);
    CHECK(req && rep);
    CHECK_EQ(trec_rd16(req + TREC_FRAME_OFF_LEN), 84);
    f1 = fate_of(t, len, 0);
    f2 = fate_of(t, len, 1);
    CHECK(f1 && f2);
    CHECK_EQ(f1[TREC_FATE_OFF_FATE], TREC_FATE_DELIVERED);
    CHECK_EQ(trec_rd32(f1 + TREC_FATE_OFF_WIRE_LEN), 86);
    CHECK_EQ(rd64le(f1 + TREC_FATE_OFF_T_END) - rd64le(req + TREC_FRAME_OFF_T_SENT), 14931);
    /* the reply leaves the moment the request is in, and takes as long */
    CHECK_EQ(rd64le(rep + TREC_FRAME_OFF_T_SENT), rd64le(f1 + TREC_FATE_OFF_T_END));
    CHECK_EQ(rd64le(f2 + TREC_FATE_OFF_T_END), 2 * 14931);
    CHECK_EQ(rep[TREC_FRAME_OFF_DIR], 1);
    engine_destroy(e);
    free(t);
    free(j);
}

/* Drop the 2nd TCP segment with data from a: the sender's RTO re-sends it, and the trace
 * says so: the frame's cause is the tcp.retransmit event, whose cause is the RTO expiry of
 * the same connection, and the frame names the dropped one as its first transmission. */
static void test_targeted_drop_and_cause_links(void)
{
    char *j = scenario(",\"faults\":[{\"action\":\"drop\",\"nth\":2,\"match\":{\"from\":\"a\","
                       "\"proto\":\"tcp\",\"payload\":true}}]",
                       "{\"type\":\"tcp_echo_server\",\"host\":\"b\"},"
                       "{\"type\":\"tcp_echo_client\",\"host\":\"a\",\"to\":\"b\",\"bytes\":3000}",
                       1);
    uint8_t *t;
    uint32_t len, i, dropped = TREC_NONE, found = 0;
    struct engine *e = run(j, &t, &len);
    const uint8_t *r, *ev, *why;
    CHECK(e != NULL);
    for (i = 0; (r = nth_record(t, len, TREC_FATE, i)) != NULL; i++)
        if (r[TREC_FATE_OFF_FATE] == TREC_FATE_DROPPED) {
            CHECK_EQ(dropped, TREC_NONE); /* exactly one */
            CHECK_EQ(trec_rd16(r + TREC_FATE_OFF_REASON), DROP_FAULT_RULE);
            dropped = trec_rd32(r + TREC_FATE_OFF_ID);
        }
    CHECK(dropped != TREC_NONE);
    for (i = 0; (r = nth_record(t, len, TREC_FRAME, i)) != NULL; i++) {
        if (trec_rd32(r + TREC_FRAME_OFF_ORIG) != dropped)
            continue;
        found++;
        CHECK_EQ(r[TREC_FRAME_OFF_RETX], TCP_RETX_RTO);
        ev = event_seq(t, len, trec_rd32(r + TREC_FRAME_OFF_CAUSE));
        CHECK(ev != NULL);
        CHECK_EQ(trec_rd16(ev + TREC_EVENT_OFF_KIND), TRACE_RETRANSMIT);
        why = event_seq(t, len, trec_rd32(ev + TREC_EVENT_OFF_CAUSE));
        CHECK(why != NULL);
        CHECK_EQ(trec_rd16(why + TREC_EVENT_OFF_KIND), TRACE_RTO_EXPIRE);
        CHECK_EQ(why[TREC_EVENT_OFF_CONN], ev[TREC_EVENT_OFF_CONN]);
        CHECK(rd64le(why + TREC_EVENT_OFF_TIME) <= rd64le(r + TREC_FRAME_OFF_T_SENT));
    }
    CHECK_EQ(found, 1);
    engine_destroy(e);
    free(t);
    free(j);
}

/* "line 1, column N: " + message, N the column of what follows the first `needle` in the
 * one-line `json` (a key and its colon: the value): where the engine must point, counted
 * here from the text itself. */
static const char *at(const char *json, const char *needle, const char *message)
{
    static char buf[512];
    const char *p = strstr(json, needle);
    snprintf(buf, sizeof buf, "line 1, column %d: %s",
             p ? (int)(p - json + (ptrdiff_t)strlen(needle)) + 1 : -1, message);
    return buf;
}

/* The engine checks what it is given, whatever checked it before, and says where in the
 * text: the line and column of the field's value (of the object or array that lacks it). */
static void test_engine_refuses_bad_scenarios(void)
{
    static const char empty_hosts[] = "{\"version\":1,\"name\":\"t\",\"title\":\"t\",\"duration_"
                                      "ms\":10,\"hosts\":[],\"links\":[]}";
    char *bad[4];
    const char *want[4][2] = {
        { NULL, NULL },
        { "\"bauds\":", "links[0].bauds: unknown field \"bauds\" (did you mean \"baud\"?)" },
        { "\"to\":", "apps[0].to: names host \"c\", which does not exist (hosts: a, b)" },
        { "\"faults\":[",
          "links[0].faults[0]: must have exactly one of \"p\" and \"nth\", not both" }
    };
    struct engine *e;
    size_t i;
    e = engine_create();
    CHECK_EQ(engine_load(e, "{\"version\":1", 12), ENGINE_ERR_INVALID);
    CHECK(strcmp(engine_error(e), "line 1, column 13: expected ',' or '}'") == 0);
    engine_destroy(e);
    e = engine_create();
    CHECK_EQ(engine_load(e, "[]", 2), ENGINE_ERR_INVALID);
    CHECK(strcmp(engine_error(e), "line 1, column 1: must be an object") == 0);
    engine_destroy(e);
    e = engine_create();
    CHECK_EQ(engine_load(e, empty_hosts, (uint32_t)strlen(empty_hosts)), ENGINE_ERR_INVALID);
    CHECK(strcmp(engine_error(e),
                 at(empty_hosts, "\"hosts\":", "hosts: must have between 1 and 8 entries")) == 0);
    engine_destroy(e);
    bad[0] = scenario(",\"baud\":-5", "", 1);
    bad[1] = scenario(",\"bauds\":5", "", 1);
    bad[2] = scenario("", "{\"type\":\"ping\",\"host\":\"a\",\"to\":\"c\"}", 1);
    bad[3] = scenario(",\"faults\":[{\"action\":\"drop\",\"p\":0.1,\"nth\":2}]", "", 1);
    for (i = 0; i < 4; i++) {
        e = engine_create();
        CHECK_EQ(engine_load(e, bad[i], (uint32_t)strlen(bad[i])), ENGINE_ERR_INVALID);
        /* "baud" twice: the scenario() link already has one; the second is refused at its
         * key, before any value is judged. */
        if (i == 0)
            CHECK(strcmp(engine_error(e), at(bad[0], "57600,", "links[0].baud: duplicate key")) ==
                  0);
        else if (strcmp(engine_error(e), at(bad[i], want[i][0], want[i][1])) != 0)
            printf("    got: %s\n    want: %s\n", engine_error(e),
                   at(bad[i], want[i][0], want[i][1]));
        if (i > 0)
            CHECK(strcmp(engine_error(e), at(bad[i], want[i][0], want[i][1])) == 0);
        engine_destroy(e);
        free(bad[i]);
    }
}

/* tcp_echo_client's `connections` (app_echo_client.h): refused when a connection would
 * carry no byte or the host has fewer TCP blocks; a TCP server's `connections` and
 * `backlog` when they leave the listener none; the field named. */
static void test_engine_refuses_bad_connections(void)
{
    static const struct {
        const char *apps, *key, *message;
    } cases[] = {
        { "{\"type\":\"tcp_echo_client\",\"host\":\"a\",\"to\":\"b\",\"bytes\":3,\"connections\":"
          "4}",
          "\"connections\":", "apps[0].connections: must be at most bytes (3)" },
        { "{\"type\":\"tcp_echo_client\",\"host\":\"a\",\"to\":\"b\",\"bytes\":300,\"connections\":"
          "9}",
          "\"connections\":",
          "apps[0].connections: needs 9 TCP sockets on host \"a\", which has tcp_max_pcbs 8" },
        { "{\"type\":\"tcp_echo_client\",\"host\":\"a\",\"to\":\"b\",\"bytes\":300,\"connections\":"
          "65}",
          "\"connections\":", "apps[0].connections: must be an integer between 1 and 64" },
        { "{\"type\":\"udp_echo_server\",\"host\":\"b\",\"connections\":2}",
          "\"connections\":", "apps[0].connections: unknown field \"connections\"" },
        /* A TCP server's limits (app_tcp_server.h) leave the listener its socket. */
        { "{\"type\":\"tcp_echo_server\",\"host\":\"b\",\"connections\":8}", "\"connections\":",
          "apps[0].connections: needs 9 TCP sockets on host \"b\" (8 connections and the "
          "listener), which has tcp_max_pcbs 8" },
        { "{\"type\":\"tcp_discard_server\",\"host\":\"b\",\"backlog\":63}", "\"backlog\":",
          "apps[0].backlog: needs 64 TCP sockets on host \"b\" (63 waiting connections and "
          "the listener), which has tcp_max_pcbs 8" },
        { "{\"type\":\"tcp_echo_server\",\"host\":\"b\",\"backlog\":64}",
          "\"backlog\":", "apps[0].backlog: must be an integer between 1 and 63" },
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *j = scenario("", cases[i].apps, 1);
        struct engine *e = engine_create();
        char want[512];
        snprintf(want, sizeof want, "%s", at(j, cases[i].key, cases[i].message));
        CHECK_EQ(engine_load(e, j, (uint32_t)strlen(j)), ENGINE_ERR_INVALID);
        if (strcmp(engine_error(e), want) != 0)
            printf("    got: %s\n    want: %s\n", engine_error(e), want);
        CHECK(strcmp(engine_error(e), want) == 0);
        engine_destroy(e);
        free(j);
    }
}

/* One tcp_echo_client with "connections": 3 puts on the line exactly the frames of three
 * clients of a third of the bytes each (the same bytes: on SLIP they set the timing), at
 * the same instants; only the app records differ. */
static void test_connections_same_frames_as_separate_apps(void)
{
    const char *srv = "{\"type\":\"tcp_echo_server\",\"host\":\"b\"},";
    const char *one = "{\"type\":\"tcp_echo_client\",\"host\":\"a\",\"to\":\"b\",\"bytes\":1500}";
    char sep[512], grp[256];
    char *j1, *j2;
    uint8_t *t1, *t2;
    uint32_t l1, l2, i;
    const uint8_t *r1, *r2;
    struct engine *e1, *e2;
    snprintf(sep, sizeof sep, "%s%s,%s,%s", srv, one, one, one);
    snprintf(grp, sizeof grp,
             "%s{\"type\":\"tcp_echo_client\",\"host\":\"a\",\"to\":\"b\",\"bytes\":4500,"
             "\"connections\":3}",
             srv);
    j1 = scenario("", sep, 1);
    j2 = scenario("", grp, 1);
    e1 = run(j1, &t1, &l1);
    e2 = run(j2, &t2, &l2);
    CHECK(e1 != NULL && e2 != NULL);
    for (i = 0; (r1 = nth_record(t1, l1, TREC_FRAME, i)) != NULL; i++) {
        r2 = nth_record(t2, l2, TREC_FRAME, i);
        CHECK(r2 != NULL);
        if (!r2)
            break;
        CHECK_EQ(trec_rd32(r1 + TREC_OFF_SIZE), trec_rd32(r2 + TREC_OFF_SIZE));
        CHECK_MEM(r1, r2, trec_rd32(r1 + TREC_OFF_SIZE));
    }
    CHECK(i > 30); /* 3 handshakes, 3 x 1500 B each way, 3 closes */
    CHECK(nth_record(t2, l2, TREC_FRAME, i) == NULL);
    /* the group's one report: every byte, from the SYNs to the last byte back */
    r2 = NULL;
    for (i = 0; (r1 = nth_record(t2, l2, TREC_APP, i)) != NULL; i++)
        if (r1[TREC_APP_OFF_APP] == 1 && r1[TREC_APP_OFF_KIND] == TREC_APP_REPORT)
            r2 = r1;
    CHECK(r2 != NULL);
    if (r2) {
        CHECK_EQ(r2[TREC_APP_OFF_DONE], 1);
        CHECK_EQ(rd64le(r2 + TREC_APP_OFF_BYTES), 4500);
    }
    engine_destroy(e1);
    engine_destroy(e2);
    free(t1);
    free(t2);
    free(j1);
    free(j2);
}

static uint64_t run_hash(const char *json)
{
    uint8_t *t;
    uint32_t len;
    struct engine *e = run(json, &t, &len);
    uint64_t h = e ? strtoull(engine_hash(e), NULL, 16) : 0;
    engine_destroy(e);
    free(t);
    return h;
}

/* Same scenario and seed: same records, byte for byte. Another seed with random loss: a
 * different run. */
static void test_same_seed_same_trace(void)
{
    const char *apps = "{\"type\":\"tcp_echo_server\",\"host\":\"b\"},"
                       "{\"type\":\"tcp_echo_client\",\"host\":\"a\",\"to\":\"b\",\"bytes\":20000}";
    char *j1 = scenario(",\"faults\":[{\"action\":\"drop\",\"p\":0.1}]", apps, 3);
    char *j2 = scenario(",\"faults\":[{\"action\":\"drop\",\"p\":0.1}]", apps, 4);
    uint64_t a = run_hash(j1), b = run_hash(j1), c = run_hash(j2);
    CHECK(a != 0);
    CHECK_EQ(a, b);
    CHECK(a != c);
    free(j1);
    free(j2);
}

/* A replay's "reference" block (docs/replays.md) is for the command and the page: the
 * engine accepts it, whatever it holds, and runs exactly what it would run without it. */
static void test_reference_block_ignored(void)
{
    static const char ref[] =
        "{\"reference\":{\"document\":\"x.txt\",\"rows\":[{\"metric\":"
        "\"ping_rtt_avg_ms\",\"app\":0,\"seed\":31.361,\"tolerance\":{\"rel\":0.03},"
        "\"why\":\"w\",\"anything\":[1,{\"x\":null}]}]},";
    const char *apps = "{\"type\":\"ping\",\"host\":\"a\",\"to\":\"b\",\"count\":2}";
    char *plain = scenario("", apps, 1);
    size_t n = strlen(plain) + sizeof ref;
    char *with = malloc(n);
    uint64_t a, b;
    snprintf(with, n, "%s%s", ref, plain + 1); /* plain starts with '{' */
    a = run_hash(plain);
    b = run_hash(with);
    CHECK(a != 0);
    CHECK_EQ(a, b);
    free(plain);
    free(with);
}

/* Real-time mode: an ICMP echo request written to the external link as SLIP comes back as
 * a SLIP-framed reply from the world's host. */
static void test_external_link_echo(void)
{
    static const char json[] =
        "{\"version\":1,\"name\":\"t\",\"title\":\"t\",\"duration_ms\":100000,"
        "\"hosts\":[{\"name\":\"pc\",\"addr\":\"10.0.7.1/24\"}],"
        "\"links\":[{\"name\":\"usb\",\"type\":\"external\",\"a\":\"pc\"}]}";
    uint8_t dgram[36] = { 0x45, 0,    0, 36, 0,   1,   0,   0,   64,  1,   0,   0,
                          10,   0,    7, 2,  10,  0,   7,   1,   8,   0,   0,   0,
                          0x12, 0x34, 0, 1,  'p', 'i', 'n', 'g', '!', '!', '!', '!' };
    uint8_t wire[100], out[200], frame[100];
    int32_t n;
    uint32_t got, i, flen = 0;
    struct engine *e = engine_create();
    CHECK_EQ(engine_load(e, json, (uint32_t)strlen(json)), ENGINE_OK);
    wr16(dgram + 10, inet_chksum(dgram, 20));
    wr16(dgram + 22, inet_chksum(dgram + 20, 16));
    n = slip_encode(dgram, sizeof dgram, wire, sizeof wire, 1);
    CHECK(n > 0);
    engine_run(e, 5000);
    CHECK_EQ(engine_port_write(e, 0, wire, (uint32_t)n), ENGINE_OK);
    engine_run(e, 6000);
    got = engine_port_read(e, 0, out, sizeof out);
    CHECK(got >= 38);
    for (i = 0; i < got; i++) /* undo SLIP by hand: no escapes in this reply */
        if (out[i] != SLIP_END)
            frame[flen++] = out[i];
    CHECK_EQ(flen, 36);
    CHECK_EQ(frame[20], 0); /* echo reply */
    CHECK_MEM(frame + 12, dgram + 16, 4);
    CHECK_MEM(frame + 28, "ping!!!!", 8);
    engine_destroy(e);
}

/* Corrupt every frame a sends: each arrives with one bit flipped and b's stack drops it on
 * a checksum (IP header or ICMP), so no ping is answered. Duplicate every frame: each is on
 * the link twice, the copy flagged; delay every frame of b's by 50 ms: it still arrives. */
static void test_random_faults_in_the_world(void)
{
    const char *ping = "{\"type\":\"ping\",\"host\":\"a\",\"to\":\"b\",\"count\":3}";
    char *corrupt =
        scenario(",\"faults\":[{\"action\":\"corrupt\",\"p\":1,\"dir\":\"ab\"}]", ping, 5);
    char *dup = scenario(",\"faults\":[{\"action\":\"duplicate\",\"p\":1,\"dir\":\"ab\"},"
                         "{\"action\":\"delay\",\"p\":1,\"dir\":\"ba\",\"delay_us\":50000}]",
                         ping, 5);
    uint8_t *t;
    uint32_t len, i, drops = 0, frames = 0, copies = 0;
    const uint8_t *r;
    struct engine *e = run(corrupt, &t, &len);
    CHECK(e != NULL);
    for (i = 0; (r = nth_record(t, len, TREC_FRAME, i)) != NULL; i++) {
        CHECK_EQ(r[TREC_FRAME_OFF_FAULTS], TREC_FAULT_CORRUPTED);
        CHECK_EQ(r[TREC_FRAME_OFF_DIR], 0); /* nothing comes back */
        frames++;
    }
    for (i = 0; (r = nth_record(t, len, TREC_EVENT, i)) != NULL; i++)
        if (trec_rd16(r + TREC_EVENT_OFF_KIND) == TRACE_DROP) {
            uint32_t why = trec_rd32(r + TREC_EVENT_OFF_A);
            CHECK(why == DROP_IP_CHKSUM || why == DROP_ICMP_CHKSUM);
            drops++;
        }
    CHECK_EQ(frames, 3);
    CHECK_EQ(drops, 3);
    engine_destroy(e);
    free(t);
    e = run(dup, &t, &len);
    CHECK(e != NULL);
    frames = 0;
    for (i = 0; (r = nth_record(t, len, TREC_FRAME, i)) != NULL; i++) {
        const uint8_t *f = fate_of(t, len, trec_rd32(r + TREC_FRAME_OFF_ID));
        frames++;
        if (r[TREC_FRAME_OFF_FAULTS] & TREC_FAULT_DUPLICATE)
            copies++;
        CHECK(f != NULL);
        if (r[TREC_FRAME_OFF_DIR] == 1) { /* replies: held 50 ms, then the line's 14.931 ms */
            CHECK(r[TREC_FRAME_OFF_FAULTS] & TREC_FAULT_DELAYED);
            CHECK(rd64le(f + TREC_FATE_OFF_T_END) - rd64le(r + TREC_FRAME_OFF_T_SENT) >=
                  50000 + 14931);
        }
    }
    CHECK_EQ(copies, 3);
    CHECK_EQ(frames, 3 * 2 + 6); /* 3 requests twice; each copy answered */
    engine_destroy(e);
    free(t);
    free(corrupt);
    free(dup);
}

/* More corrupted frames in flight at once than the world keeps flipped bits for
 * (WORLD_FLIPS_MAX): 200 pings 1 ms apart on an Ethernet link with 1 s of propagation
 * delay, sent once a knows b's MAC: b pings a first and a learns it from b's ARP request
 * (RFC 826; the rule leaves ARP intact). a's corrupted echo reply is delivered at 4 s, before
 * the flood starts at 4.1 s, so every flipped bit it holds is the flood's. None may reach
 * b intact (it would be answered, while the capture says corrupted): the ones beyond the
 * limit are dropped as a full queue would drop them. */
static void test_corrupt_flood_never_arrives_intact(void)
{
    static const char flood[] =
        "{\"version\":1,\"name\":\"t\",\"title\":\"t\",\"duration_ms\":6000,"
        "\"hosts\":[{\"name\":\"a\",\"addr\":\"10.0.7.1/24\"},{\"name\":\"b\",\"addr\":\"10.0.7.2/"
        "24\"}],"
        "\"links\":[{\"name\":\"e\",\"type\":\"ethernet\",\"a\":\"a\",\"b\":\"b\",\"delay_us\":"
        "1000000,"
        "\"faults\":[{\"action\":\"corrupt\",\"p\":1,\"dir\":\"ab\",\"match\":{\"proto\":"
        "\"icmp\"}}]}],"
        "\"apps\":[{\"type\":\"ping\",\"host\":\"b\",\"to\":\"a\",\"count\":1},"
        "{\"type\":\"ping\",\"host\":\"a\",\"to\":\"b\",\"count\":200,\"interval_ms\":1,"
        "\"start_ms\":4100}]"
        "}";
    uint8_t *t;
    uint32_t len, i, replies = 0, full = 0;
    const uint8_t *r;
    struct engine *e = run(flood, &t, &len);
    CHECK(e != NULL);
    for (i = 0; (r = nth_record(t, len, TREC_FRAME, i)) != NULL; i++) {
        const uint8_t *f = fate_of(t, len, trec_rd32(r + TREC_FRAME_OFF_ID));
        const uint8_t *frame = r + TREC_FRAME_FIXED;
        if (r[TREC_FRAME_OFF_DIR] == 1 && rd16(frame + ETH_OFF_TYPE) == ETH_TYPE_IPV4 &&
            frame[ETH_HDR_LEN + IP_HLEN] == 0) /* an echo reply from b */
            replies++;
        if (f != NULL && f[TREC_FATE_OFF_FATE] == TREC_FATE_DROPPED &&
            trec_rd16(f + TREC_FATE_OFF_REASON) == DROP_LINK_QUEUE_FULL)
            full++;
    }
    CHECK_EQ(replies, 0);
    CHECK_EQ(full, 200 - WORLD_FLIPS_MAX);
    engine_destroy(e);
    free(t);
}

/* The capture's comment on a frame names the sender's TCP state: the SYN's says the
 * connection has no window and no RTT sample yet, and the initial RTO of one second (RFC
 * 6298 2.1); once established, the initial window for an MSS of 1460 (4380 bytes, RFC
 * 5681 3.1), an ssthresh "arbitrarily high" (2^32 - 1) and the RTO at its one-second
 * floor (RFC 6298 2.4). */
static void test_capture_comment_tcp_state(void)
{
    static const char syn[] = "a: SYN_SENT cwnd=0 ssthresh=0 rto=1000.000ms srtt=0.000ms "
                              "rttvar=0.000ms";
    static const char est[] = "a: ESTABLISHED cwnd=4380 ssthresh=4294967295 rto=1000.000ms srtt=";
    const char *apps = "{\"type\":\"tcp_echo_server\",\"host\":\"b\"},"
                       "{\"type\":\"tcp_echo_client\",\"host\":\"a\",\"to\":\"b\",\"bytes\":2000}";
    char *json = scenario("", apps, 1);
    struct engine *e = engine_create();
    const uint8_t *p;
    uint32_t len, i, found_syn = 0, found_est = 0;
    CHECK(engine_load(e, json, (uint32_t)strlen(json)) == ENGINE_OK);
    free(json);
    while (!engine_run(e, engine_now(e) + 1e6))
        engine_trace_clear(e);
    p = engine_pcapng_ptr(e);
    len = engine_pcapng_len(e);
    for (i = 0; i + sizeof syn <= len; i++) {
        found_syn += memcmp(p + i, syn, sizeof syn - 1) == 0;
        found_est += memcmp(p + i, est, sizeof est - 1) == 0;
    }
    engine_destroy(e);
    CHECK_EQ(found_syn, 1);
    CHECK(found_est > 0);
}

UNIT_MAIN(UNIT(test_serial_frame_times_exact), UNIT(test_random_faults_in_the_world),
          UNIT(test_corrupt_flood_never_arrives_intact), UNIT(test_targeted_drop_and_cause_links),
          UNIT(test_engine_refuses_bad_scenarios), UNIT(test_engine_refuses_bad_connections),
          UNIT(test_connections_same_frames_as_separate_apps), UNIT(test_same_seed_same_trace),
          UNIT(test_reference_block_ignored), UNIT(test_external_link_echo),
          UNIT(test_capture_comment_tcp_state))
