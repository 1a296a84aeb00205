/* stackscope-demo: what `npm start` runs until the web app exists.
 *
 * The Arduino echo server seed's setup in virtual time: a PC (10.0.7.1) and an Arduino
 * (10.0.7.2) joined by SLIP over a 57600-baud UART (8N1: 10 bits per byte), MTU 576.
 * The PC pings the Arduino, then sends a line to its TCP echo service and reads it back,
 * then probes a closed port. Every frame is printed as Wireshark's packet list shows it,
 * and every decision of the two stacks (timers, RTT samples, state changes) beneath it.
 */
#include <stdio.h>
#include <string.h>

#include "app_echo_client.h"
#include "app_tcp_discard.h"
#include "app_tcp_echo.h"
#include "bytes.h"
#include "fake_net.h"
#include "frame_info.h"
#include "ping.h"
#include "slip.h"

#define PC      0
#define ARDUINO 1
#define BAUD    57600
#define MTU     576

static const char *const host_names[] = { "pc", "arduino" };
static const char message[] = "Hello from stackscope: this line goes to port 7 and back.";

struct demo {
    struct fake_net net;
    struct frame_info_flows flows;
    unsigned frame_no;
    struct app_tcp_echo echo;
    struct app_tcp_discard discard;
    struct app_echo_client client;
    uint8_t echoed[sizeof message];
    int phase; /* 0 ping, 1 echo, 2 refused probe, 3 done */
    int probe;
};

/* On the wire, each datagram is SLIP-framed: an END byte either side and escapes. */
static uint32_t slip_wire_len(const uint8_t *dgram, uint16_t len)
{
    return slip_encoded_len(dgram, len, 1);
}

static void print_frame(void *ctx, struct fake_net *net, int link, int dir, stack_time_t t,
                        const uint8_t *d, uint16_t len, int fate)
{
    struct demo *demo = ctx;
    char proto[8], info[160], src[16], dst[16];
    (void)net;
    (void)link;
    (void)dir;
    frame_info(&demo->flows, d, len, proto, sizeof proto, info, sizeof info);
    snprintf(src, sizeof src, "%u.%u.%u.%u", d[12], d[13], d[14], d[15]);
    snprintf(dst, sizeof dst, "%u.%u.%u.%u", d[16], d[17], d[18], d[19]);
    printf("%5u %11.6f  %-10s %-10s %-5s %5u  %s%s\n", ++demo->frame_no, t / 1e6, src, dst, proto,
           len, info, fate ? "  [lost]" : "");
}

static void print_event(void *ctx, const struct host *h, const struct trace_event *ev)
{
    struct demo *demo = ctx;
    const char *who = h == &demo->net.hosts[PC] ? host_names[PC] : host_names[ARDUINO];
    switch (ev->kind) {
    case TRACE_TCP_STATE:
        printf("                   %-8s tcp %u->%u: %s -> %s\n", who, ev->lport, ev->rport,
               tcp_state_name((enum tcp_state)ev->a), tcp_state_name((enum tcp_state)ev->b));
        break;
    case TRACE_RTT_SAMPLE:
        printf("                   %-8s tcp %u->%u: RTT sample %.3f ms\n", who, ev->lport,
               ev->rport, ev->a / 1000.0);
        break;
    case TRACE_RTO_VALUE:
        printf("                   %-8s tcp %u->%u: RTO %.3f s (srtt %.3f ms, rttvar %.3f ms;"
               " estimate %.3f s%s)\n",
               who, ev->lport, ev->rport, ev->a / 1e6, ev->b / 1000.0, ev->c / 1000.0, ev->d / 1e6,
               ev->a > ev->d   ? ", raised to the floor"
               : ev->a < ev->d ? ", capped"
                               : "");
        break;
    case TRACE_RETRANSMIT:
        printf("                   %-8s tcp %u->%u: retransmission (%s)\n", who, ev->lport,
               ev->rport, tcp_retx_cause_text((enum tcp_retx_cause)ev->c));
        break;
    case TRACE_DELACK_FIRE:
        printf("                   %-8s tcp %u->%u: delayed ACK timer fired\n", who, ev->lport,
               ev->rport);
        break;
    case TRACE_DROP:
        printf("                   %-8s dropped: %s\n", who,
               drop_reason_text((enum drop_reason)ev->a));
        break;
    default: break;
    }
}

static void print_ping_events(struct host *pc)
{
    struct ping_event ev;
    char line[128];
    while (ping_next_event(pc, &ev)) {
        ping_format_event(&ev, line, sizeof line);
        printf("                   pc       ping: %s\n", line);
    }
}

