/* The tcp_client app in the world, through the engine API: against the world's echo
 * server (bytes in, the same bytes back as data records, FIN on close, the report), as a
 * port probe of a closed and of an open port, giving up on a SYN nobody answers, and in
 * real-time mode against a far end played by hand over the external link (the peer's FIN,
 * the peer's RST). */
#include <stdlib.h>
#include <string.h>

#include "live_world.h"
#include "slip.h"
#include "stack_err.h"
#include "tcp.h"
#include "tcp_seg.h"
#include "unit.h"

#define ECHO_SERVER "{\"type\":\"tcp_echo_server\",\"host\":\"b\",\"port\":7}"

/* The first TREC_FRAME sent by node `node` with all of `flags` set, from the n-th frame
 * on; NULL if none. */
static const uint8_t *frame_with(const struct live_log *l, uint8_t node, uint8_t flags,
                                 uint32_t from)
{
    const uint8_t *r;
    for (; (r = live_nth(l, TREC_FRAME, from)) != NULL; from++)
        if (r[TREC_FRAME_OFF_NODE] == node && (live_tcp_flags(r) & flags) == flags)
            return r;
    return NULL;
}

/* 20000 bytes offered at once: TCP's send buffer takes 8192 (tcp_snd_buf), the ring 4096,
 * so 12288 are taken and a further send takes nothing. The echo server sends all 12288
 * back: the data records hold them byte for byte (0xC0, 0xDB and 0 included, which SLIP
 * escapes on the way). Closing sends a FIN at once (nothing is left to send), the server
 * answers with its own, and the report counts the bytes received. */
static void test_echo_through_a_tcp_client(void)
{
    char *j = live_scenario("\"tcp_snd_buf\":8192", "", ECHO_SERVER);
    struct engine *e = live_load(j);
    struct live_log l = { NULL, 0 };
    static uint8_t out[20000], back[20001];
    const uint8_t *syn, *synack, *line, *fin, *rep;
    uint32_t i, n;
    CHECK(e != NULL);
    for (i = 0; i < sizeof out; i++)
        out[i] = (uint8_t)(i * 7u);
    live_run(&l, e, 100000);
    CHECK_EQ(live_add(e, "{\"type\":\"tcp_client\",\"host\":\"a\",\"to\":\"b\",\"port\":7}"), 1);
    live_take(&l, e);
    syn = live_nth(&l, TREC_FRAME, 0);
    CHECK(syn != NULL);
    CHECK_EQ(live_tcp_flags(syn), TCP_SYN);
    CHECK_EQ(live_rd64(syn + TREC_FRAME_OFF_T_SENT), 100000); /* the time of the add */

    live_run(&l, e, 1000000);
    synack = live_nth(&l, TREC_FRAME, 1);
    CHECK(synack && live_tcp_flags(synack) == (TCP_SYN | TCP_ACK));
    line = live_app(&l, 1, TREC_APP_LINE, 0);
    CHECK(line && live_text_is(line, "Connected to 10.0.7.2:7"));
    /* connected the moment the SYN/ACK was delivered */
    CHECK_EQ(live_rd64(line + TREC_APP_OFF_TIME),
             live_rd64(live_fate(&l, trec_rd32(synack + TREC_FRAME_OFF_ID)) + TREC_FATE_OFF_T_END));

    CHECK_EQ(engine_app_send(e, 1, out, sizeof out), 8192 + 4096);
    CHECK_EQ(engine_app_send(e, 1, out, 10), 0);
    live_take(&l, e);
    CHECK(live_nth(&l, TREC_FRAME, 3) != NULL); /* SYN, SYN/ACK, ACK, then data at once */
    CHECK_EQ(live_rd64(live_nth(&l, TREC_FRAME, 3) + TREC_FRAME_OFF_T_SENT), 1000000);

    live_run(&l, e, 60000000);
    n = live_data(&l, 1, back, sizeof back);
    CHECK_EQ(n, 12288);
    CHECK_MEM(back, out, 12288);
    CHECK(live_app(&l, 1, TREC_APP_REPORT, 0) == NULL); /* open until closed */

    CHECK_EQ(engine_app_close(e, 1), 0);
    live_take(&l, e);
    fin = frame_with(&l, 0, TCP_FIN, 0);
    CHECK(fin != NULL);
    CHECK_EQ(live_rd64(fin + TREC_FRAME_OFF_T_SENT), 60000000);
    CHECK(engine_app_send(e, 1, out, 1) < 0); /* closing: nothing more to send */
    CHECK(strcmp(engine_error(e), "app 1: is closing") == 0);

    live_run(&l, e, 62000000);
    line = live_app(&l, 1, TREC_APP_LINE, 1);
    CHECK(line && live_text_is(line, "Connection closed."));
    rep = live_app(&l, 1, TREC_APP_REPORT, 0);
    CHECK(rep != NULL);
    CHECK_EQ(rep[TREC_APP_OFF_DONE], 1);
    CHECK_EQ((int32_t)trec_rd32(rep + TREC_APP_OFF_ERROR), 0);
    CHECK_EQ(live_rd64(rep + TREC_APP_OFF_BYTES), 12288);
    CHECK(frame_with(&l, 1, TCP_FIN, 0) != NULL); /* the server's FIN ended it */
    CHECK(engine_app_close(e, 1) < 0);
    CHECK(strcmp(engine_error(e), "app 1: has finished") == 0);
    engine_destroy(e);
    free(l.p);
    free(j);
}

