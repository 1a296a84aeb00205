/* The simulated world: hosts running wasm/stack, bridges, the links between them, their
 * faults, the applications, capture taps and the trace (DESIGN.md, "The simulator").
 *
 * Time is virtual, in microseconds from the start of the run (uint64_t). Each host's stack
 * clock is the low 32 bits of it (stack_time.h), safe because a run lasts at most
 * WORLD_MAX_DURATION_US. The world jumps from one instant to the next at which something is
 * due (a link delivery, a host deadline, an application's timer, a delayed frame) and at
 * each instant does the work in a fixed order (world.c, world_step), so a run is the same
 * bit for bit on every platform.
 *
 * The world is configured from a struct world_config (filled from a scenario file by
 * wasm/api/scenario_load.c), allocates what it needs once at world_create(), and writes
 * the trace records (trace_rec.h) and the pcapng capture into buffers the caller drains.
 */
#ifndef SIM_WORLD_H
#define SIM_WORLD_H

#include <stddef.h>
#include <stdint.h>

#include "app_reqresp.h"
#include "fault.h"
#include "host_config.h"
#include "link_eth.h"
#include "link_nfc.h"
#include "link_serial.h"
#include "trace_rec.h"

#define WORLD_NAME_MAX        16 /* names: 15 characters and the NUL */
#define WORLD_MAX_HOSTS       8
#define WORLD_MAX_BRIDGES     4
#define WORLD_MAX_LINKS       8
#define WORLD_MAX_FAULTS      8             /* per link */
#define WORLD_MAX_APPS        64            /* the seed's echo table: 50 connections, an app each */
#define WORLD_MAX_ROUNDS      1024          /* request/response rounds, all apps together */
#define WORLD_MAX_DURATION_US 2000000000ull /* the stack's clock compares safely to 2^31 us */

/* Node numbers in a link's ends: hosts are 0 .. n_hosts - 1, bridges follow. */
#define WORLD_NODE_NONE 0xFF

enum world_link_type {
    WORLD_LINK_SERIAL,
    WORLD_LINK_NFC,
    WORLD_LINK_ETHERNET,
    WORLD_LINK_EXTERNAL /* real-time mode: end b is the caller (a real serial port) */
};

enum world_app_type {
    WORLD_APP_PING,
    WORLD_APP_TCP_ECHO_SERVER,
    WORLD_APP_TCP_DISCARD_SERVER,
    WORLD_APP_UDP_ECHO_SERVER,
    WORLD_APP_UDP_DISCARD_SERVER,
    WORLD_APP_TCP_ECHO_CLIENT,
    WORLD_APP_BULK_SENDER,
    WORLD_APP_BULK_RECEIVER,
    WORLD_APP_REQRESP_CLIENT,
    WORLD_APP_REQRESP_SERVER,
    WORLD_APP_TCP_CLIENT, /* driven by the caller: world_app_send, world_app_close */
    WORLD_APP_TYPE_COUNT
};

struct world_host_config {
    char name[WORLD_NAME_MAX];
    uint32_t addr;  /* host byte order */
    uint8_t prefix; /* 1 .. 32 */
    struct host_config stack;
};

struct world_link_config {
    char name[WORLD_NAME_MAX];
    uint8_t type;                     /* enum world_link_type */
    uint8_t a, b;                     /* nodes; b is WORLD_NODE_NONE for an external link */
    struct link_serial_config serial; /* WORLD_LINK_SERIAL, and the framing of EXTERNAL */
    struct link_nfc_config nfc;
    struct link_eth_config eth;
    struct fault_rule faults[WORLD_MAX_FAULTS];
    uint8_t n_faults;
};

struct world_app_config {
    uint8_t type; /* enum world_app_type */
    uint8_t host;
    uint8_t to;       /* host index for clients and ping; WORLD_NODE_NONE when the
                                  scenario gave an address (a peer outside the world) */
    uint32_t to_addr; /* the peer's address: host `to`'s, or the one given */
    uint16_t port;
    uint16_t local_port; /* reqresp client */
    uint32_t start_ms;
    uint32_t count, size, interval_ms, timeout_ms; /* ping */
    uint32_t bytes;                                /* echo client, bulk sender */
    uint8_t send_only;                             /* echo client */
    uint8_t connections;            /* echo client: parallel connections sharing `bytes` (1);
                                  TCP echo and discard servers: connections served at once */
    uint8_t backlog;                /* TCP echo and discard servers: connections the listener
                                  holds until one of those frees (app_tcp_server.h) */
    uint8_t probe;                  /* tcp_client: close once connected */
    uint32_t pause_after, pause_ms; /* tcp_discard_server: stop reading for pause_ms after
                                       pause_after bytes of each connection (0 ms: never) */
    uint16_t first_round, n_rounds; /* into world_config.rounds */
};

