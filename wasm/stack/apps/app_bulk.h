/* Bulk transfer with an end marker, as the mTCP seed's throughput application (an
 * iperf-like sender and receiver):
 *   1. the sender connects and sends N bytes;
 *   2. then the four bytes "DONE";
 *   3. the receiver, on seeing "DONE", answers the two bytes "OK" and reports;
 *   4. the sender, on receiving "OK", reports and closes; the receiver closes when the
 *      sender has closed.
 *
 * The seed defines the figures so: the sender's throughput is bytes over the time from its
 * first byte sent to "OK" received; the receiver's is bytes over the time from the first
 * byte received to "OK" sent. The seed's actual sender figure (1 MB in 0.000245 s,
 * "32901 Mbit/s") measured only the copy of the data into the send buffer; the report
 * carries that figure too (queue_us: first byte taken by tcpsend to the last of the N
 * taken), so a replay can show both and explain the difference.
 *
 * The N bytes are the pattern 'a' + offset mod 26: lower case only, so "DONE" can never
 * appear inside the data, and the receiver checks every byte.
 */
#ifndef APP_BULK_H
#define APP_BULK_H

#include <stdint.h>

#include "socket.h"
#include "stack_time.h"

struct host;

#define APP_BULK_PORT 9000 /* the seed's example port */

/* Bytes generated (or read) per socket call, in a scratch buffer on the C stack. One
 * Ethernet MSS, so a message of up to an MSS is written in one tcpsend and leaves as one
 * segment: split in two, its second part would wait under Nagle's rule (RFC 9293 3.7.4)
 * for the ACK of the first, which the peer delays (RFC 1122 4.2.3.2) by up to 200 ms.
 * Builds for small targets (the Arduino) set a smaller value. */
#ifndef APP_BULK_CHUNK
#define APP_BULK_CHUNK 1460
#endif

#define APP_BULK_NO_MISMATCH 0xFFFFFFFFu

struct app_bulk_sender_report {
    uint8_t done;
    int error;                  /* 0, the connection's error, or ERR_CLSD (closed before OK) */
    uint8_t bad_reply;          /* the answer was not "OK" */
    uint32_t bytes;             /* data bytes queued (N when complete), without "DONE" */
    stack_time_t started_at;    /* SYN */
    stack_time_t first_send_at; /* first byte taken by tcpsend */
    stack_time_t queued_at;     /* last of the N bytes taken by tcpsend */
    stack_time_t ok_at;         /* "OK" received */
    uint32_t queue_us;          /* queued_at - first_send_at: what the seed's sender measured */
    uint32_t total_us;          /* ok_at - first_send_at: the seed's stated definition */
    uint32_t queue_kbps;        /* bytes / queue_us (0 when queue_us is 0) */
    uint32_t total_kbps;        /* bytes / total_us */
};

struct app_bulk_sender {
    int sock;
    uint8_t state;
    uint8_t ok_got; /* bytes of "OK" read so far */
    uint32_t len;   /* N */
    uint32_t sent;  /* stream bytes taken, "DONE" included */
    struct stack_sockaddr receiver;
    struct app_bulk_sender_report report;
};

struct app_bulk_receiver_report {
    uint8_t done; /* "OK" sent and the sender's close seen */
    uint8_t ok_sent;
    int error;
    uint16_t sessions;    /* transfers completed */
    uint32_t bytes;       /* data bytes, "DONE" not counted */
    uint32_t extra;       /* bytes after "DONE" (none in the protocol) */
    uint32_t checked;     /* data bytes compared with the pattern so far */
    uint32_t mismatch_at; /* first data byte not matching the pattern */
    uint32_t mismatches;
    stack_time_t first_byte_at;
    stack_time_t ok_at;  /* "OK" fully taken by tcpsend */
    uint32_t elapsed_us; /* ok_at - first_byte_at */
    uint32_t kbps;       /* bytes / elapsed_us */
};

struct app_bulk_receiver {
    int listener;
    int sock; /* -1 when no transfer is under way */
    uint8_t state;
    uint8_t ok_off;
    uint8_t win[4]; /* the last four bytes received, a ring indexed by total */
    uint32_t total; /* stream bytes received, "DONE" included */
    struct app_bulk_receiver_report report;
};

uint8_t app_bulk_pattern(uint32_t offset);

/* Connects to `receiver` (port 0 = APP_BULK_PORT) to send `bytes` bytes. */
int app_bulk_sender_start(struct app_bulk_sender *a, struct host *h,
                          const struct stack_sockaddr *receiver, uint32_t bytes);
/* Returns 0 (no timers of its own). */
int app_bulk_sender_poll(struct app_bulk_sender *a, struct host *h, stack_time_t *next);

/* Listens on `port` (0 = APP_BULK_PORT); takes one transfer at a time. The report holds
 * the last transfer's figures. */
int app_bulk_receiver_start(struct app_bulk_receiver *a, struct host *h, uint16_t port);
/* Returns 0 (no timers of its own). */
int app_bulk_receiver_poll(struct app_bulk_receiver *a, struct host *h, stack_time_t *next);

#endif
