/* Request/response session, as in the NFC bridge paper (section 5.2): the appliance (TCP
 * client, port 49153) connects to the end-user device (TCP server, port 7891), sends a
 * request, the server answers, and the client closes; the paper's figure of merit is the
 * session latency. Its basic session exchanges one MSS-sized payload each way (1024 B of
 * TCP data, 1080 B on the NFC link with the overheads of its Table 5.2); its long session
 * (Fig. 5.19) is 68 messages of varying sizes.
 *
 * Here a session is a caller-given array of rounds: before round i the client waits
 * think_ms (counted from the end of the previous response, or from the handshake for
 * round 0), sends req_len bytes, and reads resp_len bytes back; the server reads req_len
 * bytes and answers resp_len bytes. Both sides get the same array. After the last round
 * the client closes (FIN first, as in the paper's captures) and the server closes when
 * it sees the client's FIN.
 *
 * Session latency: the paper's captures (Fig. 5.6, 5.10-5.12, 5.15, 5.16) span from the
 * start of the session (the ARP request just before the SYN) to the client's last ACK of
 * the closing handshake, e.g. 2.8 ms for the Ethernet-only session of Fig. 5.12. The
 * client measures the same span: from tcpconnect (the SYN leaves its stack; an ARP
 * exchange it waits for on an Ethernet link, its own or a bridge's, is inside it) to the
 * moment its connection reaches TIME_WAIT, which is when that last ACK leaves (RFC 9293
 * 3.6: FIN-WAIT-2 receiving the peer's FIN), or is over (CLOSED). The client closes with
 * tcpshutdown so that tcpstatus can follow the closing handshake, then tcpclose.
 *
 * Bytes carry a pattern that depends on the round and the direction, so a byte of one
 * round read as another's is caught.
 */
#ifndef APP_REQRESP_H
#define APP_REQRESP_H

#include <stdint.h>

#include "app_common.h"
#include "socket.h"
#include "stack_time.h"

struct host;

#define APP_REQRESP_PORT        7891  /* the paper's server port */
#define APP_REQRESP_CLIENT_PORT 49153 /* the paper's client port */

/* Bytes generated (or read) per socket call, in a scratch buffer on the C stack. One
 * Ethernet MSS, so a message of up to an MSS is written in one tcpsend and leaves as one
 * segment: split in two, its second part would wait under Nagle's rule (RFC 9293 3.7.4)
 * for the ACK of the first, which the peer delays (RFC 1122 4.2.3.2) by up to 200 ms.
 * Builds for small targets (the Arduino) set a smaller value. */
#ifndef APP_REQRESP_CHUNK
#define APP_REQRESP_CHUNK 1460
#endif

struct app_reqresp_round {
    uint32_t req_len;  /* client -> server */
    uint32_t resp_len; /* server -> client */
    uint32_t think_ms; /* client's pause before sending this round's request */
    uint32_t split;    /* client: 0 < split < req_len writes the request in two tcpsend
                           calls, the first `split` bytes and then the rest at once (a
                           header and a body: "write-write-read", whose second write
                           Nagle's rule holds for the ACK of the first, RFC 896, RFC 1122
                           4.2.3.4); 0 writes it in one. The server ignores it */
};

struct app_reqresp_client_report {
    uint8_t done;
    int error;                /* 0, the connection's error, ERR_CLSD if the server
                                    closed before the last response */
    uint16_t rounds_done;     /* responses read completely */
    uint32_t req_bytes;       /* request bytes taken by tcpsend, all rounds */
    uint32_t resp_bytes;      /* response bytes read, all rounds */
    uint32_t resp_mismatches; /* response bytes not matching the pattern */
    uint32_t extra;           /* bytes that came when no response was due */
    stack_time_t syn_at;      /* tcpconnect */
    stack_time_t established_at;
    stack_time_t last_resp_at; /* last byte of the last response read */
    stack_time_t fin_at;       /* tcpclose */
    stack_time_t end_at;       /* TIME_WAIT reached: the last ACK left */
    uint32_t latency_us;       /* end_at - syn_at: the paper's session latency */
};

struct app_reqresp_client {
    int sock;
    uint8_t state;
    uint16_t local_port;
    uint16_t n_rounds, round;
    const struct app_reqresp_round *rounds;
    uint32_t *round_us;  /* optional, n_rounds entries: request start to response end */
    uint32_t off;        /* bytes of the current request sent / response read */
    stack_time_t t_mark; /* think deadline, then when the request began */
    struct stack_sockaddr server;
    struct app_reqresp_client_report report;
};

struct app_reqresp_server_report {
    uint8_t done; /* the last session ended with the client's close */
    int error;
    uint16_t sessions;    /* sessions ended by the client's close */
    uint16_t rounds_done; /* responses fully queued, all sessions */
    uint32_t req_bytes;   /* request bytes read, all sessions */
    uint32_t resp_bytes;  /* response bytes queued */
    uint32_t req_mismatches;
    uint32_t extra;           /* bytes after the last round's request */
    stack_time_t accepted_at; /* last session */
    stack_time_t closed_at;   /* tcpclose after the client's FIN, last session */
};

struct app_reqresp_server {
    int listener, sock;
    uint8_t state;
    uint16_t n_rounds, round;
    const struct app_reqresp_round *rounds;
    uint32_t off;
    struct app_reqresp_server_report report;
};

/* Byte `off` of round `round`'s request (response = 0) or response (response = 1). */
uint8_t app_reqresp_pattern(uint16_t round, uint32_t off, uint8_t response);

/* Connects from local_port (0: ephemeral; the paper's client used
 * APP_REQRESP_CLIENT_PORT) to `server` (port 0 = APP_REQRESP_PORT) and runs the rounds.
 * `rounds` (and `round_us` if given) must stay valid for the whole session. */
int app_reqresp_client_start(struct app_reqresp_client *a, struct host *h,
                             const struct stack_sockaddr *server, uint16_t local_port,
                             const struct app_reqresp_round *rounds, uint16_t n_rounds,
                             uint32_t *round_us);
/* Returns 1 with *next at the end of a think time, else 0. */
int app_reqresp_client_poll(struct app_reqresp_client *a, struct host *h, stack_time_t *next);

/* Listens on `port` (0 = APP_REQRESP_PORT) and serves one session at a time. */
int app_reqresp_server_start(struct app_reqresp_server *a, struct host *h, uint16_t port,
                             const struct app_reqresp_round *rounds, uint16_t n_rounds);
/* Returns 0 (the server has no timers of its own). */
int app_reqresp_server_poll(struct app_reqresp_server *a, struct host *h, stack_time_t *next);

#endif
