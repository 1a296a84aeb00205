/* Eifel: detecting a spurious retransmission timeout with timestamps (RFC 3522) and
 * undoing it (RFC 4015), when cfg.tcp_eifel is on. */
#include "tcp_pcb.h"

#if STACK_EIFEL
void tcp_eifel_check(struct host *h, struct tcp_pcb *pcb, uint32_t ts_ecr, uint32_t acked)
{
    struct tcp_cc before = pcb->cc;
    pcb->eifel_armed = 0;
    /* RFC 3522 2: an echo older than RetransmitTS acknowledges the original */
    if (!tcp_seq_lt(ts_ecr, pcb->eifel_ts))
        return;
    /* RFC 4015 3.2 step 5: resume with data not yet sent instead of going back N */
    if (tcp_seq_lt(pcb->snd_nxt, pcb->snd_max))
        pcb->snd_nxt = pcb->snd_max;
    pcb->force_one = 0;
    /* step 6: the congestion state before the timeout, as far as the RFC allows */
    if (pcb->cc_ready) {
        tcp_cc_on_spurious_rto(&pcb->cc, &HOST_CFG(h), tcp_seg_max(h, pcb),
                               pcb->snd_max - pcb->snd_una, acked, pcb->eifel_pipe_prev);
        tcp_cc_trace_change(h, pcb, &before, pcb->snd_una);
    }
    tcp_trace(h, pcb, TRACE_RTO_SPURIOUS, ts_ecr, pcb->eifel_ts, pcb->cc.cwnd, pcb->cc.ssthresh);
}
#endif
