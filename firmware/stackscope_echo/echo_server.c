/* The echo server: one stackscope host on the Uno's UART.
 *
 * RAM is the whole design problem: 2048 bytes for the stack's state, its buffers, the
 * C stack and the Arduino core. Where it goes (the build prints the totals, the README
 * has the table):
 *
 *   - One 576-byte buffer serves both ways. The SLIP decoder writes received frames into
 *     the stack's transmit buffer (host.txbuf) and the stack builds its replies there, on
 *     top of the datagram it is reading. The stack allows it: every reply is built only
 *     after the parts of the input it needs were read (an echo reply moves its data with
 *     memmove; TCP copies a segment's text into its ring before it sends anything), and
 *     wasm/tests/test_small_host.c holds it to that. The price is that no frame may be
 *     half-decoded in the buffer while the stack could send: timers and the server run
 *     only between frames (`in_frame`).
 *   - Two TCP connection blocks (262 bytes each), not three. Two listeners (7 and 9) and a
 *     connection would need three, so there is one listener, on the port the last SYN
 *     asked for: a SYN to 7 or 9 moves it there first when no connection is open (see
 *     follow_syn). One connection at a time, echo or discard. A SYN for either service
 *     while the connection block is taken is dropped, not refused: the peer sends it again
 *     (after 1 s, 3 s, ...) and gets in once the connection before it is over.
 *   - Bytes that arrive while a reply is being sent wait in the UART ring (serial_link.c).
 */
#include "echo_server.h"

#include "src/stack/app_tcp_discard.h"
#include "src/stack/app_tcp_echo.h"
#include "src/stack/bytes.h"
#include "echo_config.h"
#include "src/stack/host.h"
#include "serial_link.h"
#include "src/stack/slip.h"
#include "src/stack/tcp_pcb.h" /* sizeof(struct tcp_pcb) only: the arena is sized at compile time */

#include <Arduino.h> /* micros(); last, so its min/max macros touch none of the above */

/* host_arena_cost() as a constant expression, for the arena's size. */
#define ARENA_COST(n) (((n) + 7u) & ~7u)
#define ARENA_BYTES                                                                   \
    (ARENA_COST(ECHO_MTU) + ARENA_COST(ECHO_TCP_PCBS * sizeof(struct tcp_pcb)) +      \
     ARENA_COST(ECHO_TCP_SND_BUF) + ARENA_COST(ECHO_TCP_RCV_BUF))

#define LED_DDR DDRB /* pin 13, the Uno's LED: lit when the host could not start */
#define LED_BIT _BV(PB5)

static uint8_t arena[ARENA_BYTES];
static struct host host;
static struct slip_decoder rx;
/* Only one server runs at a time (see the top of the file): they share their memory. */
static union {
    struct app_tcp_echo echo;
    struct app_tcp_discard discard;
} app;
static uint16_t listening;          /* APP_TCP_ECHO_PORT or APP_TCP_DISCARD_PORT */
static uint8_t in_frame;            /* the buffer holds part of a frame: do not send */
static uint8_t has_deadline;
static stack_time_t deadline, last_byte_at;

static struct app_tcp_server *server(void)
{
    return listening == APP_TCP_ECHO_PORT ? &app.echo.server : &app.discard.server;
}

static int start_server(uint16_t port)
{
    listening = port;
    if (port == APP_TCP_ECHO_PORT)
        return app_tcp_echo_start(&app.echo, &host, port, 1, 1);
    return app_tcp_discard_start(&app.discard, &host, port, 1, 1);
}

/* poll_server, frame_in and timers are each a deep call chain into the stack. Kept out
 * of line, so that only one chain's locals are on the C stack at a time. */
__attribute__((noinline)) static void poll_server(void)
{
    stack_time_t unused;
    /* No listener: moving it found the block still taken (a connection in TIME_WAIT, if
     * ours was the first FIN). Try again until the block is free. */
    if (server()->listener < 0)
        start_server(listening);
    if (listening == APP_TCP_ECHO_PORT)
        app_tcp_echo_poll(&app.echo, &host, &unused);
    else
        app_tcp_discard_poll(&app.discard, &host, &unused);
    has_deadline = (uint8_t)host_next_deadline(&host, &deadline);
}

