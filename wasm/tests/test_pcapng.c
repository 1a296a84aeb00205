/* The pcapng writer: bytes checked by hand against draft-ietf-opsawg-pcapng, then files
 * with several interfaces read back by tshark, the reference reader. */
#define _POSIX_C_SOURCE 200809L

#include "capture_check.h"
#include "pcapng.h"
#include "stack_err.h"
#include "unit.h"

/* SHB, IDB and EPB of a one-packet file, every byte derived from the draft by hand. */
static void test_small_file_byte_exact(void)
{
    static const uint8_t expected[] = {
        /* 4.1 Section Header Block, 48 bytes: 24 fixed + shb_userappl "stackscope" (4 +
         * 10 padded to 12) + opt_endofopt (4) + trailing length (4). */
        0x0A,
        0x0D,
        0x0D,
        0x0A, /* Block Type */
        0x30,
        0x00,
        0x00,
        0x00, /* Block Total Length = 48 */
        0x4D,
        0x3C,
        0x2B,
        0x1A, /* Byte-Order Magic, little-endian */
        0x01,
        0x00,
        0x00,
        0x00, /* Major 1, Minor 0 */
        0xFF,
        0xFF,
        0xFF,
        0xFF,
        0xFF,
        0xFF,
        0xFF,
        0xFF, /* Section Length -1 */
        0x04,
        0x00,
        0x0A,
        0x00, /* shb_userappl (4), length 10 */
        's',
        't',
        'a',
        'c',
        'k',
        's',
        'c',
        'o',
        'p',
        'e',
        0x00,
        0x00, /* 2 padding bytes */
        0x00,
        0x00,
        0x00,
        0x00, /* opt_endofopt */
        0x30,
        0x00,
        0x00,
        0x00, /* Block Total Length again */
        /* 4.2 Interface Description Block, 52 bytes: 16 fixed + if_name "serial0" (4 + 8)
         * + if_description "SLIP" (4 + 4) + if_tsresol (4 + 4) + opt_endofopt (4) + 4. */
        0x01,
        0x00,
        0x00,
        0x00, /* Block Type 1 */
        0x34,
        0x00,
        0x00,
        0x00, /* Block Total Length = 52 */
        0x65,
        0x00,
        0x00,
        0x00, /* LinkType 101 (RAW), Reserved 0 */
        0xDC,
        0x05,
        0x00,
        0x00, /* SnapLen 1500 = 0x5DC */
        0x02,
        0x00,
        0x07,
        0x00,
        's',
        'e',
        'r',
        'i',
        'a',
        'l',
        '0',
        0x00, /* if_name */
        0x03,
        0x00,
        0x04,
        0x00,
        'S',
        'L',
        'I',
        'P', /* if_description, no padding */
        0x09,
        0x00,
        0x01,
        0x00,
        0x06,
        0x00,
        0x00,
        0x00, /* if_tsresol = 6: 10^-6 s */
        0x00,
        0x00,
        0x00,
        0x00, /* opt_endofopt */
        0x34,
        0x00,
        0x00,
        0x00,
        /* 4.3 Enhanced Packet Block, 64 bytes: 28 fixed + 5 data bytes padded to 8 +
         * opt_comment "cwnd=1" (4 + 6 padded to 8) + epb_flags (4 + 4) + opt_endofopt (4)
         * + 4. Timestamp 5000000123 us = 0x1_2A05F27B: high word 1, low word 0x2A05F27B
         * (5000000123 - 2^32 = 705032827 = 0x2A05F27B). */
        0x06,
        0x00,
        0x00,
        0x00, /* Block Type 6 */
        0x40,
        0x00,
        0x00,
        0x00, /* Block Total Length = 64 */
        0x00,
        0x00,
        0x00,
        0x00, /* Interface ID 0 */
        0x01,
        0x00,
        0x00,
        0x00, /* Timestamp (High) */
        0x7B,
        0xF2,
        0x05,
        0x2A, /* Timestamp (Low) */
        0x05,
        0x00,
        0x00,
        0x00, /* Captured Packet Length 5 */
        0x05,
        0x00,
        0x00,
        0x00, /* Original Packet Length 5 */
        0xA1,
        0xA2,
        0xA3,
        0xA4,
        0xA5,
        0x00,
        0x00,
        0x00, /* data, 3 padding bytes */
        0x01,
        0x00,
        0x06,
        0x00,
        'c',
        'w',
        'n',
        'd',
        '=',
        '1',
        0x00,
        0x00, /* opt_comment */
        0x02,
        0x00,
        0x04,
        0x00,
        0x02,
        0x00,
        0x00,
        0x00, /* epb_flags: bits 0-1 = 10, out */
        0x00,
        0x00,
        0x00,
        0x00, /* opt_endofopt */
        0x40,
        0x00,
        0x00,
        0x00,
    };
    static const uint8_t data[] = { 0xA1, 0xA2, 0xA3, 0xA4, 0xA5 };
    static struct capture_mem m;
    struct pcapng_writer w;

    memset(&m, 0, sizeof m);
    CHECK_EQ(pcapng_begin(&w, capture_mem_write, &m, "stackscope"), ERR_OK);
    CHECK_EQ(pcapng_add_interface(&w, "serial0", "SLIP", PCAPNG_LINKTYPE_RAW, 1500), 0);
    CHECK_EQ(pcapng_packet(&w, 0, 5000000123ull, data, 5, 5, PCAPNG_DIR_OUT, "cwnd=1"), ERR_OK);
    CHECK(!m.overflow);
    CHECK_EQ(m.len, sizeof expected);
    CHECK_EQ(48 + 52 + 64, sizeof expected);
    CHECK_MEM(m.buf, expected, sizeof expected);
}

