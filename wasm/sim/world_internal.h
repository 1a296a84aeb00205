/* The world's insides, shared by its files:
 *   world.c          creation, the event loop (world_step), hosts
 *   world_frame.c    a datagram handed to a link: faults, capture, records; deliveries
 *   world_link.c     one interface over the four link kinds
 *   world_apps.c     the applications
 *   world_tcp_client.c  the tcp_client's lines and received data
 *   world_live.c     applications added to, fed and stopped in a running world
 *   world_cause.c    cause links: which frame a retransmission re-sends, and why
 *   world_port.c     the external link of real-time mode
 *   world_describe.c the JSON description of a built world
 *   world_eth.c      the Ethernet ends: hosts' Ethernet interfaces, bridges' ARP
 * Nothing here is visible outside wasm/sim.
 */
#ifndef SIM_WORLD_INTERNAL_H
#define SIM_WORLD_INTERNAL_H

#include "app_bulk.h"
#include "app_echo_client.h"
#include "app_reqresp.h"
#include "app_tcp_client.h"
#include "app_tcp_discard.h"
#include "app_tcp_echo.h"
#include "app_udp_services.h"
#include "arp.h"
#include "host.h"
#include "host_eth.h"
#include "pcapng.h"
#include "sim_buf.h"
#include "sim_queue.h"
#include "sim_rng.h"
#include "slip.h"
#include "slip6.h"
#include "world.h"

#define WORLD_QUEUE_CAP   4096 /* pending delayed frames and app starts */
#define WORLD_SEG_HISTORY 4096 /* first transmissions remembered for cause links */
/* Frames a delay rule holds back at once; one more is dropped as "link queue full". A
 * rule delaying every frame of a saturated 10 Mbit/s link by 1 s holds about 850. */
#define WORLD_HELD_MAX    1024
/* Frames sent whose fate (delivered, dropped, in flight when the run ends) is not yet
 * recorded: twice the held frames, for the frames on the wire and in the links' queues
 * beside them. A frame beyond it gets no "in flight at the end" record. */
#define WORLD_OPEN_MAX    2048
/* Corrupted frames in flight at once whose flipped bit is kept until delivery (one more
 * is dropped as "link queue full"); a corrupt rule hits few frames. */
#define WORLD_FLIPS_MAX   64
#define WORLD_DGRAM_MAX   65536  /* a datagram's bytes at most (IPv4 total length: 16 bits) */
#define WORLD_MAX_CONNS   64     /* per host, for cause bookkeeping (tcp_max_pcbs <= 64) */
#define WORLD_STEP_LIMIT  100000 /* steps at one instant before the run is declared stuck */

/* sim_queue event kinds */
enum world_event_kind {
    WEV_APP_START = 1,   /* target = app index */
    WEV_FRAME_SUBMIT = 2 /* target = link, arg = index into the delayed-frame table */
};

struct world;

/* What a host's netif output callback gets: which link end it is. */
struct world_end {
    struct world *w;
    uint8_t link, dir; /* dir: the direction this end sends in */
};

struct world_host {
    struct host h;
    void *mem;
    uint8_t link, dir; /* its link, and the direction it sends in */
    /* cause bookkeeping (world_cause.c) */
    uint32_t last_expire[WORLD_MAX_CONNS]; /* event seq of the last RTO expiry */
    uint32_t last_dupack[WORLD_MAX_CONNS]; /* event seq of the last dup ACK counted */
    /* tcp.retransmit events of the current host call, waiting for their frames (the stack
     * reports a retransmission right after handing the segment to the interface) */
    struct world_retx {
        uint16_t lport, rport;
        uint32_t seq, event;
        uint8_t cause;
    } retx[16];
    uint8_t n_retx;
    uint8_t port_busy;   /* NFC module state last told to the host */
    struct host_eth eth; /* its interface's ARP, on an Ethernet link */
    uint8_t *arp_mem;
};

/* A bridge's end on an Ethernet link: its ARP (world_eth.c). */
#define WORLD_MAX_BRIDGE_ETH (2 * WORLD_MAX_BRIDGES)
struct world_bridge_eth {
    struct arp_if arp;
    uint8_t *mem;
    struct world *w; /* NULL: slot unused */
    uint8_t node, link, dir;
};

/* Where an NFC link's pauses go: the world's trace, as link `link` (world_link.c). */
struct world_nfc_pause_to {
    struct world *w;
    uint8_t link;
};

