/* What the capture writers (pcapng.h, pcap.h) share: the byte sink they emit through and
 * little-endian byte writers.
 *
 * The writers never allocate and never buffer a whole file: every block is handed to the
 * caller's sink as it is produced, in small pieces. The wasm engine appends the pieces to a
 * growing JS-side buffer; the native command line writes them to a file. A sink cannot fail
 * towards the writer; a sink that can (a full disk) records the error in its own context.
 *
 * Both file formats are written little-endian, whatever the host: pcapng readers detect
 * the byte order from the Byte-Order Magic (draft-ietf-opsawg-pcapng 4.1) and pcap readers
 * from the magic number (draft-ietf-opsawg-pcap 4), so one fixed order keeps the output
 * identical natively and in wasm.
 */
#ifndef SIM_CAPTURE_SINK_H
#define SIM_CAPTURE_SINK_H

#include <stdint.h>

/* Receives `n` bytes of the file, in order. `p` is only valid during the call. */
typedef void (*capture_sink_fn)(void *ctx, const uint8_t *p, uint32_t n);

static inline void wr16le(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void wr32le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

#endif
