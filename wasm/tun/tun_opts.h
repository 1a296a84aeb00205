/* The command line of stackscope-tun (see tun_main.c for what each option does). */
#ifndef TUN_OPTS_H
#define TUN_OPTS_H

#include <stdint.h>

struct tun_opts {
    const char *dev;       /* --dev: a TUN device ... */
    const char *serial;    /* --serial: ... or a serial device carrying SLIP */
    uint32_t baud;         /* --baud (57600) */
    uint32_t addr;         /* --addr */
    uint16_t mtu;          /* --mtu (1500) */
    uint16_t reass_max;    /* --reass-max: largest datagram reassembled; 0 = the stack's
                               default (host_config.h) */
    uint32_t loss_ppm;     /* --loss, per million */
    uint32_t seed;         /* --seed (1) */
    uint32_t connect_addr; /* --connect A.B.C.D:PORT */
    uint16_t connect_port;
    uint32_t send_bytes;    /* --send */
    uint8_t verify;         /* --verify: the bytes come back and are checked */
    uint8_t sack;           /* --sack: offer and use SACK (RFC 2018, RFC 6675) */
    uint32_t ping_addr;     /* --ping A.B.C.D */
    uint32_t ping_count;    /* --count (5) */
    uint16_t ping_size;     /* --size (56) */
    uint32_t ping_interval; /* --interval ms (1000) */
    const char *pcap;       /* --pcap FILE: every datagram in and out, raw IPv4 */
};

/* Fills *o from argv; returns 0, or 2 with the usage printed. */
int tun_parse_opts(int argc, char **argv, struct tun_opts *o);

#endif
