/* The NFC link of the NFC bridge paper (seeds/tcp-for-nfc-bridge-paper.txt, section 5.1,
 * Fig. 5.1, 5.13, 5.18, Eq. 5.2 - 5.6): a stack -- UART -- MCU + NFC device -- air --
 * NFC device + MCU -- UART -- stack, for the appliance (CE) and the PTx (RW).
 *
 * Path of one datagram of len bytes sent by end d (all times exact microseconds):
 *   1. On the NFC side it is a packet of len + pkt_overhead bytes (UI protocol 8 + packet
 *      handling 8, Table 5.2: a 1064-byte datagram is a 1080-byte packet).
 *   2. Stack-side UART, FIFO at uart_baud, uart_bits_per_char (115200, 10): the packet
 *      takes packet x 10 / 115200 s (Eq. 5.3). Packets the stack sends while the UART is
 *      busy wait behind it (the tty's queue, at most qlen; beyond: DROP_LINK_QUEUE_FULL).
 *   3. The module (MCU) "stores and processes only one packet at a time" and "discards
 *      all the packets that it receives while it is transmitting" (5.1, 5.2.2). It
 *      decides at the packet's first byte on the UART (DROP_NFC_MODULE_BUSY, at that
 *      instant). The two ends' modules behave differently in the paper's captures, so
 *      each end has its own rule, module_buffer[d]:
 *      - 0, the appliance's card-emulator side (end a by default): if the module still
 *        holds a packet whose last chunk has not been sent, the new one is discarded.
 *        The appliance's first data, 50 us after the handshake's ACK, is lost so (5.2.2,
 *        Fig. 5.13).
 *      - N > 0, the PTx's reader side (end b): the MCU's buffer (2 kB, 5.1) keeps
 *        packets that arrive while its packets wait for their slots, up to N bytes, and
 *        sends them in order; only a packet arriving while a chunk of it is due or on the
 *        air ("while it is transmitting": from the first slot's chunk deadline to the
 *        last slot's end) is discarded. The captures show both: the server's FIN, 0.1 ms
 *        behind its ACK, crosses (Fig. 5.6 packets 12-14, 5.10 and 5.11), while the
 *        server's retransmission, sent as its 1080-byte response is on the air, never
 *        reaches the appliance (Fig. 5.6 packet 8: the appliance sends no Dup ACK,
 *        Table 5.3).
 *      The module is busy from the first byte of a packet it takes until the end of the
 *      slot carrying the last chunk it holds: that is the "module free" instant a
 *      channel-sensing stack waits for (5.3.1, Fig. 5.14).
 *   4. Chunks of chunk_bytes carry chunk_bytes - chunk_overhead packet bytes (14 - 4 = 10
 *      at 212 kbps, 30 - 4 = 26 at 424 kbps): ceil(packet / payload) slots. The module
 *      needs the whole packet (it is store-and-forward: the paper's t_UART precedes the
 *      slot wait) and a chunk must be in the NFC device lead_us (2 ms) before its slot.
 *      Slots start at slot_phase + k x slot_period (10 ms) and last slot_air (1.5 ms); a
 *      chunk is received at the end of its slot. Later chunks use the following slots
 *      (8.5 ms between slots leaves the 2 ms lead), unless the channel is taken.
 *   5. Sharing the channel between the two ends (channel):
 *      - LINK_NFC_CHANNEL_SLOT (the default): ISO/IEC 14443-4 is half duplex within a
 *        slot (the reader's block, then the card's answer), so every 1.5 ms slot carries a
 *        chunk each way and the two ends' packets cross at the same time. The paper's
 *        Fig. 5.6 shows it: the appliance's spurious retransmission (packet 9) reaches
 *        the Ethernet at 3.85 s, one UART + 108 slots after its RTO, while the server's
 *        1080-byte response (packet 7, 1.86 s) was still crossing the other way; one
 *        packet at a time would have held it until 4.14 s. (That the response, for its
 *        part, paused meanwhile is the reading of LINK_NFC_CHANNEL_A_FIRST.)
 *      - LINK_NFC_CHANNEL_PACKET: "can only transmit packets one at a time" (5.2.2) read
 *        as one packet on the channel at a time. Once a packet has its first slot, the
 *        slots up to its last chunk are its own; a packet of the other end waits (held
 *        in its own module) for the slot after. If both ends' packets could take the
 *        same slot, the end that did not send the previous packet goes first.
 *      - LINK_NFC_CHANNEL_A_FIRST: one chunk per slot, and the appliance's (end a's)
 *        packet takes every slot from its first to its last; a packet of end b already
 *        on the air pauses there and resumes after it (a new one of end b waits for it).
 *        Read from Fig. 5.6: the appliance's FIN (packet 11) follows the server's
 *        response (packet 7) by 2.341 s on the Ethernet, where Figs. 5.10 and 5.15 give
 *        1.254 and 1.256 s (one way of a 1080-byte packet and of a 54-byte one: the
 *        appliance closes at once). The 1.085 s more are the 108 slots of the
 *        appliance's spurious retransmission (packet 9), on the air meanwhile and itself
 *        undelayed, as above; and the FIN, sent once (Table 5.3), found the appliance's
 *        module free. The paper does not say which end the slots favour: this capture
 *        is the evidence (docs/replays.md, "The NFC bridge's close").
 *      Grants are decided at the slot's chunk deadline (slot start - lead).
 *   6. The receiving MCU forwards each chunk's payload to its stack over its UART as the
 *      chunk arrives (in parallel with the channel); the datagram is delivered when the
 *      last chunk's bytes are through: last slot end + last payload x 10 / 115200 (Eq.
 *      5.6, t_UARTchunk), later if that UART is still busy.
 *
 * Differences from Eq. 5.2 (one way = t_UART + 12 + t_NFC + t_UARTchunk): the model waits
 * the actual slot wait (between lead and lead + period, 2..12 ms; the paper takes the
 * worst, 12), uses whole slots (ceil(packet / payload); Eq. 5.5 is fractional: a 56-byte
 * packet is 5.6 slots there, 6 here), and ends the air time at the end of the last slot
 * (its start + 1.5 ms) where t_NFC = slots x 10 ms counts the whole last period, 8.5 ms
 * more. The NFC framing bytes themselves are proprietary (DICOMM): the delivery reports
 * their count (packet + 4 per slot), not bytes.
 *
 * Use: as link_serial.h (submit, next_event, take), plus link_nfc_module_free_at().
 * Submits must come in time order across both ends; time never goes backwards.
 */