/* A probe of port 8, where b has no listener: b answers the SYN with RST (RFC 9293
 * 3.10.7.1), "Connection refused" the moment it arrives, error ERR_RST. Given in the
 * scenario file this time. */
static void test_probe_of_a_closed_port(void)
{
    char *j = live_scenario("", "",
                            "{\"type\":\"tcp_client\",\"host\":\"a\",\"to\":\"b\",\"port\":8,"
                            "\"probe\":true}");
    struct engine *e = live_load(j);
    struct live_log l = { NULL, 0 };
    const uint8_t *rst, *line, *rep;
    CHECK(e != NULL);
    live_run(&l, e, 1000000);
    rst = live_nth(&l, TREC_FRAME, 1);
    CHECK(rst != NULL);
    CHECK(live_tcp_flags(rst) & TCP_RST);
    line = live_app(&l, 0, TREC_APP_LINE, 0);
    CHECK(line && live_text_is(line, "connect to 10.0.7.2:8: Connection refused"));
    CHECK_EQ(live_rd64(line + TREC_APP_OFF_TIME),
             live_rd64(live_fate(&l, trec_rd32(rst + TREC_FRAME_OFF_ID)) + TREC_FATE_OFF_T_END));
    rep = live_app(&l, 0, TREC_APP_REPORT, 0);
    CHECK(rep != NULL);
    CHECK_EQ(rep[TREC_APP_OFF_DONE], 1);
    CHECK_EQ((int32_t)trec_rd32(rep + TREC_APP_OFF_ERROR), ERR_RST);
    CHECK_EQ(live_rd64(rep + TREC_APP_OFF_BYTES), 0);
    CHECK(live_app(&l, 0, TREC_APP_LINE, 1) == NULL);
    engine_destroy(e);
    free(l.p);
    free(j);
}

/* A probe of the echo server's port: connected, then our FIN straight after the handshake
 * (no data, no RST from us), the report at once with no error. */
static void test_probe_of_an_open_port(void)
{
    char *j = live_scenario("", "", ECHO_SERVER);
    struct engine *e = live_load(j);
    struct live_log l = { NULL, 0 };
    const uint8_t *line, *rep, *r;
    uint32_t i;
    CHECK(e != NULL);
    live_run(&l, e, 50000);
    CHECK_EQ(live_add(e, "{\"type\":\"tcp_client\",\"host\":\"a\",\"to\":\"b\",\"port\":7,"
                         "\"probe\":true}"),
             1);
    live_run(&l, e, 2000000);
    line = live_app(&l, 1, TREC_APP_LINE, 0);
    CHECK(line && live_text_is(line, "Connected to 10.0.7.2:7"));
    CHECK(live_app(&l, 1, TREC_APP_LINE, 1) == NULL);
    rep = live_app(&l, 1, TREC_APP_REPORT, 0);
    CHECK(rep != NULL);
    CHECK_EQ(rep[TREC_APP_OFF_DONE], 1);
    CHECK_EQ((int32_t)trec_rd32(rep + TREC_APP_OFF_ERROR), 0);
    CHECK_EQ(live_rd64(rep + TREC_APP_OFF_TIME), live_rd64(line + TREC_APP_OFF_TIME));
    r = frame_with(&l, 0, TCP_FIN, 0);
    CHECK(r != NULL);
    CHECK_EQ(live_rd64(r + TREC_FRAME_OFF_T_SENT), live_rd64(line + TREC_APP_OFF_TIME));
    for (i = 0; (r = live_nth(&l, TREC_FRAME, i)) != NULL; i++) {
        const uint8_t *d = r + TREC_FRAME_FIXED;
        CHECK((live_tcp_flags(r) & TCP_RST) == 0);
        CHECK_EQ(trec_rd16(r + TREC_FRAME_OFF_LEN), 20u + (d[32] >> 4) * 4u); /* no data */
    }
    CHECK(frame_with(&l, 1, TCP_FIN, 0) != NULL); /* the server closed its side too */
    engine_destroy(e);
    free(l.p);
    free(j);
}

