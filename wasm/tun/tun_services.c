#include "tun_services.h"

#include <string.h>

#include "host.h"

/* Enough connections for the interop test's parallel clients. */
#define TUN_SERVICE_CONNS 4

int tun_services_start(struct tun_services *s, struct host *h)
{
    int err;
    memset(s, 0, sizeof *s);
    err = app_tcp_echo_start(&s->echo, h, APP_TCP_ECHO_PORT, TUN_SERVICE_CONNS, TUN_SERVICE_CONNS);
    if (err != ERR_OK)
        return err;
    return app_tcp_discard_start(&s->discard, h, APP_TCP_DISCARD_PORT, TUN_SERVICE_CONNS,
                                 TUN_SERVICE_CONNS);
}

int tun_services_connect(struct tun_services *s, struct host *h, uint32_t addr, uint16_t port,
                         uint32_t bytes, int verify)
{
    struct app_echo_client_params p;
    memset(&p, 0, sizeof p);
    p.server.addr = addr;
    p.server.port = port;
    p.len = bytes;
    p.send_only = verify ? 0 : 1;
    s->has_client = 1;
    return app_echo_client_start(&s->client, h, &p);
}

void tun_services_poll(struct tun_services *s, struct host *h)
{
    stack_time_t unused;
    app_tcp_echo_poll(&s->echo, h, &unused);
    app_tcp_discard_poll(&s->discard, h, &unused);
    if (s->has_client)
        app_echo_client_poll(&s->client, h, &unused);
}

int tun_services_client_finished(const struct tun_services *s, const struct host *h)
{
    if (!s->client.report.done)
        return 0;
    if (s->client.report.error)
        return 1;
    /* Everything was queued and closed; the job is over when TCP has delivered it all and
     * our FIN was acknowledged: no connection left between SYN_SENT and LAST_ACK. */
    return tcp_count_busy(h) == 0;
}