#ifndef SIM_LINK_NFC_H
#define SIM_LINK_NFC_H

#include <stdint.h>

#include "link_line.h"

enum link_nfc_channel {
    LINK_NFC_CHANNEL_SLOT,   /* each slot carries a chunk each way */
    LINK_NFC_CHANNEL_PACKET, /* one packet on the channel at a time */
    LINK_NFC_CHANNEL_A_FIRST /* a chunk per slot; end a's packet takes the slots first */
};

struct link_nfc_config {
    uint32_t slot_period_us;    /* 10000 */
    uint32_t slot_air_us;       /* 1500: a chunk is received at the end of its slot */
    uint32_t slot_phase_us;     /* start of slot 0 */
    uint32_t lead_us;           /* 2000: chunk in the device before its slot */
    uint16_t chunk_bytes;       /* 14 at 212 kbps, 30 at 424 kbps */
    uint16_t chunk_overhead;    /* 4: NFC protocol bytes per slot */
    uint16_t pkt_overhead;      /* 16: UI protocol 8 + packet handling 8 */
    uint32_t uart_baud;         /* 115200 */
    uint8_t uart_bits_per_char; /* 10 */
    uint8_t qlen;               /* packets waiting for the stack-side UART */
    uint16_t mtu;               /* largest datagram */
    uint8_t channel;            /* enum link_nfc_channel (LINK_NFC_CHANNEL_SLOT) */
    uint16_t module_buffer[2];  /* per end, rule 3: 0 = one packet, else bytes ({0, 2048}) */
};

/* The paper's module: 212 kbps (kbps424 = 0: 11.2 kbps of packet) or 424 kbps (24 kbps),
 * 115200-baud UARTs, slot phase 0, qlen 10, MTU 1500, a chunk each way per slot, end a
 * holding one packet and end b buffering 2048 bytes. */
void link_nfc_config_default(struct link_nfc_config *c, int kbps424);

/* Slots for a datagram of len bytes: ceil((len + pkt_overhead) / chunk payload). */
uint32_t link_nfc_slots(const struct link_nfc_config *c, uint16_t len);

enum link_nfc_state {
    LINK_NFC_FREE,    /* ring entry unused */
    LINK_NFC_QUEUED,  /* waiting for / on the stack-side UART, module not yet asked */
    LINK_NFC_HELD,    /* in the module, no slot yet (a buffering module may hold
                           several: they are granted in `order`) */
    LINK_NFC_GRANTED, /* slots fixed, delivery time known */
    LINK_NFC_DROPPED  /* discarded by the busy module */
};

