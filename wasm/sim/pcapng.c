/* pcapng writer, draft-ietf-opsawg-pcapng. See pcapng.h.
 *
 * Every block is emitted in pieces through the sink: a fixed header built in a small
 * local buffer, then the packet bytes straight from the caller, then the options, then the
 * trailing Block Total Length. The total length is computed first, since it also opens
 * the block (3.1).
 */
#include "pcapng.h"

#include <string.h>

#include "stack_err.h"

/* Block types (4.1, 4.2, 4.3). */
#define PCAPNG_BT_SHB 0x0A0D0D0Au
#define PCAPNG_BT_IDB 0x00000001u
#define PCAPNG_BT_EPB 0x00000006u

/* 4.1: written in the writer's byte order, read back as 0x1A2B3C4D by a reader of the
 * same order; we always write little-endian, so the bytes are 4D 3C 2B 1A. */
#define PCAPNG_BYTE_ORDER_MAGIC 0x1A2B3C4Du
#define PCAPNG_VERSION_MAJOR    1
#define PCAPNG_VERSION_MINOR    0

/* Option codes: common (3.5), SHB (4.1), IDB (4.2), EPB (4.3). */
#define PCAPNG_OPT_ENDOFOPT       0
#define PCAPNG_OPT_COMMENT        1
#define PCAPNG_OPT_SHB_USERAPPL   4
#define PCAPNG_OPT_IF_NAME        2
#define PCAPNG_OPT_IF_DESCRIPTION 3
#define PCAPNG_OPT_IF_TSRESOL     9
#define PCAPNG_OPT_EPB_FLAGS      2

/* 4.2 if_tsresol: most significant bit 0, so the value is a power of ten: 10^-6 s. */
#define PCAPNG_TSRESOL_MICROSECONDS 6

/* Fixed part of each block before its variable data: type and length (8) plus the body's
 * fixed fields; and the trailing Block Total Length (3.1). */
#define PCAPNG_SHB_FIXED 24u /* + magic 4, versions 2+2, Section Length 8 */
#define PCAPNG_IDB_FIXED 16u /* + LinkType 2, Reserved 2, SnapLen 4 */
#define PCAPNG_EPB_FIXED 28u /* + Interface ID, Timestamp High/Low, Captured, Original */
#define PCAPNG_TRAILER   4u

/* Largest packet accepted: keeps every block length computation inside 32 bits. */
#define PCAPNG_MAX_CAPLEN 0x7FFFFFFFu

/* 3.1: block bodies, packet data and option values are padded to 32 bits. */
static uint32_t pcapng_pad4(uint32_t n)
{
    return (n + 3u) & ~(uint32_t)3u;
}

/* Size on the wire of one option carrying `len` value bytes: code, length, padded value
 * (3.5). */
static uint32_t pcapng_option_size(uint32_t len)
{
    return 4u + pcapng_pad4(len);
}

/* Value length of an optional string option: 0 when absent, ERR_ARG when it cannot fit
 * the 16-bit Option Length (3.5). The string goes into the file without its NUL: option
 * strings are not zero-terminated (3.5). */
static int32_t pcapng_string_len(const char *s)
{
    size_t n;
    if (s == NULL) {
        return 0;
    }
    n = strlen(s);
    return n > PCAPNG_MAX_STRING ? ERR_ARG : (int32_t)n;
}

static void pcapng_emit_u32(const struct pcapng_writer *w, uint32_t v)
{
    uint8_t b[4];
    wr32le(b, v);
    w->write(w->ctx, b, 4);
}

/* Emits `len` bytes then zeros up to the next multiple of 4. */
static void pcapng_emit_padded(const struct pcapng_writer *w, const uint8_t *p, uint32_t len)
{
    static const uint8_t zeros[3] = { 0, 0, 0 };
    if (len > 0) {
        w->write(w->ctx, p, len);
    }
    if (pcapng_pad4(len) != len) {
        w->write(w->ctx, zeros, pcapng_pad4(len) - len);
    }
}

/* One option: Option Code, Option Length (the unpadded value length), padded value (3.5). */
static void pcapng_emit_option(const struct pcapng_writer *w, uint16_t code, const uint8_t *value,
                               uint32_t len)
{
    uint8_t h[4];
    wr16le(h, code);
    wr16le(h + 2, (uint16_t)len);
    w->write(w->ctx, h, 4);
    pcapng_emit_padded(w, value, len);
}

static void pcapng_emit_string_option(const struct pcapng_writer *w, uint16_t code, const char *s,
                                      int32_t len)
{
    if (s != NULL) {
        pcapng_emit_option(w, code, (const uint8_t *)s, (uint32_t)len);
    }
}

/* 3.5: a writer MUST end an option list with opt_endofopt; a block without options has no
 * list, and so no opt_endofopt either. */
static void pcapng_emit_endofopt(const struct pcapng_writer *w)
{
    pcapng_emit_option(w, PCAPNG_OPT_ENDOFOPT, NULL, 0);
}

