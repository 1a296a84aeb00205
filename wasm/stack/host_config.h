/* Per-host configuration: every parameter the seeds vary, with its default.
 *
 * host_config_default() fills in the defaults documented here; a scenario then changes the
 * fields it names. Durations are in milliseconds (the unit every seed uses); the stack
 * converts them to its microsecond clock. Sizes are in bytes.
 */
#ifndef STACK_HOST_CONFIG_H
#define STACK_HOST_CONFIG_H

#include <stdint.h>

/* Congestion control (RFC 5681, RFC 6582). */
enum tcp_cc_kind {
    TCP_CC_NONE,   /* send whatever the peer's window allows (the thesis's stack) */
    TCP_CC_FIXED,  /* cwnd fixed at tcp_initial_cwnd, never changes (the mTCP seed) */
    TCP_CC_RENO,   /* slow start, congestion avoidance, fast retransmit/recovery, RFC 5681 */
    TCP_CC_NEWRENO /* Reno with NewReno's partial-ACK handling, RFC 6582 */
};

/* Retransmission timeout estimators. */
enum tcp_rto_kind {
    TCP_RTO_RFC6298,  /* SRTT/RTTVAR on every sample, microsecond clock, RFC 6298 */
    TCP_RTO_VJ_TICKS, /* Van Jacobson's integer estimator counted in slow-timer ticks, as lwIP */
    TCP_RTO_FIXED,    /* always tcp_rto_initial_ms (then backoff) */
    TCP_RTO_NFC_ALG1  /* the NFC bridge paper's Algorithm 1: per-packet RTO from a link model */
};

/* Delayed acknowledgement (RFC 1122 4.2.3.2, RFC 5681 4.2). */
enum tcp_delack_kind {
    TCP_DELACK_OFF,      /* ACK every segment at once */
    TCP_DELACK_STANDARD, /* ACK every second full segment, else after tcp_delack_ms */
    TCP_DELACK_NFC       /* standard, but ACK at once when the reply already queued is larger
                            than the segment just received (NFC paper, section 5.3.2.2) */
};

/* The NFC link model behind Algorithm 1 (paper Eq. 5.1-5.6). Defaults: 11.2 kbps. */
struct tcp_nfc_model {
    uint32_t uart_baud;         /* UART between stack and NFC module, bits/s (115200) */
    uint8_t uart_bits_per_byte; /* 10 for 8N1 */
    uint8_t chunk_payload;      /* bytes of packet per slot: 10 at 212 kbps, 26 at 424 kbps */
    uint16_t slot_ms;           /* slot period (10) */
    uint16_t max_slot_wait_ms;  /* worst wait for a slot: period + 2 ms lead time (12) */
    uint16_t rtt_wifi_ms;       /* RTT of the Wi-Fi/Ethernet side, floor of Eq. 5.9 (1000) */
    uint16_t round_ms;          /* round the RTO up to this, the slow timer (500) */
    uint8_t r_window;           /* how many recent r factors to keep; the largest is used (4) */
    uint8_t frame_overhead;     /* bytes the appliance adds to each IP datagram before the
                                  NFC module (Table 5.2: UI protocol 8 + packet handling 8),
                                  so a 1064-byte datagram is the paper's 1080-byte packet (16) */
};

struct host_config {
    uint32_t seed; /* seeds ISS, ephemeral ports and IP IDs: same seed, same trace (1) */

    /* IPv4 */
    uint8_t ip_ttl;               /* TTL of datagrams this host originates (64) */
    uint8_t ip_forward;           /* forward datagrams not addressed to us (0) */
    uint8_t ip_frag;              /* fragment on output and reassemble on input (1) */
    uint8_t ip_reass_slots;       /* datagrams reassembled at once (2); when a new one
                                      finds them all taken, the oldest is evicted */
    uint16_t ip_reass_max;        /* largest reassembled datagram, header included (1500;
                                      up to 65535). Each slot's buffer is this large and is
                                      taken at host_init(), so only a host configured for
                                      64 KB datagrams spends 64 KB per slot */
    uint32_t ip_reass_timeout_ms; /* give up on a partial datagram (15000; RFC 1122 3.3.2
                                      says 60-120 s is recommended, Linux uses 30 s; shorter
                                      frees the scarce buffers of a small host sooner) */
    uint16_t ip_max_datagram;     /* largest datagram this host builds before fragmenting
                                      (1500; up to 65535): the transmit buffer. An echo
                                      reply is built where its request lies, so it is not
                                      bound by this */
    uint8_t skip_checksum_check;  /* accept bad checksums: for fuzzing only (0) */

    /* ICMP */
    uint8_t icmp_unreachable; /* send destination unreachable for closed UDP ports and
                                      unknown protocols, RFC 1122 3.2.2.1 (1) */

    /* UDP */
    uint8_t udp_max_pcbs; /* UDP sockets (4) */
    uint16_t udp_rcv_buf; /* bytes of queued datagrams per socket (2048) */

