/* Per-link faults (wasm/sim/fault.h): each action, targeted rules counting only the
 * frames they match in their directions, every match condition, random rules at p = 0,
 * 1 and 5 %, determinism for a seed, the PRNG draw policy, and the corrupt bit staying
 * inside the datagram. Datagrams are built by hand below, field by field (RFC 791, 9293,
 * 768, 792), not by the stack. */
#include "fault.h"
#include "link_line.h"
#include "unit.h"

#define A_ADDR 0x0A000001u /* 10.0.0.1 */
#define B_ADDR 0x0A000002u /* 10.0.0.2 */

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, (uint16_t)(v >> 16));
    put16(p + 2, (uint16_t)v);
}

/* An IPv4 header without options (checksum left 0: faults do not look at it). */
static void ip_hdr(uint8_t *b, uint16_t total, uint8_t proto, uint32_t src, uint32_t dst)
{
    memset(b, 0, 20);
    b[0] = 0x45;
    put16(b + 2, total);
    b[8] = 64;
    b[9] = proto;
    put32(b + 12, src);
    put32(b + 16, dst);
}

static uint16_t pkt_tcp(uint8_t *b, uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport,
                        uint8_t flags, uint16_t dlen)
{
    uint16_t n = (uint16_t)(40u + dlen);
    ip_hdr(b, n, 6, src, dst);
    memset(b + 20, 0, 20u + dlen);
    put16(b + 20, sport);
    put16(b + 22, dport);
    b[32] = 0x50; /* data offset 5 words */
    b[33] = flags;
    return n;
}

static uint16_t pkt_udp(uint8_t *b, uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport,
                        uint16_t dlen)
{
    uint16_t n = (uint16_t)(28u + dlen);
    ip_hdr(b, n, 17, src, dst);
    memset(b + 20, 0, 8u + dlen);
    put16(b + 20, sport);
    put16(b + 22, dport);
    put16(b + 24, (uint16_t)(8u + dlen));
    return n;
}

static uint16_t pkt_icmp(uint8_t *b, uint32_t src, uint32_t dst, uint16_t dlen)
{
    uint16_t n = (uint16_t)(28u + dlen);
    ip_hdr(b, n, 1, src, dst);
    memset(b + 20, 0, 8u + dlen);
    b[20] = 8; /* echo request */
    return n;
}

/* TCP flag bits, RFC 9293 3.1 (written here, not taken from tcp.h). */
#define F_FIN 0x01
#define F_SYN 0x02
#define F_RST 0x04
#define F_PSH 0x08
#define F_ACK 0x10

static void rule_init(struct fault_rule *r, uint8_t action)
{
    memset(r, 0, sizeof *r);
    r->action = action;
    r->dirs = FAULT_DIR_BOTH;
}

static void test_no_rules_no_effect(void)
{
    struct fault_verdict v;
    struct sim_rng rng;
    uint8_t b[100];
    uint16_t n = pkt_tcp(b, A_ADDR, B_ADDR, 1025, 7, F_ACK, 10);
    sim_rng_seed(&rng, 5);
    fault_decide(NULL, 0, LINK_DIR_AB, b, n, &rng, &v);
    CHECK_EQ(v.drop, 0);
    CHECK_EQ(v.reason, DROP_NONE);
    CHECK_EQ(v.rule, -1);
    CHECK_EQ(v.duplicate, 0);
    CHECK_EQ(v.delay_us, 0);
    CHECK_EQ(v.flip_bit, -1);
    CHECK_EQ(rng.state, 5); /* nothing drawn */
}

