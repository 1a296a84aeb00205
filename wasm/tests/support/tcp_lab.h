/* A bench for one host's TCP: the host has one interface (10.0.0.1/24) whose output is
 * recorded, a peer (10.0.0.2) that exists only as the segments a test builds by hand, and
 * a trace recorder. Tests feed segments at chosen instants, advance time to each timer's
 * deadline, and check exactly which segment left at which time.
 *
 * Test scaffolding: allocates with malloc. */
#ifndef TCP_LAB_H
#define TCP_LAB_H

#include <stdint.h>

#include "bytes.h"
#include "host.h"
#include "tcp_seg.h"

#define LAB_ME        IP4(10, 0, 0, 1)
#define LAB_PEER      IP4(10, 0, 0, 2)
#define LAB_MAX_FRAME 1600

struct lab_frame {
    stack_time_t t;
    uint16_t len;
    uint8_t data[LAB_MAX_FRAME];
};

struct tcp_lab {
    struct host h;
    void *mem;
    struct lab_frame *frames;
    uint32_t n_frames, cap_frames, next; /* captured, room, read cursor */
    struct trace_event *ev;
    uint32_t n_ev, cap_ev;
    uint16_t my_port, peer_port; /* defaults for lab_seg() */
};

/* Starts a host with `cfg` at time `t0` and an interface of this MTU. Returns 0 or -1. */
int lab_init(struct tcp_lab *L, const struct host_config *cfg, uint16_t mtu, stack_time_t t0);
void lab_free(struct tcp_lab *L);

/* Delivers a hand-built segment at time t; zero addresses and ports take the defaults
 * (peer -> us, peer_port -> my_port). */
void lab_in(struct tcp_lab *L, stack_time_t t, const struct tseg_spec *s);
/* Shorthand: no options. */
void lab_seg(struct tcp_lab *L, stack_time_t t, uint8_t flags, uint32_t seq, uint32_t ack,
             uint16_t wnd, const void *data, uint16_t len);

/* Runs every timer due up to and including t, each at its own deadline, then polls at t. */
void lab_run(struct tcp_lab *L, stack_time_t t);

/* The next segment the host sent (in order); 0 when there is none. */
int lab_next(struct tcp_lab *L, struct tseg *out);
/* Segments sent and not yet read with lab_next. */
uint32_t lab_pending(const struct tcp_lab *L);
/* Forgets everything sent so far. */
void lab_skip(struct tcp_lab *L);

/* Trace: how many events of a kind; the n-th (0-based) or NULL. */
uint32_t lab_count(const struct tcp_lab *L, enum trace_kind kind);
const struct trace_event *lab_event(const struct tcp_lab *L, enum trace_kind kind, uint32_t n);
void lab_clear_trace(struct tcp_lab *L);

/* The host's deadline, or 0xFFFFFFFF if none (for checks). */
int lab_deadline(const struct tcp_lab *L, stack_time_t *t);

#endif
