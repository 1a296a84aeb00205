/* The Internet checksum against RFC 1071's worked example and a real IPv4 header. */
#include <string.h>

#include "bytes.h"
#include "inet_chksum.h"
#include "unit.h"

static void test_rfc1071_example(void)
{
    /* RFC 1071 section 3: these bytes sum to ddf2 (one's complement), so the checksum is
     * its complement 220d. */
    static const uint8_t data[] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };
    CHECK_EQ(inet_chksum(data, sizeof data), 0x220d);
}

static void test_real_ipv4_header_verifies_to_zero(void)
{
    /* A header captured from Linux ping 10.0.7.2 (84 bytes, TTL 64, ICMP). */
    uint8_t hdr[20] = { 0x45, 0x00, 0x00, 0x54, 0x3c, 0x6e, 0x40, 0x00, 0x40, 0x01,
                        0x00, 0x00, 0x0a, 0x00, 0x07, 0x01, 0x0a, 0x00, 0x07, 0x02 };
    uint16_t c = inet_chksum(hdr, sizeof hdr);
    wr16(hdr + 10, c);
    CHECK_EQ(c, 0xdc38); /* computed independently in Python */
    CHECK_EQ(inet_chksum(hdr, sizeof hdr), 0);
}

static void test_odd_length_pads_with_zero(void)
{
    static const uint8_t odd[] = { 0x12, 0x34, 0x56 };
    static const uint8_t even[] = { 0x12, 0x34, 0x56, 0x00 };
    CHECK_EQ(inet_chksum(odd, 3), inet_chksum(even, 4));
}

static void test_pseudo_header_sum(void)
{
    /* Pseudo-header of 10.0.7.1 -> 10.0.7.2, TCP, 20 bytes, summed by hand:
     * 0x0a00 + 0x0701 + 0x0a00 + 0x0702 + 0x0006 + 0x0014 = 0x221d. */
    CHECK_EQ(inet_fold(inet_pseudo_sum(IP4(10, 0, 7, 1), IP4(10, 0, 7, 2), 6, 20)),
             (uint16_t)~0x221d);
}

/* RFC 1071's definition word by word, the way inet_sum was first written: the reference
 * for the word-at-a-time sum. */
static uint16_t ref_chksum(uint32_t sum, const uint8_t *data, uint32_t len)
{
    uint32_t i;
    for (i = 0; i + 1 < len; i += 2) {
        sum += (uint32_t)data[i] << 8 | data[i + 1];
        sum = (sum & 0xFFFFu) + (sum >> 16);
    }
    if (len & 1)
        sum += (uint32_t)data[len - 1] << 8;
    while (sum >> 16)
        sum = (sum & 0xFFFFu) + (sum >> 16);
    return (uint16_t)~sum;
}

/* Both ways of summing (inet_chksum.h), over every length from 0 to 300 at every alignment of eight, over bytes that carry often,
 * started from a pseudo-header sum and in two chunks; then the longest buffer of 0xFF,
 * whose every 64-bit addition carries. */
static void test_sum_matches_the_definition(void)
{
    static uint8_t buf[65535];
    uint32_t i, len, at, x = 12345;
    for (i = 0; i < 308; i++) {
        x = x * 1103515245u + 12345u;
        buf[i] = (uint8_t)(i % 7 == 0 ? 0xFF : x >> 24);
    }
    for (at = 0; at < 8; at++)
        for (len = 0; len <= 300; len++) {
            uint32_t half = len / 2 & ~1u,
                     pseudo = inet_pseudo_sum(0xC0A80001u, 0x0A000002u, 6, (uint16_t)len);
            CHECK_EQ(inet_chksum(buf + at, (uint16_t)len), ref_chksum(0, buf + at, len));
            CHECK_EQ(inet_fold(inet_sum_words32(inet_sum_words32(pseudo, buf + at, (uint16_t)half),
                                                buf + at + half, (uint16_t)(len - half))),
                     ref_chksum(pseudo, buf + at, len));
            CHECK_EQ(inet_fold(inet_sum_bytes16(inet_sum_bytes16(pseudo, buf + at, (uint16_t)half),
                                                buf + at + half, (uint16_t)(len - half))),
                     ref_chksum(pseudo, buf + at, len));
        }
    memset(buf, 0xFF, sizeof buf);
    CHECK_EQ(inet_chksum(buf, 65535), ref_chksum(0, buf, 65535));
    CHECK_EQ(inet_fold(inet_sum_words32(0, buf, 65535)), ref_chksum(0, buf, 65535));
    CHECK_EQ(inet_fold(inet_sum_bytes16(0, buf, 65535)), ref_chksum(0, buf, 65535));
    CHECK_EQ(inet_chksum(buf, 65534), 0); /* all ones: the sum is 0xFFFF */
}

UNIT_MAIN(UNIT(test_rfc1071_example), UNIT(test_real_ipv4_header_verifies_to_zero),
          UNIT(test_odd_length_pads_with_zero), UNIT(test_pseudo_header_sum),
          UNIT(test_sum_matches_the_definition))
