/* A Linux TUN device carrying raw IPv4 (IFF_TUN | IFF_NO_PI): what the kernel routes to
 * the device we read, what we write the kernel receives. */
#ifndef TUN_DEV_H
#define TUN_DEV_H

#include <stdint.h>
#include <sys/types.h>

/* Attaches to (or creates) device `name`; returns the file descriptor or -1 with a
 * message printed. */
int tun_open(const char *name);

/* One datagram in or out; return what read(2)/write(2) return. */
ssize_t tun_read(int fd, uint8_t *buf, size_t cap);
ssize_t tun_write(int fd, const uint8_t *dgram, size_t len);

#endif