/* No options at all: no option list, so no opt_endofopt either (3.5); only the header,
 * the padded data and the trailing length. */
static void test_packet_without_options(void)
{
    static const uint8_t epb[] = {
        0x06, 0x00, 0x00, 0x00, 0x24, 0x00, 0x00, 0x00, /* type 6, length 36 = 28 + 4 + 4 */
        0x01, 0x00, 0x00, 0x00,                         /* Interface ID 1 */
        0x00, 0x00, 0x00, 0x00, 0x2A, 0x00, 0x00, 0x00, /* timestamp 42 us */
        0x04, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, /* 4 of 4 bytes */
        0x45, 0x00, 0x00, 0x04,                         /* data, a multiple of 4: no pad */
        0x24, 0x00, 0x00, 0x00,
    };
    static const uint8_t data[] = { 0x45, 0x00, 0x00, 0x04 };
    static struct capture_mem m;
    struct pcapng_writer w;
    uint32_t before;

    memset(&m, 0, sizeof m);
    CHECK_EQ(pcapng_begin(&w, capture_mem_write, &m, NULL), ERR_OK);
    CHECK_EQ(m.len, 28); /* SHB without options: 24 fixed + 4 */
    CHECK_EQ(pcapng_add_interface(&w, NULL, NULL, PCAPNG_LINKTYPE_RAW, 0), 0);
    CHECK_EQ(pcapng_add_interface(&w, "b", NULL, PCAPNG_LINKTYPE_RAW, 0), 1);
    before = m.len;
    CHECK_EQ(pcapng_packet(&w, 1, 42, data, 4, 4, PCAPNG_DIR_UNKNOWN, NULL), ERR_OK);
    CHECK_EQ(m.len - before, sizeof epb);
    CHECK_MEM(m.buf + before, epb, sizeof epb);
}

