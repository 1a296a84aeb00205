/* Ethernet II framing: see eth.h. */
#include "eth.h"

#include <string.h>

#include "bytes.h"

const uint8_t eth_broadcast[ETH_ADDR_LEN] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };

void eth_header_write(uint8_t *p, const uint8_t dst[ETH_ADDR_LEN], const uint8_t src[ETH_ADDR_LEN],
                      uint16_t type)
{
    memcpy(p + ETH_OFF_DST, dst, ETH_ADDR_LEN);
    memcpy(p + ETH_OFF_SRC, src, ETH_ADDR_LEN);
    wr16(p + ETH_OFF_TYPE, type);
}

uint16_t eth_pad(uint8_t *frame, uint16_t len)
{
    if (len >= ETH_MIN_FRAME)
        return len;
    memset(frame + len, 0, ETH_MIN_FRAME - len);
    return ETH_MIN_FRAME;
}

int eth_for_us(const uint8_t *frame, const uint8_t mac[ETH_ADDR_LEN])
{
    return memcmp(frame + ETH_OFF_DST, mac, ETH_ADDR_LEN) == 0 ||
           memcmp(frame + ETH_OFF_DST, eth_broadcast, ETH_ADDR_LEN) == 0;
}

void eth_mac_from_index(uint8_t mac[ETH_ADDR_LEN], uint16_t index)
{
    uint16_t n = (uint16_t)(index + 1u);
    mac[0] = 0x02; /* locally administered, individual (IEEE 802 clause 9.2) */
    mac[1] = mac[2] = mac[3] = 0;
    mac[4] = (uint8_t)(n >> 8);
    mac[5] = (uint8_t)n;
}
