/* The TCP responder for small devices: echo (port 7, RFC 862) and discard (port 9,
 * RFC 863), and a reset for every other port, served from the received datagram itself.
 *
 * A host has either the full TCP (tcp.h, with sockets and buffers) or this one
 * (STACK_TCP_RESPONDER in stack_opts.h; with both built, cfg.tcp_responder chooses per
 * host). The responder keeps no data: each segment is turned into its answer in the buffer
 * it arrived in (addresses swapped, the data echoed or dropped, the acknowledgement set),
 * and what is not yet acknowledged stays on the peer's retransmission queue. If an answer
 * is lost, the peer sends its segment again and gets the same answer. If a later answer
 * arrives instead, its ACK covers the lost echo's data, which the peer then forgets: the
 * responder sees the peer send from a window past its own echo and resets the connection
 * (DROP_TCP_ECHO_LOST) rather than let it wait for ever. A connection is a table entry:
 * the peer's address and port, the two sequence numbers and the state.
 *
 * The window (cfg.tcp_responder_wnd): one MSS by default, what the responder can take in
 * one datagram and echo at once; then one connection waits a round trip per segment
 * (46 % of a SLIP line). A device that keeps receiving into a raw ring while it sends an
 * answer absorbs the next segment meanwhile: two MSS (1072 at MTU 576) keep both
 * directions of the line busy with one connection. The device never holds more than that
 * whatever the number of connections: it answers each frame as it comes, and the peer's
 * other segments wait on the peer's side of the line. So a window above one MSS is for a
 * connection alone: with two or more busy (a segment of each arrived within the last
 * TCP_RESPONDER_BUSY_US or two of them), each is offered one MSS, their segments
 * together keep the line busy, and a larger window would only lengthen the peer's queue
 * and every round trip in it (Linux with 5 connections, measured under simavr: 78 % of
 * the line and one connection echoed 7 times as much as another, with two MSS each; 90 %
 * and all alike, with one). The window falls as a segment is taken, so the right edge
 * stays where it was when that segment was a full one (RFC 9293 3.8.6: not shrunk).
 *
 * Turns: at most TCP_RESPONDER_WINDOWS connections (stack_opts.h) hold a window at once.
 * Every window lets the peer put a segment in its interface's queue, and a queue that
 * holds fewer than there are windows refuses the rest: Linux then retries a refused
 * connection every 500 ms while those whose ACKs come back take every place freed, and
 * ends one refused 15 times (ETIMEDOUT; firmware/README.md: with one MSS for each of 20
 * connections, one had nothing echoed in 10 s or was ended in every other run). Beyond
 * that many, a connection waits with its window closed (a SYN-ACK or an echo offering
 * none, its right edge not moved back), has its zero-window probes answered with none
 * (RFC 9293 3.8.6.1) and its data not taken (3.10.7.4: a zero window takes nothing but a
 * pure ACK at RCV.NXT). A holder that has filled its window TCP_RESPONDER_TURN times in its
 * turn gives it up (and so does one that closes); the next waiting one in table order
 * after the last turn given has it (round robin: each waits one round at most), told by a
 * window update. A place left by a holder gone quiet for a busy period goes to the first
 * waiting one that probes, in the answer to its probe. The update is no answer to
 * anything, so the responder only owes it (tcp_responder_turn_owed()) and host_poll()
 * sends it: at once in the simulator, on a device once it has caught up with what it
 * received, so that the update never leaves it behind the line.
 *
 * How a datagram reaches it: the host's owner calls host_input(h, netif, dgram, len, now)
 * as for any host. IP checks the datagram (header checksum, lengths; reassembly) and hands
 * a TCP datagram to tcp_responder_input() below, which checks the segment (length, data
 * offset, checksum, options), answers it and returns before host_input() does. The answer
 * is built over the request in `dgram` (or, for a SYN-ACK that is longer than a SYN without
 * options, in h->txbuf when dgram is not already that buffer) and handed to the
 * interface's output function; so `dgram` must be writable and must hold the whole
 * datagram. Nothing is kept from it: the owner may reuse the buffer when host_input()
 * returns. There are no timers: host_poll() only sends the window updates owed, each from
 * a 40-byte buffer on the C stack.
 *
 * What it answers (RFC 9293 3.10.7; its departures are listed in docs/rfc1122-tcp.md):
 *   SYN to 7 or 9       a table entry, and SYN-ACK with an MSS option (ISS from
 *                        host_random(): the host's seeded generator)
 *   data on echo        the data back at the mirrored sequence number, with the ACK
 *   data on discard     an ACK
 *   FIN                 FIN-ACK (the service closes as soon as the peer does); the ACK
 *                        of our FIN frees the entry
 *   anything else       a reset (RFC 9293 3.10.7.1), a challenge ACK (RFC 5961), or an
 *                        ACK with the current numbers, each counted as a drop with its
 *                        reason (drop_reason.h)
 * A full table (a second-chance sweep, as the CLOCK page replacement): every segment marks
 * its entry; a SYN that finds the table full sweeps it from where the last sweep stopped,
 * clearing marks, and takes the first entry found unmarked, i.e. quiet since the sweep last
 * passed it. When all are marked, the SYN is dropped (DROP_TCP_NO_PCB_MEM) and its
 * retransmission, a second or more later, takes an entry that stayed quiet meanwhile. So
 * entries left half-open, or whose peer went away without a FIN or a reset (and entries in
 * LAST_ACK whose final ACK was lost: the responder never sends its FIN again by itself),
 * are reclaimed, and a connection that sends at least once between two sweeps never is.
 * The entry does not keep our own address: on a host with several, one peer's connections
 * to two of them from the same port would share an entry.
 */
