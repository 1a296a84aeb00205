/* stackscope-tun: one stackscope host on a Linux TUN device.
 *
 *   stackscope-tun --dev tun0 --addr 10.0.7.2 [--peer 10.0.7.1] [--mtu 576]
 *                  [--loss FRACTION] [--seed N] [--connect IP:PORT --send BYTES]
 *
 * Serves ICMP echo, TCP echo (7) and discard (9), and answers RST on every other port, so
 * the kernel on the other side of the device can ping it and talk TCP to it. With
 * --connect it is also a TCP client that sends BYTES bytes (a xorshift32 stream, see
 * tun_client.h) and closes. --loss drops that fraction of frames in each direction, chosen
 * by a PRNG seeded with --seed (this kernel has no netem). Runs until SIGTERM or until the
 * client job ends, prints its counters, and exits 0 if the job (if any) succeeded.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bytes.h"
#include "host.h"
#include "tun_dev.h"
#include "tun_services.h"

struct tun_opts {
    const char *dev;
    uint32_t addr, peer;
    uint16_t mtu;
    uint32_t loss_ppm;
    uint32_t seed;
    uint32_t connect_addr;
    uint16_t connect_port;
    uint32_t send_bytes;
};

struct tun_link {
    int fd;
    uint32_t loss_ppm;
    uint32_t rng;
    uint64_t frames_in, frames_out, lost_in, lost_out, write_errors;
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

static uint32_t link_random(struct tun_link *l)
{
    uint32_t x = l->rng;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    l->rng = x;
    return x;
}

static int link_loses(struct tun_link *l)
{
    return l->loss_ppm && link_random(l) % 1000000u < l->loss_ppm;
}

static int tun_output(void *ctx, uint8_t netif, const uint8_t *dgram, uint16_t len)
{
    struct tun_link *l = ctx;
    (void)netif;
    if (link_loses(l)) {
        l->lost_out++;
        return 0;
    }
    if (tun_write(l->fd, dgram, len) < 0) {
        l->write_errors++;
        return -1;
    }
    l->frames_out++;
    return 0;
}

/* The stack's clock: microseconds since start, wrapping at 32 bits as stack_time_t does. */
static stack_time_t clock_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (stack_time_t)((uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u);
}

static int parse_addr(const char *s, uint32_t *addr)
{
    unsigned a, b, c, d;
    char tail;
    if (sscanf(s, "%u.%u.%u.%u%c", &a, &b, &c, &d, &tail) != 4 || a > 255 || b > 255 ||
        c > 255 || d > 255)
        return -1;
    *addr = IP4(a, b, c, d);
    return 0;
}

static int usage(const char *why)
{
    fprintf(stderr, "stackscope-tun: %s\n", why);
    fprintf(stderr, "usage: stackscope-tun --dev NAME --addr A.B.C.D [--mtu N] [--loss F] "
                    "[--seed N] [--connect A.B.C.D:PORT --send BYTES]\n");
    return 2;
}

static int parse_opts(int argc, char **argv, struct tun_opts *o)
{
    int i;
    memset(o, 0, sizeof *o);
    o->mtu = 1500;
    o->seed = 1;
    for (i = 1; i < argc; i++) {
        const char *opt = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!val)
            return usage("every option takes a value");
        i++;
        if (!strcmp(opt, "--dev")) {
            o->dev = val;
        } else if (!strcmp(opt, "--addr")) {
            if (parse_addr(val, &o->addr))
                return usage("--addr: not an IPv4 address");
        } else if (!strcmp(opt, "--mtu")) {
            long m = strtol(val, NULL, 10);
            if (m < 68 || m > 65535)
                return usage("--mtu: must be 68..65535");
            o->mtu = (uint16_t)m;
        } else if (!strcmp(opt, "--loss")) {
            double f = strtod(val, NULL);
            if (!(f >= 0.0 && f < 1.0))
                return usage("--loss: a fraction from 0 to below 1");
            o->loss_ppm = (uint32_t)(f * 1000000.0 + 0.5);
        } else if (!strcmp(opt, "--seed")) {
            o->seed = (uint32_t)strtoul(val, NULL, 10);
        } else if (!strcmp(opt, "--connect")) {
            char host[32];
            const char *colon = strchr(val, ':');
            long port;
            if (!colon || colon - val >= (long)sizeof host)
                return usage("--connect: expected A.B.C.D:PORT");
            memcpy(host, val, (size_t)(colon - val));
            host[colon - val] = 0;
            port = strtol(colon + 1, NULL, 10);
            if (parse_addr(host, &o->connect_addr) || port < 1 || port > 65535)
                return usage("--connect: expected A.B.C.D:PORT");
            o->connect_port = (uint16_t)port;
        } else if (!strcmp(opt, "--send")) {
            o->send_bytes = (uint32_t)strtoul(val, NULL, 10);
        } else {
            return usage("unknown option");
        }
    }
    if (!o->dev || !o->addr)
        return usage("--dev and --addr are required");
    if (!!o->connect_port != !!o->send_bytes)
        return usage("--connect and --send go together");
    return 0;
}

/* Retransmissions by cause, counted from the tracer. */
struct tun_counts {
    uint64_t retx[TCP_RETX_FIN_RTO + 1];
};

static void count_event(void *ctx, const struct host *h, const struct trace_event *ev)
{
    struct tun_counts *c = ctx;
    (void)h;
    if (ev->kind == TRACE_RETRANSMIT && ev->c <= TCP_RETX_FIN_RTO)
        c->retx[ev->c]++;
}

