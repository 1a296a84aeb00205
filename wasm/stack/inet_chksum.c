#include "inet_chksum.h"

uint32_t inet_sum(uint32_t sum, const uint8_t *data, uint16_t len)
{
    uint16_t i;
    for (i = 0; i + 1 < len; i += 2)
        sum += ((uint32_t)data[i] << 8) | data[i + 1]; /* data[i] << 8 overflows a 16-bit int */
    if (len & 1)
        sum += (uint32_t)data[len - 1] << 8;
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
