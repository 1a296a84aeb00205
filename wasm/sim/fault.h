/* Faults on a link: seeded random loss, corruption, duplication and delay, and targeted
 * rules ("drop the 3rd TCP segment with data from A", "delay frame 7 by 200 ms"), as
 * docs/scenario-format.md, "Faults" describes them to the user.
 *
 * A link's rules act on each datagram as it is handed to the link, before its queue,
 * in the order of the array, each deciding on its own; fault_decide() returns what the
 * caller (the world) must do with the datagram. A rule is random (nth = 0: acts on each
 * matching frame with probability p_ppm / 10^6) or targeted (acts on the nth matching
 * frame, 1-based, and on the count - 1 matching frames after it). Only frames of the
 * rule's directions are seen, matched and counted.
 *
 * The PRNG, chosen so that a run's draws depend on the traffic and on which rules exist,
 * not on what they match, their probability or what earlier rules did to the frame (so
 * editing one rule's p or match does not reshuffle the rest of the run until the traffic
 * itself changes):
 *   - a random rule draws one number (sim_rng_chance_ppm) for every frame of its
 *     directions, matching or not, even with p 0 or 10^6;
 *   - a corrupt rule, random or targeted, draws one more (the bit: sim_rng_below(len x 8))
 *     for every frame of its directions;
 *   - these draws still happen for rules after one that dropped the frame; those rules
 *     neither count the frame nor act on it.
 *   Draws happen in rule order, the chance before the bit.
 *
 * Matching reads the datagram with the stack's named offsets (ip.h, tcp.h, udp.h). A frame
 * that is not IPv4 (shorter than 20 bytes, version not 4, header length below 5 words or
 * past the frame) matches no from / to / proto / tcp_flags / payload / port condition;
 * min_len / max_len compare the datagram's length (the IP total length of any datagram a
 * stack sends), which every frame has. Transport conditions (tcp_flags, payload, port)
 * need the transport header in the frame: a fragment other than the first, or a frame cut
 * short, matches none of them; a first fragment is judged on its own bytes.
 *
 * No allocation, no state outside the rules.
 */
#ifndef SIM_FAULT_H
#define SIM_FAULT_H

#include <stdint.h>

#include "drop_reason.h"
#include "sim_rng.h"

enum fault_action { FAULT_DROP, FAULT_CORRUPT, FAULT_DUPLICATE, FAULT_DELAY };

/* fault_match.has: which conditions are set */
#define FAULT_MATCH_FROM    0x01u
#define FAULT_MATCH_TO      0x02u
#define FAULT_MATCH_PROTO   0x04u
#define FAULT_MATCH_FLAGS   0x08u
#define FAULT_MATCH_PAYLOAD 0x10u
#define FAULT_MATCH_PORT    0x20u
#define FAULT_MATCH_MINLEN  0x40u
#define FAULT_MATCH_MAXLEN  0x80u

/* fault_rule.dirs: bit LINK_DIR_AB (0) and bit LINK_DIR_BA (1) */
#define FAULT_DIR_AB   0x01u
#define FAULT_DIR_BA   0x02u
#define FAULT_DIR_BOTH 0x03u

/* The probability that means "always", in parts per million. */
#define FAULT_PPM_ALWAYS 1000000u

struct fault_match {           /* all set fields must hold; the flags say which are set */
    uint8_t has;               /* FAULT_MATCH_* */
    uint32_t from, to;         /* IPv4 source / destination address, host order */
    uint8_t proto;             /* IP protocol number (IP_PROTO_*) */
    uint8_t tcp_flags;         /* TCP flag bits (TCP_SYN, ...) that must all be set; TCP only */
    uint8_t payload;           /* 1: TCP/UDP segment carries data, 0: carries none */
    uint16_t port;             /* source or destination port, TCP or UDP */
    uint16_t min_len, max_len; /* datagram (IP total) length, inclusive bounds */
};

struct fault_rule {
    uint8_t action;      /* enum fault_action */
    uint8_t dirs;        /* FAULT_DIR_*: bit 0 a->b (LINK_DIR_AB), bit 1 b->a */
    uint32_t p_ppm;      /* random: probability in parts per million; 0 with nth set */
    uint32_t nth, count; /* targeted: the nth matching frame (1-based) and count-1 after;
                                 count 0 is taken as 1 */
    uint32_t delay_us;   /* FAULT_DELAY */
    struct fault_match match;
    uint32_t matched; /* state: matching frames seen so far (both kinds of rule) */
    uint32_t fired;   /* state: times the rule acted */
};

struct fault_verdict {
    uint8_t drop;            /* 1: the frame never reaches the link (other fields cleared) */
    enum drop_reason reason; /* DROP_FAULT_RANDOM or DROP_FAULT_RULE when drop, else NONE */
    int16_t rule;            /* index of the rule that dropped, else of the last that acted,
                                 -1 none */
    uint8_t duplicate;       /* hand it to the link twice */
    uint32_t delay_us;       /* hand it to the link this much later (sum of delay rules,
                                 saturating) */
    int32_t flip_bit;        /* corrupt: index of the bit to flip in the datagram (0 = MSB
                                 of byte 0), -1 none; when two corrupt rules act, the later
                                 one's bit (one bit per frame at most) */
};

/* 1 if the datagram dgram[0..len) meets every condition m sets (see above), else 0. */
int fault_match_frame(const struct fault_match *m, const uint8_t *dgram, uint16_t len);

/* Runs rules[0..n_rules) over the datagram sent in direction dir (LINK_DIR_*), updating
 * their counters, drawing from rng as described above, and fills *out. */
void fault_decide(struct fault_rule *rules, uint8_t n_rules, uint8_t dir, const uint8_t *dgram,
                  uint16_t len, struct sim_rng *rng, struct fault_verdict *out);

/* Flips bit `bit` of dgram[0..len) (0 = MSB of byte 0), as a verdict's flip_bit says;
 * nothing if bit is negative or past the datagram. */
void fault_flip_bit(uint8_t *dgram, uint16_t len, int32_t bit);

/* Clears the rules' counters (matched, fired) for a new run. */
void fault_reset(struct fault_rule *rules, uint8_t n_rules);

#endif
