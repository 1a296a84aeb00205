#include "fuzz_host.h"

#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "inet_chksum.h"
#include "socket.h"

/* Every datagram the host emits must be one a receiver accepts: a valid IPv4 header with
 * a correct checksum and a total length equal to what was handed to the link. */
static int fuzz_output(void *ctx, uint8_t netif, const uint8_t *d, uint16_t len)
{
    struct fuzz_host *f = ctx;
    uint16_t hlen;
    (void)netif;
    if (len < IP_HLEN || (d[IP_OFF_VHL] >> 4) != 4)
        abort();
    hlen = (uint16_t)((d[IP_OFF_VHL] & 0x0F) * 4);
    if (hlen < IP_HLEN || hlen > len || rd16(d + IP_OFF_LEN) != len ||
        inet_chksum(d, hlen) != 0)
        abort();
    f->sent++;
    if (d[IP_OFF_PROTO] == IP_PROTO_TCP && len >= hlen + TCP_HLEN &&
        !(rd16(d + IP_OFF_FRAG) & (IP_FLAG_MF | IP_OFFSET_MASK))) {
        const uint8_t *t = d + hlen;
        uint16_t doff = (uint16_t)((t[TCP_OFF_DATAOFF] >> 4) * 4);
        uint32_t seg_len = (uint32_t)(len - hlen - doff);
        uint8_t flags = t[TCP_OFF_FLAGS];
        if (doff < TCP_HLEN || hlen + doff > len)
            abort();
        /* TCP checksum over the pseudo-header must verify too. */
        if (inet_fold(inet_sum(inet_pseudo_sum(rd32(d + IP_OFF_SRC), rd32(d + IP_OFF_DST),
                                               IP_PROTO_TCP, (uint16_t)(len - hlen)),
                               t, (uint16_t)(len - hlen))) != 0)
            abort();
        if (flags & (TCP_SYN | TCP_FIN))
            seg_len++;
        f->last_seq_end = rd32(t + TCP_OFF_SEQ) + seg_len;
        f->tcp_sent++;
        f->last_sport = rd16(t + TCP_OFF_SRC_PORT);
        f->last_dport = rd16(t + TCP_OFF_DST_PORT);
    }
    return 0;
}

void fuzz_host_start(struct fuzz_host *f, stack_time_t now, int responder)
{
    struct host_config cfg;
    struct stack_sockaddr any = { 0, 7 };
    memset(f, 0, sizeof *f);
    host_config_default(&cfg);
    cfg.skip_checksum_check = 1;
    cfg.tcp_max_pcbs = 6;
    cfg.tcp_snd_buf = 4096;
    cfg.tcp_rcv_buf = 4096;
    cfg.tcp_timestamps = 1;
    cfg.tcp_sack = 1; /* SACK blocks in, SACK blocks out, the scoreboard (RFC 2018, 6675) */
    cfg.tcp_responder = (uint8_t)(responder != 0);
    cfg.tcp_responder_conns = 4; /* small, so the full table is reached */
    cfg.tcp_responder_wnd = 1072;
    f->responder = cfg.tcp_responder;
    if (host_mem_required(&cfg) > sizeof f->mem ||
        host_init(&f->h, &cfg, f->mem, sizeof f->mem, now) != ERR_OK ||
        host_add_netif(&f->h, IP4(10, 0, 7, 2), 0xFFFFFF00u, 576, fuzz_output, f) < 0)
        abort();
    if (!responder && (app_tcp_echo_start(&f->echo, &f->h, 7, 2) != ERR_OK ||
                       app_tcp_discard_start(&f->discard, &f->h, 9, 2) != ERR_OK))
        abort();
    f->udp = udpsocket(&f->h);
    if (f->udp < 0 || udpbind(&f->h, f->udp, &any) != ERR_OK)
        abort();
}

void fuzz_host_apps(struct fuzz_host *f)
{
    stack_time_t unused;
    uint8_t buf[64];
    struct stack_sockaddr src;
    if (!f->responder) {
        app_tcp_echo_poll(&f->echo, &f->h, &unused);
        app_tcp_discard_poll(&f->discard, &f->h, &unused);
    }
    while (udprecvfrom(&f->h, f->udp, &src, buf, sizeof buf) >= 0)
        ;
}
