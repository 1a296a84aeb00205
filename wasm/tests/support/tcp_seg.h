/* Hand-built TCP segments for the TCP tests, and a parser for what the stack sends.
 *
 * tseg_build() writes an IPv4 + TCP datagram with correct header and TCP checksums and the
 * options asked for (MSS, timestamps, or raw bytes); tseg_parse() reads one back, checking
 * both checksums independently of the stack (RFC 791 3.1, RFC 9293 3.1). */
#ifndef TCP_SEG_H
#define TCP_SEG_H

#include <stdint.h>

#include "stack_time.h"

struct tseg_spec {
    uint32_t src, dst;
    uint16_t sport, dport;
    uint32_t seq, ack;
    uint8_t flags;
    uint16_t wnd;
    const uint8_t *data;
    uint16_t len;
    uint16_t mss; /* 0: no MSS option */
    uint8_t ts;   /* 1: a timestamps option (NOP NOP TS) */
    uint32_t tsval, tsecr;
    const uint8_t *raw_opts; /* appended after the above, padded with NOPs... as given */
    uint8_t raw_opts_len;    /* must make the option area a multiple of 4 with the rest */
};

/* Writes the datagram into buf (at least 60 + len bytes); returns its length. */
uint16_t tseg_build(uint8_t *buf, const struct tseg_spec *s);

struct tseg {
    stack_time_t t; /* when the stack sent it (set by the capture) */
    uint32_t src, dst;
    uint16_t sport, dport;
    uint32_t seq, ack;
    uint8_t flags;
    uint16_t wnd;
    uint16_t len;        /* payload bytes */
    const uint8_t *data; /* points into the captured datagram */
    uint16_t hlen;       /* TCP header length with options */
    uint8_t has_mss, has_ts;
    uint16_t mss;
    uint32_t tsval, tsecr;
    uint8_t ip_ok, tcp_ok; /* checksums verified */
    uint8_t df;
    uint16_t ip_len;
};

/* Parses an IPv4 datagram carrying TCP; returns 0, or -1 if it is not one. */
int tseg_parse(const uint8_t *dgram, uint16_t len, struct tseg *out);

/* "SA" for SYN+ACK, "FPA" ..., for messages. */
const char *tseg_flags_str(uint8_t flags, char *buf);

#endif
