/* Applications in a running world through the engine API (engine_app_add, _send,
 * _close): started at the world's current time, `to` given as an address, ping stopped as
 * by ^C, app slots reused once their clients have finished, and the errors, each naming
 * the field or the app. */
#include <stdlib.h>
#include <string.h>

#include "live_world.h"
#include "stack_err.h"
#include "unit.h"
#include "world.h"

/* A ping added at 123.456 ms, to b's address rather than its name: its first line and its
 * first echo request carry the time of the add; the replies come back over the serial
 * line (84 bytes, 86 on the wire with SLIP's two ENDs: 860 bits at 57600 baud = 14931 us
 * each way, 29.862 ms round trip, printed "29.9"). */
static void test_ping_added_at_the_current_time(void)
{
    char *j = live_scenario("", "", "");
    struct engine *e = live_load(j);
    struct live_log l = { NULL, 0 };
    const uint8_t *r;
    CHECK(e != NULL);
    live_run(&l, e, 123456);
    CHECK_EQ(live_add(e, "{\"type\":\"ping\",\"host\":\"a\",\"to\":\"10.0.7.2\",\"count\":2}"), 0);
    live_take(&l, e);
    r = live_app(&l, 0, TREC_APP_LINE, 0);
    CHECK(r && live_text_is(r, "PING 10.0.7.2 (10.0.7.2) 56(84) bytes of data."));
    CHECK_EQ(live_rd64(r + TREC_APP_OFF_TIME), 123456);
    CHECK_EQ(r[TREC_APP_OFF_HOST], 0);
    r = live_nth(&l, TREC_FRAME, 0);
    CHECK(r != NULL);
    CHECK_EQ(live_rd64(r + TREC_FRAME_OFF_T_SENT), 123456);
    CHECK_EQ(r[TREC_FRAME_OFF_NODE], 0);
    CHECK_EQ(r[TREC_FRAME_FIXED + 20], 8); /* ICMP echo request */
    live_run(&l, e, 5000000);
    r = live_app(&l, 0, TREC_APP_LINE, 1);
    CHECK(r && live_text_is(r, "64 bytes from 10.0.7.2: icmp_seq=1 ttl=64 time=29.9 ms"));
    CHECK_EQ(live_rd64(r + TREC_APP_OFF_TIME), 123456 + 2 * 14931);
    r = live_app(&l, 0, TREC_APP_REPORT, 0);
    CHECK(r != NULL);
    CHECK_EQ(r[TREC_APP_OFF_DONE], 1);
    CHECK_EQ(live_rd64(r + TREC_APP_OFF_BYTES), 2);
    engine_destroy(e);
    free(l.p);
    free(j);
}

static uint64_t hash_of(const char *json)
{
    struct engine *e = live_load(json);
    uint64_t h;
    if (!e)
        return 0;
    while (!engine_run(e, engine_now(e) + 1e6))
        engine_trace_clear(e);
    h = strtoull(engine_hash(e), NULL, 16);
    engine_destroy(e);
    return h;
}

/* `to` by address is `to` by name when the address is a host's: the same trace, byte for
 * byte, for a ping, an echo client and a request/response pair (whose rounds are checked
 * against each other by address). */
