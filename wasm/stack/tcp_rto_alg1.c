/* The NFC bridge paper's Algorithm 1 (section 5.3.2.2): a per-packet RTO from a model of
 * the NFC link (Eq. 5.1-5.6), scaled by how far recent measurements strayed from the
 * model (Eq. 5.7-5.9), rounded up to the coarse timer's period (line 20).
 *
 * Integer arithmetic only (the stack runs on an ATmega328P): microseconds in uint32_t,
 * 64-bit intermediates, ratios in thousandths. The rounding is stated where it happens:
 *  - RTT_NFC is computed exactly as a fraction and rounded once, to the nearest
 *    microsecond (halves up). 1080 B at 11.2 kbps: 2 373 236.11 us -> 2 373 236 us;
 *    at 24 kbps: 1 046 783.12 us -> 1 046 783 us. So the paper's 3373.24 ms and
 *    2046.78 ms come out as 3 373 236 us and 2 046 783 us.
 *  - r is rounded up to the next thousandth, so r x model >= the measured RTT: the same
 *    packet sent again under the same conditions would not time out early.
 *  - The scaled sum r x (RTT_NFC + RTT_WiFi) is not rounded at all before line 20's
 *    round-up to round_ms: one ceiling on the exact product.
 */
#include "tcp_rto_alg1.h"

#define R_ONE 1000u    /* r = 1 in thousandths (Algorithm 1 line 10) */
#define R_MAX 1000000u /* r is capped at 1000, which keeps products in 64 bits */

static uint32_t sat32(uint64_t v)
{
    return v > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)v;
}

uint32_t tcp_rto_alg1_nfc_us(const struct tcp_nfc_model *m, uint16_t size)
{
    /* Eq. 5.2: RTT_NFC = 2 (t_UART + t_maxslotwait + t_NFC + t_UARTchunk), with, in us,
     *   t_UART + t_UARTchunk = (size + chunk) x bits_per_byte x 10^6 / baud  (Eq. 5.3, 5.6)
     *   t_NFC = size / chunk x slot_ms x 1000                                 (Eq. 5.4, 5.5)
     * The slot count is not rounded (Eq. 5.5 divides without rounding; the paper's
     * 2046.78 ms at 24 kbps needs 1080 / 26 = 41.54 slots). The two fractions are added
     * exactly over the common denominator baud x chunk, then rounded once.
     * A zero baud or chunk payload removes the term it divides (no UART hop, no slots). */
    uint64_t size64 = size;
    uint64_t chunk = m->chunk_payload;
    uint64_t d1 = m->uart_baud ? m->uart_baud : 1u;
    uint64_t d2 = chunk ? chunk : 1u;
    uint64_t n1 =
        m->uart_baud ? 2u * (size64 + chunk) * m->uart_bits_per_byte * 1000000u : 0u; /* < 2^45 */
    uint64_t n2 = chunk ? 2u * size64 * m->slot_ms * 1000u : 0u;                      /* < 2^43 */
    uint64_t q1 = n1 / d1, r1 = n1 % d1;
    uint64_t q2 = n2 / d2, r2 = n2 % d2;
    uint64_t frac_num = r1 * d2 + r2 * d1; /* < 2^41: the fractional us, over d1 x d2 */
    uint64_t den = d1 * d2;                /* < 2^40 */
    uint64_t frac = (2u * frac_num + den) / (2u * den); /* nearest, halves up: 0..2 */
    uint64_t wait = 2u * (uint64_t)m->max_slot_wait_ms * 1000u;

    return sat32(q1 + q2 + wait + frac);
}

/* The packet the NFC module carries: the datagram plus the appliance's own framing
 * (Table 5.2), which Eq. 5.3-5.6 count. */
static uint16_t nfc_packet_size(const struct tcp_nfc_model *m, uint16_t dgram_len)
{
    uint32_t size = (uint32_t)dgram_len + m->frame_overhead;
    return size > 0xFFFFu ? 0xFFFFu : (uint16_t)size;
}

uint32_t tcp_rto_alg1_model_us(const struct tcp_nfc_model *m, uint16_t dgram_len)
{
    /* Eq. 5.1: RTT = RTT_NFC + RTT_WiFi. */
    return sat32((uint64_t)tcp_rto_alg1_nfc_us(m, nfc_packet_size(m, dgram_len)) +
                 (uint64_t)m->rtt_wifi_ms * 1000u);
}

