/* Compile-time options of the stack for the Arduino Uno build (ATmega328P: 2 KB of RAM,
 * 32 KB of flash). Everything the stack's headers let a build override (stack_opts.h) is
 * set here, in one place: the copy of the stack in src/stack/ (made by make-sketch.sh, for
 * the Arduino IDE and the Makefile alike) includes this file first from its stack_opts.h,
 * since the IDE cannot pass -D flags. Only #defines here. */
#ifndef FIRMWARE_OPTS_H
#define FIRMWARE_OPTS_H

/* The configuration is a constant (echo_config.c): link-time optimisation folds every
 * setting, which keeps the code of unused options out of the 32 KB of flash. */
#define STACK_FIXED_CONFIG 1

/* TCP is the responder alone (tcp_responder.h): echo and discard answered in the datagram
 * they came in, a table entry per connection and no buffer of its own. The full TCP, its
 * sockets and apps are not built (stack-sources.txt lists what is). */
#define STACK_TCP_RESPONDER     2
/* Its entries leave out the peer's address (11 bytes instead of 15, 200 for 50): a SLIP
 * line is point to point, its one peer the host at the other end. */
#define TCP_RESPONDER_PEER_ADDR 0

#define STACK_TRACE      0                         /* nobody listens to trace events on the board */
#define STACK_PING       0                         /* answers pings, sends none */
#define STACK_COUNTER    uint8_t                   /* statistics wrap at 256: RAM spared */
#define STACK_MAX_NETIFS 1                         /* the UART */
#define STACK_MAX_ROUTES 1                         /* everything goes out of it */
#define STACK_ETHERNET   0                         /* a UART: no Ethernet, no ARP */
#define STACK_NOINLINE   __attribute__((noinline)) /* keeps big locals off deep call chains */

#endif