static void test_to_by_address_is_to_by_name(void)
{
    static const char apps[] =
        "{\"type\":\"tcp_echo_server\",\"host\":\"b\"},"
        "{\"type\":\"ping\",\"host\":\"a\",\"to\":\"%s\",\"count\":2},"
        "{\"type\":\"tcp_echo_client\",\"host\":\"a\",\"to\":\"%s\",\"bytes\":3000,\"start_ms\":"
        "100},"
        "{\"type\":\"reqresp_server\",\"host\":\"b\",\"rounds\":[{\"req\":10,\"resp\":20}]},"
        "{\"type\":\"reqresp_client\",\"host\":\"a\",\"to\":\"%s\",\"rounds\":[{\"req\":10,"
        "\"resp\":%u}]}";
    char by_name[1024], by_addr[1024], bad[1024];
    char *j1, *j2, *j3;
    struct engine *e;
    uint64_t h1, h2;
    snprintf(by_name, sizeof by_name, apps, "b", "b", "b", 20u);
    snprintf(by_addr, sizeof by_addr, apps, "10.0.7.2", "10.0.7.2", "10.0.7.2", 20u);
    snprintf(bad, sizeof bad, apps, "b", "b", "10.0.7.2", 21u);
    j1 = live_scenario("", "", by_name);
    j2 = live_scenario("", "", by_addr);
    j3 = live_scenario("", "", bad);
    h1 = hash_of(j1);
    h2 = hash_of(j2);
    CHECK(h1 != 0);
    CHECK_EQ(h1, h2);
    e = engine_create();
    CHECK_EQ(engine_load(e, j3, (uint32_t)strlen(j3)), ENGINE_ERR_INVALID);
    /* The server is blamed, at its round (the first {"req" of the file). */
    {
        char want[256];
        snprintf(want, sizeof want,
                 "line 1, column %d: apps[3].rounds[0]: req 10 / resp 20 "
                 "differs from its client's (apps[4].rounds[0]: req 10 / resp 21); both get the "
                 "same rounds",
                 (int)(strstr(j3, "{\"req\"") - j3) + 1);
        CHECK(strcmp(engine_error(e), want) == 0);
    }
    engine_destroy(e);
    free(j1);
    free(j2);
    free(j3);
}

/* ^C on a ping: requests at 0.1, 1.1 and 2.1 s, all answered; closed at 2.6 s it prints
 * iputils' statistics at once (time: first to last request, 2000 ms) and sends no more. */
static void test_ping_close_prints_the_statistics(void)
{
    char *j = live_scenario("", "", "");
    struct engine *e = live_load(j);
    struct live_log l = { NULL, 0 };
    const uint8_t *r;
    uint32_t i, requests = 0;
    static const char head[] = "--- 10.0.7.2 ping statistics ---\n"
                               "3 packets transmitted, 3 received, 0% packet loss, time 2000ms\n"
                               "rtt min/avg/max/mdev = 29.862/29.862/29.862/0.000 ms\n";
    CHECK(e != NULL);
    live_run(&l, e, 100000);
    CHECK_EQ(live_add(e, "{\"type\":\"ping\",\"host\":\"a\",\"to\":\"b\",\"count\":100}"), 0);
    live_run(&l, e, 2600000);
    CHECK(live_app(&l, 0, TREC_APP_REPORT, 0) == NULL);
    CHECK_EQ(engine_app_close(e, 0), 0);
    live_take(&l, e);
    r = live_app(&l, 0, TREC_APP_REPORT, 0);
    CHECK(r != NULL);
    CHECK_EQ(live_rd64(r + TREC_APP_OFF_TIME), 2600000);
    CHECK_EQ(r[TREC_APP_OFF_DONE], 1);
    CHECK_EQ(live_rd64(r + TREC_APP_OFF_BYTES), 3);
    CHECK(live_text_is(r, head));
    live_run(&l, e, 10000000);
    for (i = 0; (r = live_nth(&l, TREC_FRAME, i)) != NULL; i++)
        requests += r[TREC_FRAME_FIXED + 20] == 8;
    CHECK_EQ(requests, 3);
    CHECK(engine_app_close(e, 0) < 0);
    CHECK(strcmp(engine_error(e), "app 0: has finished") == 0);
    engine_destroy(e);
    free(l.p);
    free(j);
}

/* An echo server (app 0) and 63 probes of a closed port: every slot is taken, so a 65th
 * app is refused while the probes are under way. Once they have been refused and have
 * reported, their slots are given out again, lowest first; the server keeps slot 0. A ping
 * in a reused slot gets an ICMP identifier of its own. */
