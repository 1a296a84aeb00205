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

/* Largest window of recent r factors the NFC paper's Algorithm 1 can keep (section 5.3.2.2:
 * "a window of recent values of r"); the configured size is at most this. */
#ifndef TCP_RTO_ALG1_MAX_WINDOW
#define TCP_RTO_ALG1_MAX_WINDOW 8
#endif

#endif
