/* Byte accessors for wire formats.
 *
 * Every protocol header is read and written through these and a set of named offsets
 * (IP_OFF_TTL, TCP_OFF_SEQ, ...) instead of packed structs: no alignment traps, no
 * compiler extensions, the same code on AVR, x86 and wasm. Multi-byte fields are in
 * network byte order (big-endian), RFC 791 Appendix B.
 */
#ifndef STACK_BYTES_H
#define STACK_BYTES_H

#include <stdint.h>

static inline uint16_t rd16(const uint8_t *p)
{
    return (uint16_t)(((uint16_t)p[0] << 8) | p[1]);
}

static inline uint32_t rd32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static inline void wr16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static inline void wr32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* Builds an IPv4 address (host byte order) from its dotted quad. */
#define IP4(a, b, c, d) \
    (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (uint32_t)(d))

#endif