static void test_slots_of_finished_clients_are_reused(void)
{
    static const char probe[] = "{\"type\":\"tcp_client\",\"host\":\"a\",\"to\":\"b\",\"port\":9,"
                                "\"probe\":true}";
    char *j = live_scenario("\"tcp_max_pcbs\":64", ",\"qlen\":64",
                            "{\"type\":\"tcp_echo_server\",\"host\":\"b\"}");
    struct engine *e = live_load(j);
    struct live_log l = { NULL, 0 };
    const uint8_t *r;
    uint32_t n;
    int i;
    CHECK(e != NULL);
    live_run(&l, e, 1000);
    for (i = 1; i < WORLD_MAX_APPS; i++)
        CHECK_EQ(live_add(e, probe), i);
    CHECK_EQ(engine_app_add(e, probe, (uint32_t)strlen(probe)), ENGINE_ERR_FAILED);
    CHECK(strcmp(engine_error(e), "app: no free app slot (64 in use)") == 0);
    live_run(&l, e, 3000000);
    for (i = 1; i < WORLD_MAX_APPS; i++) {
        r = live_app(&l, (uint8_t)i, TREC_APP_REPORT, 0);
        CHECK(r != NULL);
        CHECK_EQ((int32_t)trec_rd32(r + TREC_APP_OFF_ERROR), ERR_RST);
    }
    n = 0;
    while (live_nth(&l, TREC_FRAME, n) != NULL)
        n++;
    CHECK_EQ(live_add(e, "{\"type\":\"ping\",\"host\":\"a\",\"to\":\"b\",\"count\":1}"), 1);
    CHECK_EQ(live_add(e, "{\"type\":\"tcp_client\",\"host\":\"a\",\"to\":\"b\",\"port\":7}"), 2);
    live_take(&l, e);
    r = live_nth(&l, TREC_FRAME, n); /* the echo request: identifier 0x1000 + slot 1 + 32 for
                                        the slot's second app */
    CHECK(r != NULL);
    CHECK_EQ(r[TREC_FRAME_FIXED + 20], 8);
    CHECK_EQ(trec_rd16(r + TREC_FRAME_FIXED + 24), 0x2110); /* 0x1021, big-endian on the wire */
    live_run(&l, e, 4000000);
    r = live_app(&l, 1, TREC_APP_REPORT, 1); /* the second app in slot 1: one reply */
    CHECK(r != NULL);
    CHECK_EQ(live_rd64(r + TREC_APP_OFF_BYTES), 1);
    r = live_app(&l, 2, TREC_APP_LINE, 1); /* the first was "connect to ...: refused" */
    CHECK(r && live_text_is(r, "Connected to 10.0.7.2:7"));
    CHECK(live_app(&l, 0, TREC_APP_REPORT, 0) == NULL); /* the server runs on */
    engine_destroy(e);
    free(l.p);
    free(j);
}

