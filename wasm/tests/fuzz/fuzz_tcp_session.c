/* libFuzzer target: a multi-packet TCP session against the echo and discard listeners of
 * the full TCP, then the same session against the TCP responder (tcp_responder.h), which
 * must answer each datagram with one segment at most and send nothing on its own.
 *
 * The input is a sequence of records:
 *   byte 0     flags: bit 0 acknowledge the host's last segment (the ack field is set to
 *              the end of the last TCP segment the host sent), bit 1 aim at that
 *              segment's connection (ports swapped into place)
 *   byte 1     time advance before this packet, in units of 8 ms (0..2 s)
 *   bytes 2-3  length N of the datagram (big-endian)
 *   N bytes    an IPv4 datagram (addresses are forced to 10.0.7.1 -> 10.0.7.2)
 * The helpers let the fuzzer get past the handshake without guessing the host's ISS, and
 * time advances let RTO, delayed-ACK, persist and TIME_WAIT timers fire in between.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "fuzz_host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void patch(struct fuzz_host *f, uint8_t flags, uint8_t *d, uint16_t len)
{
    uint16_t hlen;
    uint8_t *t;
    if (len < IP_HLEN)
        return;
    wr32(d + IP_OFF_SRC, IP4(10, 0, 7, 1));
    wr32(d + IP_OFF_DST, IP4(10, 0, 7, 2));
    hlen = (uint16_t)((d[IP_OFF_VHL] & 0x0F) * 4);
    if (d[IP_OFF_PROTO] != IP_PROTO_TCP || hlen < IP_HLEN || len < hlen + TCP_HLEN)
        return;
    t = d + hlen;
    if (flags & 1)
        wr32(t + TCP_OFF_ACK, f->last_seq_end);
    if ((flags & 2) && f->last_sport) {
        wr16(t + TCP_OFF_SRC_PORT, f->last_dport);
        wr16(t + TCP_OFF_DST_PORT, f->last_sport);
    }
}

static void session(const uint8_t *data, size_t size, int responder)
{
    static struct fuzz_host f;
    uint8_t dgram[2048];
    stack_time_t now = 1000;
    size_t pos = 0;
    uint32_t before, tcp_before;

    fuzz_host_start(&f, now, responder);
    while (pos + 4 <= size) {
        uint8_t flags = data[pos];
        uint32_t advance = (uint32_t)data[pos + 1] * 8000u;
        uint16_t len = rd16(data + pos + 2);
        pos += 4;
        if (len > size - pos)
            len = (uint16_t)(size - pos);
        if (len > sizeof dgram)
            len = sizeof dgram;
        memcpy(dgram, data + pos, len);
        pos += len;
        now += advance;
        before = f.sent;
        host_poll(&f.h, now);
        fuzz_host_apps(&f);
        if (responder && f.sent != before)
            abort(); /* the responder has no timers */
        patch(&f, flags, dgram, len);
        tcp_before = f.tcp_sent;
        host_input(&f.h, 0, dgram, len, now);
        fuzz_host_apps(&f);
        if (responder && f.tcp_sent > tcp_before + 1)
            abort(); /* one answer at most */
    }
    /* Run the connections' timers to the end: retransmissions, give-up, TIME_WAIT. */
    for (pos = 0; pos < 40; pos++) {
        now += 5u * 1000000u;
        host_poll(&f.h, now);
        fuzz_host_apps(&f);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    session(data, size, 0);
    session(data, size, 1);
    return 0;
}