static void test_each_action(void)
{
    struct fault_rule r[3];
    struct fault_verdict v;
    struct sim_rng rng;
    uint8_t b[100];
    uint16_t n = pkt_udp(b, A_ADDR, B_ADDR, 1000, 2000, 12);
    sim_rng_seed(&rng, 1);

    rule_init(&r[0], FAULT_DROP);
    r[0].p_ppm = FAULT_PPM_ALWAYS;
    fault_decide(r, 1, LINK_DIR_AB, b, n, &rng, &v);
    CHECK_EQ(v.drop, 1);
    CHECK_EQ(v.reason, DROP_FAULT_RANDOM);
    CHECK_EQ(v.rule, 0);
    CHECK_EQ(r[0].fired, 1);

    rule_init(&r[0], FAULT_DROP);
    r[0].nth = 1;
    fault_decide(r, 1, LINK_DIR_AB, b, n, &rng, &v);
    CHECK_EQ(v.drop, 1);
    CHECK_EQ(v.reason, DROP_FAULT_RULE);

    rule_init(&r[0], FAULT_CORRUPT);
    r[0].nth = 1;
    fault_decide(r, 1, LINK_DIR_AB, b, n, &rng, &v);
    CHECK_EQ(v.drop, 0);
    CHECK_EQ(v.rule, 0);
    CHECK(v.flip_bit >= 0 && v.flip_bit < n * 8);

    rule_init(&r[0], FAULT_DUPLICATE);
    r[0].p_ppm = FAULT_PPM_ALWAYS;
    fault_decide(r, 1, LINK_DIR_AB, b, n, &rng, &v);
    CHECK_EQ(v.duplicate, 1);
    CHECK_EQ(v.drop, 0);
    CHECK_EQ(v.flip_bit, -1);

    /* Two delay rules add up; a duplicate rule between them is the middle actor. */
    rule_init(&r[0], FAULT_DELAY);
    r[0].nth = 1;
    r[0].delay_us = 200000;
    rule_init(&r[1], FAULT_DUPLICATE);
    r[1].nth = 1;
    rule_init(&r[2], FAULT_DELAY);
    r[2].p_ppm = FAULT_PPM_ALWAYS;
    r[2].delay_us = 1500;
    fault_decide(r, 3, LINK_DIR_BA, b, n, &rng, &v);
    CHECK_EQ(v.delay_us, 201500);
    CHECK_EQ(v.duplicate, 1);
    CHECK_EQ(v.rule, 2);
    CHECK_EQ(v.drop, 0);
    /* Delays saturate rather than wrap. */
    r[0].delay_us = UINT32_MAX - 10u;
    r[0].nth = 2;
    r[1].nth = 5;
    fault_decide(r, 3, LINK_DIR_BA, b, n, &rng, &v);
    CHECK_EQ(v.delay_us, UINT32_MAX);
    CHECK_EQ(v.duplicate, 0);

    /* A drop after a duplicate and a delay: the frame never reaches the link, and the
     * verdict says nothing else. */
    rule_init(&r[0], FAULT_DUPLICATE);
    r[0].nth = 1;
    rule_init(&r[1], FAULT_DELAY);
    r[1].nth = 1;
    r[1].delay_us = 7;
    rule_init(&r[2], FAULT_DROP);
    r[2].nth = 1;
    fault_decide(r, 3, LINK_DIR_AB, b, n, &rng, &v);
    CHECK_EQ(v.drop, 1);
    CHECK_EQ(v.rule, 2);
    CHECK_EQ(v.duplicate, 0);
    CHECK_EQ(v.delay_us, 0);
    CHECK_EQ(v.flip_bit, -1);
}

/* "Drop the 3rd TCP segment with data from A", twice in a row (count 2), on a stream where
 * other frames (UDP, pure ACKs, B's segments, the other direction) must not be counted. */
