/* The Arduino echo server seed rebuilt on wasm/stack: ICMP echo, TCP echo (port 7) and
 * discard (port 9), a reset for every other TCP port, UDP and other protocols ignored,
 * over SLIP on the UART. The sketch (stackscope_echo.ino) calls these two. */
#ifndef ECHO_SERVER_H
#define ECHO_SERVER_H

#ifdef __cplusplus
extern "C" {
#endif

/* Starts the UART and the host. */
void echo_setup(void);

/* Decodes what the UART brought and feeds a whole datagram to the stack, or sleeps until
 * the next byte. Returns quickly; call it forever. */
void echo_loop(void);

#ifdef __cplusplus
}
#endif

#endif
