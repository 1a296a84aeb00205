/* The stack's configuration on the Uno, fixed at compile time (STACK_FIXED_CONFIG in
 * firmware_opts.h): the defaults of host_config.h except where a 2 KB board or the seed
 * says otherwise, each difference with its reason. */
#include "echo_config.h"
#include "src/stack/host.h"

const struct host_config stack_fixed_config = {
    .seed = 7,
    .ip_ttl = 64,
    .ip_forward = 0,
    /* No fragmentation or reassembly: the link's MTU is the largest datagram either side
     * sends, and a reassembly buffer would not fit. Fragments are dropped (counted). */
    .ip_frag = 0,
    .ip_max_datagram = ECHO_MTU,
    /* The seed ignores UDP and other protocols: no port or protocol unreachable. */
    .icmp_unreachable = 0,
    .udp_max_pcbs = 0,
    .tcp_max_pcbs = ECHO_TCP_PCBS,
    .tcp_mss = 0, /* MTU - 40 = 536 announced: the peer may send that much per segment */
    .tcp_snd_buf = ECHO_TCP_SND_BUF,
    .tcp_rcv_buf = ECHO_TCP_RCV_BUF,
    .tcp_buf_pairs = 1, /* for the one connection; the listener needs none */
    .tcp_ooo = 0, /* a segment out of order is dropped and sent again by the peer */
    .tcp_cc = TCP_CC_NEWRENO,
    .tcp_initial_cwnd = 0,
    .tcp_max_cwnd = 0,
    .tcp_cwnd_inc = 0,
    .tcp_dupack_thresh = TCP_DUPACK_THRESH_DEFAULT,
    .tcp_rto = TCP_RTO_RFC6298,
    .tcp_rto_initial_ms = 1000,
    .tcp_rto_min_ms = 1000,
    .tcp_rto_max_ms = 60000,
    .tcp_timer_tick_ms = 0,
    .tcp_fast_tick_ms = 0,
    .tcp_delack = TCP_DELACK_STANDARD,
    .tcp_delack_ms = 200,
    .tcp_time_wait_ms = 60000,
    .tcp_syn_retries = 6,
    /* A peer that vanished mid-connection holds the one connection block until TCP
     * gives up: 7 retransmissions (1+2+4+8+16+32+60 s, past RFC 1122 4.2.3.5's 100 s),
     * not 12 (7 minutes of every other connection dropped). */
    .tcp_max_retries = 7,
    .tcp_nagle = 1,
    .tcp_timestamps = 0, /* 12 more bytes per segment on a 5.8 KB/s line */
    .tcp_channel_sensing = 0,
};