/* Every frame from a is lost. With one SYN retry and the initial RTO of 1 s (RFC 6298
 * 2.1), doubled on the retry (5.5): SYN at 0, again at 1 s, given up at 3 s. */
static void test_connect_timeout(void)
{
    char *j = live_scenario("\"tcp_syn_retries\":1",
                            ",\"faults\":[{\"action\":\"drop\",\"p\":1,\"dir\":\"ab\"}]",
                            "{\"type\":\"tcp_client\",\"host\":\"a\",\"to\":\"b\",\"port\":7}");
    struct engine *e = live_load(j);
    struct live_log l = { NULL, 0 };
    const uint8_t *line, *rep;
    CHECK(e != NULL);
    live_run(&l, e, 10000000);
    CHECK_EQ(live_rd64(live_nth(&l, TREC_FRAME, 1) + TREC_FRAME_OFF_T_SENT), 1000000);
    CHECK(live_nth(&l, TREC_FRAME, 2) == NULL);
    line = live_app(&l, 0, TREC_APP_LINE, 0);
    CHECK(line && live_text_is(line, "connect to 10.0.7.2:7: Connection timed out"));
    CHECK_EQ(live_rd64(line + TREC_APP_OFF_TIME), 3000000);
    rep = live_app(&l, 0, TREC_APP_REPORT, 0);
    CHECK(rep != NULL);
    CHECK_EQ((int32_t)trec_rd32(rep + TREC_APP_OFF_ERROR), ERR_TIMEOUT);
    CHECK_EQ(trec_rd32(rep + TREC_APP_OFF_ELAPSED), 3000000);
    engine_destroy(e);
    free(l.p);
    free(j);
}

/* ---- real-time mode: the far end of the external link played by the test ---- */

#define PC  0x0A000701u /* 10.0.7.1 */
#define FAR 0x0A000702u /* 10.0.7.2 */

struct far_end {
    struct engine *e;
    struct slip_decoder dec;
    uint8_t buf[2048];
    uint8_t dgrams[8][2048]; /* the datagrams of the last far_read */
    struct tseg segs[8];
};

/* The segments the world's host sent since the last call, SLIP-decoded and parsed; the
 * count. */
static int far_read(struct far_end *f)
{
    uint8_t wire[4096];
    uint32_t n = engine_port_read(f->e, 0, wire, sizeof wire), i;
    int k = 0;
    for (i = 0; i < n; i++)
        if (slip_decode_byte(&f->dec, wire[i]) == SLIP_FRAME_DONE && k < 8) {
            memcpy(f->dgrams[k], f->dec.buf, f->dec.len);
            if (tseg_parse(f->dgrams[k], f->dec.len, &f->segs[k]) == 0)
                k++;
        }
    return k;
}

static void far_write(struct far_end *f, const struct tseg_spec *s)
{
    uint8_t d[2048], wire[4200];
    uint16_t n = tseg_build(d, s);
    int32_t w = slip_encode(d, n, wire, sizeof wire, 1);
    if (w > 0)
        engine_port_write(f->e, 0, wire, (uint32_t)w);
}

/* A segment from the far end (port 7) to the client at `sport`. */
static struct tseg_spec far_seg(uint16_t sport, uint32_t seq, uint32_t ack, uint8_t flags)
{
    struct tseg_spec s;
    memset(&s, 0, sizeof s);
    s.src = FAR;
    s.dst = PC;
    s.sport = 7;
    s.dport = sport;
    s.seq = seq;
    s.ack = ack;
    s.flags = flags;
    s.wnd = 4096;
    return s;
}

/* Handshake of a new client (app `app`, to 10.0.7.2 by address) added at `t`: its SYN
 * leaves at t, the SYN/ACK comes back at t + 10 ms. Returns the SYN. */
static int far_connect(struct far_end *f, struct live_log *l, double t, int app, struct tseg *syn)
{
    struct tseg_spec s;
    live_run(l, f->e, t);
    if (live_add(f->e,
                 "{\"type\":\"tcp_client\",\"host\":\"pc\",\"to\":\"10.0.7.2\",\"port\":7}") !=
            app ||
        far_read(f) != 1)
        return -1;
    *syn = f->segs[0];
    live_run(l, f->e, t + 10000);
    s = far_seg(syn->sport, 90000, syn->seq + 1, TCP_SYN | TCP_ACK);
    s.mss = 536;
    far_write(f, &s);
    live_take(l, f->e);
    return 0;
}

