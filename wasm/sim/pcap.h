/* Classic pcap writer: one link's capture tap as a libpcap file.
 *
 * Format: draft-ietf-opsawg-pcap. A 24-byte File Header (section 4) then one Packet Record
 * (section 5) per frame: a 16-byte header with the timestamp as seconds and microseconds
 * since 1970-01-01 00:00:00 UTC, then the captured bytes, unpadded. Magic 0xA1B2C3D4
 * (microsecond timestamps), version 2.4. Written little-endian (see capture_sink.h).
 * One link type and one snaplen for the whole file: for several links, use pcapng.h.
 *
 *     struct pcap_writer w;
 *     pcap_begin(&w, sink, ctx, 65535, PCAP_LINKTYPE_RAW);
 *     pcap_packet(&w, t_us, ip, len, len);
 */
#ifndef SIM_PCAP_H
#define SIM_PCAP_H

#include <stdint.h>

#include "capture_sink.h"

/* LINKTYPE_RAW: the packet begins with an IPv4 or IPv6 header (tcpdump.org link types). */
#define PCAP_LINKTYPE_RAW 101

struct pcap_writer {
    capture_sink_fn write;
    void *ctx;
    uint32_t snaplen;
    uint32_t n_packets;
};

/* Starts a file: emits the File Header. `snaplen` must not be zero (section 4). Returns
 * ERR_OK or ERR_ARG. */
int pcap_begin(struct pcap_writer *w, capture_sink_fn write, void *ctx, uint32_t snaplen,
               uint16_t linktype);

/* Emits a Packet Record: a frame of `origlen` bytes seen at `t_us` microseconds since
 * 1970-01-01 00:00:00 UTC, of which `caplen` bytes are in `data`; bytes beyond the snaplen
 * are not written (section 5). Returns ERR_OK, or ERR_ARG (caplen > origlen, or a time
 * whose seconds do not fit the 32-bit field, i.e. from 2106 on). */
int pcap_packet(struct pcap_writer *w, uint64_t t_us, const uint8_t *data, uint32_t caplen,
                uint32_t origlen);

#endif
