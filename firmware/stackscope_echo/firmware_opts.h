/* Compile-time options of the stack for the Arduino Uno build (ATmega328P: 2 KB of RAM,
 * 32 KB of flash). Everything the stack's headers let a build override (stack_opts.h, the
 * apps' sizes) is set here, in one place: the copy of the stack in src/stack/ (made by
 * make-sketch.sh, for the Arduino IDE and the Makefile alike) includes this file first
 * from its stack_opts.h, since the IDE cannot pass -D flags. Only #defines here. */
#ifndef FIRMWARE_OPTS_H
#define FIRMWARE_OPTS_H

/* The configuration is a constant (echo_config.c): link-time optimisation folds every
 * setting, which keeps the code of unused options (other RTO estimators, fragmentation,
 * timestamps, ...) out of the 32 KB of flash. */
#define STACK_FIXED_CONFIG 1

#define STACK_TRACE 0                 /* nobody listens to trace events on the board */
#define STACK_PING 0                  /* answers pings, sends none */
#define STACK_SACK 0                  /* no SACK: 48 bytes of connection blocks */
#define STACK_EIFEL 0                 /* no undoing of spurious timeouts: 16 bytes, 330 of flash */
#define STACK_COUNTER uint8_t         /* statistics wrap at 256: 220 bytes of RAM spared */
#define STACK_MAX_NETIFS 1            /* the UART */
#define STACK_MAX_ROUTES 1            /* everything goes out of it */
#define TCP_OOO_MAX_RANGES 1          /* the smallest array; out-of-order data is off */
#define TCP_RTO_ALG1_MAX_WINDOW 1     /* the NFC estimator is not used */
#define STACK_NOINLINE __attribute__((noinline)) /* keeps big locals off deep call chains */

/* One connection at a time; the scratch buffers live on the C stack, so they stay small.
 * The echo server moves one receive window (ECHO_TCP_RCV_BUF) at a time, so a segment
 * goes back as one segment (see app_tcp_echo.h). */
#define APP_TCP_SERVER_MAX_CONNS 1
#define APP_TCP_ECHO_CHUNK 64
#define APP_TCP_DISCARD_CHUNK 32
#define APP_TCP_DISCARD_PAUSE 0         /* the discard server never pauses reading */

#endif
