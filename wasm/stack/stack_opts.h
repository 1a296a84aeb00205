/* Compile-time limits of the stack, in one place, as lwIP's opt.h.
 *
 * These fix the size of arrays inside the host and connection structures. Everything that
 * can vary per host at run time (buffer sizes, timers, algorithms) is in host_config.h
 * instead, with its documented default. Override any of these with -D on the compiler
 * line; the Arduino firmware does, to fit in 2 KB of RAM.
 */
#ifndef STACK_OPTS_H
#define STACK_OPTS_H

/* Interfaces per host: 1 for an end host, 2 for the NFC paper's bridge (PTx), 3 to spare. */
#ifndef STACK_MAX_NETIFS
#define STACK_MAX_NETIFS 3
#endif

/* Static routes per host (the bridge needs one host route plus a default). */
#ifndef STACK_MAX_ROUTES
#define STACK_MAX_ROUTES 4
#endif

/* Disjoint byte ranges the out-of-order queue of one connection can hold; the data itself
 * sits in the receive ring at its final place (RFC 9293 3.10.7.4: keep segments that are
 * in the window but not next). */
#ifndef TCP_OOO_MAX_RANGES
#define TCP_OOO_MAX_RANGES 4
#endif

/* Selective acknowledgments (RFC 2018, RFC 6675; cfg.tcp_sack turns them on). 0 leaves
 * the code and the connection block's fields for them out (the firmware: no RAM). */
#ifndef STACK_SACK
#define STACK_SACK 1
#endif

/* Eifel, the undoing of spurious timeouts (RFC 3522, 4015; cfg.tcp_eifel turns it on). 0
 * leaves its code and the connection block's fields for it out (the firmware). */
#ifndef STACK_EIFEL
#define STACK_EIFEL 1
#endif

/* SACKed ranges the sender's scoreboard of one connection can hold (RFC 6675 3); when it
 * is full the highest range is forgotten, which only makes the sender more careful. */
#ifndef TCP_SACK_SB_MAX
#define TCP_SACK_SB_MAX 8
#endif

/* Largest window of recent r factors the NFC paper's Algorithm 1 can keep (section 5.3.2.2:
 * "a window of recent values of r"); the configured size is at most this. */
#ifndef TCP_RTO_ALG1_MAX_WINDOW
#define TCP_RTO_ALG1_MAX_WINDOW 8
#endif

/* Datagrams IP reassembly remembers after completing them (ip_frag.c), for the reassembly
 * timeout: a late duplicate of one of their fragments is then dropped, instead of holding
 * a slot for a datagram that can never complete. The oldest is forgotten first. */
#ifndef IP_REASS_DONE_MAX
#define IP_REASS_DONE_MAX 4
#endif

/* Events for the tracer (trace.h). 0 compiles every report out: the firmware has no one
 * listening, and the flash the calls take is what it lacks. */
#ifndef STACK_TRACE
#define STACK_TRACE 1
#endif

/* Duplicate ACKs that make a sender retransmit at once and enter fast recovery: RFC 5681
 * 3.2's DupThresh, 3. The default of the host's tcp_dupack_thresh, which host_init refuses
 * as 0, so the TCP code reads the configuration alone. */
#ifndef TCP_DUPACK_THRESH_DEFAULT
#define TCP_DUPACK_THRESH_DEFAULT 3
#endif

/* Which TCP a host has (tcp_responder.h). 0: the full TCP (tcp.h), with sockets, only.
 * 1: both, each host choosing at run time with cfg.tcp_responder (the simulator). 2: the
 * responder only: echo on port 7, discard on 9 and a reset for everything else, served
 * from the received datagram; the full TCP's code, its state in the host and the socket
 * calls are left out, so a build must not compile tcp*.c, socket_tcp.c or the TCP apps
 * (a firmware with 2 KB of RAM and no room for a connection block per connection). */
#ifndef STACK_TCP_RESPONDER
#define STACK_TCP_RESPONDER 1
#endif

/* Connections the responder's table holds (cfg.tcp_responder_conns), each a few bytes:
 * the peer's address and port, the two sequence numbers and the state. 50 is the most the
 * seed's Arduino served at once. */
#ifndef TCP_RESPONDER_CONNS_DEFAULT
#define TCP_RESPONDER_CONNS_DEFAULT 50
#endif

/* Whether the responder's entries keep the peer's address (4 of their 15 bytes). 0 is for
 * a device on a point-to-point link whose peer is one host, as a SLIP line's: segments are
 * then told apart by the peer's port alone, and two hosts behind the peer that came from
 * the same port would share an entry. */
#ifndef TCP_RESPONDER_PEER_ADDR
#define TCP_RESPONDER_PEER_ADDR 1
#endif

/* The window the responder advertises (cfg.tcp_responder_wnd); 0 is one MSS: what it can
 * take in one datagram and echo back at once, having no buffer of its own. A device whose
 * link keeps receiving while it sends (a raw receive ring) can absorb more; it says so. */
#ifndef TCP_RESPONDER_WND_DEFAULT
#define TCP_RESPONDER_WND_DEFAULT 0
#endif

