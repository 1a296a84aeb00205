/* libFuzzer target: one datagram into the whole IPv4 input path (IP validation,
 * reassembly, ICMP, UDP, TCP) of a host with listening TCP and UDP sockets, checksums
 * not verified so that mutations go deep. The input is the datagram. */
#include <stdint.h>
#include <string.h>

#include "fuzz_host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct fuzz_host f; /* 256 KB: too large for the fuzzer's stack */
    uint8_t dgram[65535];
    uint16_t len = size > sizeof dgram ? (uint16_t)sizeof dgram : (uint16_t)size;

    fuzz_host_start(&f, 1000, 0);
    memcpy(dgram, data, len);
    host_input(&f.h, 0, dgram, len, 2000);
    fuzz_host_apps(&f);
    /* Let every timer the datagram started run out (reassembly, delayed ACK, RTO). */
    host_poll(&f.h, 60u * 1000000u);
    fuzz_host_apps(&f);
    return 0;
}
