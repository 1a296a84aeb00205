/* Time as the stack sees it.
 *
 * The stack never reads a clock: every entry point takes `now`, in microseconds, from a
 * free-running 32-bit counter that may wrap (it does so every 71.6 minutes). Comparisons
 * are done on the signed difference, so they stay right across a wrap as long as the two
 * instants are less than 35 minutes apart (TCP sequence numbers use the same trick,
 * RFC 9293 section 3.4).
 *
 * Microseconds rather than milliseconds so that ping can report RTTs the way Linux ping
 * does (31.361 ms) and a 2.8 ms Ethernet-only session is measured, not rounded to 0.
 */
#ifndef STACK_TIME_H
#define STACK_TIME_H

#include <stdint.h>

typedef uint32_t stack_time_t; /* microseconds, wrapping */

#define STACK_MS(ms) ((stack_time_t)(ms)*1000u)

/* The longest delay the stack accepts for a timer or an interval it is given (an RTO cap,
 * TIME_WAIT, a ping's interval): 2000 s, well inside the 35 minutes within which two
 * instants compare right. */
#define STACK_MAX_DELAY_MS 2000000u

static inline int time_before(stack_time_t a, stack_time_t b)
{
    return (int32_t)(a - b) < 0;
}

static inline int time_after_eq(stack_time_t a, stack_time_t b)
{
    return (int32_t)(a - b) >= 0;
}

/* Keeps the earlier of an existing deadline and a new one. Both are absolute instants;
 * `has` says whether *deadline holds one yet. */
static inline void time_earliest(stack_time_t *deadline, int *has, stack_time_t t)
{
    if (!*has || time_before(t, *deadline)) {
        *deadline = t;
        *has = 1;
    }
}

#endif