static void test_nth_counts_matching_frames_in_its_directions(void)
{
    struct fault_rule r;
    struct fault_verdict v;
    struct sim_rng rng;
    uint8_t data_a[100], ack_a[100], data_b[100], udp_a[100];
    uint16_t n_data_a = pkt_tcp(data_a, A_ADDR, B_ADDR, 1025, 7, F_ACK | F_PSH, 100 - 40);
    uint16_t n_ack_a = pkt_tcp(ack_a, A_ADDR, B_ADDR, 1025, 7, F_ACK, 0);
    uint16_t n_data_b = pkt_tcp(data_b, B_ADDR, A_ADDR, 7, 1025, F_ACK, 20);
    uint16_t n_udp_a = pkt_udp(udp_a, A_ADDR, B_ADDR, 53, 53, 30);
    int k, dropped_at[8], nd = 0;
    sim_rng_seed(&rng, 3);
    rule_init(&r, FAULT_DROP);
    r.dirs = FAULT_DIR_AB;
    r.nth = 3;
    r.count = 2;
    r.match.has = FAULT_MATCH_FROM | FAULT_MATCH_PROTO | FAULT_MATCH_PAYLOAD;
    r.match.from = A_ADDR;
    r.match.proto = 6;
    r.match.payload = 1;
    for (k = 1; k <= 8; k++) {
        /* Noise before every data segment: none of it counts. */
        fault_decide(&r, 1, LINK_DIR_AB, ack_a, n_ack_a, &rng, &v);
        CHECK_EQ(v.drop, 0);
        fault_decide(&r, 1, LINK_DIR_AB, udp_a, n_udp_a, &rng, &v);
        CHECK_EQ(v.drop, 0);
        fault_decide(&r, 1, LINK_DIR_BA, data_b, n_data_b, &rng, &v);
        CHECK_EQ(v.drop, 0);
        /* A's data segment, but in the b->a direction (a bridge forwarding it back):
         * outside the rule's directions. */
        fault_decide(&r, 1, LINK_DIR_BA, data_a, n_data_a, &rng, &v);
        CHECK_EQ(v.drop, 0);
        fault_decide(&r, 1, LINK_DIR_AB, data_a, n_data_a, &rng, &v);
        if (v.drop) {
            CHECK_EQ(v.reason, DROP_FAULT_RULE);
            CHECK_EQ(v.rule, 0);
            dropped_at[nd++] = k;
        }
    }
    CHECK_EQ(nd, 2);
    CHECK_EQ(dropped_at[0], 3);
    CHECK_EQ(dropped_at[1], 4);
    CHECK_EQ(r.matched, 8);
    CHECK_EQ(r.fired, 2);
    /* A targeted rule draws nothing. */
    CHECK_EQ(rng.state, 3);
    fault_reset(&r, 1);
    CHECK_EQ(r.matched, 0);
    CHECK_EQ(r.fired, 0);
}

