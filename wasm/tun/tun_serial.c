#define _GNU_SOURCE
#include "tun_serial.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static speed_t speed_of(uint32_t baud)
{
    switch (baud) {
    case 1200: return B1200;
    case 2400: return B2400;
    case 4800: return B4800;
    case 9600: return B9600;
    case 19200: return B19200;
    case 38400: return B38400;
    case 57600: return B57600;
    case 115200: return B115200;
    case 230400: return B230400;
    case 460800: return B460800;
    case 500000: return B500000;
    case 1000000: return B1000000;
    default: return 0;
    }
}

int tun_serial_open(struct tun_serial *s, const char *path, uint32_t baud)
{
    struct termios tio;
    speed_t speed = speed_of(baud);
    memset(s, 0, sizeof *s);
    if (!speed) {
        fprintf(stderr, "stackscope-tun: --baud %u is not a standard rate\n", (unsigned)baud);
        return -1;
    }
    s->fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK);
    if (s->fd < 0) {
        fprintf(stderr, "stackscope-tun: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (tcgetattr(s->fd, &tio) < 0) {
        fprintf(stderr, "stackscope-tun: %s is not a terminal: %s\n", path, strerror(errno));
        close(s->fd);
        return -1;
    }
    /* Raw bytes both ways (no echo, no line editing, no CR/LF mapping), 8N1, receiver on,
     * modem lines ignored, no flow control, reads that never wait. */
    cfmakeraw(&tio);
    tio.c_cflag &= (tcflag_t) ~(CSTOPB | PARENB | CSIZE | CRTSCTS);
    tio.c_cflag |= CS8 | CREAD | CLOCAL;
    tio.c_iflag &= (tcflag_t) ~(IXON | IXOFF | IXANY);
    tio.c_cc[VMIN] = 0;
    tio.c_cc[VTIME] = 0;
    cfsetispeed(&tio, speed);
    cfsetospeed(&tio, speed);
    if (tcsetattr(s->fd, TCSANOW, &tio) < 0) {
        fprintf(stderr, "stackscope-tun: cannot configure %s: %s\n", path, strerror(errno));
        close(s->fd);
        return -1;
    }
    /* Whatever the line carried before we came is not a frame of ours. */
    tcflush(s->fd, TCIOFLUSH);
    slip_decoder_init(&s->dec, s->frame, sizeof s->frame);
    return 0;
}

static void put(void *ctx, uint8_t b)
{
    struct tun_serial *s = ctx;
    s->out[s->out_len++] = b; /* out holds the worst case, SLIP_MAX_ENCODED(65535) */
}

int tun_serial_send(struct tun_serial *s, const uint8_t *dgram, uint16_t len)
{
    uint32_t n, done = 0;
    s->out_len = 0;
    slip_encode_stream(dgram, len, 1, put, s);
    n = s->out_len;
    while (done < n) {
        ssize_t w = write(s->fd, s->out + done, (size_t)(n - done));
        if (w > 0) {
            done += (uint32_t)w;
            continue;
        }
        if (w < 0 && errno != EAGAIN && errno != EINTR)
            return -1;
        {
            /* The device's queue is full (a real line drains at the baud rate). */
            struct pollfd p = { s->fd, POLLOUT, 0 };
            if (poll(&p, 1, 1000) == 0)
                return -1;
        }
    }
    s->bytes_out += (uint64_t)n;
    return 0;
}

void tun_serial_read(struct tun_serial *s, void (*deliver)(void *ctx, uint8_t *frame, uint16_t len),
                     void *ctx)
{
    uint8_t buf[4096];
    for (;;) {
        ssize_t n = read(s->fd, buf, sizeof buf);
        ssize_t i;
        if (n <= 0)
            return; /* EAGAIN: nothing more for now */
        s->bytes_in += (uint64_t)n;
        for (i = 0; i < n; i++) {
            enum slip_result r = slip_decode_byte(&s->dec, buf[i]);
            if (r == SLIP_FRAME_ERROR)
                s->bad_frames++;
            else if (r == SLIP_FRAME_DONE)
                deliver(ctx, s->frame, s->dec.len);
        }
    }
}
