/* The Internet checksum against RFC 1071's worked example and a real IPv4 header. */
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

/* The sum by words, as RFC 1071 defines it, over every length up to two of the blocks
 * inet_sum() adds in 16 bits and beyond, of bytes that carry in every position (all 0xff
 * and a pseudo-random pattern), and as running sums split at odd places. */
static uint32_t sum_by_words(uint32_t sum, const uint8_t *d, uint16_t len)
{
    uint16_t i;
    for (i = 0; i + 1 < len; i += 2)
        sum += ((uint32_t)d[i] << 8) | d[i + 1];
    if (len & 1)
        sum += (uint32_t)d[len - 1] << 8;
    while (sum >> 16)
        sum = (sum & 0xFFFFu) + (sum >> 16);
    return sum;
}

static uint32_t folded(uint32_t sum)
{
    while (sum >> 16)
        sum = (sum & 0xFFFFu) + (sum >> 16);
    return sum;
}

static void test_sum_equals_word_by_word_sum(void)
{
    static uint8_t ones[600], mixed[600];
    uint32_t x = 12345;
    uint16_t len, i;
    for (i = 0; i < sizeof mixed; i++) {
        ones[i] = 0xff;
        x = x * 1103515245u + 12345u;
        mixed[i] = (uint8_t)(x >> 16);
    }
    for (len = 0; len <= sizeof ones; len++) {
        CHECK_EQ(folded(inet_sum(0, ones, len)), sum_by_words(0, ones, len));
        CHECK_EQ(folded(inet_sum(0xfffe, mixed, len)), sum_by_words(0xfffe, mixed, len));
    }
    /* a datagram summed in two chunks, the first of even length */
    CHECK_EQ(folded(inet_sum(inet_sum(0, mixed, 258), mixed + 258, 319)), sum_by_words(0, mixed, 577));
}

UNIT_MAIN(UNIT(test_rfc1071_example), UNIT(test_sum_equals_word_by_word_sum), UNIT(test_real_ipv4_header_verifies_to_zero),
          UNIT(test_odd_length_pads_with_zero), UNIT(test_pseudo_header_sum))
