/* stackscope-tun: one stackscope host on a Linux TUN device or on a serial line.
 *
 *   stackscope-tun (--dev tun0 | --serial /dev/ttyUSB0 [--baud 57600]) --addr 10.0.7.2
 *                  [--mtu 576] [--reass-max BYTES] [--loss FRACTION] [--seed N]
 *                  [--pcap FILE] [--sack]
 *                  [--connect IP:PORT --send BYTES [--verify]]
 *                  [--ping IP [--count N] [--size BYTES] [--interval MS]]
 *
 * Serves ICMP echo, TCP echo (7) and discard (9), and answers RST on every other port, so
 * the peer (the kernel behind the TUN device, or an Arduino) can ping it and talk TCP to
 * it. With --serial the datagrams travel as SLIP frames (RFC 1055) over a serial device
 * instead: a USB serial adapter with a board behind it, or the pty of stackscope-simavr.
 *
 * Jobs, all optional: --connect makes it a TCP client that sends BYTES bytes (a pattern,
 * see app_echo_client.h) and closes; with --verify the server is an echo server and every
 * byte must come back unchanged. --ping sends COUNT echo requests of SIZE data bytes and
 * prints what Linux's ping prints. --loss drops that fraction of frames in each direction,
 * chosen by a PRNG seeded with --seed (this kernel has no netem); --pcap records every
 * datagram that crosses the link (after the loss) for tshark. --reass-max sets the largest
 * datagram the host reassembles (its ip_reass_max, 1500 by default; it keeps two buffers
 * of that size): 8028 lets it answer the kernel's `ping -s 8000` over a smaller MTU. The
 * datagrams it builds are as large as the MTU, 1500 bytes, or its own pings, whichever is
 * largest. Runs until SIGTERM or
 * until every job has ended, prints its counters, and exits 0 if every job succeeded (for
 * ping: every request answered).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "host.h"
#include "pcap.h"
#include "tun_dev.h"
#include "tun_opts.h"
#include "tun_serial.h"
#include "tun_services.h"

#define LINGER_US 5000000u /* at most, after the jobs, for the peers to close */