int pcapng_begin(struct pcapng_writer *w, capture_sink_fn write, void *ctx, const char *appl)
{
    uint8_t h[PCAPNG_SHB_FIXED];
    int32_t appl_len = pcapng_string_len(appl);
    uint32_t total;

    memset(w, 0, sizeof *w);
    if (write == NULL || appl_len < 0) {
        return ERR_ARG;
    }
    w->write = write;
    w->ctx = ctx;

    total = PCAPNG_SHB_FIXED + PCAPNG_TRAILER;
    if (appl != NULL) {
        total += pcapng_option_size((uint32_t)appl_len) + pcapng_option_size(0);
    }
    /* 4.1: Block Type, Block Total Length, Byte-Order Magic, Major and Minor Version, then
     * Section Length: -1 means "not specified", so the file can be written as a stream. */
    wr32le(h, PCAPNG_BT_SHB);
    wr32le(h + 4, total);
    wr32le(h + 8, PCAPNG_BYTE_ORDER_MAGIC);
    wr16le(h + 12, PCAPNG_VERSION_MAJOR);
    wr16le(h + 14, PCAPNG_VERSION_MINOR);
    wr32le(h + 16, 0xFFFFFFFFu);
    wr32le(h + 20, 0xFFFFFFFFu);
    w->write(w->ctx, h, sizeof h);
    if (appl != NULL) {
        pcapng_emit_string_option(w, PCAPNG_OPT_SHB_USERAPPL, appl, appl_len);
        pcapng_emit_endofopt(w);
    }
    pcapng_emit_u32(w, total);
    return ERR_OK;
}

int pcapng_add_interface(struct pcapng_writer *w, const char *name, const char *description,
                         uint16_t linktype, uint32_t snaplen)
{
    static const uint8_t tsresol[1] = { PCAPNG_TSRESOL_MICROSECONDS };
    uint8_t h[PCAPNG_IDB_FIXED];
    int32_t name_len = pcapng_string_len(name);
    int32_t desc_len = pcapng_string_len(description);
    uint32_t total;

    if (w->n_interfaces >= PCAPNG_MAX_INTERFACES) {
        return ERR_MEM;
    }
    if (name_len < 0 || desc_len < 0) {
        return ERR_ARG;
    }
    /* Options: if_name, if_description (when given), if_tsresol, opt_endofopt. */
    total = PCAPNG_IDB_FIXED + PCAPNG_TRAILER + pcapng_option_size(1) + pcapng_option_size(0);
    if (name != NULL) {
        total += pcapng_option_size((uint32_t)name_len);
    }
    if (description != NULL) {
        total += pcapng_option_size((uint32_t)desc_len);
    }
    /* 4.2: LinkType (16 bits), Reserved (16 bits, zero), SnapLen (32 bits). */
    wr32le(h, PCAPNG_BT_IDB);
    wr32le(h + 4, total);
    wr16le(h + 8, linktype);
    wr16le(h + 10, 0);
    wr32le(h + 12, snaplen);
    w->write(w->ctx, h, sizeof h);
    pcapng_emit_string_option(w, PCAPNG_OPT_IF_NAME, name, name_len);
    pcapng_emit_string_option(w, PCAPNG_OPT_IF_DESCRIPTION, description, desc_len);
    pcapng_emit_option(w, PCAPNG_OPT_IF_TSRESOL, tsresol, 1);
    pcapng_emit_endofopt(w);
    pcapng_emit_u32(w, total);

    w->snaplen[w->n_interfaces] = snaplen;
    /* 4.2: the first IDB of a section is interface 0, the next 1, and so on. */
    return (int)w->n_interfaces++;
}

int pcapng_packet(struct pcapng_writer *w, uint32_t iface, uint64_t t_us, const uint8_t *data,
                  uint32_t caplen, uint32_t origlen, int direction, const char *comment)
{
    uint8_t h[PCAPNG_EPB_FIXED];
    uint8_t flags[4];
    int32_t comment_len = pcapng_string_len(comment);
    uint32_t written = caplen, options = 0;
    uint32_t total;

    if (iface >= w->n_interfaces || caplen > origlen || caplen > PCAPNG_MAX_CAPLEN ||
        (data == NULL && caplen > 0) || comment_len < 0 ||
        (direction != PCAPNG_DIR_UNKNOWN && direction != PCAPNG_DIR_IN &&
         direction != PCAPNG_DIR_OUT)) {
        return ERR_ARG;
    }
    /* 4.3: Captured Packet Length is the smaller of the packet and the interface's SnapLen;
     * 4.2: a SnapLen of zero means no limit. */
    if (w->snaplen[iface] != 0 && written > w->snaplen[iface]) {
        written = w->snaplen[iface];
    }
    if (comment != NULL) {
        options += pcapng_option_size((uint32_t)comment_len);
    }
    if (direction != PCAPNG_DIR_UNKNOWN) {
        options += pcapng_option_size(4);
    }
    if (options > 0) {
        options += pcapng_option_size(0);
    }
    total = PCAPNG_EPB_FIXED + pcapng_pad4(written) + options + PCAPNG_TRAILER;

    /* 4.3: Interface ID, then the 64-bit timestamp (in if_tsresol units, microseconds
     * here) as its upper and lower 32 bits, then Captured and Original Packet Length. */
    wr32le(h, PCAPNG_BT_EPB);
    wr32le(h + 4, total);
    wr32le(h + 8, iface);
    wr32le(h + 12, (uint32_t)(t_us >> 32));
    wr32le(h + 16, (uint32_t)t_us);
    wr32le(h + 20, written);
    wr32le(h + 24, origlen);
    w->write(w->ctx, h, sizeof h);
    pcapng_emit_padded(w, data, written);
    pcapng_emit_string_option(w, PCAPNG_OPT_COMMENT, comment, comment_len);
    if (direction != PCAPNG_DIR_UNKNOWN) {
        /* 4.3.1: bits 0-1 of the flags word: 01 inbound, 10 outbound. */
        wr32le(flags, (uint32_t)direction);
        pcapng_emit_option(w, PCAPNG_OPT_EPB_FLAGS, flags, 4);
    }
    if (options > 0) {
        pcapng_emit_endofopt(w);
    }
    pcapng_emit_u32(w, total);
    w->n_packets++;
    return ERR_OK;
}
