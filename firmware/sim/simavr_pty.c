/* stackscope-simavr: runs the firmware in simavr (an AVR emulator independent of avr8js)
 * with the ATmega328P's UART0 on a pseudo-terminal, so anything that speaks SLIP over a
 * serial device (stackscope-tun --serial, slattach) can talk to it.
 *
 *   stackscope-simavr [--link PATH] [--fast] [--mcu NAME] [--freq HZ] FIRMWARE.elf
 *
 * Prints "simavr: UART0 on /dev/pts/N" once the pty exists (and makes PATH a symlink to
 * it), runs until SIGTERM/SIGINT, then prints what it saw: simulated and wall time, bytes
 * each way, the UART's byte time, and the deepest the AVR's stack went.
 *
 * Why not simavr's own runner or its uart_pty part: the runner prints the UART on the
 * console only, and uart_pty (1.6) feeds the AVR from its own thread, outside the
 * emulator's loop. Here everything happens in one thread: bytes from the pty go into a
 * queue and reach the UART one per byte time of simulated time, as on a wire.
 *
 * Timing: the firmware's clock (micros()) is simulated time. Unless --fast, the emulator
 * is held back to wall-clock speed, so the firmware's timers and the peer's agree; when
 * the host is too slow to keep up, simulated time falls behind and the summary says so.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <simavr/avr_uart.h>
#include <simavr/sim_avr.h>
#include <simavr/sim_elf.h>
#include <simavr/sim_irq.h>

/* ATmega328P USART0 registers (data-space addresses), for the configured byte time. */
#define REG_UCSR0A 0xC0
#define REG_UBRR0L 0xC4
#define REG_UBRR0H 0xC5
#define BIT_U2X0   0x02
#define REG_DDRB   0x24
#define REG_PORTB  0x25
#define REG_SPL    0x5D
#define REG_SPH    0x5E

#define QUEUE_SIZE  65536u /* bytes from the pty waiting for the UART (a power of two) */
#define IO_PERIOD_S 100e-6 /* the pty and the clock, at least this often (simulated) */

