/* pcapng writer: the simulator's capture taps exported as one file, one interface per link.
 *
 * Format: draft-ietf-opsawg-pcapng, the pcapng capture file format (section numbers below).
 * The file is one section: a Section Header Block (4.1), then an Interface Description
 * Block (4.2) per link, then an Enhanced Packet Block (4.3) per captured frame, each with
 * an optional comment (opt_comment, 3.5) carrying the stack's state at that frame and an
 * optional direction (epb_flags bits 0-1, 4.3.1). Timestamps are microseconds
 * (if_tsresol = 6 on every interface). Written little-endian (see capture_sink.h).
 *
 * Usage:
 *     struct pcapng_writer w;
 *     pcapng_begin(&w, sink, ctx, "stackscope");
 *     int serial = pcapng_add_interface(&w, "serial0", "SLIP 57600", PCAPNG_LINKTYPE_RAW, 1500);
 *     pcapng_packet(&w, (uint32_t)serial, t_us, ip, len, len, PCAPNG_DIR_OUT, "cwnd=4096 ...");
 *
 * Interfaces may be added at any time, also after packets: the spec allows an IDB
 * anywhere in the section after the SHB (3.4, the "complex pcapng file" layout), and
 * interface ids are assigned in the order the IDBs appear (4.2). A packet may only name an
 * interface already added. At most PCAPNG_MAX_INTERFACES interfaces per file.
 *
 * There is no "end" call: every block is complete when its call returns, and the Section
 * Length is written as -1 (unknown, 4.1), so the file is valid after any call.
 */
#ifndef SIM_PCAPNG_H
#define SIM_PCAPNG_H

#include <stdint.h>

#include "capture_sink.h"

/* LINKTYPE_RAW: the packet begins with an IPv4 or IPv6 header (tcpdump.org link types). */
#define PCAPNG_LINKTYPE_RAW      101
/* LINKTYPE_ETHERNET: the packet begins with an Ethernet II (or 802.3) header. */
#define PCAPNG_LINKTYPE_ETHERNET 1

/* Enough for every link of a scenario; it sizes the per-interface snaplen table. */
#define PCAPNG_MAX_INTERFACES 16

/* Longest string an option can carry: Option Length is 16 bits (3.5). */
#define PCAPNG_MAX_STRING 65535u

/* Direction of a packet, the epb_flags inbound/outbound bits (4.3.1). */
enum pcapng_direction {
    PCAPNG_DIR_UNKNOWN = 0, /* no epb_flags option written */
    PCAPNG_DIR_IN = 1,
    PCAPNG_DIR_OUT = 2
};

/* The whole state of a writer: the sink and what is needed to check later calls. */
struct pcapng_writer {
    capture_sink_fn write;
    void *ctx;
    uint32_t n_interfaces;
    uint32_t snaplen[PCAPNG_MAX_INTERFACES]; /* 0: no limit (4.2) */
    uint32_t n_packets;
};

/* Starts a file: emits the Section Header Block with shb_userappl = `appl` (omitted if
 * NULL). Must be called first. Returns ERR_OK, or ERR_ARG (no sink, `appl` too long). */
int pcapng_begin(struct pcapng_writer *w, capture_sink_fn write, void *ctx, const char *appl);

/* Emits an Interface Description Block: `linktype` (PCAPNG_LINKTYPE_RAW), `snaplen` (0 for
 * no limit), if_name and if_description (each omitted if NULL) and if_tsresol = 6.
 * Returns the interface id (0, 1, ... in order of addition), or ERR_MEM (more than
 * PCAPNG_MAX_INTERFACES), ERR_ARG (a string too long). */
int pcapng_add_interface(struct pcapng_writer *w, const char *name, const char *description,
                         uint16_t linktype, uint32_t snaplen);

/* Emits an Enhanced Packet Block: a frame of `origlen` bytes seen on interface `iface` at
 * `t_us` microseconds since 1970-01-01 00:00:00 UTC, of which `caplen` bytes are in `data`.
 * Bytes beyond the interface's snaplen are not written (Captured Packet Length is the
 * smaller of the two, 4.3). `direction` is an enum pcapng_direction; `comment` is a UTF-8
 * string or NULL. Returns ERR_OK, or ERR_ARG (unknown interface, caplen > origlen, bad
 * direction, comment too long). */
int pcapng_packet(struct pcapng_writer *w, uint32_t iface, uint64_t t_us, const uint8_t *data,
                  uint32_t caplen, uint32_t origlen, int direction, const char *comment);

#endif
