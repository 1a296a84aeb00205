/* The classic pcap writer: bytes checked by hand against draft-ietf-opsawg-pcap, then a
 * file read back by tshark. */
#define _POSIX_C_SOURCE 200809L

#include "capture_check.h"
#include "pcap.h"
#include "stack_err.h"
#include "unit.h"

/* File Header and two Packet Records, derived by hand from sections 4 and 5. */
static void test_small_file_byte_exact(void)
{
    static const uint8_t expected[] = {
        /* Section 4, File Header, 24 bytes. */
        0xD4,
        0xC3,
        0xB2,
        0xA1, /* Magic 0xA1B2C3D4 little-endian: microseconds */
        0x02,
        0x00,
        0x04,
        0x00, /* Version 2.4 */
        0x00,
        0x00,
        0x00,
        0x00, /* Reserved1 */
        0x00,
        0x00,
        0x00,
        0x00, /* Reserved2 */
        0xFF,
        0xFF,
        0x00,
        0x00, /* SnapLen 65535 */
        0x65,
        0x00,
        0x00,
        0x00, /* LinkType 101 (RAW), no FCS information */
        /* Section 5, Packet Record: 5000000123 us = 5000 s (0x1388) + 123 us. */
        0x88,
        0x13,
        0x00,
        0x00, /* Timestamp (Seconds) */
        0x7B,
        0x00,
        0x00,
        0x00, /* Timestamp (Microseconds) */
        0x05,
        0x00,
        0x00,
        0x00, /* Captured Packet Length */
        0x05,
        0x00,
        0x00,
        0x00, /* Original Packet Length */
        0xA1,
        0xA2,
        0xA3,
        0xA4,
        0xA5, /* data, not padded */
        /* The next record follows at once: 999999 us = 0 s + 0xF423F us. */
        0x00,
        0x00,
        0x00,
        0x00,
        0x3F,
        0x42,
        0x0F,
        0x00,
        0x01,
        0x00,
        0x00,
        0x00,
        0x01,
        0x00,
        0x00,
        0x00,
        0xB1,
    };
    static const uint8_t data[] = { 0xA1, 0xA2, 0xA3, 0xA4, 0xA5 };
    static struct capture_mem m;
    struct pcap_writer w;

    memset(&m, 0, sizeof m);
    CHECK_EQ(pcap_begin(&w, capture_mem_write, &m, 65535, PCAP_LINKTYPE_RAW), ERR_OK);
    CHECK_EQ(m.len, 24);
    CHECK_EQ(pcap_packet(&w, 5000000123ull, data, 5, 5), ERR_OK);
    CHECK_EQ(pcap_packet(&w, 999999, (const uint8_t *)"\xB1", 1, 1), ERR_OK);
    CHECK_EQ(m.len, sizeof expected);
    CHECK_MEM(m.buf, expected, sizeof expected);
}

