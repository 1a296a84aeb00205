/* Congestion control applied to a connection: the calls of tcp_in.c and tcp_timer.c into
 * tcp_cc.c (which knows nothing of hosts or connections), with every change of cwnd,
 * ssthresh and recovery traced by comparing before and after, so that the page can show
 * what the algorithm decided. tcp_cc's SMSS is the data one segment carries. */
#include "tcp_pcb.h"

void tcp_cc_trace_change(struct host *h, struct tcp_pcb *pcb, const struct tcp_cc *before,
                         uint32_t ack)
{
    const struct tcp_cc *cc = &pcb->cc;
    if (cc->cwnd != before->cwnd)
        tcp_trace(h, pcb, TRACE_CWND, cc->cwnd, before->cwnd, 0, 0);
    if (cc->ssthresh != before->ssthresh)
        tcp_trace(h, pcb, TRACE_SSTHRESH, cc->ssthresh, before->ssthresh, 0, 0);
    if (!before->in_recovery && cc->in_recovery)
        tcp_trace(h, pcb, TRACE_RECOVERY_ENTER, cc->recover, cc->cwnd, cc->ssthresh, 0);
    if (before->in_recovery && !cc->in_recovery)
        tcp_trace(h, pcb, TRACE_RECOVERY_EXIT, ack, cc->cwnd, 0, 0);
}

enum tcp_cc_action tcp_cc_ack(struct host *h, struct tcp_pcb *pcb, uint32_t ack, uint32_t acked,
                              uint32_t flight)
{
    struct tcp_cc before = pcb->cc;
    enum tcp_cc_action a =
        tcp_cc_on_ack(&pcb->cc, &HOST_CFG(h), tcp_seg_max(h, pcb), ack, acked, flight);
    tcp_cc_trace_change(h, pcb, &before, ack);
    return a;
}

enum tcp_cc_action tcp_cc_dupack(struct host *h, struct tcp_pcb *pcb)
{
    struct tcp_cc before = pcb->cc;
    enum tcp_cc_action a = tcp_cc_on_dupack(&pcb->cc, &HOST_CFG(h), tcp_seg_max(h, pcb),
                                            pcb->snd_max, pcb->snd_max - pcb->snd_una);
    tcp_trace(h, pcb, TRACE_DUPACK, pcb->snd_una, pcb->cc.dupacks, 0, 0);
    tcp_cc_trace_change(h, pcb, &before, pcb->snd_una);
    return a;
}

void tcp_cc_rto(struct host *h, struct tcp_pcb *pcb)
{
    struct tcp_cc before = pcb->cc;
    tcp_cc_on_rto(&pcb->cc, &HOST_CFG(h), tcp_seg_max(h, pcb), pcb->snd_max,
                  pcb->snd_max - pcb->snd_una);
    tcp_cc_trace_change(h, pcb, &before, pcb->snd_una);
}