#ifndef STACK_TCP_RESPONDER_H
#define STACK_TCP_RESPONDER_H

#include <stddef.h>
#include <stdint.h>

#include "ip.h"
#include "stack_opts.h"
#include "stack_time.h"

struct host;
struct host_arena;
struct host_config;

#define TCP_RESPONDER_ECHO_PORT    7 /* RFC 862 */
#define TCP_RESPONDER_DISCARD_PORT 9 /* RFC 863 */

/* One connection: 15 bytes on an AVR, 11 without the peer's address
 * (TCP_RESPONDER_PEER_ADDR 0, stack_opts.h). `flags` holds the state (enum tcp_state, low
 * four bits; TCP_CLOSED is a free entry) and the TCP_RESPONDER_F_* bits. */
struct tcp_responder_conn {
#if TCP_RESPONDER_PEER_ADDR
    uint32_t raddr; /* the peer's address */
#endif
    uint32_t rcv_nxt; /* RFC 9293 3.3.1 RCV.NXT */
    uint32_t snd_nxt; /* SND.NXT; on echo, the mirror of rcv_nxt: their byte k is our byte k */
    uint16_t rport;   /* the peer's port */
    uint8_t flags;
};

#define TCP_RESPONDER_F_STATE     0x0Fu
#define TCP_RESPONDER_F_DISCARD   0x10u /* port 9; else port 7 */
#define TCP_RESPONDER_F_SEEN      0x20u /* a segment arrived since the last full-table sweep */
#define TCP_RESPONDER_F_BUSY      0x40u /* a segment arrived in this busy period... */
#define TCP_RESPONDER_F_BUSY_PREV 0x80u /* ...or in the one before (TCP_RESPONDER_BUSY_US) */

/* The bytes of the marks kept for n entries: three bits each (tcp_responder.c: rsp_mark). */
#define TCP_RESPONDER_MARK_BYTES(n) (3u * (((unsigned)(n) + 7u) / 8u))

struct tcp_responder_state {
    struct tcp_responder_conn *conns; /* cfg.tcp_responder_conns entries */
    uint8_t *marks;                   /* bits per entry (tcp_responder.c: enum rsp_mark) */
    stack_time_t busy_since;          /* when this busy period began */
    uint8_t hand;                     /* where the next full-table sweep starts */
    uint8_t open;                     /* entries in use: not CLOSED */
    uint8_t turn;                     /* where the search for the next turn starts */
    uint8_t n_waiting;                /* entries marked waiting */
    uint8_t owed;                     /* windows given up, not yet passed on */
    uint8_t netif;                    /* the interface the last segment came in on */
#if !TCP_RESPONDER_PEER_ADDR
    uint32_t peer; /* its sender: the peer of every entry on a point-to-point line */
#endif
};

size_t tcp_responder_mem_required(const struct host_config *cfg);
int tcp_responder_init(struct host *h, struct host_arena *arena);

/* A TCP datagram for this host (called by IP; see the top of this file). Returns 1 when an
 * answer left (one datagram, handed to the interface's output before the return), 0 when
 * the segment needed none (an acceptable pure ACK, or a segment dropped without an answer:
 * bad checksum, a reset, a SYN that finds the table full; each drop counted in
 * h->stats.drops with its reason), or a negative enum stack_err when an answer was due but
 * could not leave (no route: DROP_IP_NO_ROUTE; the link refused it: DROP_NETIF_DOWN). It
 * may leave a window update owed (turns, above). */
int tcp_responder_input(struct host *h, struct ip_rx *rx);

/* Is a window given up waiting to be passed on (turns, above)? Then the host's owner calls
 * tcp_responder_pass_turn() when its line has room for one more datagram that answers
 * nothing: the simulator at once (host_poll), a device once it has caught up with what it
 * received (no whole frame waiting), so that the update never puts it behind the line. */
int tcp_responder_turn_owed(const struct host *h);

/* Sends the next waiting connection its window update. Returns 1 when one left, 0 when
 * none was owed (or nobody waits any more), negative when the link refused it. */
int tcp_responder_pass_turn(struct host *h);

/* Entries in use (any state but CLOSED). */
uint8_t tcp_responder_count(const struct host *h);

/* The entry of the connection between our port lport and raddr:rport, or -1 (raddr is not
 * compared with TCP_RESPONDER_PEER_ADDR 0). */
int tcp_responder_find(const struct host *h, uint16_t lport, uint32_t raddr, uint16_t rport);

/* Entry `i` (0 .. cfg.tcp_responder_conns - 1), for tests and the simulator's views. */
const struct tcp_responder_conn *tcp_responder_conn(const struct host *h, uint8_t i);

#endif