/* Section 5: Captured Packet Length is the smaller of the packet and the SnapLen. */
static void test_snaplen_truncates(void)
{
    static const uint8_t data[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
    static struct capture_mem m;
    struct pcap_writer w;

    memset(&m, 0, sizeof m);
    CHECK_EQ(pcap_begin(&w, capture_mem_write, &m, 6, PCAP_LINKTYPE_RAW), ERR_OK);
    CHECK_EQ(pcap_packet(&w, 0, data, 10, 10), ERR_OK);
    CHECK_EQ(m.len, 24 + 16 + 6);
    CHECK_EQ(m.buf[24 + 8], 6);   /* Captured Packet Length */
    CHECK_EQ(m.buf[24 + 12], 10); /* Original Packet Length */
    CHECK_MEM(m.buf + 40, data, 6);
}

static void test_rejects_bad_calls(void)
{
    static const uint8_t data[4] = { 0 };
    static struct capture_mem m;
    struct pcap_writer w;

    memset(&m, 0, sizeof m);
    CHECK_EQ(pcap_begin(&w, capture_mem_write, &m, 0, PCAP_LINKTYPE_RAW), ERR_ARG);
    CHECK_EQ(pcap_begin(&w, NULL, &m, 100, PCAP_LINKTYPE_RAW), ERR_ARG);
    CHECK_EQ(m.len, 0);
    CHECK_EQ(pcap_begin(&w, capture_mem_write, &m, 100, PCAP_LINKTYPE_RAW), ERR_OK);
    CHECK_EQ(pcap_packet(&w, 0, data, 4, 3), ERR_ARG); /* caplen > origlen */
    /* 2^32 s is past the 32-bit seconds field; one microsecond less is the last time. */
    CHECK_EQ(pcap_packet(&w, 4294967296000000ull, data, 4, 4), ERR_ARG);
    CHECK_EQ(m.len, 24);
    CHECK_EQ(pcap_packet(&w, 4294967295999999ull, data, 4, 4), ERR_OK);
    CHECK_EQ(m.len, 24 + 16 + 4);
}

#define T0       1700000000000000ull /* 2023-11-14 22:13:20 UTC, in microseconds */
#define SNAPLEN  100
#define N_FRAMES 5

/* The oracle: tshark reads every frame of a file of real datagrams, at the right
 * microsecond, with the right lengths and checksums, and finds nothing malformed. */
static void test_tshark_reads_every_frame(void)
{
    static const uint64_t times[N_FRAMES] = { T0, T0 + 1, T0 + 14930, T0 + 999999, T0 + 60000000 };
    static struct capture_mem m;
    static char out[8192];
    struct pcap_writer w;
    uint8_t ip[256];
    uint16_t lens[N_FRAMES];
    char path[256], line[256], want[256];
    unsigned i;

    CHECK(capture_have_tshark());
    memset(&m, 0, sizeof m);
    CHECK_EQ(pcap_begin(&w, capture_mem_write, &m, SNAPLEN, PCAP_LINKTYPE_RAW), ERR_OK);
    for (i = 0; i < N_FRAMES; i++) {
        /* Odd frames are TCP SYNs; even ones ICMP echoes of 0, 56 and 200 bytes (228 B,
         * cut to the snaplen). */
        uint16_t payload = (uint16_t)(i == 0 ? 0 : i == 2 ? 56 : 200);
        lens[i] = i % 2 ? capture_tcp_syn(ip, IP4(192, 168, 1, 2), IP4(192, 168, 1, 1),
                                          (uint16_t)(1024 + i), 80, 7u * i)
                        : capture_icmp_echo(ip, IP4(192, 168, 1, 2), IP4(192, 168, 1, 1), 1,
                                            (uint16_t)i, payload);
        CHECK_EQ(pcap_packet(&w, times[i], ip, lens[i], lens[i]), ERR_OK);
    }
    CHECK(!m.overflow);
    CHECK(capture_save(&m, "test.pcap", path, sizeof path));

    CHECK_EQ(capture_tshark(path, "-Y _ws.malformed -T fields -e frame.number", out, sizeof out),
             0);
    CHECK_EQ(strlen(out), 0); /* no malformed frame */
    CHECK_EQ(capture_tshark(path,
                            "-o ip.check_checksum:TRUE -T fields -E separator='|' "
                            "-e frame.time_epoch -e frame.len -e frame.cap_len "
                            "-e ip.checksum.status",
                            out, sizeof out),
             0);
    CHECK_EQ(capture_count_lines(out), N_FRAMES);
    for (i = 0; i < N_FRAMES; i++) {
        uint32_t cap = lens[i] < SNAPLEN ? lens[i] : SNAPLEN;
        CHECK(capture_line(out, i, line, sizeof line));
        snprintf(want, sizeof want, "%llu.%06llu000|%u|%u|1",
                 (unsigned long long)(times[i] / 1000000u),
                 (unsigned long long)(times[i] % 1000000u), (unsigned)lens[i], (unsigned)cap);
        if (strcmp(line, want) != 0) {
            printf("    frame %u: tshark says %s, expected %s\n", i + 1, line, want);
        }
        CHECK(strcmp(line, want) == 0);
    }
    CHECK_EQ(lens[4], 228);
    remove(path);
}

UNIT_MAIN(UNIT(test_small_file_byte_exact), UNIT(test_snaplen_truncates),
          UNIT(test_rejects_bad_calls), UNIT(test_tshark_reads_every_frame))