    /* TCP: connections and buffers */
    uint8_t tcp_max_pcbs;  /* TCP sockets, listeners included (8) */
    uint16_t tcp_mss;      /* MSS we announce and send; 0 = interface MTU - 40 (0) */
    uint32_t tcp_snd_buf;  /* send ring per connection (8192) */
    uint32_t tcp_rcv_buf;  /* receive ring per connection; the window we advertise
                                      never exceeds it (8192) */
    uint8_t tcp_buf_pairs; /* send and receive rings for this many connections,
                                      shared by the connection blocks: a block takes a pair
                                      when it is created and gives it back when it is freed
                                      or listens (a listener needs none). 0 = a pair for
                                      every block, for good (0). The Arduino firmware has
                                      two blocks (a listener and a connection) and one pair. */
    uint8_t tcp_ooo;       /* keep out-of-order segments (1); 0 drops them, as the
                                      thesis's stack mostly did */

    /* TCP: congestion control */
    enum tcp_cc_kind tcp_cc;   /* (TCP_CC_NEWRENO) */
    uint32_t tcp_initial_cwnd; /* bytes; 0 = RFC 5681 3.1 IW from the MSS (0). For
                                      TCP_CC_FIXED this is the fixed window. */
    uint32_t tcp_max_cwnd;     /* cap on cwnd, bytes; 0 = none (0) */
    uint32_t tcp_cwnd_inc;     /* bytes added per new ACK in slow start; 0 = RFC 5681
                                      (min(acked, SMSS)) (0). lwIP in the NFC paper: 1024. */
    uint8_t tcp_dupack_thresh; /* duplicate ACKs that trigger fast retransmit (3) */

    /* TCP: timers */
    enum tcp_rto_kind tcp_rto;       /* (TCP_RTO_RFC6298) */
    uint32_t tcp_rto_initial_ms;     /* before any RTT sample, RFC 6298 2.1 (1000) */
    uint32_t tcp_rto_min_ms;         /* floor, RFC 6298 2.4 (1000; Linux uses 200) */
    uint32_t tcp_rto_max_ms;         /* cap, RFC 6298 2.5 (60000) */
    uint32_t tcp_timer_tick_ms;      /* 0: timers fire at their exact instant. Otherwise the
                                      coarse slow timer of lwIP: the RTO, persist and
                                      TIME_WAIT timers are only checked every tick (500 in
                                      the NFC paper) (0) */
    uint32_t tcp_fast_tick_ms;       /* same for the delayed-ACK timer (lwIP: 250) (0) */
    uint32_t tcp_timer_phase_ms;     /* where both tick trains fall: at phase + k x tick of host
                                      time. A host's timer starts when it boots, so two hosts,
                                      or two runs of one experiment, tick at different phases
                                      (0) */
    uint8_t tcp_timer_on_demand;     /* lwIP's tcp_timer_needed(): the tick trains stop while
                                      no connection is active or in TIME_WAIT and restart
                                      when one opens, their first tick one fast tick later;
                                      0 = they run from boot at tcp_timer_phase_ms (0) */
    enum tcp_delack_kind tcp_delack; /* (TCP_DELACK_STANDARD) */
    uint32_t tcp_delack_ms;          /* delayed-ACK timeout, < 500 by RFC 1122 4.2.3.2 (200) */
    uint32_t tcp_time_wait_ms;       /* 2 x MSL, RFC 9293 3.4.2 (60000) */
    uint8_t tcp_syn_retries;         /* SYN retransmissions before giving up (6) */
    uint8_t tcp_max_retries;         /* data retransmissions before giving up, RFC 1122 R2 (12) */

    /* TCP: options and algorithms */
    uint8_t tcp_nagle;           /* Nagle's algorithm, RFC 9293 3.7.4 (1) */
    uint8_t tcp_timestamps;      /* offer and use the timestamps option, RFC 7323 (0) */
    uint8_t tcp_sack;            /* offer and use selective acknowledgments, RFC 2018, with
                                      SACK-based loss recovery, RFC 6675 (0) */
    uint8_t tcp_channel_sensing; /* hold segments while the interface reports busy (the
                                      NFC paper's channel sensing) (0) */
    uint8_t tcp_eifel;           /* with timestamps: a timeout whose first ACK echoes a
                                      timestamp older than the retransmission's was
                                      spurious (RFC 3522); undo it (RFC 4015): no go-back-N,
                                      cwnd and ssthresh restored, as Linux undoes (0) */
    uint8_t tcp_small_queues;    /* hold new data while this many of the host's frames are
                                      handed to the interface and not yet sent out, 0 = off
                                      (Linux's TCP small queues: about 2 on a slow line) (0) */
    /* TCP: the responder for small devices (tcp_responder.h), in place of the full TCP */
    uint8_t tcp_responder;        /* 1: this host's TCP is the responder: echo on port 7,
                                      discard on 9, a reset for every other port, no
                                      sockets (0). Read only when the stack is built with
                                      both (STACK_TCP_RESPONDER 1, stack_opts.h) */
    uint8_t tcp_responder_conns;  /* connections its table holds (50) */
    uint16_t tcp_responder_wnd;   /* window it advertises, bytes; 0 = one MSS (0) */
    struct tcp_nfc_model tcp_nfc; /* link model for TCP_RTO_NFC_ALG1 */
};

/* Fills *cfg with the defaults above. */
void host_config_default(struct host_config *cfg);

#endif