/* How long a responder connection counts as busy after its last segment, for sharing the
 * window (tcp_responder.h): between one and two of these, microseconds. A connection that
 * sends nothing for a second is not using its window (RFC 6298 2.4: a sender's timeout is
 * at least a second, so a peer with data in flight is heard from within it), and an entry
 * whose peer went away without a reset it could hear (the reset lost in the peer's own
 * queue) no longer makes every other connection share. */
#ifndef TCP_RESPONDER_BUSY_US
#define TCP_RESPONDER_BUSY_US 1000000u
#endif

/* How many responder connections hold a window at once (tcp_responder.h: turns); the
 * others wait, their windows closed, and take turns. Each window lets the peer put a
 * segment in its interface's queue, which takes 10 datagrams on a SLIP line (Linux's sl0,
 * txqueuelen 10): a segment the full queue refuses makes the peer's connection wait and
 * retry every 500 ms, and Linux ends one refused 15 times (ETIMEDOUT), while connections
 * whose ACKs come back keep taking the places freed. The queue also carries the ACKs,
 * zero-window probes and SYNs of the connections waiting. Measured with Linux under
 * simavr (20 s rows, firmware/README.md): 8 gave 84.7 % of the line with 20 connections,
 * but with 50 Linux's queue refused 366 datagrams and one connection had nothing back in
 * 20 s; 5 gave 80.7 % with 20; 6 gives 83.2 % with 20 and 80.7 % with 50, all served. */
#ifndef TCP_RESPONDER_WINDOWS
#define TCP_RESPONDER_WINDOWS 6u
#endif

/* How many windows a responder connection fills in one turn before it waits again, 1 to 4.
 * Each turn costs the line a window update and the peer's ACK without data, and each wait
 * the peer's zero-window probes (Linux's at RTO, doubling): longer turns spread those over
 * more segments, but each connection waits longer for its next. */
#ifndef TCP_RESPONDER_TURN
#define TCP_RESPONDER_TURN 3u
#endif

/* The ping client (ping.h). 0 leaves it out: echo requests are still answered (icmp.c),
 * but this host sends none, and echo replies count as unexpected. The firmware needs
 * neither its code nor its ~120 bytes of state in the host. */
#ifndef STACK_PING
#define STACK_PING 1
#endif

/* Type of the statistics counters: drops per reason (struct host_stats), datagrams and
 * bytes per interface, IP, ICMP, UDP and TCP counts. Nothing in the stack decides on them.
 * The firmware counts in uint8_t, which wraps, to spare 220 bytes of RAM. */
#ifndef STACK_COUNTER
#define STACK_COUNTER uint32_t
#endif

/* Marks a function that must not be inlined into its callers. Empty here: C99 cannot say
 * it, and only the firmware needs it, which sets GCC's __attribute__((noinline)) so that a
 * large local structure leaves the Uno's small C stack before the deep calls that follow
 * (app_tcp_echo.c). */
#ifndef STACK_NOINLINE
#define STACK_NOINLINE
#endif

/* Ethernet II and ARP (eth.h, arp.h) for interfaces on an Ethernet link. 0 leaves them
 * out: every interface is then point to point (the firmware's UART). */
#ifndef STACK_ETHERNET
#define STACK_ETHERNET 1
#endif

/* ARP cache entries per interface (RFC 1122 2.3.2.1). An Ethernet link of the simulator
 * joins two nodes, so a handful is plenty; when it is full the entry closest to expiry
 * makes room. */
#ifndef ARP_TABLE_SIZE
#define ARP_TABLE_SIZE 8
#endif

/* Addresses a bridge's interface answers ARP for besides its own (proxy ARP). */
#ifndef ARP_PROXY_MAX
#define ARP_PROXY_MAX 8
#endif

/* Largest queue of datagrams waiting for an address (struct arp_config.queue_len). */
#ifndef ARP_QUEUE_MAX
#define ARP_QUEUE_MAX 128
#endif

/* Defaults of struct arp_config. Life of a learned entry: lwIP's ARP_MAXAGE, 5 minutes
 * (RFC 1122 2.3.2.1 leaves it to the implementation). One request per second for an
 * address (RFC 1122 2.3.2.1: "no more than one ARP request per second"), five of them before
 * giving up, as lwIP's ARP_MAXPENDING of 5 s. 101 datagrams wait, Linux's unres_qlen
 * (RFC 1122 2.3.2.2 asks for at least the latest one; a 64 KB ping is 45 fragments, all
 * sent before the reply comes). No gratuitous ARP at start: it is a frame the scenarios did not
 * ask for. */
#ifndef ARP_CACHE_TIMEOUT_MS_DEFAULT
#define ARP_CACHE_TIMEOUT_MS_DEFAULT 300000u
#endif
#ifndef ARP_RETRY_MS_DEFAULT
#define ARP_RETRY_MS_DEFAULT 1000u
#endif
#ifndef ARP_MAX_TRIES_DEFAULT
#define ARP_MAX_TRIES_DEFAULT 5
#endif
#ifndef ARP_QUEUE_LEN_DEFAULT
#define ARP_QUEUE_LEN_DEFAULT 101
#endif
#ifndef ARP_GRATUITOUS_DEFAULT
#define ARP_GRATUITOUS_DEFAULT 0
#endif

#endif