static void test_every_match_field(void)
{
    struct fault_match m;
    uint8_t syn[60], synack[60], ack[60], data[100], udp0[60], udp[60], icmp[100];
    uint16_t n_syn = pkt_tcp(syn, A_ADDR, B_ADDR, 1025, 80, F_SYN, 0);
    uint16_t n_synack = pkt_tcp(synack, B_ADDR, A_ADDR, 80, 1025, F_SYN | F_ACK, 0);
    uint16_t n_ack = pkt_tcp(ack, A_ADDR, B_ADDR, 1025, 80, F_ACK, 0);
    uint16_t n_data = pkt_tcp(data, A_ADDR, B_ADDR, 1025, 80, F_ACK | F_PSH, 20);
    uint16_t n_udp0 = pkt_udp(udp0, A_ADDR, B_ADDR, 5000, 9, 0);
    uint16_t n_udp = pkt_udp(udp, A_ADDR, B_ADDR, 5000, 9, 4);
    uint16_t n_icmp = pkt_icmp(icmp, A_ADDR, B_ADDR, 56);
    memset(&m, 0, sizeof m);
    /* No condition: everything matches. */
    CHECK(fault_match_frame(&m, syn, n_syn));
    CHECK(fault_match_frame(&m, icmp, n_icmp));

    m.has = FAULT_MATCH_FROM;
    m.from = A_ADDR;
    CHECK(fault_match_frame(&m, syn, n_syn));
    CHECK(!fault_match_frame(&m, synack, n_synack));

    m.has = FAULT_MATCH_TO;
    m.to = A_ADDR;
    CHECK(!fault_match_frame(&m, syn, n_syn));
    CHECK(fault_match_frame(&m, synack, n_synack));

    m.has = FAULT_MATCH_PROTO;
    m.proto = 1;
    CHECK(fault_match_frame(&m, icmp, n_icmp));
    CHECK(!fault_match_frame(&m, syn, n_syn));
    m.proto = 17;
    CHECK(fault_match_frame(&m, udp, n_udp));
    CHECK(!fault_match_frame(&m, icmp, n_icmp));

    /* "S": SYN and SYN-ACK; "SA": only SYN-ACK; "A": all but the bare SYN. */
    m.has = FAULT_MATCH_FLAGS;
    m.tcp_flags = F_SYN;
    CHECK(fault_match_frame(&m, syn, n_syn));
    CHECK(fault_match_frame(&m, synack, n_synack));
    CHECK(!fault_match_frame(&m, ack, n_ack));
    m.tcp_flags = F_SYN | F_ACK;
    CHECK(!fault_match_frame(&m, syn, n_syn));
    CHECK(fault_match_frame(&m, synack, n_synack));
    m.tcp_flags = F_ACK;
    CHECK(!fault_match_frame(&m, syn, n_syn));
    CHECK(fault_match_frame(&m, data, n_data));
    /* Flags are TCP's: a UDP datagram never matches, even with no bit asked for. */
    m.tcp_flags = 0;
    CHECK(fault_match_frame(&m, ack, n_ack));
    CHECK(!fault_match_frame(&m, udp, n_udp));

    m.has = FAULT_MATCH_PAYLOAD;
    m.payload = 1;
    CHECK(fault_match_frame(&m, data, n_data));
    CHECK(!fault_match_frame(&m, ack, n_ack));
    CHECK(fault_match_frame(&m, udp, n_udp));
    CHECK(!fault_match_frame(&m, udp0, n_udp0));
    CHECK(!fault_match_frame(&m, icmp, n_icmp)); /* TCP or UDP only */
    m.payload = 0;
    CHECK(!fault_match_frame(&m, data, n_data));
    CHECK(fault_match_frame(&m, ack, n_ack));
    CHECK(fault_match_frame(&m, syn, n_syn));
    CHECK(fault_match_frame(&m, udp0, n_udp0));
    CHECK(!fault_match_frame(&m, icmp, n_icmp));
    /* TCP options count as header, not data: data offset 6 words, 4 bytes of options. */
    {
        uint8_t opt[60];
        uint16_t n_opt = pkt_tcp(opt, A_ADDR, B_ADDR, 1025, 80, F_SYN, 4);
        opt[32] = 0x60;
        CHECK(fault_match_frame(&m, opt, n_opt));
        m.payload = 1;
        CHECK(!fault_match_frame(&m, opt, n_opt));
        /* A data offset past the segment: nothing can be said, no match either way. */
        opt[32] = 0xF0;
        CHECK(!fault_match_frame(&m, opt, n_opt));
        m.payload = 0;
        CHECK(!fault_match_frame(&m, opt, n_opt));
    }

    /* Source or destination port, TCP or UDP. */
    m.has = FAULT_MATCH_PORT;
    m.port = 80;
    CHECK(fault_match_frame(&m, syn, n_syn));       /* destination */
    CHECK(fault_match_frame(&m, synack, n_synack)); /* source */
    CHECK(!fault_match_frame(&m, udp, n_udp));
    m.port = 9;
    CHECK(fault_match_frame(&m, udp, n_udp));
    m.port = 5000;
    CHECK(fault_match_frame(&m, udp, n_udp));
    CHECK(!fault_match_frame(&m, icmp, n_icmp));

    /* Lengths, inclusive: the data segment is 60 bytes. */
    m.has = FAULT_MATCH_MINLEN;
    m.min_len = 60;
    CHECK(fault_match_frame(&m, data, n_data));
    CHECK(!fault_match_frame(&m, ack, n_ack));
    m.has = FAULT_MATCH_MAXLEN;
    m.max_len = 40;
    CHECK(fault_match_frame(&m, ack, n_ack));
    CHECK(!fault_match_frame(&m, data, n_data));
    m.max_len = 60;
    CHECK(fault_match_frame(&m, data, n_data));

    /* All set conditions at once. */
    m.has = FAULT_MATCH_FROM | FAULT_MATCH_TO | FAULT_MATCH_PROTO | FAULT_MATCH_FLAGS |
            FAULT_MATCH_PAYLOAD | FAULT_MATCH_PORT | FAULT_MATCH_MINLEN | FAULT_MATCH_MAXLEN;
    m.from = A_ADDR;
    m.to = B_ADDR;
    m.proto = 6;
    m.tcp_flags = F_ACK | F_PSH;
    m.payload = 1;
    m.port = 1025;
    m.min_len = 41;
    m.max_len = 1500;
    CHECK(fault_match_frame(&m, data, n_data));
    CHECK(!fault_match_frame(&m, ack, n_ack));
    m.port = 1026;
    CHECK(!fault_match_frame(&m, data, n_data));
}

