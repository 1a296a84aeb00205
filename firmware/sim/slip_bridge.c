/* stackscope-slipbridge: a serial line running SLIP (RFC 1055) joined to a Linux TUN
 * device, so that the kernel's own TCP/IP talks to whatever is on the line: the firmware
 * in stackscope-simavr (its pty), or a board on /dev/ttyUSB0. It does in user space what
 * `slattach -p slip` and the kernel's sl0 do, with no SLIP module:
 *
 *   stackscope-slipbridge --serial PATH --dev NAME [--baud 57600] [--byte-us US]
 *
 * Datagrams the kernel routes to the TUN device go out as SLIP frames (with a leading
 * END, as Linux's slip sends them); frames from the line go to the kernel. Runs until
 * SIGTERM or SIGINT, then prints its counters.
 *
 * The line is slow and the kernel is not: a real serial driver takes one frame and stops
 * its queue until the UART has sent it, so datagrams wait in the kernel, where TCP sees
 * them queue, not in a buffer on the far side of the line. A pty has no such pace (its
 * buffers take 64 KB at once), so the bridge keeps it: it takes the next datagram from
 * the TUN device only when the frames already written have had time to cross the line,
 * at --byte-us microseconds per byte (default 10 bits per byte at --baud; simavr's UART
 * takes 11, 187 us at the Uno's 58823 baud). The other way needs no pace: the board's
 * UART sends no faster than the line.
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

#include "slip.h"
#include "tun_dev.h"
#include "tun_serial.h"

/* Written ahead of the line by at most this much, so the next frame is there the moment
 * the previous one ends (no idle gap while poll() wakes up), microseconds. */
#define BRIDGE_LEAD_US 2000.0

struct bridge {
    int tun;
    struct tun_serial line;
    double byte_us;
    double line_free_at; /* when the bytes written so far have all crossed (monotonic s) */
    uint8_t dgram[65535];
    uint64_t to_line, to_kernel, tun_write_errors;
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A frame from the line, to the kernel. */
static void deliver(void *ctx, uint8_t *frame, uint16_t len)
{
    struct bridge *b = ctx;
    if (tun_write(b->tun, frame, len) == (ssize_t)len)
        b->to_kernel++;
    else
        b->tun_write_errors++; /* not IPv4 (line noise): the kernel refuses it */
}

/* Milliseconds until the line can take the next frame (0: now). */
static int line_wait_ms(const struct bridge *b, double now)
{
    double wait_us = (b->line_free_at - now) * 1e6 - BRIDGE_LEAD_US;
    return wait_us <= 0 ? 0 : (int)(wait_us / 1000.0) + 1;
}

/* One datagram from the kernel onto the line, if the line is ready for it. */
static int to_line(struct bridge *b)
{
    double now = now_s();
    ssize_t n = tun_read(b->tun, b->dgram, sizeof b->dgram);
    if (n <= 0)
        return n < 0 && errno != EAGAIN && errno != EINTR ? -1 : 0;
    if (tun_serial_send(&b->line, b->dgram, (uint16_t)n) < 0) {
        fprintf(stderr, "stackscope-slipbridge: the line stopped taking bytes: %s\n",
                strerror(errno));
        return -1;
    }
    if (b->line_free_at < now)
        b->line_free_at = now;
    b->line_free_at += (double)slip_encoded_len(b->dgram, (uint16_t)n, 1) * b->byte_us * 1e-6;
    b->to_line++;
    return 0;
}

static int run(struct bridge *b)
{
    while (!stop_requested) {
        int busy_ms = line_wait_ms(b, now_s());
        struct pollfd p[2] = { { b->line.fd, POLLIN, 0 }, { b->tun, POLLIN, 0 } };
        /* The TUN device is read only when the line is free: until then its datagrams
         * stay queued in the kernel (txqueuelen), as on sl0. */
        int n = poll(p, busy_ms ? 1 : 2, busy_ms ? busy_ms : -1);
        if (n < 0 && errno != EINTR) {
            perror("stackscope-slipbridge: poll");
            return 1;
        }
        if (n <= 0)
            continue;
        if (p[0].revents & (POLLERR | POLLHUP)) {
            fprintf(stderr, "stackscope-slipbridge: the line hung up\n");
            return 1;
        }
        if (p[0].revents & POLLIN)
            tun_serial_read(&b->line, deliver, b);
        if (!busy_ms && (p[1].revents & POLLIN) && to_line(b) < 0)
            return 1;
    }
    return 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: stackscope-slipbridge --serial PATH --dev NAME [--baud N] "
                    "[--byte-us US]\n");
}

int main(int argc, char **argv)
{
    static struct bridge b; /* 260 KB of frame buffers: not on the stack */
    const char *serial = NULL, *dev = NULL;
    unsigned long baud = 57600;
    int i, rc;

    for (i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!v) {
            fprintf(stderr, "stackscope-slipbridge: %s needs a value\n", argv[i]);
            usage();
            return 2;
        }
        if (!strcmp(argv[i], "--serial"))
            serial = v;
        else if (!strcmp(argv[i], "--dev"))
            dev = v;
        else if (!strcmp(argv[i], "--baud"))
            baud = strtoul(v, &end, 10);
        else if (!strcmp(argv[i], "--byte-us"))
            b.byte_us = strtod(v, &end);
        else {
            fprintf(stderr, "stackscope-slipbridge: unknown option %s\n", argv[i]);
            usage();
            return 2;
        }
        if (end && (*end || end == v)) {
            fprintf(stderr, "stackscope-slipbridge: %s %s: not a number\n", argv[i], v);
            return 2;
        }
        i++;
    }
    if (!serial || !dev) {
        fprintf(stderr, "stackscope-slipbridge: --serial and --dev are both needed\n");
        usage();
        return 2;
    }
    if (b.byte_us <= 0)
        b.byte_us = baud ? 10.0 * 1e6 / (double)baud : 0;
    if (b.byte_us <= 0) {
        fprintf(stderr, "stackscope-slipbridge: --byte-us must be above 0\n");
        return 2;
    }
    if (tun_serial_open(&b.line, serial, (uint32_t)baud) < 0)
        return 1;
    b.tun = tun_open(dev);
    if (b.tun < 0)
        return 1;
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    printf("slipbridge: %s <-> %s, %.1f us per byte on the line\n", serial, dev, b.byte_us);
    fflush(stdout);
    rc = run(&b);
    printf("slipbridge: %llu datagrams to the line (%llu bytes), %llu to the kernel "
           "(%llu bytes from the line, %llu bad frames, %llu refused by the kernel)\n",
           (unsigned long long)b.to_line, (unsigned long long)b.line.bytes_out,
           (unsigned long long)b.to_kernel, (unsigned long long)b.line.bytes_in,
           (unsigned long long)b.line.bad_frames, (unsigned long long)b.tun_write_errors);
    return rc;
}
