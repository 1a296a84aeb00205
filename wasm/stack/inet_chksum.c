#include "inet_chksum.h"

#include <limits.h>

/* The data's bytes four at a time, as a little-endian 32-bit word: one load where the
 * machine is little-endian (x86, wasm), which compilers see from this form. */
static inline uint32_t inet_rd32le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* RFC 1071 section 2 (B) and (C): the one's complement sum may be taken in either byte
 * order and over wider words, folded at the end (2^32 - 1 is a multiple of 2^16 - 1). So
 * the bulk of the data is summed as little-endian 32-bit words, each two byte-swapped
 * 16-bit words; folded to 16 bits that is the sum of the byte-swapped words, and swapping
 * its two bytes gives the sum in network order. The words add up in 64 bits, where no
 * carry is lost (a segment has fewer than 2^14 of them), in two sums that do not wait on
 * each other: a load and an add per 4 bytes, where the end-around carry of 64-bit words
 * was a chain of three operations per 8 that the next had to wait for (in wasm, with no
 * add-with-carry; the 300 MB bulk run: wasm 526 -> 447 ms, native 352 -> 329 ms, the
 * fastest of 3 and 5 runs on a noisy 2-core machine). The sender and the receiver of every
 * simulated segment run this over the whole segment. */
uint32_t inet_sum_words32(uint32_t sum, const uint8_t *data, uint16_t len)
{
    uint64_t even = 0, odd = 0, wide;
    uint32_t i = 0;
    for (; i + 7u < len; i += 8u) {
        even += inet_rd32le(data + i);
        odd += inet_rd32le(data + i + 4u);
    }
    wide = even + odd;
    wide = (wide & 0xFFFFFFFFu) + (wide >> 32);
    wide = (wide & 0xFFFFu) + (wide >> 16);
    wide = (wide & 0xFFFFu) + (wide >> 16);
    wide = (wide & 0xFFFFu) + (wide >> 16);
    sum += (uint32_t)((wide & 0xFFu) << 8 | wide >> 8);
    for (; i + 1u < len; i += 2u)
        sum += ((uint32_t)data[i] << 8) | data[i + 1]; /* data[i] << 8 overflows a 16-bit int */
    if (len & 1)
        sum += (uint32_t)data[len - 1] << 8;
    /* Fold early so a long run of chunks cannot overflow 32 bits. */
    return (sum & 0xFFFFu) + (sum >> 16);
}

/* Bytes at even offsets are the high halves of the words, those at odd offsets the low
 * halves, so the sum of the words is 256 * (sum of the even bytes) + (sum of the odd
 * ones) (RFC 1071 2 (A)). Each half is summed in 16 bits over blocks of at most
 * INET_SUM_BLOCK words (128 * 255 fits). On an 8-bit CPU, where a 32-bit add is four and
 * a 32-bit load four byte loads, that is a byte load and two adds per byte: the echo
 * firmware's check and answer of a full datagram took 16.6k cycles by words, 8.8k so. */
#define INET_SUM_BLOCK 128u

uint32_t inet_sum_bytes16(uint32_t sum, const uint8_t *data, uint16_t len)
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
    return (sum & 0xFFFFu) + (sum >> 16);
}

/* The way that suits the machine: 16-bit ints mean an 8-bit or 16-bit CPU (the Uno). */
uint32_t inet_sum(uint32_t sum, const uint8_t *data, uint16_t len)
{
#if UINT_MAX <= 0xFFFFu
    return inet_sum_bytes16(sum, data, len);
#else
    return inet_sum_words32(sum, data, len);
#endif
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