/* Frames that are not whole IPv4 datagrams match only rules with no condition on their
 * headers. */
static void test_truncated_and_non_ipv4(void)
{
    struct fault_match m;
    uint8_t b[100], v6[60], shortf[10];
    uint16_t n;
    memset(&m, 0, sizeof m);
    memset(shortf, 0x45, sizeof shortf);
    memset(v6, 0, sizeof v6);
    v6[0] = 0x60;

    m.has = FAULT_MATCH_MINLEN | FAULT_MATCH_MAXLEN;
    m.min_len = 1;
    m.max_len = 100;
    CHECK(fault_match_frame(&m, shortf, sizeof shortf));
    CHECK(fault_match_frame(&m, v6, sizeof v6));
    m.has = FAULT_MATCH_PROTO;
    m.proto = 0x45;
    CHECK(!fault_match_frame(&m, shortf, sizeof shortf));
    m.proto = 0;
    CHECK(!fault_match_frame(&m, v6, sizeof v6));
    m.has = FAULT_MATCH_FROM;
    m.from = 0;
    CHECK(!fault_match_frame(&m, v6, sizeof v6));
    CHECK(!fault_match_frame(&m, shortf, 0));

    /* A header length past the frame, or below 5 words. */
    n = pkt_tcp(b, A_ADDR, B_ADDR, 1025, 80, F_SYN, 0);
    m.has = FAULT_MATCH_PROTO;
    m.proto = 6;
    CHECK(fault_match_frame(&m, b, n));
    b[0] = 0x4F; /* 60 bytes of header */
    CHECK(!fault_match_frame(&m, b, 30));
    b[0] = 0x44;
    CHECK(!fault_match_frame(&m, b, n));
    b[0] = 0x45;

    /* A TCP header cut after 10 bytes: the ports are there, the flags are not. */
    m.has = FAULT_MATCH_PORT;
    m.port = 80;
    CHECK(fault_match_frame(&m, b, 30));
    CHECK(!fault_match_frame(&m, b, 23));
    m.has = FAULT_MATCH_FLAGS;
    m.tcp_flags = F_SYN;
    CHECK(fault_match_frame(&m, b, n));
    CHECK(!fault_match_frame(&m, b, 30));
    m.has = FAULT_MATCH_PAYLOAD;
    m.payload = 0;
    CHECK(!fault_match_frame(&m, b, 30));

    /* A fragment at offset 8 carries no transport header: the IP fields still match. */
    n = pkt_udp(b, A_ADDR, B_ADDR, 80, 80, 40);
    b[7] = 1; /* offset 1 x 8 bytes */
    m.has = FAULT_MATCH_PORT;
    CHECK(!fault_match_frame(&m, b, n));
    m.has = FAULT_MATCH_PROTO | FAULT_MATCH_FROM;
    m.proto = 17;
    m.from = A_ADDR;
    CHECK(fault_match_frame(&m, b, n));
    /* The first fragment (MF set, offset 0) still does. */
    b[6] = 0x20;
    b[7] = 0;
    m.has = FAULT_MATCH_PORT;
    CHECK(fault_match_frame(&m, b, n));
}

