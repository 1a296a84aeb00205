/* Classic pcap writer, draft-ietf-opsawg-pcap. See pcap.h. */
#include "pcap.h"

#include <string.h>

#include "stack_err.h"

/* Section 4: 0xA1B2C3D4 says "microsecond timestamps"; written little-endian its bytes are
 * D4 C3 B2 A1, from which a reader learns the byte order of every other field. */
#define PCAP_MAGIC_MICROSECONDS 0xA1B2C3D4u
#define PCAP_VERSION_MAJOR      2
#define PCAP_VERSION_MINOR      4
#define PCAP_FILE_HEADER_LEN    24
#define PCAP_RECORD_HEADER_LEN  16

#define PCAP_US_PER_S 1000000u

int pcap_begin(struct pcap_writer *w, capture_sink_fn write, void *ctx, uint32_t snaplen,
               uint16_t linktype)
{
    uint8_t h[PCAP_FILE_HEADER_LEN];

    memset(w, 0, sizeof *w);
    if (write == NULL || snaplen == 0) {
        return ERR_ARG;
    }
    w->write = write;
    w->ctx = ctx;
    w->snaplen = snaplen;
    /* Section 4: Magic Number, Major and Minor Version, Reserved1 and Reserved2 (SHOULD be
     * zero), SnapLen, then LinkType with its additional-information bits (FCS len, P, R,
     * Reserved3) all zero: no FCS on raw IP. */
    wr32le(h, PCAP_MAGIC_MICROSECONDS);
    wr16le(h + 4, PCAP_VERSION_MAJOR);
    wr16le(h + 6, PCAP_VERSION_MINOR);
    wr32le(h + 8, 0);
    wr32le(h + 12, 0);
    wr32le(h + 16, snaplen);
    wr32le(h + 20, linktype);
    w->write(w->ctx, h, sizeof h);
    return ERR_OK;
}

int pcap_packet(struct pcap_writer *w, uint64_t t_us, const uint8_t *data, uint32_t caplen,
                uint32_t origlen)
{
    uint8_t h[PCAP_RECORD_HEADER_LEN];
    uint64_t seconds = t_us / PCAP_US_PER_S;
    uint32_t written = caplen < w->snaplen ? caplen : w->snaplen;

    if (caplen > origlen || seconds > 0xFFFFFFFFu || (data == NULL && caplen > 0)) {
        return ERR_ARG;
    }
    /* Section 5: Timestamp (Seconds), Timestamp (Microseconds) - the part of the second,
     * always below 1000000 - then Captured Packet Length (the smaller of the packet and the
     * SnapLen) and Original Packet Length. The data follows unpadded. */
    wr32le(h, (uint32_t)seconds);
    wr32le(h + 4, (uint32_t)(t_us % PCAP_US_PER_S));
    wr32le(h + 8, written);
    wr32le(h + 12, origlen);
    w->write(w->ctx, h, sizeof h);
    if (written > 0) {
        w->write(w->ctx, data, written);
    }
    w->n_packets++;
    return ERR_OK;
}