/* The PC's side of the script, phase by phase; the Arduino only serves. */
static int run_apps(void *ctx, struct fake_net *net, stack_time_t *next)
{
    struct demo *d = ctx;
    struct host *pc = &net->hosts[PC];
    struct host *arduino = &net->hosts[ARDUINO];
    stack_time_t unused;
    app_tcp_echo_poll(&d->echo, arduino, &unused);
    app_tcp_discard_poll(&d->discard, arduino, &unused);
    print_ping_events(pc);
    (void)next;

    if (d->phase == 0 && ping_done(pc)) {
        struct app_echo_client_params p;
        char summary[256];
        ping_format_summary(pc, summary, sizeof summary);
        printf("\n%s\n", summary);
        memset(&p, 0, sizeof p);
        p.server.addr = IP4(10, 0, 7, 2);
        p.server.port = 7;
        p.len = sizeof message - 1;
        p.data = (const uint8_t *)message;
        p.rx_copy = d->echoed;
        app_echo_client_start(&d->client, pc, &p);
        d->phase = 1;
    }
    if (d->phase == 1) {
        app_echo_client_poll(&d->client, pc, &unused);
        if (d->client.report.done) {
            printf("\necho: sent %u bytes, %u came back%s in %.3f ms: \"%s\"\n\n",
                   (unsigned)d->client.report.bytes_sent, (unsigned)d->client.report.bytes_received,
                   d->client.report.mismatch_at == APP_ECHO_NO_MISMATCH ? " intact" : " WRONG",
                   d->client.report.elapsed_us / 1000.0, (const char *)d->echoed);
            struct stack_sockaddr closed = { IP4(10, 0, 7, 2), 8 };
            d->probe = tcpsocket(pc);
            tcpconnect(pc, d->probe, &closed);
            d->phase = 2;
        }
    }
    if (d->phase == 2) {
        uint8_t b;
        int r = tcprecv(pc, d->probe, &b, 1);
        if (r != ERR_WOULDBLOCK) {
            printf("\nport 8: %s\n", r == ERR_RST ? "connection refused (RST)" : stack_err_name(r));
            tcpabort(pc, d->probe);
            d->phase = 3;
        }
    }
    return 0;
}

static int finished(void *ctx)
{
    return ((struct demo *)ctx)->phase == 3;
}

int main(void)
{
    static struct demo d; /* the fake network holds whole hosts: keep it off the stack */
    struct host_config cfg;
    int link;

    fake_net_init(&d.net, 1);
    host_config_default(&cfg);
    cfg.tcp_mss = 536; /* RFC 1122's default, the seed's MTU of 576 */
    fake_net_add_host(&d.net, &cfg);
    cfg.seed = 2;
    fake_net_add_host(&d.net, &cfg);
    link = fake_net_connect(&d.net, PC, IP4(10, 0, 7, 1), ARDUINO, IP4(10, 0, 7, 2), MTU, BAUD, 0);
    d.net.links[link].bits_per_byte = 10;
    d.net.links[link].wire_len = slip_wire_len;
    d.net.tap = print_frame;
    d.net.poll = run_apps;
    d.net.ctx = &d;
    printf("stackscope demo: pc 10.0.7.1 <-> arduino 10.0.7.2, SLIP at %u baud (8N1), MTU %u\n",
           BAUD, MTU);
    printf("theoretical ping RTT for 56 data bytes: 2 x (84 + 2 END) bytes x 10 bits / %u"
           " = %.3f ms\n\n",
           BAUD, 2.0 * 86 * 10 * 1000 / BAUD);
    printf("  No.        Time  Source     Destination Proto Length Info\n");
    host_set_tracer(&d.net.hosts[PC], print_event, &d);
    host_set_tracer(&d.net.hosts[ARDUINO], print_event, &d);
    app_tcp_echo_start(&d.echo, &d.net.hosts[ARDUINO], 7, 2, 2);
    app_tcp_discard_start(&d.discard, &d.net.hosts[ARDUINO], 9, 2, 2);
    ping_start(&d.net.hosts[PC], IP4(10, 0, 7, 2), 0x0001, 56, 3, 1000, 2000);
    {
        char header[96];
        ping_format_header(&d.net.hosts[PC], header, sizeof header);
        printf("                   pc       ping: %s\n", header);
    }
    if (!fake_net_run(&d.net, 30u * 1000000u, finished)) {
        printf("demo: did not finish within 30 s of virtual time\n");
        return 1;
    }
    fake_net_free(&d.net);
    return 0;
}