struct sim {
    avr_t *avr;
    int master, slave;
    avr_irq_t *uart_in;
    /* pty -> AVR */
    uint8_t rxq[QUEUE_SIZE];
    uint32_t rx_head, rx_tail;
    int feeding;
    /* AVR -> pty, when the pty cannot take it at once */
    uint8_t txq[QUEUE_SIZE];
    uint32_t tx_head, tx_tail;
    /* what the summary reports */
    uint64_t bytes_in, bytes_out, tx_dropped;
    avr_cycle_count_t last_tx_cycle, burst_gaps; /* gaps between bytes of one burst, summed */
    uint64_t burst_count;
    uint16_t min_sp;
    uint32_t bss_end;
    avr_flashaddr_t min_sp_pc;  /* where the stack was deepest ... */
    uint8_t min_sp_stack[2048]; /* ... and what it held then (return addresses) */
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

/* Cycles one byte takes on the wire at the baud the firmware configured. simavr's UART
 * model counts 11 bits per 8N1 byte (it adds a parity bit), and so does this queue, so
 * bytes arrive exactly as fast as the emulated UART takes them. */
static avr_cycle_count_t byte_cycles(const struct sim *s)
{
    const uint8_t *d = s->avr->data;
    uint32_t ubrr = d[REG_UBRR0L] | ((uint32_t)(d[REG_UBRR0H] & 0x0F) << 8);
    uint32_t per_bit = (d[REG_UCSR0A] & BIT_U2X0 ? 8u : 16u) * (ubrr + 1u);
    return (avr_cycle_count_t)per_bit * 11u;
}

static avr_cycle_count_t feed_byte(avr_t *avr, avr_cycle_count_t when, void *param)
{
    struct sim *s = param;
    (void)avr;
    if (s->rx_head == s->rx_tail) {
        s->feeding = 0;
        return 0;
    }
    avr_raise_irq(s->uart_in, s->rxq[s->rx_tail++ & (QUEUE_SIZE - 1)]);
    s->bytes_in++;
    return when + byte_cycles(s);
}

static void flush_tx(struct sim *s)
{
    while (s->tx_tail != s->tx_head) {
        uint32_t at = s->tx_tail & (QUEUE_SIZE - 1);
        uint32_t n = s->tx_head - s->tx_tail;
        ssize_t w;
        if (n > QUEUE_SIZE - at)
            n = QUEUE_SIZE - at;
        w = write(s->master, s->txq + at, n);
        if (w <= 0)
            return; /* the pty is full (nobody reads): keep the rest for later */
        s->tx_tail += (uint32_t)w;
    }
}

static void on_uart_output(struct avr_irq_t *irq, uint32_t value, void *param)
{
    struct sim *s = param;
    avr_cycle_count_t gap = s->avr->cycle - s->last_tx_cycle;
    (void)irq;
    /* Bytes less than two byte times apart belong to one burst (a frame). The mean, not
     * the least: the UART takes a second byte at once into its buffer while the first
     * shifts out, so one gap of each burst is a few cycles. */
    if (s->bytes_out > 0 && gap < 2 * byte_cycles(s)) {
        s->burst_gaps += gap;
        s->burst_count++;
    }
    s->last_tx_cycle = s->avr->cycle;
    s->bytes_out++;
    if (s->tx_head - s->tx_tail >= QUEUE_SIZE) {
        s->tx_dropped++;
        return;
    }
    s->txq[s->tx_head++ & (QUEUE_SIZE - 1)] = (uint8_t)value;
}

/* Takes what the pty has for the AVR and starts the byte clock if it was idle. */
static void read_pty(struct sim *s)
{
    uint8_t buf[4096];
    for (;;) {
        ssize_t n = read(s->master, buf, sizeof buf);
        ssize_t i;
        if (n <= 0)
            break;
        for (i = 0; i < n && s->rx_head - s->rx_tail < QUEUE_SIZE; i++)
            s->rxq[s->rx_head++ & (QUEUE_SIZE - 1)] = buf[i];
    }
    if (!s->feeding && s->rx_head != s->rx_tail) {
        s->feeding = 1;
        avr_cycle_timer_register(s->avr, byte_cycles(s), feed_byte, s);
    }
}

static void no_wall_sleep(avr_t *avr, avr_cycle_count_t how_long)
{
    (void)avr;
    (void)how_long;
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Ahead of the wall clock (started at t0): wait until it catches up, but wake up for bytes
 * from the peer. Behind it (a loaded machine): run on at full speed. */
static void hold_to_wall_clock(const struct sim *s, double t0)
{
    double ahead = (double)s->avr->cycle / s->avr->frequency - (wall_now() - t0);
    if (ahead > IO_PERIOD_S) {
        struct pollfd p = { s->master, POLLIN, 0 };
        struct timespec ts = { (time_t)ahead, (long)((ahead - (double)(time_t)ahead) * 1e9) };
        ppoll(&p, 1, &ts, NULL);
    }
}

static int open_pty(struct sim *s, const char *link)
{
    char name[128];
    struct termios tio;
    if (openpty(&s->master, &s->slave, name, NULL, NULL) < 0) {
        perror("stackscope-simavr: openpty");
        return -1;
    }
    /* Raw both ways until the peer sets its own mode: no echo of the AVR's bytes back
     * into it, no line editing of binary SLIP. The slave stays open here so the master
     * never sees a hang-up between peers. */
    tcgetattr(s->slave, &tio);
    cfmakeraw(&tio);
    tcsetattr(s->slave, TCSANOW, &tio);
    fcntl(s->master, F_SETFL, fcntl(s->master, F_GETFL) | O_NONBLOCK);
    if (link) {
        unlink(link);
        if (symlink(name, link) < 0) {
            perror("stackscope-simavr: symlink");
            return -1;
        }
    }
    printf("simavr: UART0 on %s\n", name);
    fflush(stdout);
    return 0;
}

static uint32_t find_symbol(const elf_firmware_t *f, const char *name)
{
    uint32_t i;
    for (i = 0; i < f->symbolcount; i++)
        if (!strcmp(f->symbol[i]->symbol, name))
            return f->symbol[i]->addr & 0xFFFFu; /* data addresses carry 0x800000 */
    return 0;
}

/* --peek NAME[:LEN]: the bytes of a variable at the end (symbols by name prefix, as LTO adds
 * suffixes), for looking into a firmware that misbehaves. */
static void peek(const struct sim *s, const elf_firmware_t *f, const char *arg)
{
    uint32_t i;
    const char *colon = strchr(arg, ':');
    size_t n = colon ? (size_t)(colon - arg) : strlen(arg);
    unsigned len = colon ? (unsigned)atoi(colon + 1) : 16u;
    const char *name = arg;
    if (arg[0] == '@') { /* @ADDR: a data-space address (registers: @0xC0 is UCSR0A) */
        unsigned k, at = (unsigned)strtoul(arg + 1, NULL, 0);
        printf("simavr: @0x%04X:", at);
        for (k = 0; k < len && at + k <= s->avr->ramend; k++)
            printf(" %02X", s->avr->data[at + k]);
        printf("\n");
        return;
    }
    for (i = 0; i < f->symbolcount; i++) {
        const avr_symbol_t *y = f->symbol[i];
        unsigned k, at = y->addr & 0xFFFFu;
        if (strncmp(y->symbol, name, n) || (y->symbol[n] && y->symbol[n] != '.') ||
            y->addr < 0x800000u)
            continue;
        printf("simavr: %s @0x%04X:", y->symbol, at);
        for (k = 0; k < len && at + k <= s->avr->ramend; k++)
            printf(" %02X", s->avr->data[at + k]);
        printf("\n");
    }
}

static void summary(const struct sim *s, double wall, int state)
{
    double simulated = (double)s->avr->cycle / s->avr->frequency;
    unsigned ramend = s->avr->ramend;
    printf("simavr: %.3f s simulated in %.3f s wall (%.2fx real time)%s\n", simulated, wall,
           wall > 0 ? simulated / wall : 0.0,
           state == cpu_Crashed ? ", CPU CRASHED"
           : state == cpu_Done  ? ", CPU stopped"
                                : "");
    printf("simavr: bytes to the AVR %llu, from the AVR %llu (%llu dropped, pty full)\n",
           (unsigned long long)s->bytes_in, (unsigned long long)s->bytes_out,
           (unsigned long long)s->tx_dropped);
    if (s->burst_count)
        printf("simavr: UART sends a byte every %.1f us within a frame (8N1 would be %.1f us)\n",
               (double)s->burst_gaps / (double)s->burst_count * 1e6 / s->avr->frequency,
               (double)byte_cycles(s) * 10.0 / 11.0 * 1e6 / s->avr->frequency);
    printf("simavr: stopped at pc 0x%04X\n", (unsigned)s->avr->pc);
    printf("simavr: deepest stack %u bytes (SP low 0x%04X, RAMEND 0x%04X)", ramend - s->min_sp,
           s->min_sp, ramend);
    if (s->bss_end)
        printf("; static RAM ends at 0x%04X, %d bytes never touched by the stack", s->bss_end,
               (int)s->min_sp + 1 - (int)s->bss_end);
    printf("\n");
    if ((s->avr->data[REG_DDRB] & s->avr->data[REG_PORTB]) & 0x20)
        printf("simavr: the LED (pin 13) is lit: the firmware could not start\n");
    fflush(stdout);
}

int main(int argc, char **argv)
{
    static struct sim s; /* 128 KB of queues: not on the C stack */
    elf_firmware_t f;
    const char *link = NULL, *mcu = "atmega328p", *file = NULL, *peeks[8];
    int npeeks = 0;
    uint32_t freq = 16000000u;
    int fast = 0, dump_stack = 0, i, state = cpu_Running;
    uint32_t flags = 0;
    double t0;
    unsigned long steps = 0;
    uint16_t last_sp = 0;
    unsigned same = 0;
    avr_cycle_count_t last_io = 0, io_cycles;

    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    signal(SIGPIPE, SIG_IGN);
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--link") && i + 1 < argc)
            link = argv[++i];
        else if (!strcmp(argv[i], "--mcu") && i + 1 < argc)
            mcu = argv[++i];
        else if (!strcmp(argv[i], "--freq") && i + 1 < argc)
            freq = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--peek") && i + 1 < argc && npeeks < 8)
            peeks[npeeks++] = argv[++i];
        else if (!strcmp(argv[i], "--stack-dump"))
            dump_stack = 1;
        else if (!strcmp(argv[i], "--fast"))
            fast = 1;
        else if (argv[i][0] != '-' && !file)
            file = argv[i];
        else {
            fprintf(stderr, "usage: stackscope-simavr [--link PATH] [--fast] [--mcu NAME] "
                            "[--freq HZ] FIRMWARE.elf\n");
            return 2;
        }
    }
    if (!file) {
        fprintf(stderr, "stackscope-simavr: no firmware given\n");
        return 2;
    }
    memset(&f, 0, sizeof f);
    if (elf_read_firmware(file, &f) != 0) {
        fprintf(stderr, "stackscope-simavr: cannot read %s\n", file);
        return 1;
    }
    if (f.mmcu[0])
        mcu = f.mmcu;
    s.avr = avr_make_mcu_by_name(mcu);
    if (!s.avr) {
        fprintf(stderr, "stackscope-simavr: simavr does not know %s\n", mcu);
        return 1;
    }
    avr_init(s.avr);
    s.avr->frequency = f.frequency ? f.frequency : freq;
    avr_load_firmware(s.avr, &f);
    s.bss_end = find_symbol(&f, "__bss_end");
    s.min_sp = s.avr->ramend;

    /* No console echo of the UART (binary SLIP), and no usleep() when the firmware
     * polls the status register: both are simavr's defaults. */
    avr_ioctl(s.avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    s.uart_in = avr_io_getirq(s.avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(s.avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
                            on_uart_output, &s);
    if (open_pty(&s, link) < 0)
        return 1;

    /* simavr's own sleep callback usleep()s through the firmware's idle time, deaf to the
     * pty; the loop below holds time to the wall clock itself and wakes for input. */
    s.avr->sleep = no_wall_sleep;
    io_cycles = (avr_cycle_count_t)(IO_PERIOD_S * s.avr->frequency);
    t0 = wall_now();
    while (!stop_requested) {
        uint16_t sp;
        state = avr_run(s.avr);
        if (state == cpu_Done || state == cpu_Crashed)
            break;
        /* The two halves of SP are written by two instructions (SPH first), so a single
         * reading can be 256 bytes off; only a value seen three times in a row counts. */
        sp = (uint16_t)(s.avr->data[REG_SPL] | (s.avr->data[REG_SPH] << 8));
        same = sp == last_sp ? same + 1 : 0;
        last_sp = sp;
        if (same >= 2 && sp < s.min_sp && sp > 0x100) {
            s.min_sp = sp;
            s.min_sp_pc = s.avr->pc;
            if (dump_stack)
                memcpy(s.min_sp_stack, s.avr->data + sp + 1, s.avr->ramend - sp);
        }
        /* The pty and the clock are looked at every 4096 instructions, and while the AVR
         * sleeps (simavr then moves its clock on to the next timer in one step) every
         * IO_PERIOD_S of simulated time: often enough that a byte from the peer waits for
         * less than a byte time, rarely enough not to spin on read(). */
        if (++steps % 4096 != 0 &&
            (s.avr->state != cpu_Sleeping || s.avr->cycle - last_io < io_cycles))
            continue;
        last_io = s.avr->cycle;
        read_pty(&s);
        flush_tx(&s);
        if (!fast)
            hold_to_wall_clock(&s, t0);
    }
    flush_tx(&s);
    summary(&s, wall_now() - t0, state);
    for (i = 0; i < npeeks; i++)
        peek(&s, &f, peeks[i]);
    if (dump_stack) {
        /* For finding the deepest call chain: the return addresses are in here. */
        unsigned k, n = s.avr->ramend - s.min_sp;
        printf("simavr: deepest at pc 0x%04X, stack from 0x%04X:", (unsigned)s.min_sp_pc,
               s.min_sp + 1u);
        for (k = 0; k < n; k++)
            printf(" %02X", s.min_sp_stack[k]);
        printf("\n");
    }
    if (link)
        unlink(link);
    return state == cpu_Crashed ? 1 : 0;
}
