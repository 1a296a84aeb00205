#include "inet_chksum.h"

/* Bytes at even offsets are the high halves of the words, those at odd offsets the low
 * halves, so the sum of the words is 256 * (sum of the even bytes) + (sum of the odd
 * ones) (RFC 1071 2(A): the order of the additions does not matter). Each half is summed
 * in 16 bits over blocks of at most INET_SUM_BLOCK words (128 * 255 fits), which on an
 * 8-bit CPU costs a byte load and two adds per byte instead of a 32-bit add per word:
 * on the Uno, 6 cycles a byte instead of 14, a third of a millisecond for every full
 * datagram the echo firmware checks or answers. The result is the same sum. */
#define INET_SUM_BLOCK 128u

uint32_t inet_sum(uint32_t sum, const uint8_t *data, uint16_t len)
{
    while (len > 1) {
        uint16_t words = len / 2u < INET_SUM_BLOCK ? len / 2u : INET_SUM_BLOCK;
        const uint8_t *end = data + 2u * words;
        uint16_t high = 0, low = 0;
        while (data != end) {
            high += *data++;
            low += *data++;
        }
        sum += ((uint32_t)high << 8) + low;
        len = (uint16_t)(len - 2u * words);
    }
    if (len)
        sum += (uint32_t)*data << 8; /* the odd byte, padded with a zero (RFC 1071 4.1) */
    /* Fold early so a long run of chunks cannot overflow 32 bits. */
    return (sum & 0xFFFFu) + (sum >> 16);
}

uint16_t inet_fold(uint32_t sum)
{
    while (sum >> 16)
        sum = (sum & 0xFFFFu) + (sum >> 16);
    return (uint16_t)~sum;
}

uint16_t inet_chksum(const uint8_t *data, uint16_t len)
{
    return inet_fold(inet_sum(0, data, len));
}

uint32_t inet_pseudo_sum(uint32_t src, uint32_t dst, uint8_t proto, uint16_t len)
{
    uint32_t sum = 0;
    sum += src >> 16;
    sum += src & 0xFFFFu;
    sum += dst >> 16;
    sum += dst & 0xFFFFu;
    sum += proto;
    sum += len;
    return sum;
}