static void test_p_zero_never_p_one_always(void)
{
    struct fault_rule r[2];
    struct fault_verdict v;
    struct sim_rng rng;
    uint8_t b[100];
    uint16_t n = pkt_icmp(b, A_ADDR, B_ADDR, 56);
    int k, never = 0, always = 0;
    sim_rng_seed(&rng, 11);
    rule_init(&r[0], FAULT_DUPLICATE);
    r[0].p_ppm = 0;
    rule_init(&r[1], FAULT_DELAY);
    r[1].p_ppm = FAULT_PPM_ALWAYS;
    r[1].delay_us = 5;
    for (k = 0; k < 20000; k++) {
        fault_decide(r, 2, (uint8_t)(k & 1), b, n, &rng, &v);
        never += v.duplicate;
        always += v.delay_us == 5;
    }
    CHECK_EQ(never, 0);
    CHECK_EQ(always, 20000);
    CHECK_EQ(r[0].fired, 0);
    CHECK_EQ(r[0].matched, 20000);
    CHECK_EQ(r[1].fired, 20000);
}

static void test_p_5_percent_over_100000(void)
{
    struct fault_rule r;
    struct fault_verdict v;
    struct sim_rng rng;
    uint8_t b[100];
    uint16_t n = pkt_udp(b, A_ADDR, B_ADDR, 1, 2, 10);
    uint32_t k, drops = 0, run = 0, longest = 0;
    sim_rng_seed(&rng, 1);
    rule_init(&r, FAULT_DROP);
    r.p_ppm = 50000;
    for (k = 0; k < 100000; k++) {
        fault_decide(&r, 1, LINK_DIR_AB, b, n, &rng, &v);
        if (v.drop) {
            CHECK_EQ(v.reason, DROP_FAULT_RANDOM);
            drops++;
            run++;
            if (run > longest)
                longest = run;
        } else {
            run = 0;
        }
    }
    /* Binomial(100000, 0.05): mean 5000, standard deviation sqrt(100000 x 0.05 x 0.95) =
     * 68.9; 5 deviations either way. */
    CHECK(drops >= 5000 - 345 && drops <= 5000 + 345);
    CHECK_EQ(r.fired, drops);
    /* Independent draws: 5 drops in a row has probability 3 x 10^-7 per frame, so about
     * 0.03 runs of 5 are expected in the whole sequence; 4 in a row about 0.6. */
    CHECK(longest <= 5);
}

static int decide_sequence(uint64_t seed, struct fault_verdict *out, int n_frames)
{
    struct fault_rule r[4];
    struct sim_rng rng;
    uint8_t b[3][100];
    uint16_t n[3];
    int k;
    n[0] = pkt_tcp(b[0], A_ADDR, B_ADDR, 1025, 7, F_ACK, 30);
    n[1] = pkt_tcp(b[1], B_ADDR, A_ADDR, 7, 1025, F_ACK, 0);
    n[2] = pkt_icmp(b[2], A_ADDR, B_ADDR, 20);
    rule_init(&r[0], FAULT_CORRUPT);
    r[0].p_ppm = 100000;
    rule_init(&r[1], FAULT_DUPLICATE);
    r[1].p_ppm = 100000;
    r[1].dirs = FAULT_DIR_BA;
    rule_init(&r[2], FAULT_DROP);
    r[2].p_ppm = 100000;
    r[2].match.has = FAULT_MATCH_PROTO;
    r[2].match.proto = 6;
    rule_init(&r[3], FAULT_DELAY);
    r[3].p_ppm = 200000;
    r[3].delay_us = 1000;
    sim_rng_seed(&rng, seed);
    for (k = 0; k < n_frames; k++) {
        int which = k % 3;
        memset(&out[k], 0xAA, sizeof out[k]); /* padding too, for the memcmp */
        fault_decide(r, 4, which == 1 ? LINK_DIR_BA : LINK_DIR_AB, b[which], n[which], &rng,
                     &out[k]);
    }
    return n_frames;
}

