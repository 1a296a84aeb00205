/* Error codes returned by every stack call: 0 or a positive count on success, one of
 * these (all negative) on failure. Names follow lwIP's err_t where the meaning is the same. */
#ifndef STACK_ERR_H
#define STACK_ERR_H

enum stack_err {
    ERR_OK = 0,
    ERR_MEM = -1,        /* no room: table full, buffer full */
    ERR_BUF = -2,        /* a buffer given by the caller is too small */
    ERR_RTE = -3,        /* no route to the destination */
    ERR_ARG = -4,        /* invalid argument */
    ERR_USE = -5,        /* address or port already in use */
    ERR_WOULDBLOCK = -6, /* nothing to do now; try again after the next poll */
    ERR_CONN = -7,       /* not connected */
    ERR_ISCONN = -8,     /* already connected or connecting */
    ERR_RST = -9,        /* connection reset by the peer ("connection refused" in SYN_SENT) */
    ERR_CLSD = -10,      /* connection closed; no more data may be sent */
    ERR_TIMEOUT = -11,   /* gave up after the maximum number of retransmissions */
    ERR_MTU = -12,       /* datagram needs fragmenting but fragmentation is off or DF set */
    ERR_STATE = -13      /* call not valid in the socket's current state */
};

/* A short name for an error code ("ERR_RST"), for logs and the trace. */
const char *stack_err_name(int err);

#endif