/* The configured window of r values, clamped to 1..TCP_RTO_ALG1_MAX_WINDOW. */
static uint8_t window_size(const struct host_config *cfg)
{
    uint8_t w = cfg->tcp_nfc.r_window;
    if (w == 0) {
        w = 1;
    }
    if (w > TCP_RTO_ALG1_MAX_WINDOW) {
        w = TCP_RTO_ALG1_MAX_WINDOW;
    }
    return w;
}

void tcp_rto_alg1_sample(struct tcp_rto *e, const struct host_config *cfg,
                         const struct tcp_rtt_sample *s)
{
    /* Line 14 stored RTT_p, the unscaled model of this packet; line 24 (Eq. 5.7):
     * r = RTT_meas_p / RTT_p, here in thousandths, rounded up, at most R_MAX. */
    uint32_t model = tcp_rto_alg1_model_us(&cfg->tcp_nfc, s->dgram_len);
    uint8_t w = window_size(cfg);
    uint64_t r;

    e->has_sample = 1;
    e->srtt_us = s->rtt_us; /* reported as srtt: the last measured RTT */
    if (model == 0) {
        return; /* a model of nothing gives no ratio */
    }
    r = ((uint64_t)s->rtt_us * R_ONE + model - 1u) / model;
    if (r > R_MAX) {
        r = R_MAX;
    }
    /* Section 5.3.2.2: "a window of recent values of r"; a ring of the last w values. */
    if (e->r_next >= w) {
        e->r_next = 0; /* the configured window shrank since the last sample */
    }
    e->r_milli[e->r_next] = (uint32_t)r;
    e->r_next = (uint8_t)((e->r_next + 1u) % w);
    if (e->r_count < w) {
        e->r_count++;
    }
}

uint32_t tcp_rto_alg1_r_milli(const struct tcp_rto *e, const struct host_config *cfg)
{
    uint8_t w = window_size(cfg);
    uint8_t n = e->r_count < w ? e->r_count : w;
    uint32_t r = 0;
    uint8_t i;

    if (n == 0) {
        return R_ONE; /* line 10: r <- 1 */
    }
    for (i = 0; i < n; i++) {
        if (e->r_milli[i] > r) {
            r = e->r_milli[i]; /* "the highest value in the window" */
        }
    }
    return r;
}

uint32_t tcp_rto_alg1_estimate_us(const struct tcp_rto *e, const struct host_config *cfg,
                                  uint16_t dgram_len)
{
    const struct tcp_nfc_model *m = &cfg->tcp_nfc;
    uint64_t nfc = tcp_rto_alg1_nfc_us(m, nfc_packet_size(m, dgram_len)); /* line 12 */
    uint64_t wifi = (uint64_t)m->rtt_wifi_ms * 1000u;                     /* line 13 */
    uint64_t r = tcp_rto_alg1_r_milli(e, cfg);
    uint64_t sum_milli; /* (RTT_N_c + RTT_W_c) in thousandths of a microsecond */
    uint64_t round_us = m->round_ms ? (uint64_t)m->round_ms * 1000u : 1u;
    uint64_t unit = round_us * R_ONE;
    uint64_t q;

    if (r >= R_ONE) {
        /* Lines 15-17, Eq. 5.8 and 5.9: r >= 1 scales both parts. */
        sum_milli = (nfc + wifi) * r; /* < 2^33 x 2^20 */
    } else {
        /* Lines 18-19, Eq. 5.9: r < 1 leaves RTT_NFC alone (the NFC channel cannot be
         * faster than its model) and scales RTT_WiFi down, but not below the floor. The
         * paper writes the floor as 1000 ms; here it is tcp_nfc.rtt_wifi_ms (1000 by
         * default, where the two agree), as tcp_rto.h documents. */
        uint64_t floor_milli = wifi * R_ONE;
        uint64_t w_milli = wifi * r;
        sum_milli = nfc * R_ONE + (w_milli > floor_milli ? w_milli : floor_milli);
    }
    /* Line 20: round up to the next multiple of round_ms (the 500 ms slow timer). */
    q = (sum_milli + unit - 1u) / unit;
    return sat32(q * round_us);
}
