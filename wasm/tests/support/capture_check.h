/* Helpers for the capture-file tests (test_pcapng.c, test_pcap.c): a memory sink for the
 * writers, builders of valid IPv4 datagrams to capture, and tshark as the oracle.
 *
 * A test file including this must define _POSIX_C_SOURCE (for popen, getpid) before any
 * include. Everything is static inline so a test may use any subset of it.
 */
#ifndef TEST_CAPTURE_CHECK_H
#define TEST_CAPTURE_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bytes.h"
#include "icmp.h"
#include "inet_chksum.h"
#include "ip.h"
#include "tcp.h"

#define CAPTURE_TSHARK "/usr/bin/tshark"

/* Collects what a writer emits. `calls` counts sink calls (writers emit in pieces). */
struct capture_mem {
    uint8_t buf[16384];
    uint32_t len;
    uint32_t calls;
    int overflow;
};

static inline void capture_mem_write(void *ctx, const uint8_t *p, uint32_t n)
{
    struct capture_mem *m = ctx;
    m->calls++;
    if (n > sizeof m->buf - m->len) {
        m->overflow = 1;
        return;
    }
    memcpy(m->buf + m->len, p, n);
    m->len += n;
}

/* A 20-byte IPv4 header (RFC 791 3.1) with a correct header checksum. */
static inline void capture_ip_header(uint8_t *ip, uint16_t total_len, uint16_t id, uint8_t proto,
                                     uint32_t src, uint32_t dst)
{
    memset(ip, 0, 20);
    ip[IP_OFF_VHL] = 0x45;
    wr16(ip + IP_OFF_LEN, total_len);
    wr16(ip + IP_OFF_ID, id);
    wr16(ip + IP_OFF_FRAG, 0x4000); /* DF */
    ip[IP_OFF_TTL] = 64;
    ip[IP_OFF_PROTO] = proto;
    wr32(ip + IP_OFF_SRC, src);
    wr32(ip + IP_OFF_DST, dst);
    wr16(ip + IP_OFF_CHKSUM, inet_chksum(ip, 20));
}

/* An ICMP echo request (RFC 792) with `payload` bytes of pattern; returns the datagram
 * length. */
static inline uint16_t capture_icmp_echo(uint8_t *ip, uint32_t src, uint32_t dst, uint16_t id,
                                         uint16_t seq, uint16_t payload)
{
    uint8_t *icmp = ip + 20;
    uint16_t icmp_len = (uint16_t)(8 + payload), i;
    capture_ip_header(ip, (uint16_t)(20 + icmp_len), seq, IP_PROTO_ICMP, src, dst);
    memset(icmp, 0, 8);
    icmp[ICMP_OFF_TYPE] = 8;
    wr16(icmp + ICMP_OFF_ID, id);
    wr16(icmp + ICMP_OFF_SEQ, seq);
    for (i = 0; i < payload; i++) {
        icmp[8 + i] = (uint8_t)(0x10 + i);
    }
    wr16(icmp + ICMP_OFF_CHKSUM, inet_chksum(icmp, icmp_len));
    return (uint16_t)(20 + icmp_len);
}

/* A TCP SYN with an MSS option (RFC 9293 3.1, 3.2), checksum over the pseudo-header;
 * returns the datagram length (44). */
static inline uint16_t capture_tcp_syn(uint8_t *ip, uint32_t src, uint32_t dst, uint16_t sport,
                                       uint16_t dport, uint32_t iss)
{
    uint8_t *tcp = ip + 20;
    capture_ip_header(ip, 44, (uint16_t)iss, IP_PROTO_TCP, src, dst);
    memset(tcp, 0, 24);
    wr16(tcp + TCP_OFF_SRC_PORT, sport);
    wr16(tcp + TCP_OFF_DST_PORT, dport);
    wr32(tcp + TCP_OFF_SEQ, iss);
    tcp[TCP_OFF_DATAOFF] = 6 << 4; /* 24 bytes: header and the MSS option */
    tcp[TCP_OFF_FLAGS] = 0x02;     /* SYN */
    wr16(tcp + TCP_OFF_WND, 4096);
    tcp[20] = 2; /* kind MSS */
    tcp[21] = 4;
    wr16(tcp + 22, 536);
    wr16(tcp + TCP_OFF_CHKSUM,
         inet_fold(inet_sum(inet_pseudo_sum(src, dst, IP_PROTO_TCP, 24), tcp, 24)));
    return 44;
}

/* Whether tshark is installed; says what to do when it is not. The capture tests need it
 * as their oracle and fail without it (scripts/setup.sh installs it). */
static inline int capture_have_tshark(void)
{
    if (access(CAPTURE_TSHARK, X_OK) == 0) {
        return 1;
    }
    printf("    tshark is missing (%s): the capture tests need it; run scripts/setup.sh\n",
           CAPTURE_TSHARK);
    return 0;
}

/* Writes `m` to a temporary file named after `tag`; puts its path in `path`. */
static inline int capture_save(const struct capture_mem *m, const char *tag, char *path,
                               size_t path_size)
{
    FILE *f;
    size_t n;
    snprintf(path, path_size, "/tmp/stackscope-%s-%ld", tag, (long)getpid());
    f = fopen(path, "wb");
    if (f == NULL) {
        return 0;
    }
    n = fwrite(m->buf, 1, m->len, f);
    return fclose(f) == 0 && n == m->len;
}

/* Runs `tshark -r path <args>` and puts its standard output, NUL-terminated, in `out`.
 * Returns tshark's exit status (0 on success), or -1 if it could not run. Its standard
 * error (the "running as root" notice, or the reason for a failure) is printed only on a
 * failure. */
static inline int capture_tshark(const char *path, const char *args, char *out, size_t size)
{
    char cmd[1024], err_path[300];
    FILE *p;
    size_t n = 0;
    int status;
    snprintf(err_path, sizeof err_path, "%s.err", path);
    snprintf(cmd, sizeof cmd, "%s -r '%s' %s 2>'%s'", CAPTURE_TSHARK, path, args, err_path);
    p = popen(cmd, "r");
    if (p == NULL) {
        return -1;
    }
    while (n + 1 < size) {
        size_t got = fread(out + n, 1, size - 1 - n, p);
        if (got == 0) {
            break;
        }
        n += got;
    }
    out[n] = '\0';
    status = pclose(p);
    if (status != 0) {
        FILE *e = fopen(err_path, "r");
        printf("    %s exited with %d\n", cmd, status);
        if (e != NULL) {
            char line[256];
            while (fgets(line, sizeof line, e) != NULL) {
                printf("    tshark: %s", line);
            }
            fclose(e);
        }
    }
    remove(err_path);
    return status;
}

/* The n-th line (from 0) of `text`, without its newline, into `line`; 0 if there is none. */
static inline int capture_line(const char *text, unsigned n, char *line, size_t size)
{
    const char *end;
    size_t len;
    while (n > 0) {
        text = strchr(text, '\n');
        if (text == NULL) {
            return 0;
        }
        text++;
        n--;
    }
    if (*text == '\0') {
        return 0;
    }
    end = strchr(text, '\n');
    len = end != NULL ? (size_t)(end - text) : strlen(text);
    if (len >= size) {
        len = size - 1;
    }
    memcpy(line, text, len);
    line[len] = '\0';
    return 1;
}

/* Number of lines in `text`. */
static inline unsigned capture_count_lines(const char *text)
{
    unsigned n = 0;
    for (; *text != '\0'; text++) {
        n += *text == '\n';
    }
    return n;
}

#endif
