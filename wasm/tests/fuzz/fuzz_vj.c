/* libFuzzer target: CSLIP (RFC 1144) decompression.
 *
 * The input is a sequence of frames, each a 2-byte big-endian length and that many bytes;
 * a length with the top bit set stands for a link error (vj_decompress_error). Every
 * datagram the decompressor rebuilds must be a well-formed IPv4 header followed by TCP,
 * with the total length it claims.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "ip.h"
#include "vj.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct vj_slot rx[16];
    struct vj_state s;
    uint8_t out[1600];
    size_t pos = 0;

    memset(rx, 0, sizeof rx);
    if (vj_init(&s, NULL, 0, rx, 16) != 0)
        abort();
    while (pos + 2 <= size) {
        uint16_t len = rd16(data + pos);
        uint8_t type;
        int32_t n;
        pos += 2;
        if (len & 0x8000) {
            vj_decompress_error(&s);
            continue;
        }
        if (len > size - pos)
            len = (uint16_t)(size - pos);
        type = len ? vj_frame_type(data[pos]) : VJ_TYPE_ERROR;
        n = vj_decompress(&s, data + pos, len, out, sizeof out);
        pos += len;
        if (n <= 0 || (type != VJ_TYPE_COMPRESSED_TCP && type != VJ_TYPE_UNCOMPRESSED_TCP))
            continue;
        /* A rebuilt TCP datagram is IPv4 carrying TCP; a compressed one also gets its
         * total length recomputed by the decompressor (RFC 1144 sect. 3.2.3). */
        if (n < IP_HLEN || (out[IP_OFF_VHL] >> 4) != 4 || out[IP_OFF_PROTO] != IP_PROTO_TCP)
            abort();
        if (type == VJ_TYPE_COMPRESSED_TCP && rd16(out + IP_OFF_LEN) != (uint16_t)n)
            abort();
    }
    return 0;
}