static void test_far_end_closes_then_resets(void)
{
    static const char json[] =
        "{\"version\":1,\"name\":\"t\",\"title\":\"t\",\"duration_ms\":100000,"
        "\"hosts\":[{\"name\":\"pc\",\"addr\":\"10.0.7.1/24\"}],"
        "\"links\":[{\"name\":\"usb\",\"type\":\"external\",\"a\":\"pc\"}]}";
    static const uint8_t reply[] = { 'o', 'k', 0xC0, 0xDB, 0, '\n' };
    static struct far_end f;
    struct live_log l = { NULL, 0 };
    struct tseg syn, syn2;
    struct tseg_spec s;
    const uint8_t *line, *rep;
    uint8_t got[16];
    int k;

    memset(&f, 0, sizeof f);
    slip_decoder_init(&f.dec, f.buf, sizeof f.buf);
    f.e = live_load(json);
    CHECK(f.e != NULL);
    CHECK_EQ(far_connect(&f, &l, 1000, 0, &syn), 0);
    CHECK(syn.flags == TCP_SYN && syn.dst == FAR && syn.dport == 7 && syn.src == PC);
    CHECK_EQ(live_rd64(live_nth(&l, TREC_FRAME, 0) + TREC_FRAME_OFF_T_SENT), 1000);
    line = live_app(&l, 0, TREC_APP_LINE, 0);
    CHECK(line && live_text_is(line, "Connected to 10.0.7.2:7"));
    CHECK_EQ(live_rd64(line + TREC_APP_OFF_TIME), 11000);
    CHECK_EQ(far_read(&f), 1); /* the ACK of the SYN/ACK */

    live_run(&l, f.e, 30000);
    CHECK_EQ(engine_app_send(f.e, 0, (const uint8_t *)"hi", 2), 2);
    CHECK_EQ(far_read(&f), 1);
    CHECK(f.segs[0].len == 2 && memcmp(f.segs[0].data, "hi", 2) == 0);
    CHECK_EQ(f.segs[0].seq, syn.seq + 1);

    live_run(&l, f.e, 40000);
    s = far_seg(syn.sport, 90001, syn.seq + 3, TCP_ACK | TCP_PSH | TCP_FIN);
    s.data = reply;
    s.len = sizeof reply;
    far_write(&f, &s);
    live_take(&l, f.e);
    CHECK_EQ(live_data(&l, 0, got, sizeof got), sizeof reply);
    CHECK_MEM(got, reply, sizeof reply);
    line = live_app(&l, 0, TREC_APP_LINE, 1);
    CHECK(line && live_text_is(line, "Connection closed by foreign host."));
    CHECK_EQ(live_rd64(line + TREC_APP_OFF_TIME), 40000);
    rep = live_app(&l, 0, TREC_APP_REPORT, 0);
    CHECK(rep != NULL);
    CHECK_EQ((int32_t)trec_rd32(rep + TREC_APP_OFF_ERROR), 0);
    CHECK_EQ(live_rd64(rep + TREC_APP_OFF_BYTES), sizeof reply);
    CHECK_EQ(trec_rd32(rep + TREC_APP_OFF_ELAPSED), 39000);
    k = far_read(&f); /* our FIN, acknowledging theirs */
    CHECK(k >= 1);
    CHECK((f.segs[k - 1].flags & TCP_FIN) && f.segs[k - 1].ack == 90001 + sizeof reply + 1);

    CHECK_EQ(far_connect(&f, &l, 50000, 1, &syn2), 0);
    CHECK(syn2.sport != syn.sport);
    far_read(&f);
    live_run(&l, f.e, 70000);
    far_write(&f, &(struct tseg_spec){ .src = FAR,
                                       .dst = PC,
                                       .sport = 7,
                                       .dport = syn2.sport,
                                       .seq = 90001,
                                       .flags = TCP_RST });
    live_take(&l, f.e);
    line = live_app(&l, 1, TREC_APP_LINE, 1);
    CHECK(line && live_text_is(line, "Connection reset by peer"));
    rep = live_app(&l, 1, TREC_APP_REPORT, 0);
    CHECK(rep != NULL);
    CHECK_EQ((int32_t)trec_rd32(rep + TREC_APP_OFF_ERROR), ERR_RST);
    CHECK_EQ(live_rd64(rep + TREC_APP_OFF_TIME), 70000);
    engine_destroy(f.e);
    free(l.p);
}

UNIT_MAIN(UNIT(test_echo_through_a_tcp_client), UNIT(test_probe_of_a_closed_port),
          UNIT(test_probe_of_an_open_port), UNIT(test_connect_timeout),
          UNIT(test_far_end_closes_then_resets))
