/* The stack's configuration on the Uno, fixed at compile time (STACK_FIXED_CONFIG in
 * firmware_opts.h): each setting with its reason. */
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
    .tcp_mss = 0, /* MTU - 40 = 536 announced: the peer may send that much per segment */
    .tcp_responder = 1,
    .tcp_responder_conns = ECHO_TCP_CONNS,
    .tcp_responder_wnd = ECHO_TCP_WND,
    /* The full TCP's timers are not built, but host_init() checks them on every host. */
    .tcp_rto_min_ms = 1000,
    .tcp_rto_max_ms = 60000,
    .tcp_dupack_thresh = TCP_DUPACK_THRESH_DEFAULT,
};