struct world_config {
    uint32_t seed;
    uint64_t duration_us;
    struct world_host_config hosts[WORLD_MAX_HOSTS];
    uint8_t n_hosts;
    char bridges[WORLD_MAX_BRIDGES][WORLD_NAME_MAX];
    uint8_t bridge_sensing[WORLD_MAX_BRIDGES]; /* holds datagrams for an NFC link while
                                                 its module there is busy (the NFC paper's
                                                 channel sensing at the PTx, 5.3.1) */
    uint8_t n_bridges;
    struct world_link_config links[WORLD_MAX_LINKS];
    uint8_t n_links;
    struct world_app_config apps[WORLD_MAX_APPS];
    uint8_t n_apps;
    struct app_reqresp_round rounds[WORLD_MAX_ROUNDS];
    uint16_t n_rounds;
    uint8_t capture[WORLD_MAX_LINKS]; /* links in the pcapng, in interface order */
    uint8_t n_capture;
    /* Not from the scenario but from the caller (engine_capture): 1 builds no pcapng file
     * at all (world_pcapng stays empty). The capture interfaces and their packet numbers
     * are kept, so the trace is the same either way. */
    uint8_t pcapng_off;
};

struct world;

/* Checks the configuration against what the world can run, builds it, and starts the
 * applications due at time 0. Returns 0, or a negative ERR_* with a message naming what is
 * wrong in err[0..errlen). */
int world_create(struct world **out, const struct world_config *cfg, char *err, size_t errlen);
void world_destroy(struct world *w);

/* Runs every event due at or before `until` (capped at the run's duration). Returns 1 once
 * the run is over (its duration reached; the in-flight frames are then recorded), else 0. */
int world_run_until(struct world *w, uint64_t until);
/* Runs the whole scenario. */
void world_run(struct world *w);

uint64_t world_now(const struct world *w);
/* Frames sent so far on every link: each has its id, from 0, and a TREC_FRAME record. */
uint32_t world_frames(const struct world *w);
/* The next instant at which something is due; 0 if nothing is. */
int world_next_event(const struct world *w, uint64_t *t);

/* The records written so far (trace_rec.h); trec_buf_clear() once consumed. */
struct trec_buf *world_trace(struct world *w);
/* The pcapng file of the captured links: the bytes written since the last
 * world_pcapng_clear (the whole file for a caller that never clears); nothing when the
 * configuration's pcapng_off is set. */
const uint8_t *world_pcapng(const struct world *w, size_t *len);
/* Forgets the bytes handed out so far: a caller that writes the file as it goes keeps the
 * buffer at the size of one slice of the run. */
void world_pcapng_clear(struct world *w);
/* 1 once memory ran out for the trace or the capture: records or blocks were lost, so
 * the run's output is incomplete and must not be used. */
int world_out_of_memory(const struct world *w);

/* Real-time mode: bytes the caller's serial port received, fed into the external link's
 * SLIP decoder at the world's current time; and the bytes the world's host sent, taken
 * out (at most cap; returns the count). */
int world_port_input(struct world *w, uint8_t link, const uint8_t *bytes, uint32_t n);
uint32_t world_port_output(struct world *w, uint8_t link, uint8_t *buf, uint32_t cap);

/* Applications in a running world (real-time mode: the page's tools), started, fed and
 * stopped at the world's current time (world_live.c). Each writes a message naming the
 * problem into err[0..errlen) when it fails.
 *
 * world_app_add: starts the app now. Returns its index (>= 0), which is the `app` of its
 * trace records: a new slot while there is one, else the slot of a client that has
 * finished and reported (servers keep theirs), or a negative ERR_*.
 * world_app_send: a tcp_client's bytes to send; returns the count taken (less than n when
 * its ring is full) or a negative ERR_*.
 * world_app_close: a tcp_client closes (FIN after the queued bytes); a ping stops and
 * prints its statistics now, as ^C does. 0 or a negative ERR_*. */
int world_app_add(struct world *w, const struct world_app_config *app, char *err, size_t errlen);
int world_app_send(struct world *w, uint32_t app, const uint8_t *bytes, uint32_t n, char *err,
                   size_t errlen);
int world_app_close(struct world *w, uint32_t app, char *err, size_t errlen);

/* The content check of app `app` so far: 1 with the bytes it compared with what it
 * expected in *checked and how many of them differed in *mismatched, for the apps that
 * check what they receive (an echo client that reads the echo, a bulk receiver, both
 * request/response ends); 0 for the others (ping, the servers that echo or discard, a
 * send-only echo client, a tcp_client) and for an app that does not exist or never
 * started. The check is the app's own count, not a trace record: the trace, and its hash,
 * stay as they were (world_app_check.c). */
int world_app_check(const struct world *w, uint32_t app, uint64_t *checked, uint64_t *mismatched);

/* A JSON description of the built world (hosts, addresses, links, capture interfaces,
 * trace kind and drop reason names) for the reader of the trace. NUL-terminated, owned by
 * the world. */
const char *world_describe(struct world *w);

#endif