static void print_counters(const struct host *h, const struct tun_link *l,
                           const struct tun_counts *c)
{
    unsigned r;
    uint64_t retx_total = 0;
    printf("frames: in %llu, out %llu; injected loss: in %llu, out %llu; write errors %llu\n",
           (unsigned long long)l->frames_in, (unsigned long long)l->frames_out,
           (unsigned long long)l->lost_in, (unsigned long long)l->lost_out,
           (unsigned long long)l->write_errors);
    for (r = 0; r < DROP_REASON_COUNT; r++)
        if (h->stats.drops[r])
            printf("drop: %s: %u\n", drop_reason_text((enum drop_reason)r),
                   (unsigned)h->stats.drops[r]);
    for (r = 0; r <= TCP_RETX_FIN_RTO; r++) {
        retx_total += c->retx[r];
        if (c->retx[r])
            printf("retransmissions (%s): %llu\n", tcp_retx_cause_text((enum tcp_retx_cause)r),
                   (unsigned long long)c->retx[r]);
    }
    printf("retransmissions: %llu\n", (unsigned long long)retx_total);
}

/* Milliseconds poll(2) may sleep before the host's next deadline (at most 100 ms, so a
 * signal or a finished job is noticed soon). */
static int poll_timeout_ms(const struct host *h, stack_time_t now)
{
    stack_time_t when;
    int32_t wait_us;
    if (!host_next_deadline(h, &when))
        return 100;
    wait_us = (int32_t)(when - now);
    if (wait_us <= 0)
        return 0;
    return wait_us >= 100000 ? 100 : (int)((wait_us + 999) / 1000);
}

static void read_frames(struct host *h, struct tun_link *l)
{
    uint8_t buf[65536];
    for (;;) {
        ssize_t n = tun_read(l->fd, buf, sizeof buf);
        if (n <= 0)
            return; /* EAGAIN: nothing more for now */
        if ((buf[0] >> 4) != 4)
            continue; /* the kernel also sends IPv6; this host speaks IPv4 only */
        if (link_loses(l)) {
            l->lost_in++;
            continue;
        }
        l->frames_in++;
        host_input(h, 0, buf, (uint16_t)(n > 65535 ? 65535 : n), clock_us());
    }
}

int main(int argc, char **argv)
{
    struct tun_opts o;
    struct tun_link link;
    struct tun_counts counts;
    struct tun_services services;
    struct host_config cfg;
    struct host h;
    void *mem;
    int rc = parse_opts(argc, argv, &o);
    int ok = 1;

    if (rc)
        return rc;
    memset(&link, 0, sizeof link);
    memset(&counts, 0, sizeof counts);
    link.loss_ppm = o.loss_ppm;
    link.rng = o.seed ? o.seed : 1;
    link.fd = tun_open(o.dev);
    if (link.fd < 0)
        return 1;

    host_config_default(&cfg);
    cfg.seed = o.seed;
    cfg.ip_max_datagram = o.mtu > 1500 ? o.mtu : 1500;
    cfg.tcp_snd_buf = 16384;
    cfg.tcp_rcv_buf = 16384;
    /* The peer is Linux on the same machine: use its RTO floor (200 ms, TCP_RTO_MIN)
     * rather than RFC 6298's conservative 1 s, as a host tuned for a LAN would. */
    cfg.tcp_rto_min_ms = 200;
    mem = malloc(host_mem_required(&cfg));
    if (!mem || host_init(&h, &cfg, mem, host_mem_required(&cfg), clock_us()) != ERR_OK) {
        fprintf(stderr, "stackscope-tun: cannot start the host\n");
        return 1;
    }
    host_set_tracer(&h, count_event, &counts);
    if (host_add_netif(&h, o.addr, 0xFFFFFF00u, o.mtu, tun_output, &link) < 0) {
        fprintf(stderr, "stackscope-tun: cannot add the interface\n");
        return 1;
    }
    if (tun_services_start(&services, &h) != ERR_OK) {
        fprintf(stderr, "stackscope-tun: cannot start the services\n");
        return 1;
    }
    if (o.connect_port &&
        tun_services_connect(&services, &h, o.connect_addr, o.connect_port, o.send_bytes) !=
            ERR_OK) {
        fprintf(stderr, "stackscope-tun: cannot start the client\n");
        return 1;
    }

    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    while (!stop_requested) {
        struct pollfd pfd = { link.fd, POLLIN, 0 };
        stack_time_t now = clock_us();
        if (poll(&pfd, 1, poll_timeout_ms(&h, now)) < 0 && errno != EINTR)
            break;
        if (pfd.revents & POLLIN)
            read_frames(&h, &link);
        host_poll(&h, clock_us());
        tun_services_poll(&services, &h);
        if (services.has_client && tun_services_client_finished(&services, &h))
            break;
    }

    print_counters(&h, &link, &counts);
    if (services.has_client) {
        const struct app_echo_client_report *r = &services.client.report;
        ok = r->done && r->error == 0 && r->bytes_sent == o.send_bytes;
        printf("client: sent %u of %u bytes in %u us: %s\n", (unsigned)r->bytes_sent,
               (unsigned)o.send_bytes, (unsigned)r->elapsed_us, ok ? "ok" : "FAILED");
    }
    fflush(stdout);
    free(mem);
    return ok ? 0 : 1;
}
