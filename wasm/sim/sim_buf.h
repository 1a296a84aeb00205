/* A growing byte buffer: where the simulator collects what it hands out in one piece (the
 * pcapng file, bytes for an external serial port, datagrams waiting to leave a host). The
 * simulator may allocate (the stack never does); a failed allocation is remembered, the
 * buffer keeps what it had, and the owner reports the loss. */
#ifndef SIM_BUF_H
#define SIM_BUF_H

#include <stddef.h>
#include <stdint.h>

struct sim_buf {
    uint8_t *p;
    size_t len, cap;
    int failed;
};

/* Room for `need` bytes in all; returns a pointer to p[len] (where to append) or NULL. */
uint8_t *sim_buf_reserve(struct sim_buf *b, size_t need);
/* Appends n bytes; 0, or -1 (and b->failed) when memory ran out. */
int sim_buf_append(struct sim_buf *b, const void *data, size_t n);
void sim_buf_free(struct sim_buf *b);

#endif
