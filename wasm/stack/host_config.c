#include "host_config.h"
#include "stack_opts.h"

#include <string.h>

void host_config_default(struct host_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->seed = 1;

    cfg->ip_ttl = 64;
    cfg->ip_forward = 0;
    cfg->ip_frag = 1;
    cfg->ip_reass_slots = 2;
    cfg->ip_reass_max = 1500;
    cfg->ip_reass_timeout_ms = 15000;
    cfg->ip_max_datagram = 1500;

    cfg->icmp_unreachable = 1;

    cfg->udp_max_pcbs = 4;
    cfg->udp_rcv_buf = 2048;

    cfg->tcp_max_pcbs = 8;
    cfg->tcp_mss = 0;
    cfg->tcp_snd_buf = 8192;
    cfg->tcp_rcv_buf = 8192;
    cfg->tcp_buf_pairs = 0;
    cfg->tcp_ooo = 1;

    cfg->tcp_cc = TCP_CC_NEWRENO;
    cfg->tcp_initial_cwnd = 0;
    cfg->tcp_max_cwnd = 0;
    cfg->tcp_cwnd_inc = 0;
    cfg->tcp_dupack_thresh = TCP_DUPACK_THRESH_DEFAULT;

    cfg->tcp_rto = TCP_RTO_RFC6298;
    cfg->tcp_rto_initial_ms = 1000;
    cfg->tcp_rto_min_ms = 1000;
    cfg->tcp_rto_max_ms = 60000;
    cfg->tcp_timer_tick_ms = 0;
    cfg->tcp_fast_tick_ms = 0;
    cfg->tcp_timer_phase_ms = 0;
    cfg->tcp_timer_on_demand = 0;
    cfg->tcp_delack = TCP_DELACK_STANDARD;
    cfg->tcp_delack_ms = 200;
    cfg->tcp_time_wait_ms = 60000;
    cfg->tcp_syn_retries = 6;
    cfg->tcp_max_retries = 12;

    cfg->tcp_nagle = 1;
    cfg->tcp_timestamps = 0;
    cfg->tcp_sack = 0;
    cfg->tcp_channel_sensing = 0;
    cfg->tcp_small_queues = 0;
    cfg->tcp_eifel = 0;

    cfg->tcp_responder = 0;
    cfg->tcp_responder_conns = TCP_RESPONDER_CONNS_DEFAULT;
    cfg->tcp_responder_wnd = TCP_RESPONDER_WND_DEFAULT;

    cfg->tcp_nfc.uart_baud = 115200;
    cfg->tcp_nfc.uart_bits_per_byte = 10;
    cfg->tcp_nfc.chunk_payload = 10;
    cfg->tcp_nfc.slot_ms = 10;
    cfg->tcp_nfc.max_slot_wait_ms = 12;
    cfg->tcp_nfc.rtt_wifi_ms = 1000;
    cfg->tcp_nfc.round_ms = 500;
    cfg->tcp_nfc.r_window = 4;
    cfg->tcp_nfc.frame_overhead = 16;
}