struct link_nfc_frame {
    uint8_t *data; /* the datagram (the caller's storage, mtu bytes) */
    uint16_t len;
    uint8_t state; /* enum link_nfc_state */
    uint32_t tag;
    uint32_t order; /* arrival order in the module, for a buffering module's FIFO */
    uint64_t submitted, uart_start, uart_end, first_slot, air_end, due;
    uint16_t slots;
    /* LINK_NFC_CHANNEL_A_FIRST, end b: chunks from i_resume on go in consecutive slots
     * from k_resume on, and reach the receiving UART as it was (rx_resume) before them;
     * the earlier ones are on the air already. */
    uint16_t i_resume;
    uint64_t k_resume;
    struct link_line rx_resume;
};

struct link_nfc_stats {
    uint32_t submitted;
    uint32_t drop_queue_full;  /* DROP_LINK_QUEUE_FULL */
    uint32_t drop_module_busy; /* DROP_NFC_MODULE_BUSY */
    uint32_t delivered;
    uint32_t slots; /* slots used by this end */
};

struct link_nfc_end {
    struct link_nfc_frame *ring;
    uint8_t n;
    struct link_line uart_tx;     /* stack -> own module */
    struct link_line uart_rx;     /* other module -> other stack (this direction's receiver) */
    int8_t held;                  /* ring index of the module's next packet to be granted
                                   slots, or of its last granted one; -1 none */
    uint32_t order;               /* packets taken by the module so far */
    uint64_t air_from, air_until; /* the last granted packet's chunk deadline .. air end */
    uint64_t next_slot;           /* LINK_NFC_CHANNEL_SLOT: first slot this end can use */
    struct link_nfc_stats stats;
};

/* LINK_NFC_CHANNEL_A_FIRST: end b's packet `tag`, on the air, pauses for the n slots from
 * slot_start on that end a's packet has just been granted (rule 5); its chunks after the
 * pause take the slots after them. */
typedef void (*link_nfc_pause_fn)(void *arg, uint32_t tag, uint64_t slot_start, uint32_t n);

struct link_nfc {
    struct link_nfc_config cfg;
    struct link_nfc_end end[2]; /* end[d]: datagrams sent by end d (direction d) */
    uint64_t now;               /* model processed up to here */
    uint64_t next_slot;         /* LINK_NFC_CHANNEL_PACKET: first slot the channel can
                                    grant */
    uint8_t last_dir;           /* LINK_NFC_CHANNEL_PACKET: the end that had it last */
    link_nfc_pause_fn on_pause; /* told of each pause, or NULL */
    void *pause_arg;
};

/* Per end: ring[d][0..n_frames[d]) records and mem[d] of at least n_frames x mtu bytes.
 * The ring holds queued, held, in-flight and not yet taken packets: qlen + 4 is plenty. */
int link_nfc_init(struct link_nfc *l, const struct link_nfc_config *cfg,
                  struct link_nfc_frame *ring[2], const uint8_t n_frames[2], uint8_t *mem[2],
                  const uint32_t mem_len[2]);

/* Who is told of end b's pauses (NULL: nobody); after link_nfc_init, which clears it. */
void link_nfc_set_pause_fn(struct link_nfc *l, link_nfc_pause_fn fn, void *arg);

/* End dir's stack sends data[0..len) at time t. ERR_OK, DROP_LINK_QUEUE_FULL (positive:
 * dropped and counted), ERR_MEM (ring full) or ERR_ARG. A module-busy drop shows later,
 * in take(), at the instant the module discards the packet. */
int link_nfc_submit(struct link_nfc *l, uint8_t dir, uint64_t t, const uint8_t *data, uint16_t len,
                    uint32_t tag);

/* Brings the model up to now: decides module accepts/discards and slot grants due. */
void link_nfc_advance(struct link_nfc *l, uint64_t now);

/* Earliest future instant at which something happens: a delivery or drop to take, a
 * module decision, a slot grant, or a module becoming free. 0 if nothing is pending.
 * Valid until the next submit. */
int link_nfc_next_event(const struct link_nfc *l, uint64_t *t);

/* When end dir's module is (or becomes) free, as known at the model's time: its held
 * packet's last slot end, the model's time if it holds none, LINK_TIME_NEVER while its
 * packet waits for a grant. Channel sensing: send when this is <= now. */
uint64_t link_nfc_module_free_at(const struct link_nfc *l, uint8_t dir);

/* Advances to now and hands out the earliest delivery or drop due at or before now: 1 and
 * *out filled, or 0. */
int link_nfc_take(struct link_nfc *l, uint64_t now, struct link_delivery *out);

#endif
