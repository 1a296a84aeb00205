/* The echo server: one stackscope host on the Uno's UART, its TCP the responder.
 *
 * RAM is the whole design problem: 2048 bytes for the stack's state, its buffer, the C
 * stack and the Arduino core, and at most 1.5 KB of it static. Where it goes (the build
 * prints the totals, the README has the table):
 *
 *   - One 576-byte datagram buffer (the stack's txbuf) for everything. A frame is decoded
 *     into it, the stack answers over it (the responder and ICMP echo build their answer
 *     in the datagram they answer), the answer leaves from it, and what arrives meanwhile
 *     is decoded into it around the answer's bytes not yet sent (frame_rx.h).
 *   - The responder's table: 50 connections, 11 bytes each (the peer's port, RCV.NXT,
 *     SND.NXT, state; the line has one peer, so no address). No per-connection buffer: a
 *     segment's data is echoed from the datagram it came in, and what is not yet
 *     acknowledged stays with the peer.
 *   - A 128-byte ring for what the UART receives while the board is busy
 *     (serial_link.c), and the place of up to 16 whole frames waiting (frame_rx.h).
 *
 * The responder has no timers, and UDP and fragments are off: the stack only ever runs
 * when a frame is whole, and sends its answer; and, when no whole frame waits, the window
 * update of a connection whose turn has come, built on the C stack (40 bytes).
 */
#include "echo_server.h"

#include "echo_config.h"
#include "frame_rx.h"
#include "src/stack/host.h"
#include "serial_link.h"

#include <Arduino.h> /* micros(); last, so its min/max macros touch none of the above */

/* host_arena_cost() as a constant expression, for the arena's size. */
#define ARENA_COST(n) (((n) + 7u) & ~7u)
#define ARENA_BYTES                                                                          \
    (ARENA_COST(ECHO_MTU) + ARENA_COST(ECHO_TCP_CONNS * sizeof(struct tcp_responder_conn)) + \
     ARENA_COST(TCP_RESPONDER_MARK_BYTES(ECHO_TCP_CONNS)))

#define LED_DDR DDRB /* pin 13, the Uno's LED: lit when the host could not start */
#define LED_BIT _BV(PB5)

static uint8_t arena[ARENA_BYTES];
static struct host host;
static struct frame_rx rx;
static struct serial_link_tx tx;

/* While an answer leaves: what arrives is decoded around it (frame_rx.h). A window update
 * (tcp_responder.h: turns) leaves from a buffer of its own after the answer has left, and
 * the whole datagram buffer is free to decode into then. */
static uint16_t receive_meanwhile(const uint8_t *unsent, uint16_t left)
{
    uintptr_t at = (uintptr_t)unsent, buf = (uintptr_t)host.txbuf;
    if (at < buf || at > buf + ECHO_MTU)
        return frame_rx_pump(&rx, host.txbuf, 0);
    return frame_rx_pump(&rx, unsent, left);
}

/* Not inlined into the core's main(): what setup needs on the C stack (host_init's
 * locals) must not stay there for the whole run. */
__attribute__((noinline)) void echo_setup(void)
{
    serial_link_init();
    tx.wait = receive_meanwhile;
    if (host_init(&host, &stack_fixed_config, arena, sizeof arena, micros()) != ERR_OK ||
        host_add_netif(&host, ECHO_ADDR, 0, ECHO_MTU, serial_link_output, &tx) < 0) {
        LED_DDR |= LED_BIT;
        PORTB |= LED_BIT;
        for (;;)
            ; /* nothing can work: say so on the LED and stay */
    }
    frame_rx_init(&rx, host.txbuf);
}

__attribute__((noinline)) void echo_loop(void)
{
    uint16_t n;
    uint8_t *frame;
    frame_rx_pump(&rx, host.txbuf, 0);
    n = frame_rx_take(&rx, &frame);
    if (n) {
        host_input(&host, 0, frame, n, micros()); /* the answer leaves meanwhile */
        frame_rx_release(&rx);
        return;
    }
    /* Caught up with what came in (no whole frame waits): a window update owed to a
     * connection waiting its turn may leave now without putting the board behind. */
    if (tcp_responder_turn_owed(&host)) {
        host_poll(&host, micros());
        return;
    }
    frame_rx_expire(&rx);
    serial_link_idle();
}