/* engine_app_add's refusals name the field under "app"; send and close name the app. */
static void test_errors_name_the_field(void)
{
    static const struct {
        const char *app, *message;
        int rc;
    } cases[] = {
        { "{\"type\":\"ping\",\"host\":\"a\",\"to\":\"c\"}",
          "app.to: names host \"c\", which does not exist (hosts: a, b)", ENGINE_ERR_INVALID },
        { "{\"type\":\"tcp_client\",\"host\":\"a\",\"to\":\"10.0.7.1\",\"port\":7}",
          "app.to: must differ from host (10.0.7.1 is the address of host \"a\")",
          ENGINE_ERR_INVALID },
        { "{\"type\":\"ping\",\"host\":\"a\",\"to\":\"127.0.0.1\"}",
          "app.to: 127.0.0.1 is a loopback address (127.0.0.0/8)", ENGINE_ERR_INVALID },
        { "{\"type\":\"ping\",\"host\":\"a\",\"to\":\"10.0.7.255\"}",
          "app.to: 10.0.7.255 is the broadcast address of its /24 subnet", ENGINE_ERR_INVALID },
        { "{\"type\":\"ping\",\"host\":\"a\",\"to\":\"10.0.07.2\"}",
          "app.to: must be a host name (at most 15 characters: a lowercase letter, then lowercase "
          "letters, digits, \"_\" or \"-\") or an IPv4 address like \"10.0.7.2\": \"07\" has a "
          "leading zero",
          ENGINE_ERR_INVALID },
        { "{\"type\":\"tcp_client\",\"host\":\"a\",\"to\":\"b\"}", "app.port: is required",
          ENGINE_ERR_INVALID },
        { "{\"type\":\"tcp_client\",\"host\":\"a\",\"to\":\"b\",\"port\":70000}",
          "app.port: must be an integer between 1 and 65535", ENGINE_ERR_INVALID },
        { "{\"type\":\"tcp_client\",\"host\":\"a\",\"to\":\"b\",\"port\":7,\"probe\":1}",
          "app.probe: must be true or false", ENGINE_ERR_INVALID },
        { "{\"type\":\"ping\",\"host\":\"a\",\"to\":\"b\",\"probe\":true}",
          "app.probe: unknown field \"probe\"", ENGINE_ERR_INVALID },
        { "{\"type\":\"ping\",\"host\":\"a\",\"to\":\"b\",\"start_ms\":5}",
          "app.start_ms: not available in a running session: the app starts at once",
          ENGINE_ERR_INVALID },
        { "{\"type\":\"reqresp_client\",\"host\":\"a\",\"to\":\"b\",\"rounds\":[{\"req\":1,"
          "\"resp\":1}]}",
          "app.type: not available in a running session", ENGINE_ERR_INVALID },
        { "{\"type\":\"telnet\",\"host\":\"a\"}",
          "app.type: must be one of: ping, tcp_echo_server, "
          "tcp_discard_server, udp_echo_server, udp_discard_server, tcp_echo_client, bulk_sender, "
          "bulk_receiver, reqresp_client, reqresp_server, tcp_client",
          ENGINE_ERR_INVALID },
        { "[]", "app: must be an object", ENGINE_ERR_INVALID },
        { "{\"type\":", "line 1, column 9: app.type: expected a value", ENGINE_ERR_INVALID },
    };
    char *j = live_scenario("", "", "{\"type\":\"tcp_echo_server\",\"host\":\"b\"}");
    struct engine *e = engine_create();
    size_t i;
    CHECK_EQ(engine_app_add(e, "{}", 2), ENGINE_ERR_FAILED);
    CHECK(strcmp(engine_error(e), "no scenario is loaded") == 0);
    CHECK_EQ(engine_load(e, j, (uint32_t)strlen(j)), ENGINE_OK);
    engine_run(e, 1000);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = engine_app_add(e, cases[i].app, (uint32_t)strlen(cases[i].app));
        if (rc != cases[i].rc || strcmp(engine_error(e), cases[i].message) != 0)
            printf("    %s -> %d \"%s\"\n", cases[i].app, rc, engine_error(e));
        CHECK_EQ(rc, cases[i].rc);
        CHECK(strcmp(engine_error(e), cases[i].message) == 0);
    }
    CHECK_EQ(live_add(e, "{\"type\":\"ping\",\"host\":\"a\",\"to\":\"b\"}"), 1);
    CHECK_EQ(engine_app_send(e, 1, (const uint8_t *)"x", 1), ENGINE_ERR_FAILED);
    CHECK(strcmp(engine_error(e), "app 1: only a tcp_client takes bytes to send") == 0);
    CHECK_EQ(engine_app_close(e, 0), ENGINE_ERR_FAILED);
    CHECK(strcmp(engine_error(e), "app 0: only a tcp_client or a ping can be closed") == 0);
    CHECK_EQ(engine_app_send(e, 2, (const uint8_t *)"x", 1), ENGINE_ERR_FAILED);
    CHECK(strcmp(engine_error(e), "app 2: no such app") == 0);
    engine_run(e, 1e12);
    CHECK_EQ(engine_app_add(e, "{\"type\":\"ping\",\"host\":\"a\",\"to\":\"b\"}", 35),
             ENGINE_ERR_FAILED);
    CHECK(strcmp(engine_error(e), "app: the run is over") == 0);
    engine_destroy(e);
    free(j);
}

UNIT_MAIN(UNIT(test_ping_added_at_the_current_time), UNIT(test_to_by_address_is_to_by_name),
          UNIT(test_ping_close_prints_the_statistics),
          UNIT(test_slots_of_finished_clients_are_reused), UNIT(test_errors_name_the_field))