struct tun_link {
    int fd;
    struct tun_serial *serial; /* NULL: the TUN device */
    uint32_t loss_ppm;
    uint32_t rng;
    uint64_t frames_in, frames_out, lost_in, lost_out, write_errors;
    struct host *h;
    FILE *pcap_file;
    struct pcap_writer pcap;
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

static void pcap_sink(void *ctx, const uint8_t *p, uint32_t n)
{
    fwrite(p, 1, n, ctx);
}

/* A datagram that crossed the link, into the --pcap file (wall-clock time). */
static void capture(struct tun_link *l, const uint8_t *dgram, uint16_t len)
{
    struct timespec ts;
    if (!l->pcap_file)
        return;
    clock_gettime(CLOCK_REALTIME, &ts);
    pcap_packet(&l->pcap, (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u, dgram, len,
                len);
}

static int tun_output(void *ctx, uint8_t netif, const uint8_t *dgram, uint16_t len)
{
    struct tun_link *l = ctx;
    int failed;
    (void)netif;
    if (link_loses(l)) {
        l->lost_out++;
        return 0;
    }
    failed =
        l->serial ? tun_serial_send(l->serial, dgram, len) < 0 : tun_write(l->fd, dgram, len) < 0;
    if (failed) {
        l->write_errors++;
        return -1;
    }
    l->frames_out++;
    capture(l, dgram, len);
    return 0;
}

/* The stack's clock: microseconds since start, wrapping at 32 bits as stack_time_t does. */
static stack_time_t clock_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (stack_time_t)((uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u);
}

/* A datagram from the link, on its way to the host (or lost). */
static void deliver(void *ctx, uint8_t *dgram, uint16_t len)
{
    struct tun_link *l = ctx;
    if (len == 0 || (dgram[0] >> 4) != 4)
        return; /* the kernel also sends IPv6; this host speaks IPv4 only */
    if (link_loses(l)) {
        l->lost_in++;
        return;
    }
    l->frames_in++;
    capture(l, dgram, len);
    host_input(l->h, 0, dgram, len, clock_us());
}

static void read_frames(struct tun_link *l)
{
    static uint8_t buf[65536];
    if (l->serial) {
        tun_serial_read(l->serial, deliver, l);
        return;
    }
    for (;;) {
        ssize_t n = tun_read(l->fd, buf, sizeof buf);
        if (n <= 0)
            return; /* EAGAIN: nothing more for now */
        deliver(l, buf, (uint16_t)(n > 65535 ? 65535 : n));
    }
}

/* Retransmissions by cause, counted from the tracer. */
struct tun_counts {
    uint64_t retx[TCP_RETX_CAUSE_COUNT];
};

static void count_event(void *ctx, const struct host *h, const struct trace_event *ev)
{
    struct tun_counts *c = ctx;
    (void)h;
    if (ev->kind == TRACE_RETRANSMIT &&
        TRACE_FIELD(ev, TRACE_RETRANSMIT_cause) < TCP_RETX_CAUSE_COUNT)
        c->retx[TRACE_FIELD(ev, TRACE_RETRANSMIT_cause)]++;
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
    if (l->serial)
        printf("serial: bytes in %llu, out %llu; bad SLIP frames %llu\n",
               (unsigned long long)l->serial->bytes_in, (unsigned long long)l->serial->bytes_out,
               (unsigned long long)l->serial->bad_frames);
    for (r = 0; r < DROP_REASON_COUNT; r++)
        if (h->stats.drops[r])
            printf("drop: %s: %u\n", drop_reason_text((enum drop_reason)r),
                   (unsigned)h->stats.drops[r]);
    for (r = 0; r <= TCP_RETX_SACK_LOSS; r++) {
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

/* The largest datagram the host builds: the MTU, at least 1500, and room for its pings. */
static uint16_t tun_max_datagram(const struct tun_opts *o)
{
    uint32_t n = o->mtu > 1500 ? o->mtu : 1500;
    if (o->ping_addr && o->ping_size + 28u > n)
        n = o->ping_size + 28u;
    return (uint16_t)n;
}

/* A ping whose replies come back in fragments needs them to fit the reassembly buffer. */
static int tun_ping_fits(const struct tun_opts *o, const struct host_config *cfg)
{
    uint32_t dgram = o->ping_size + 28u;
    if (!o->ping_addr || dgram <= o->mtu || dgram <= cfg->ip_reass_max)
        return 1;
    fprintf(stderr,
            "stackscope-tun: --size: %u bytes make a datagram of %u bytes, larger than the "
            "%u bytes the host reassembles (--reass-max); its replies come in fragments "
            "(MTU %u)\n",
            (unsigned)o->ping_size, (unsigned)dgram, (unsigned)cfg->ip_reass_max, (unsigned)o->mtu);
    return 0;
}

/* Prints the ping lines that are ready; returns 1 once the run is over (summary printed). */
static int ping_report(struct host *h)
{
    struct ping_event ev;
    char line[512];
    while (ping_next_event(h, &ev)) {
        ping_format_event(&ev, line, sizeof line);
        printf("%s\n", line);
    }
    if (!ping_done(h))
        return 0;
    ping_format_summary(h, line, sizeof line);
    printf("\n%s", line);
    return 1;
}

static int client_report(const struct tun_opts *o, const struct tun_services *s)
{
    const struct app_echo_client_report *r = &s->client.report;
    int ok = r->done && r->error == 0 && r->bytes_sent == o->send_bytes &&
             (!o->verify ||
              (r->bytes_received == o->send_bytes && r->mismatch_at == APP_ECHO_NO_MISMATCH));
    printf("client: sent %u of %u bytes", (unsigned)r->bytes_sent, (unsigned)o->send_bytes);
    if (o->verify)
        printf(", %u came back%s", (unsigned)r->bytes_received,
               r->mismatch_at == APP_ECHO_NO_MISMATCH ? " unchanged" : " CHANGED");
    printf(" in %u us", (unsigned)r->elapsed_us);
    if (r->error)
        printf(" (%s%s)", stack_err_name(r->error),
               r->error == ERR_RST && !r->established_at ? ": connection refused" : "");
    printf(": %s\n", ok ? "ok" : "FAILED");
    return ok;
}

int main(int argc, char **argv)
{
    static struct tun_serial serial; /* 192 KB of frame buffers: not on the C stack */
    struct tun_opts o;
    struct tun_link link;
    struct tun_counts counts;
    struct tun_services services;
    struct host_config cfg;
    struct host h;
    void *mem;
    int rc = tun_parse_opts(argc, argv, &o);
    int ok = 1, pinging = 0, lingering = 0;
    stack_time_t linger_end = 0;

    if (rc)
        return rc;
    host_config_default(&cfg);
    cfg.seed = o.seed;
    cfg.ip_max_datagram = tun_max_datagram(&o);
    if (o.reass_max)
        cfg.ip_reass_max = o.reass_max;
    if (!tun_ping_fits(&o, &cfg))
        return 2;
    cfg.tcp_snd_buf = 16384;
    cfg.tcp_rcv_buf = 16384;
    /* Over TUN the peer is Linux on the same machine: use its RTO floor (200 ms,
     * TCP_RTO_MIN) rather than RFC 6298's conservative 1 s, as a host tuned for a LAN
     * would. A serial line is no LAN: a 576-byte frame alone takes 100 ms at 57600 baud,
     * and the RTT swings with what else is queued on it, so RFC 6298's 1 s stays. */
    cfg.tcp_rto_min_ms = o.serial ? 1000 : 200;
    cfg.tcp_sack = o.sack;
    memset(&link, 0, sizeof link);
    memset(&counts, 0, sizeof counts);
    link.loss_ppm = o.loss_ppm;
    link.rng = o.seed ? o.seed : 1;
    link.h = &h;
    if (o.serial) {
        if (tun_serial_open(&serial, o.serial, o.baud) < 0)
            return 1;
        link.serial = &serial;
        link.fd = serial.fd;
    } else {
        link.fd = tun_open(o.dev);
        if (link.fd < 0)
            return 1;
    }

    if (o.pcap) {
        link.pcap_file = fopen(o.pcap, "wb");
        if (!link.pcap_file) {
            fprintf(stderr, "stackscope-tun: cannot write %s\n", o.pcap);
            return 1;
        }
        pcap_begin(&link.pcap, pcap_sink, link.pcap_file, 65535, PCAP_LINKTYPE_RAW);
    }

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
    if (o.connect_port && tun_services_connect(&services, &h, o.connect_addr, o.connect_port,
                                               o.send_bytes, o.verify) != ERR_OK) {
        fprintf(stderr, "stackscope-tun: cannot start the client\n");
        return 1;
    }
    if (o.ping_addr) {
        char line[128];
        /* Linux's -W default: wait up to 10 s for replies to the last request. */
        if (ping_start(&h, o.ping_addr, (uint16_t)getpid(), o.ping_size, o.ping_count,
                       o.ping_interval, 10000) != ERR_OK) {
            fprintf(stderr, "stackscope-tun: cannot start ping\n");
            return 1;
        }
        ping_format_header(&h, line, sizeof line);
        printf("%s\n", line);
        pinging = 1;
    }

    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    while (!stop_requested) {
        struct pollfd pfd = { link.fd, POLLIN, 0 };
        int client_busy;
        stack_time_t now = clock_us();
        if (poll(&pfd, 1, poll_timeout_ms(&h, now)) < 0 && errno != EINTR)
            break;
        if (pfd.revents & POLLIN)
            read_frames(&link);
        host_poll(&h, clock_us());
        tun_services_poll(&services, &h);
        if (pinging && ping_report(&h))
            pinging = 0;
        fflush(stdout);
        client_busy = services.has_client && !tun_services_client_finished(&services, &h);
        if (!lingering && (services.has_client || o.ping_addr) && !client_busy && !pinging) {
            /* Every job is over. The peers may not be done closing: a FIN that arrived
             * after we exit would never be acknowledged, and the peer would keep sending
             * it for minutes (the Arduino, with one connection block, refusing all else
             * meanwhile). So wait, up to LINGER_US, for every connection to close. */
            lingering = 1;
            linger_end = clock_us() + LINGER_US;
        }
        if (lingering && (tcp_count_open(&h) == 0 || time_after_eq(clock_us(), linger_end)))
            break;
    }

    print_counters(&h, &link, &counts);
    if (services.has_client)
        ok = client_report(&o, &services) && ok;
    if (o.ping_addr) {
        struct ping_stats st;
        ping_get_stats(&h, &st);
        ok = ok && !pinging && st.transmitted == o.ping_count && st.received == st.transmitted;
    }
    fflush(stdout);
    if (link.pcap_file)
        fclose(link.pcap_file);
    free(mem);
    return ok ? 0 : 1;
}
