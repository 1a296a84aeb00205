/* What the echo server is: its address and the sizes of its buffers. The IP address is
 * set here and nowhere else. */
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
 * datagram received (the SLIP decoder's buffer) and sent (the stack's transmit buffer). The
 * two are the same 576 bytes; see echo_server.c. */
#define ECHO_MTU 576

/* TCP: two connection blocks (a listener and a connection, see echo_server.c) and one
 * send and one receive ring for the connection (a listener needs none).
 * The receive ring is the window we advertise (64 bytes): the peer sends that much and
 * waits. The send ring holds two windows, so one echo can leave while the previous one
 * waits for its ACK; the peer then sees two segments and acknowledges at once, rather
 * than after its delayed-ACK timer (RFC 1122 4.2.3.2): 10 KB echo in 8 s, not 38 s. */
#define ECHO_TCP_PCBS 2
#define ECHO_TCP_SND_BUF 128
#define ECHO_TCP_RCV_BUF 64

/* Bytes from the UART waiting to be decoded (a power of two, at most 256): what arrives
 * while the firmware is sending or busy with a frame. One segment of a full window, SLIP
 * framed (64 + 40 + 2 bytes and a few escapes), must fit: the peer sends one as soon as
 * our window update reaches it, which is while our echo is still going out. */
#define ECHO_RX_RING 128

/* A frame whose bytes stop coming for this long is abandoned (microseconds). */
#define ECHO_FRAME_TIMEOUT_US 20000UL

#endif