struct world_link {
    struct world_link_config cfg;
    struct link_serial serial;
    struct link_nfc nfc;
    struct link_eth eth;
    void *storage;          /* rings and buffers of the link model */
    int iface;              /* pcapng interface, -1 when not captured */
    uint32_t captured;      /* frames written to the capture so far */
    uint8_t last_queue[2];  /* queue length last recorded */
    uint8_t module_busy[2]; /* NFC: last recorded module state */
    /* NFC: where the link model tells of its pauses */
    struct world_nfc_pause_to pause_to;
    /* external link (world_port.c) */
    struct slip_decoder rx_slip;
    struct slip6_decoder rx_slip6;
    uint8_t *rx_buf;
    struct sim_buf tx; /* bytes for the caller's port */
    uint32_t rx_wire;  /* wire bytes of the frame being delivered */
    uint32_t rx_count; /* wire bytes of the frame being received */
};

/* A frame a delay rule holds back, or a corrupt rule's pending bit flip. */
/* Datagrams a channel-sensing bridge holds until its NFC module is free, in order. */
#define WORLD_BRIDGE_HOLD 16
struct world_bridge_hold {
    struct {
        uint8_t *data; /* malloc'd copy */
        uint16_t len;
        uint32_t parent; /* the frame that brought it to the bridge */
        uint8_t link, dir;
    } q[WORLD_BRIDGE_HOLD];
    uint8_t head, n;
};

struct world_held {
    uint8_t *data; /* malloc'd copy; NULL when the slot is free */
    uint32_t id;
    uint8_t dir;
    uint16_t len;
};

struct world_flip {
    uint32_t id;
    int32_t bit;
};

struct world_seg {
    uint32_t frame;
    uint32_t pkt; /* its number in the link's capture (from 1), 0 if none */
    uint32_t seq;
    uint16_t sport, dport;
    uint8_t node;
};

union world_app_state {
    struct app_echo_client echo_client;
    struct app_tcp_echo echo_server;
    struct app_tcp_discard discard_server;
    struct app_udp_service udp;
    struct app_bulk_sender bulk_sender;
    struct app_bulk_receiver bulk_receiver;
    struct app_reqresp_client rr_client;
    struct app_reqresp_server rr_server;
    struct app_tcp_client tcp_client;
};

struct world_app {
    uint8_t started, reported;
    uint8_t index;      /* its slot in w->apps */
    uint8_t generation; /* apps that had the slot before (world_live.c) */
    struct world *w;    /* for the callbacks of an app (tcp_client's sink) */
    uint64_t next;      /* its own deadline, WORLD_NEVER if none */
    union world_app_state s;
};

#define WORLD_NEVER UINT64_MAX

struct world {
    struct world_config cfg;
    uint64_t now;
    uint8_t finished;
    struct sim_rng rng;
    struct sim_queue queue;
    struct sim_event queue_mem[WORLD_QUEUE_CAP];

    struct world_host hosts[WORLD_MAX_HOSTS];
    struct world_link links[WORLD_MAX_LINKS];
    struct world_end ends[WORLD_MAX_LINKS][2];
    struct world_app apps[WORLD_MAX_APPS];

    uint32_t next_frame;                    /* frame ids */
    uint32_t next_event;                    /* event seqs */
    struct world_held held[WORLD_HELD_MAX]; /* frames a delay rule holds back */
    struct world_bridge_hold bridge_hold[WORLD_MAX_BRIDGES];
    struct world_bridge_eth bridge_eth[WORLD_MAX_BRIDGE_ETH];
    struct world_flip flips[WORLD_FLIPS_MAX];
    uint8_t n_flips;
    struct world_open {
        uint32_t id;
        uint8_t link, dir;
    } open[WORLD_OPEN_MAX]; /* frames sent whose fate is not yet recorded */
    uint32_t n_open;
    struct world_seg segs[WORLD_SEG_HISTORY];
    uint32_t n_segs;

    /* Datagrams hosts sent during the current call into the stack, processed (tapped,
     * faulted, handed to their link) when the call returns: world_flush. */
    struct sim_buf outbox;

    struct trec_buf trace;
    struct sim_buf pcap; /* the pcapng file */
    struct pcapng_writer pcapng;
    char *describe;
    uint8_t scratch[WORLD_DGRAM_MAX]; /* the external link's datagram, delivered or framed */
};

/* Which node sits at the receiving end of direction dir of link l. */
static inline uint8_t world_rx_node(const struct world_link *l, uint8_t dir)
{
    return dir == LINK_DIR_AB ? l->cfg.b : l->cfg.a;
}

static inline int world_node_is_host(const struct world *w, uint8_t node)
{
    return node < w->cfg.n_hosts;
}

/* world_link.c */
int world_link_build(struct world *w, uint8_t index, char *err, size_t errlen);
void world_link_free(struct world_link *l);
int world_link_submit(struct world *w, uint8_t link, uint8_t dir, const uint8_t *data, uint16_t len,
                      uint32_t id, uint32_t *queue);
int world_link_next(const struct world_link *l, uint64_t *t);
int world_link_take(struct world *w, uint8_t link, struct link_delivery *d);
void world_link_signals(struct world *w, uint8_t link);
uint16_t world_link_mtu(const struct world_link_config *c);
void world_link_describe(const struct world_link_config *c, char *buf, size_t cap);
void world_link_describe_config(const struct world_link_config *c, char *buf, size_t cap);