static void test_same_seed_same_decisions(void)
{
    static struct fault_verdict v1[3000], v2[3000], v3[3000];
    int k, differ = 0, acted = 0;
    CHECK_EQ(decide_sequence(77, v1, 3000), 3000);
    CHECK_EQ(decide_sequence(77, v2, 3000), 3000);
    CHECK_EQ(decide_sequence(78, v3, 3000), 3000);
    for (k = 0; k < 3000; k++) {
        CHECK_EQ(v1[k].drop, v2[k].drop);
        CHECK_EQ(v1[k].rule, v2[k].rule);
        CHECK_EQ(v1[k].duplicate, v2[k].duplicate);
        CHECK_EQ(v1[k].delay_us, v2[k].delay_us);
        CHECK_EQ(v1[k].flip_bit, v2[k].flip_bit);
        differ += v1[k].rule != v3[k].rule || v1[k].flip_bit != v3[k].flip_bit;
        acted += v1[k].rule >= 0;
    }
    CHECK(acted > 900);
    CHECK(differ > 500);
}

/* The documented draw policy, checked against a replica generator: a random rule draws
 * once per frame of its directions, matching or not, and even after an earlier rule
 * dropped the frame; a corrupt rule draws its bit too; rules of the other direction and
 * targeted non-corrupt rules draw nothing. */
static void test_draw_policy(void)
{
    struct fault_rule r[4];
    struct fault_verdict v;
    struct sim_rng rng, rep;
    uint8_t b[100];
    uint16_t n = pkt_udp(b, A_ADDR, B_ADDR, 1, 2, 10); /* 38 bytes */
    int32_t bit;
    sim_rng_seed(&rng, 1234);
    sim_rng_seed(&rep, 1234);
    rule_init(&r[0], FAULT_DROP); /* always drops */
    r[0].p_ppm = FAULT_PPM_ALWAYS;
    rule_init(&r[1], FAULT_DROP); /* random, matches nothing here: still draws */
    r[1].p_ppm = 500000;
    r[1].match.has = FAULT_MATCH_PROTO;
    r[1].match.proto = 6;
    rule_init(&r[2], FAULT_CORRUPT); /* targeted corrupt: draws its bit only */
    r[2].nth = 1;
    rule_init(&r[3], FAULT_DELAY); /* other direction: draws nothing */
    r[3].p_ppm = 500000;
    r[3].dirs = FAULT_DIR_BA;
    r[3].delay_us = 9;
    fault_decide(r, 4, LINK_DIR_AB, b, n, &rng, &v);
    (void)sim_rng_next(&rep);                    /* rule 0's chance */
    (void)sim_rng_next(&rep);                    /* rule 1's chance */
    (void)sim_rng_below(&rep, (uint32_t)n * 8u); /* rule 2's bit */
    CHECK_EQ(rng.state, rep.state);
    CHECK_EQ(v.drop, 1);
    CHECK_EQ(v.rule, 0);
    CHECK_EQ(v.flip_bit, -1);
    /* The dropped frame stopped the later rules: they neither counted nor acted. */
    CHECK_EQ(r[1].matched, 0);
    CHECK_EQ(r[2].matched, 0);
    CHECK_EQ(r[2].fired, 0);
    /* Without the dropping rule, the corrupt rule acts on its first frame with the bit
     * the replica draws in the same place. */
    r[0].p_ppm = 0;
    fault_decide(r, 4, LINK_DIR_AB, b, n, &rng, &v);
    (void)sim_rng_next(&rep);
    (void)sim_rng_next(&rep);
    bit = (int32_t)sim_rng_below(&rep, (uint32_t)n * 8u);
    CHECK_EQ(rng.state, rep.state);
    CHECK_EQ(v.drop, 0);
    CHECK_EQ(v.rule, 2);
    CHECK_EQ(v.flip_bit, bit);
    CHECK_EQ(r[2].matched, 1);
    CHECK_EQ(r[0].matched, 2); /* the frame matches rule 0's (empty) match both times */
    CHECK_EQ(r[0].fired, 1);
}

