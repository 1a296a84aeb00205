/* The Internet checksum, RFC 1071: one's complement sum of 16-bit words. */
#ifndef STACK_INET_CHKSUM_H
#define STACK_INET_CHKSUM_H

#include <stdint.h>

/* Adds `len` bytes to a running 32-bit sum (not yet folded). Odd lengths are padded with
 * a zero byte, so only the last chunk of a sum may have an odd length. */
uint32_t inet_sum(uint32_t sum, const uint8_t *data, uint16_t len);

/* inet_sum() the two ways it is computed; it takes the one that suits the machine (a
 * 32- or 64-bit CPU, or an 8-bit one). The same sum: the tests hold both to RFC 1071. */
uint32_t inet_sum_words32(uint32_t sum, const uint8_t *data, uint16_t len);
uint32_t inet_sum_bytes16(uint32_t sum, const uint8_t *data, uint16_t len);

/* Folds a running sum and complements it: the value to put in a checksum field. */
uint16_t inet_fold(uint32_t sum);

/* Checksum of a buffer. Over data that includes a correct checksum field, gives 0. */
uint16_t inet_chksum(const uint8_t *data, uint16_t len);

/* Running sum of the TCP/UDP pseudo-header (RFC 9293 3.1, RFC 768). */
uint32_t inet_pseudo_sum(uint32_t src, uint32_t dst, uint8_t proto, uint16_t len);

#endif