/* world_frame.c */
void world_frame_send(struct world *w, uint8_t link, uint8_t dir, uint8_t node, const uint8_t *data,
                      uint16_t len, uint32_t parent);
void world_frame_submit_held(struct world *w, uint8_t link, uint32_t slot);
void world_frame_deliver(struct world *w, uint8_t link, const struct link_delivery *d);
/* A channel-sensing bridge's NFC module at (link, dir) is free: send what it holds next. */
void world_bridge_release(struct world *w, uint8_t bridge, uint8_t link, uint8_t dir);
int world_nfc_busy(const struct world_link *l, uint8_t dir, uint64_t now);
void world_frame_fate(struct world *w, uint32_t id, uint8_t link, uint8_t dir, uint8_t fate,
                      uint16_t reason, const struct link_delivery *d);
void world_link_event(struct world *w, uint8_t link, uint8_t dir, uint8_t kind, uint32_t value,
                      uint32_t frame, uint64_t t);
int world_netif_output(void *ctx, uint8_t netif, const uint8_t *dgram, uint16_t len);
/* After every call into a host's stack: its datagrams go out, matched with the
 * retransmission events the call reported. */
void world_flush(struct world *w);

/* world_cause.c */
void world_tracer(void *ctx, const struct host *h, const struct trace_event *ev);
/* A TREC_EVENT record of node's (a host's, or a bridge's ARP). */
void world_event_write(struct world *w, uint8_t node, uint32_t seq, const struct trace_event *ev,
                       uint32_t cause);
struct world_cause {
    uint8_t retx;            /* enum tcp_retx_cause, 0xFF: not a retransmission */
    uint32_t orig, orig_pkt; /* first transmission: frame id, capture number (0: none) */
    uint32_t cause;          /* the tcp.retransmit event */
};
void world_cause_frame(struct world *w, uint8_t node, const uint8_t *data, uint16_t len,
                       uint32_t id, uint32_t pkt, struct world_cause *out);
size_t world_state_comment(struct world *w, uint8_t node, const uint8_t *data, uint16_t len,
                           const struct world_cause *c, char *buf, size_t cap);

/* world_apps.c */
int world_app_start(struct world *w, uint8_t index);
void world_apps_poll(struct world *w);
void world_apps_report_all(struct world *w);
int world_app_is_server(uint8_t type);
/* The lines of ping app i that are not written yet. */
void world_ping_lines(struct world *w, uint8_t i);
/* App i's final report, if it has finished (or at_end: the run is over); for an app that
 * has not reported yet. */
void world_app_report(struct world *w, uint8_t i, int at_end);

/* world_tcp_client.c: the sink of app_tcp_client.h (ctx: the struct world_app) */
void world_tcp_client_sink(void *ctx, uint8_t event, const uint8_t *data, uint16_t n);

/* world_port.c */
int world_port_build(struct world *w, struct world_link *l);
/* world_link_submit's answer for a frame the link finished at once (its fate is recorded) */
#define WORLD_SUBMIT_DONE 0x10000
int world_port_send(struct world *w, uint8_t link, const uint8_t *data, uint16_t len, uint32_t id);
void world_port_deliver(struct world *w, uint8_t link, const uint8_t *data, uint16_t len,
                        uint32_t id);

/* world_eth.c */
int world_link_is_eth(const struct world *w, uint8_t link);
int world_eth_host_netif(struct world *w, uint8_t i, uint32_t addr, uint32_t mask, uint16_t mtu);
int world_eth_bridges_build(struct world *w);
void world_eth_free(struct world *w);
/* A frame reached bridge node on Ethernet link: ARP is answered here; returns 1 with
 * *ip_len (padding left out) when it carries an IPv4 datagram to forward, else 0. */
int world_eth_bridge_input(struct world *w, uint8_t node, uint8_t link, const uint8_t *frame,
                           uint16_t len, uint16_t *ip_len);
/* A datagram the bridge sends on Ethernet link: through its ARP. */
void world_eth_bridge_send(struct world *w, uint8_t node, uint8_t link, const uint8_t *dgram,
                           uint16_t len, uint32_t parent);
void world_eth_poll(struct world *w);
uint64_t world_eth_deadline(const struct world *w);

/* world_describe.c */
char *world_describe_build(const struct world *w);

/* world.c */
void world_app_record(struct world *w, uint8_t app, uint8_t kind, uint8_t done, int error,
                      uint64_t bytes, uint32_t elapsed_us, const char *text);
/* A TREC_APP_DATA record: n bytes an app received. */
void world_app_data(struct world *w, uint8_t app, const uint8_t *data, uint32_t n);

#endif
