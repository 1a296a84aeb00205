/* Writes the fuzz targets' seed corpora from real traffic: two stackscope hosts over
 * fake_net (MTU 576) doing what the fuzzed code sees in life: a ping of 1400 bytes
 * (fragmented both ways), a UDP datagram to the echo port, and a TCP echo session with
 * a loss in the middle (so retransmissions and out-of-order data are in it).
 *
 *   make_corpus OUTDIR      writes OUTDIR/fuzz_{ip_input,slip,vj,tcp_session}/seed-NNN
 *
 * `make fuzz-corpus` runs it into wasm/tests/fuzz/corpus; the files are committed so
 * that every fuzzing run starts from them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app_echo_client.h"
#include "app_tcp_echo.h"
#include "bytes.h"
#include "fake_net.h"
#include "ping.h"
#include "slip.h"
#include "slip6.h"
#include "socket.h"
#include "vj.h"

#define MAX_FRAMES 256

struct recorded {
    uint8_t data[FAKE_NET_MAX_FRAME];
    uint16_t len;
    uint8_t dir; /* 0: client (10.0.7.1) -> server, 1: server -> client */
    stack_time_t t;
};

struct corpus {
    struct recorded frames[MAX_FRAMES];
    unsigned n;
    struct app_tcp_echo echo;
    struct app_echo_client client;
    int phase;
    const char *out;
};

static void tap(void *ctx, struct fake_net *net, int link, int dir, stack_time_t t,
                const uint8_t *d, uint16_t len, int fate)
{
    struct corpus *c = ctx;
    (void)net;
    (void)link;
    (void)fate; /* lost frames were still sent: they belong in the corpus too */
    if (c->n < MAX_FRAMES) {
        memcpy(c->frames[c->n].data, d, len);
        c->frames[c->n].len = len;
        c->frames[c->n].dir = (uint8_t)dir;
        c->frames[c->n].t = t;
        c->n++;
    }
}

/* The 9th frame on the client's side is lost: a retransmission follows. */
static int drop_one(void *ctx, int link, int dir, uint32_t index, const uint8_t *d, uint16_t len)
{
    (void)ctx;
    (void)link;
    (void)d;
    (void)len;
    return dir == 0 && index == 8;
}

static int run(void *ctx, struct fake_net *net, stack_time_t *next)
{
    struct corpus *c = ctx;
    stack_time_t unused;
    (void)next;
    app_tcp_echo_poll(&c->echo, &net->hosts[1], &unused);
    if (c->phase == 0 && ping_done(&net->hosts[0])) {
        struct stack_sockaddr dst = { IP4(10, 0, 7, 2), 7 };
        struct app_echo_client_params p;
        int s = udpsocket(&net->hosts[0]);
        udpsendto(&net->hosts[0], s, &dst, "a UDP datagram to port 7", 24);
        udpclose(&net->hosts[0], s);
        memset(&p, 0, sizeof p);
        p.server = dst;
        p.len = 3000;
        app_echo_client_start(&c->client, &net->hosts[0], &p);
        c->phase = 1;
    }
    if (c->phase == 1) {
        app_echo_client_poll(&c->client, &net->hosts[0], &unused);
        if (c->client.report.done)
            c->phase = 2;
    }
    return 0;
}

static int finished(void *ctx)
{
    return ((struct corpus *)ctx)->phase == 2;
}

static FILE *open_seed(const char *out, const char *target, unsigned i)
{
    char path[512];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", out, target);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/%s/seed-%03u", out, target, i);
    f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(1);
    }
    return f;
}

static void put16(FILE *f, uint16_t v)
{
    fputc(v >> 8, f);
    fputc(v & 0xFF, f);
}

static void write_ip_input(const struct corpus *c)
{
    unsigned i;
    for (i = 0; i < c->n; i++) {
        FILE *f = open_seed(c->out, "fuzz_ip_input", i);
        fwrite(c->frames[i].data, 1, c->frames[i].len, f);
        fclose(f);
    }
}

struct file_sink {
    FILE *f;
};

static void put_byte(void *ctx, uint8_t b)
{
    fputc(b, ((struct file_sink *)ctx)->f);
}

