/* What the echo server is: its address and the sizes of its memory. The IP address is set
 * here and nowhere else. */
#ifndef ECHO_CONFIG_H
#define ECHO_CONFIG_H

#include "src/stack/bytes.h"

/* The server's address (the seed's 10.0.7.2). The serial line is point to point: every
 * reply goes back over it, whatever the peer's address (netmask 0, one route). */
#define ECHO_ADDR IP4(10, 0, 7, 2)

/* The link: SLIP (RFC 1055) at 57600 baud, 8N1. At 16 MHz the UART's divider gives
 * 58823 baud (UBRR 16, no double speed: what Arduino's Serial.begin(57600) picks too),
 * 2.1 % fast, well inside what a UART tolerates. */
#define ECHO_BAUD 57600UL
#define ECHO_UBRR 16

/* MTU 576, the minimum every IPv4 host must accept (RFC 791, RFC 1122 3.3.2): the largest
 * datagram received and sent. Both live in the stack's one datagram buffer (txbuf): see
 * frame_rx.h. */
#define ECHO_MTU 576

/* TCP (the responder): connections at once, 50 as the seed served, 11 bytes each (the
 * peer's address is not kept: TCP_RESPONDER_PEER_ADDR in firmware_opts.h). */
#define ECHO_TCP_CONNS 50

/* The window advertised: two segments of the MSS (576 - 40 = 536). The board answers one
 * segment while the next arrives into the part of the buffer already sent (frame_rx.h),
 * so a single connection keeps both directions of the line busy; with one MSS it would
 * wait a round trip per segment (tcp_responder.h: 46 % of the line). */
#define ECHO_TCP_WND (2u * (ECHO_MTU - 40u))

/* Bytes from the UART waiting to be decoded (a power of two, at most 256): what arrives
 * while the board works on a frame before its answer starts to leave (1.5 ms, 8 byte
 * times, for a 576-byte segment), and by how much the frame coming in is ahead of the
 * answer leaving, into whose sent part it is decoded (frame_rx.h). */
#define ECHO_RX_RING 128

/* A frame whose bytes stop coming for this long is abandoned (milliseconds). */
#define ECHO_FRAME_TIMEOUT_MS 20u

#endif