/* The destination port of a TCP SYN (no ACK, no RST) in datagram d, or 0. Only looked at
 * to place the listener: the stack validates the datagram itself afterwards. */
static uint16_t syn_port(const uint8_t *d, uint16_t len)
{
    uint16_t hlen;
    if (len < IP_HLEN || (d[IP_OFF_VHL] >> 4) != 4 || d[IP_OFF_PROTO] != IP_PROTO_TCP ||
        (rd16(d + IP_OFF_FRAG) & IP_OFFSET_MASK))
        return 0;
    hlen = (uint16_t)((d[IP_OFF_VHL] & 0x0Fu) * 4u);
    if (len < hlen + TCP_HLEN ||
        (d[hlen + TCP_OFF_FLAGS] & (TCP_SYN | TCP_ACK | TCP_RST)) != TCP_SYN)
        return 0;
    return rd16(d + hlen + TCP_OFF_DST_PORT);
}

/* A SYN for the service that is not listening: move the listener there if the one
 * connection block is free (no connection open). Returns 0 when the SYN must be dropped
 * (the block is taken: the peer will try again), else 1. */
static uint8_t follow_syn(uint16_t port)
{
    if ((port != APP_TCP_ECHO_PORT && port != APP_TCP_DISCARD_PORT) || port == listening)
        return 1;
    if (server()->active || tcp_count_open(&host))
        return 0;
    if (listening == APP_TCP_ECHO_PORT)
        app_tcp_echo_stop(&app.echo, &host);
    else
        app_tcp_discard_stop(&app.discard, &host);
    if (start_server(port) != ERR_OK)
        start_server(port == APP_TCP_ECHO_PORT ? APP_TCP_DISCARD_PORT : APP_TCP_ECHO_PORT);
    return 1;
}

__attribute__((noinline)) static void frame_in(void)
{
    if (!follow_syn(syn_port(rx.buf, rx.len)))
        return;
    host_input(&host, 0, rx.buf, rx.len, micros());
}

/* Runs the stack's timers if one is due. Only between frames (see the top). */
__attribute__((noinline)) static void timers(void)
{
    stack_time_t now = micros();
    if (has_deadline && time_after_eq(now, deadline)) {
        host_poll(&host, now);
        poll_server();
    }
}

/* Not inlined into the core's main(): what setup needs on the C stack (host_init's
 * locals) must not stay there for the whole run. */
__attribute__((noinline)) void echo_setup(void)
{
    const struct host_config *cfg = &stack_fixed_config;
    serial_link_init();
    if (host_init(&host, cfg, arena, sizeof arena, micros()) != ERR_OK ||
        host_add_netif(&host, ECHO_ADDR, 0, ECHO_MTU, serial_link_output, 0) < 0 ||
        start_server(APP_TCP_ECHO_PORT) != ERR_OK) {
        LED_DDR |= LED_BIT;
        PORTB |= LED_BIT;
        for (;;)
            ; /* nothing can work: say so on the LED and stay */
    }
    /* Frames are decoded straight into the stack's transmit buffer: see the top. */
    slip_decoder_init(&rx, host.txbuf, host.txbuf_len);
    has_deadline = (uint8_t)host_next_deadline(&host, &deadline);
}

__attribute__((noinline)) void echo_loop(void)
{
    uint8_t b;
    stack_time_t now;
    while (serial_link_read(&b)) {
        enum slip_result r = slip_decode_byte(&rx, b);
        last_byte_at = micros();
        in_frame = (uint8_t)(r == SLIP_FRAME_NONE && rx.len > 0);
        if (r == SLIP_FRAME_DONE) {
            frame_in();
            poll_server();
            timers(); /* also between frames that come back to back */
        }
    }
    now = micros();
    if (in_frame) {
        if ((uint32_t)(now - last_byte_at) < ECHO_FRAME_TIMEOUT_US)
            return; /* the rest of the frame is on its way */
        /* The sender stopped mid-frame: give the buffer back to the stack. What follows,
         * if anything, fails IP's checks as a frame of its own. */
        slip_decoder_init(&rx, host.txbuf, host.txbuf_len);
        in_frame = 0;
    }
    timers();
    serial_link_idle();
}
