/* Per-link faults: see fault.h. */
#include "fault.h"

#include <string.h>

#include "bytes.h"
#include "ip.h"
#include "tcp.h"
#include "udp.h"

#define FAULT_NEEDS_IP                                                           \
    (FAULT_MATCH_FROM | FAULT_MATCH_TO | FAULT_MATCH_PROTO | FAULT_MATCH_FLAGS | \
     FAULT_MATCH_PAYLOAD | FAULT_MATCH_PORT)
#define FAULT_NEEDS_TRANSPORT (FAULT_MATCH_FLAGS | FAULT_MATCH_PAYLOAD | FAULT_MATCH_PORT)

/* The transport conditions, on the bytes after the IP header th[0..tl). */
static int fault_match_transport(const struct fault_match *m, uint8_t proto, const uint8_t *th,
                                 uint16_t tl)
{
    if ((m->has & FAULT_MATCH_PORT) != 0) {
        /* Both TCP and UDP carry the ports in their first 4 bytes (RFC 9293 3.1,
         * RFC 768). */
        if ((proto != IP_PROTO_TCP && proto != IP_PROTO_UDP) || tl < 4u)
            return 0;
        if (rd16(th + TCP_OFF_SRC_PORT) != m->port && rd16(th + TCP_OFF_DST_PORT) != m->port)
            return 0;
    }
    if ((m->has & FAULT_MATCH_FLAGS) != 0) {
        if (proto != IP_PROTO_TCP || tl < TCP_HLEN)
            return 0;
        if ((th[TCP_OFF_FLAGS] & m->tcp_flags) != m->tcp_flags)
            return 0;
    }
    if ((m->has & FAULT_MATCH_PAYLOAD) != 0) {
        uint16_t data;
        if (proto == IP_PROTO_TCP) {
            /* RFC 9293 3.1: the data offset counts 32-bit words of header, options
             * included; a segment whose offset is invalid carries nothing we can name. */
            uint16_t doff;
            if (tl < TCP_HLEN)
                return 0;
            doff = (uint16_t)((th[TCP_OFF_DATAOFF] >> 4) * 4u);
            if (doff < TCP_HLEN || doff > tl)
                return 0;
            data = (uint16_t)(tl - doff);
        } else if (proto == IP_PROTO_UDP) {
            if (tl < UDP_HLEN)
                return 0;
            data = (uint16_t)(tl - UDP_HLEN);
        } else {
            return 0;
        }
        if ((data > 0) != (m->payload != 0))
            return 0;
    }
    return 1;
}

int fault_match_frame(const struct fault_match *m, const uint8_t *dgram, uint16_t len)
{
    uint16_t hlen;
    if ((m->has & FAULT_MATCH_MINLEN) != 0 && len < m->min_len)
        return 0;
    if ((m->has & FAULT_MATCH_MAXLEN) != 0 && len > m->max_len)
        return 0;
    if ((m->has & FAULT_NEEDS_IP) == 0)
        return 1;
    /* RFC 791 3.1: version 4, header length in 32-bit words, at least 5. Checksum and
     * total length are not checked: a rule matches what is sent, however it looks. */
    if (dgram == NULL || len < IP_HLEN || (dgram[IP_OFF_VHL] >> 4) != 4u)
        return 0;
    hlen = (uint16_t)((dgram[IP_OFF_VHL] & 0x0Fu) * 4u);
    if (hlen < IP_HLEN || hlen > len)
        return 0;
    if ((m->has & FAULT_MATCH_FROM) != 0 && rd32(dgram + IP_OFF_SRC) != m->from)
        return 0;
    if ((m->has & FAULT_MATCH_TO) != 0 && rd32(dgram + IP_OFF_DST) != m->to)
        return 0;
    if ((m->has & FAULT_MATCH_PROTO) != 0 && dgram[IP_OFF_PROTO] != m->proto)
        return 0;
    if ((m->has & FAULT_NEEDS_TRANSPORT) == 0)
        return 1;
    /* RFC 791 3.2: only the fragment at offset 0 carries the transport header. */
    if ((rd16(dgram + IP_OFF_FRAG) & IP_OFFSET_MASK) != 0)
        return 0;
    return fault_match_transport(m, dgram[IP_OFF_PROTO], dgram + hlen, (uint16_t)(len - hlen));
}

void fault_decide(struct fault_rule *rules, uint8_t n_rules, uint8_t dir, const uint8_t *dgram,
                  uint16_t len, struct sim_rng *rng, struct fault_verdict *out)
{
    uint8_t i;
    memset(out, 0, sizeof *out);
    out->reason = DROP_NONE;
    out->rule = -1;
    out->flip_bit = -1;
    if (dir > 1)
        return;
    for (i = 0; i < n_rules; i++) {
        struct fault_rule *r = &rules[i];
        int random = r->nth == 0, hit = 0;
        int32_t bit = -1;
        if ((r->dirs & (1u << dir)) == 0)
            continue;
        /* The draws first, whatever happens next (fault.h: the number of draws depends
         * on the traffic and the rule set only). */
        if (random)
            hit = sim_rng_chance_ppm(rng, r->p_ppm);
        if (r->action == FAULT_CORRUPT) {
            if (len > 0)
                bit = (int32_t)sim_rng_below(rng, (uint32_t)len * 8u);
            else
                (void)sim_rng_next(rng);
        }
        if (out->drop || r->action > FAULT_DELAY)
            continue;
        if (!fault_match_frame(&r->match, dgram, len))
            continue;
        if (r->matched != UINT32_MAX)
            r->matched++;
        if (!random) {
            uint32_t count = r->count ? r->count : 1u;
            hit = r->matched >= r->nth && r->matched - r->nth < count;
        }
        if (!hit)
            continue;
        r->fired++;
        out->rule = (int16_t)i;
        switch (r->action) {
        case FAULT_DROP:
            out->drop = 1;
            out->reason = random ? DROP_FAULT_RANDOM : DROP_FAULT_RULE;
            out->duplicate = 0;
            out->delay_us = 0;
            out->flip_bit = -1;
            break;
        case FAULT_CORRUPT: out->flip_bit = bit; break;
        case FAULT_DUPLICATE: out->duplicate = 1; break;
        default: /* FAULT_DELAY */
            out->delay_us =
                out->delay_us > UINT32_MAX - r->delay_us ? UINT32_MAX : out->delay_us + r->delay_us;
            break;
        }
    }
}

void fault_flip_bit(uint8_t *dgram, uint16_t len, int32_t bit)
{
    if (bit < 0 || (uint32_t)bit >= (uint32_t)len * 8u)
        return;
    /* Bits are numbered as in the header diagrams of RFC 791 (Appendix B): bit 0 is the
     * most significant bit of the first byte. */
    dgram[bit / 8] ^= (uint8_t)(0x80u >> (bit % 8));
}

void fault_reset(struct fault_rule *rules, uint8_t n_rules)
{
    uint8_t i;
    for (i = 0; i < n_rules; i++) {
        rules[i].matched = 0;
        rules[i].fired = 0;
    }
}