static void test_flip_bit_inside_datagram(void)
{
    struct fault_rule r[2];
    struct fault_verdict v;
    struct sim_rng rng;
    uint8_t b[1500], seen = 0;
    uint32_t k;
    sim_rng_seed(&rng, 21);
    memset(b, 0x45, sizeof b);
    rule_init(&r[0], FAULT_CORRUPT);
    r[0].p_ppm = FAULT_PPM_ALWAYS;
    for (k = 1; k <= 1500; k++) {
        uint16_t len = (uint16_t)k;
        fault_decide(r, 1, LINK_DIR_AB, b, len, &rng, &v);
        CHECK(v.flip_bit >= 0);
        CHECK((uint32_t)v.flip_bit < (uint32_t)len * 8u);
    }
    /* A one-byte frame: every one of its 8 bits gets chosen in time, none other. */
    for (k = 0; k < 400; k++) {
        fault_decide(r, 1, LINK_DIR_AB, b, 1, &rng, &v);
        CHECK(v.flip_bit >= 0 && v.flip_bit < 8);
        seen |= (uint8_t)(1u << v.flip_bit);
    }
    CHECK_EQ(seen, 0xFF);
    /* When two corrupt rules act, the later one's bit is the verdict's. */
    rule_init(&r[1], FAULT_CORRUPT);
    r[1].nth = 1;
    {
        struct sim_rng rep = rng;
        int32_t second;
        (void)sim_rng_next(&rep);
        (void)sim_rng_below(&rep, 800);
        second = (int32_t)sim_rng_below(&rep, 800);
        fault_decide(r, 2, LINK_DIR_AB, b, 100, &rng, &v);
        CHECK_EQ(v.rule, 1);
        CHECK_EQ(v.flip_bit, second);
    }
}

static void test_flip_bit_numbering(void)
{
    uint8_t b[3] = { 0, 0, 0 };
    fault_flip_bit(b, 3, 0); /* MSB of byte 0 */
    CHECK_EQ(b[0], 0x80);
    fault_flip_bit(b, 3, 15); /* LSB of byte 1 */
    CHECK_EQ(b[1], 0x01);
    fault_flip_bit(b, 3, 17);
    CHECK_EQ(b[2], 0x40);
    fault_flip_bit(b, 3, 0); /* flipping again restores it */
    CHECK_EQ(b[0], 0x00);
    fault_flip_bit(b, 3, 24); /* past the end: nothing */
    fault_flip_bit(b, 3, -1);
    CHECK_EQ(b[0], 0x00);
    CHECK_EQ(b[1], 0x01);
    CHECK_EQ(b[2], 0x40);
}

UNIT_MAIN(UNIT(test_no_rules_no_effect), UNIT(test_each_action),
          UNIT(test_nth_counts_matching_frames_in_its_directions), UNIT(test_every_match_field),
          UNIT(test_truncated_and_non_ipv4), UNIT(test_p_zero_never_p_one_always),
          UNIT(test_p_5_percent_over_100000), UNIT(test_same_seed_same_decisions),
          UNIT(test_draw_policy), UNIT(test_flip_bit_inside_datagram),
          UNIT(test_flip_bit_numbering))