/* 4.3: Captured Packet Length is the smaller of the packet and the SnapLen. */
static void test_snaplen_truncates(void)
{
    static const uint8_t data[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
    static struct capture_mem m;
    struct pcapng_writer w;
    uint32_t before;
    const uint8_t *epb;

    memset(&m, 0, sizeof m);
    CHECK_EQ(pcapng_begin(&w, capture_mem_write, &m, NULL), ERR_OK);
    CHECK_EQ(pcapng_add_interface(&w, NULL, NULL, PCAPNG_LINKTYPE_RAW, 6), 0);
    before = m.len;
    CHECK_EQ(pcapng_packet(&w, 0, 0, data, 10, 12, PCAPNG_DIR_UNKNOWN, NULL), ERR_OK);
    epb = m.buf + before;
    CHECK_EQ(m.len - before, 28 + 8 + 4); /* 6 bytes padded to 8 */
    CHECK_EQ(epb[20], 6);                 /* Captured Packet Length */
    CHECK_EQ(epb[24], 12);                /* Original Packet Length */
    CHECK_MEM(epb + 28, data, 6);
    CHECK_EQ(epb[34], 0);
    CHECK_EQ(epb[35], 0);
}

static void test_rejects_bad_calls(void)
{
    static const uint8_t data[4] = { 0 };
    static struct capture_mem m;
    static char long_comment[70000];
    struct pcapng_writer w;
    uint32_t i, len;

    memset(&m, 0, sizeof m);
    CHECK_EQ(pcapng_begin(&w, NULL, &m, NULL), ERR_ARG);
    CHECK_EQ(pcapng_begin(&w, capture_mem_write, &m, NULL), ERR_OK);
    CHECK_EQ(pcapng_packet(&w, 0, 0, data, 4, 4, 0, NULL), ERR_ARG); /* no interface yet */
    CHECK_EQ(pcapng_add_interface(&w, "a", NULL, PCAPNG_LINKTYPE_RAW, 0), 0);
    len = m.len;
    CHECK_EQ(pcapng_packet(&w, 1, 0, data, 4, 4, 0, NULL), ERR_ARG); /* unknown iface */
    CHECK_EQ(pcapng_packet(&w, 0, 0, data, 4, 3, 0, NULL), ERR_ARG); /* caplen > origlen */
    CHECK_EQ(pcapng_packet(&w, 0, 0, data, 4, 4, 3, NULL), ERR_ARG); /* direction */
    memset(long_comment, 'x', sizeof long_comment - 1);
    CHECK_EQ(pcapng_packet(&w, 0, 0, data, 4, 4, 0, long_comment), ERR_ARG);
    CHECK_EQ(m.len, len); /* the rejected packets wrote nothing */
    CHECK_EQ(w.n_packets, 0);
    for (i = 1; i < PCAPNG_MAX_INTERFACES; i++) {
        CHECK_EQ(pcapng_add_interface(&w, NULL, NULL, PCAPNG_LINKTYPE_RAW, 0), (int)i);
    }
    CHECK_EQ(pcapng_add_interface(&w, NULL, NULL, PCAPNG_LINKTYPE_RAW, 0), ERR_MEM);
    CHECK_EQ(m.len - len, (PCAPNG_MAX_INTERFACES - 1) * (16 + 8 + 4 + 4));
}

/* One frame of the tshark file: where and when it was seen, and what tshark must say. */
struct frame_case {
    uint32_t iface;
    uint64_t t_us;
    int kind; /* 0 ICMP echo with `size` payload bytes, 1 TCP SYN */
    uint16_t size;
    int direction;
    const char *comment;
};

#define T0 1700000000000000ull /* 2023-11-14 22:13:20 UTC, in microseconds */

static const char *const iface_names[] = { "serial0", "nfc0", "eth0" };
static const uint32_t iface_snaplens[] = { 1500, 1500, 64 };

static const struct frame_case frames[] = {
    { 0, T0, 0, 56, PCAPNG_DIR_OUT,
      "cwnd=4096 ssthresh=65535 rto=1000ms srtt=12.3ms cause=RTO expired" },
    { 1, T0 + 14930, 0, 56, PCAPNG_DIR_IN, NULL },
    { 0, T0 + 1000001, 1, 0, PCAPNG_DIR_OUT, "state=SYN_SENT" },
    /* interface 2 is added here, after packets (3.4, Figure 6) */
    { 2, T0 + 1000002, 1, 0, PCAPNG_DIR_UNKNOWN, "bridge: forwarded after 1 \xc2\xb5s" },
    { 1, T0 + 2000003, 0, 1, PCAPNG_DIR_IN, "x" },
    { 2, T0 + 2999999, 0, 100, PCAPNG_DIR_OUT, NULL }, /* 128 B, eth0 keeps 64 */
    { 0, 4294967296ull + 7, 0, 0, PCAPNG_DIR_OUT, "before the others, high word 1" },
};
#define N_FRAMES (sizeof frames / sizeof frames[0])

static uint16_t build_frame(uint8_t *ip, const struct frame_case *f, unsigned i)
{
    if (f->kind == 1) {
        return capture_tcp_syn(ip, IP4(10, 0, 0, 1), IP4(10, 0, 0, 2), (uint16_t)(40000 + i), 7,
                               1000u * i);
    }
    return capture_icmp_echo(ip, IP4(10, 0, 0, 1), IP4(10, 0, 0, 2), 0x77, (uint16_t)i, f->size);
}

/* Writes `frames` to a pcapng file with three interfaces; eth0 (snaplen 64) comes after
 * the first packets. */
static int write_case_file(struct capture_mem *m, uint16_t *lens)
{
    struct pcapng_writer w;
    uint8_t ip[256];
    unsigned i;
    if (pcapng_begin(&w, capture_mem_write, m, "stackscope") != ERR_OK ||
        pcapng_add_interface(&w, iface_names[0], "SLIP 57600 8N1", PCAPNG_LINKTYPE_RAW,
                             iface_snaplens[0]) != 0 ||
        pcapng_add_interface(&w, iface_names[1], "NFC 212 kbps", PCAPNG_LINKTYPE_RAW,
                             iface_snaplens[1]) != 1) {
        return 0;
    }
    for (i = 0; i < N_FRAMES; i++) {
        if (i == 3 && pcapng_add_interface(&w, iface_names[2], NULL, PCAPNG_LINKTYPE_RAW,
                                           iface_snaplens[2]) != 2) {
            return 0;
        }
        lens[i] = build_frame(ip, &frames[i], i);
        if (pcapng_packet(&w, frames[i].iface, frames[i].t_us, ip, lens[i], lens[i],
                          frames[i].direction, frames[i].comment) != ERR_OK) {
            return 0;
        }
    }
    return !m->overflow;
}

/* What tshark must print for frame i with the fields of test_tshark_reads_every_frame:
 * interface id and name, time (tshark 4.0 prints epoch seconds with 9 decimals), length on
 * the wire and captured, comment, epb_flags direction, and the IP header and ICMP / TCP
 * checksum verdicts (1 = good; 2 = not verified, for the ICMP message cut by the snaplen). */
static void expected_line(unsigned i, const uint16_t *lens, char *out, size_t size)
{
    const struct frame_case *f = &frames[i];
    uint32_t cap = lens[i] < iface_snaplens[f->iface] ? lens[i] : iface_snaplens[f->iface];
    const char *dir = f->direction == PCAPNG_DIR_IN    ? "0x00000001"
                      : f->direction == PCAPNG_DIR_OUT ? "0x00000002"
                                                       : "";
    const char *l4 = f->kind == 1 ? "|1" : cap < lens[i] ? "2|" : "1|";
    snprintf(out, size, "%u|%s|%llu.%06llu000|%u|%u|%s|%s|1|%s", (unsigned)f->iface,
             iface_names[f->iface], (unsigned long long)(f->t_us / 1000000u),
             (unsigned long long)(f->t_us % 1000000u), (unsigned)lens[i], (unsigned)cap,
             f->comment != NULL ? f->comment : "", dir, l4);
}

#define TSHARK_FIELDS                                                                  \
    "-o ip.check_checksum:TRUE -o tcp.check_checksum:TRUE -T fields -E separator='|' " \
    "-e frame.interface_id -e frame.interface_name -e frame.time_epoch -e frame.len "  \
    "-e frame.cap_len -e frame.comment -e frame.packet_flags_direction "               \
    "-e ip.checksum.status -e icmp.checksum.status -e tcp.checksum.status"

/* The oracle: tshark reads every frame, on the right interface, at the right microsecond,
 * with its comment and direction, and finds nothing malformed. */
static void test_tshark_reads_every_frame(void)
{
    static struct capture_mem m;
    static char out[8192];
    uint16_t lens[N_FRAMES];
    char path[256], line[512], want[512];
    unsigned i;

    CHECK(capture_have_tshark());
    memset(&m, 0, sizeof m);
    CHECK(write_case_file(&m, lens));
    CHECK(capture_save(&m, "test.pcapng", path, sizeof path));

    CHECK_EQ(capture_tshark(path, "-T fields -e frame.number", out, sizeof out), 0);
    CHECK_EQ(capture_count_lines(out), N_FRAMES);
    CHECK_EQ(capture_tshark(path, "-Y _ws.malformed -T fields -e frame.number", out, sizeof out),
             0);
    CHECK_EQ(strlen(out), 0); /* no malformed frame */

    CHECK_EQ(capture_tshark(path, TSHARK_FIELDS, out, sizeof out), 0);
    CHECK_EQ(capture_count_lines(out), N_FRAMES);
    for (i = 0; i < N_FRAMES; i++) {
        CHECK(capture_line(out, i, line, sizeof line));
        expected_line(i, lens, want, sizeof want);
        if (strcmp(line, want) != 0) {
            printf("    frame %u: tshark says\n      %s\n    expected\n      %s\n", i + 1, line,
                   want);
        }
        CHECK(strcmp(line, want) == 0);
    }
    remove(path);
}

/* The file-level view: tshark's capinfos sees the application, the three interfaces and
 * their microsecond resolution. */
static void test_capinfos_sees_section_and_interfaces(void)
{
    static struct capture_mem m;
    static char out[8192];
    uint16_t lens[N_FRAMES];
    char path[256], cmd[400];
    FILE *p;
    size_t n;

    CHECK(capture_have_tshark());
    memset(&m, 0, sizeof m);
    CHECK(write_case_file(&m, lens));
    CHECK(capture_save(&m, "capinfos.pcapng", path, sizeof path));
    if (access("/usr/bin/capinfos", X_OK) != 0) {
        printf("    capinfos (installed with tshark) is missing: run scripts/setup.sh\n");
    }
    CHECK(access("/usr/bin/capinfos", X_OK) == 0);
    snprintf(cmd, sizeof cmd, "/usr/bin/capinfos '%s' 2>/dev/null", path);
    p = popen(cmd, "r");
    CHECK(p != NULL);
    n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    CHECK_EQ(pclose(p), 0);
    remove(path);
    CHECK(strstr(out, "File type:           Wireshark/... - pcapng") != NULL);
    CHECK(strstr(out, "Capture application: stackscope") != NULL);
    CHECK(strstr(out, "Number of interfaces in file: 3") != NULL);
    CHECK(strstr(out, "Description = SLIP 57600 8N1") != NULL);
    CHECK(strstr(out, "Name = eth0") != NULL);
    CHECK(strstr(out, "Time ticks per second = 1000000") != NULL);
    CHECK(strstr(out, "Number of packets:   7") != NULL);
}

UNIT_MAIN(UNIT(test_small_file_byte_exact), UNIT(test_packet_without_options),
          UNIT(test_snaplen_truncates), UNIT(test_rejects_bad_calls),
          UNIT(test_tshark_reads_every_frame), UNIT(test_capinfos_sees_section_and_interfaces))
