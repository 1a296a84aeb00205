#include "tun_opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"

static int parse_addr(const char *s, uint32_t *addr)
{
    unsigned a, b, c, d;
    char tail;
    if (sscanf(s, "%u.%u.%u.%u%c", &a, &b, &c, &d, &tail) != 4 || a > 255 || b > 255 || c > 255 ||
        d > 255)
        return -1;
    *addr = IP4(a, b, c, d);
    return 0;
}

static int usage(const char *why)
{
    fprintf(stderr, "stackscope-tun: %s\n", why);
    fprintf(stderr,
            "usage: stackscope-tun (--dev NAME | --serial PATH [--baud N]) --addr A.B.C.D\n"
            "         [--mtu N] [--reass-max BYTES] [--loss F] [--seed N] [--pcap FILE] [--sack]\n"
            "         [--connect A.B.C.D:PORT --send BYTES [--verify]]\n"
            "         [--ping A.B.C.D [--count N] [--size BYTES] [--interval MS]]\n");
    return 2;
}

/* A number within [lo, hi], or -1. */
static long number(const char *s, long lo, long hi)
{
    char *end;
    long v = strtol(s, &end, 10);
    return (*s && !*end && v >= lo && v <= hi) ? v : -1;
}

int tun_parse_opts(int argc, char **argv, struct tun_opts *o)
{
    int i;
    long v;
    memset(o, 0, sizeof *o);
    o->mtu = 1500;
    o->seed = 1;
    o->baud = 57600;
    o->ping_count = 5;
    o->ping_size = 56;
    o->ping_interval = 1000;
    for (i = 1; i < argc; i++) {
        const char *opt = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(opt, "--verify")) {
            o->verify = 1;
            continue;
        }
        if (!strcmp(opt, "--sack")) {
            o->sack = 1;
            continue;
        }
        if (!val)
            return usage("every option but --verify and --sack takes a value");
        i++;
        if (!strcmp(opt, "--dev")) {
            o->dev = val;
        } else if (!strcmp(opt, "--serial")) {
            o->serial = val;
        } else if (!strcmp(opt, "--baud")) {
            if ((v = number(val, 50, 4000000)) < 0)
                return usage("--baud: a rate in bits per second");
            o->baud = (uint32_t)v;
        } else if (!strcmp(opt, "--addr")) {
            if (parse_addr(val, &o->addr))
                return usage("--addr: not an IPv4 address");
        } else if (!strcmp(opt, "--mtu")) {
            if ((v = number(val, 68, 65535)) < 0)
                return usage("--mtu: must be 68..65535");
            o->mtu = (uint16_t)v;
        } else if (!strcmp(opt, "--reass-max")) {
            if ((v = number(val, 576, 65535)) < 0)
                return usage("--reass-max: 576..65535 bytes (RFC 1122 3.3.2: at least 576)");
            o->reass_max = (uint16_t)v;
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
            if (!colon || colon - val >= (long)sizeof host)
                return usage("--connect: expected A.B.C.D:PORT");
            memcpy(host, val, (size_t)(colon - val));
            host[colon - val] = 0;
            v = number(colon + 1, 1, 65535);
            if (parse_addr(host, &o->connect_addr) || v < 0)
                return usage("--connect: expected A.B.C.D:PORT");
            o->connect_port = (uint16_t)v;
        } else if (!strcmp(opt, "--send")) {
            o->send_bytes = (uint32_t)strtoul(val, NULL, 10);
        } else if (!strcmp(opt, "--pcap")) {
            o->pcap = val;
        } else if (!strcmp(opt, "--ping")) {
            if (parse_addr(val, &o->ping_addr))
                return usage("--ping: not an IPv4 address");
        } else if (!strcmp(opt, "--count")) {
            if ((v = number(val, 1, 1000000)) < 0)
                return usage("--count: at least 1");
            o->ping_count = (uint32_t)v;
        } else if (!strcmp(opt, "--size")) {
            if ((v = number(val, 0, 65507)) < 0)
                return usage("--size: 0..65507 bytes of data");
            o->ping_size = (uint16_t)v;
        } else if (!strcmp(opt, "--interval")) {
            if ((v = number(val, 0, 3600000)) < 0)
                return usage("--interval: milliseconds");
            o->ping_interval = (uint32_t)v;
        } else {
            return usage("unknown option");
        }
    }
    if (!o->dev == !o->serial)
        return usage("one of --dev and --serial is required");
    if (!o->addr)
        return usage("--addr is required");
    if (!!o->connect_port != !!o->send_bytes)
        return usage("--connect and --send go together");
    if (o->verify && !o->connect_port)
        return usage("--verify needs --connect");
    return 0;
}
