/* SLIP (RFC 1055) over a serial device, for the harness's --serial mode: a USB serial
 * adapter with a real Arduino behind it, or the pty of stackscope-simavr. The device is
 * put in raw 8N1 at the given baud, no flow control (the Uno's adapter has none wired). */
#ifndef TUN_SERIAL_H
#define TUN_SERIAL_H

#include <stdint.h>

#include "slip.h"

struct tun_serial {
    int fd;
    struct slip_decoder dec;
    uint8_t frame[65535];                 /* the datagram being received */
    uint8_t out[SLIP_MAX_ENCODED(65535)]; /* one encoded frame */
    uint32_t out_len;
    uint64_t bytes_in, bytes_out, bad_frames;
};

/* Opens and configures `path`; baud must be one of the standard rates. Returns 0, or -1
 * with a message printed. */
int tun_serial_open(struct tun_serial *s, const char *path, uint32_t baud);

/* Sends one datagram as a frame (leading END, as Linux's slip does). Waits while the
 * device's queue is full, for at most a second. Returns 0 or -1. */
int tun_serial_send(struct tun_serial *s, const uint8_t *dgram, uint16_t len);

/* Reads what the device has and hands every whole frame to `deliver` (the frame lives in
 * s->frame until the next call); frames the decoder drops are counted in bad_frames. */
void tun_serial_read(struct tun_serial *s, void (*deliver)(void *ctx, uint8_t *frame, uint16_t len),
                     void *ctx);

#endif