/* Two line captures: SLIP (first byte 0x7F: 1032-byte buffer) and SLIP6 (0xFF). */
static void write_slip(const struct corpus *c)
{
    struct file_sink s;
    unsigned i;
    s.f = open_seed(c->out, "fuzz_slip", 0);
    fputc(0x7F, s.f);
    for (i = 0; i < c->n; i++)
        slip_encode_stream(c->frames[i].data, c->frames[i].len, 1, put_byte, &s);
    fclose(s.f);
    s.f = open_seed(c->out, "fuzz_slip", 1);
    fputc(0xFF, s.f);
    for (i = 0; i < c->n && i < 24; i++)
        slip6_encode_stream(c->frames[i].data, c->frames[i].len, 1, put_byte, &s);
    fclose(s.f);
}

/* The client -> server direction through a CSLIP compressor, as length-prefixed frames;
 * a second file marks a link error in the middle. */
static void write_vj(const struct corpus *c)
{
    unsigned variant;
    for (variant = 0; variant < 2; variant++) {
        struct vj_slot tx[16];
        struct vj_state s;
        unsigned i, sent = 0;
        FILE *f = open_seed(c->out, "fuzz_vj", variant);
        memset(tx, 0, sizeof tx);
        vj_init(&s, tx, 16, NULL, 0);
        for (i = 0; i < c->n; i++) {
            uint8_t frame[FAKE_NET_MAX_FRAME];
            int32_t n;
            if (c->frames[i].dir != 0)
                continue;
            n = vj_compress(&s, c->frames[i].data, c->frames[i].len, frame, sizeof frame, NULL);
            if (n <= 0)
                continue;
            if (variant == 1 && sent == 6)
                put16(f, 0x8000); /* the link lost a frame here */
            put16(f, (uint16_t)n);
            fwrite(frame, 1, (size_t)n, f);
            sent++;
        }
        fclose(f);
    }
}

/* The client's TCP segments as fuzz_tcp_session records: ack and ports fixed up to the
 * fuzzed host's (flags 3), the real gaps between them as time advances. */
static void write_tcp_session(const struct corpus *c)
{
    FILE *f = open_seed(c->out, "fuzz_tcp_session", 0);
    stack_time_t last = 0;
    unsigned i;
    for (i = 0; i < c->n; i++) {
        const struct recorded *r = &c->frames[i];
        uint32_t gap = (r->t - last) / 8000u;
        if (r->dir != 0 || r->data[IP_OFF_PROTO] != IP_PROTO_TCP)
            continue;
        fputc(3, f);
        fputc(gap > 255 ? 255 : (int)gap, f);
        put16(f, r->len);
        fwrite(r->data, 1, r->len, f);
        last = r->t;
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    static struct corpus c;
    static struct fake_net net;
    struct host_config cfg;
    if (argc != 2) {
        fprintf(stderr, "usage: make_corpus OUTDIR\n");
        return 2;
    }
    c.out = argv[1];
    mkdir(c.out, 0755);
    fake_net_init(&net, 1);
    host_config_default(&cfg);
    cfg.tcp_timestamps = 1;
    fake_net_add_host(&net, &cfg);
    cfg.seed = 2;
    fake_net_add_host(&net, &cfg);
    fake_net_connect(&net, 0, IP4(10, 0, 7, 1), 1, IP4(10, 0, 7, 2), 576, 1000000, 1000);
    net.tap = tap;
    net.drop = drop_one;
    net.poll = run;
    net.ctx = &c;
    app_tcp_echo_start(&c.echo, &net.hosts[1], 7, 2, 2);
    ping_start(&net.hosts[0], IP4(10, 0, 7, 2), 7, 1400, 1, 1000, 1000);
    if (!fake_net_run(&net, 60u * 1000000u, finished)) {
        fprintf(stderr, "make_corpus: the session did not finish\n");
        return 1;
    }
    write_ip_input(&c);
    write_slip(&c);
    write_vj(&c);
    write_tcp_session(&c);
    printf("make_corpus: %u frames recorded into %s\n", c.n, c.out);
    fake_net_free(&net);
    return 0;
}
