/* Helpers shared by the applications. */
#include "app_common.h"

#include "host.h"

int app_tcp_open(struct host *h, uint16_t local_port, const struct stack_sockaddr *remote)
{
    int s = tcpsocket(h);
    int err = ERR_OK;
    if (s < 0)
        return s;
    if (local_port) {
        struct stack_sockaddr local;
        local.addr = 0;
        local.port = local_port;
        err = tcpbind(h, s, &local);
    }
    if (err >= 0)
        err = tcpconnect(h, s, remote); /* sends the SYN, RFC 9293 3.5 */
    if (err < 0) {
        tcpabort(h, s);
        return err;
    }
    return s;
}

void app_tcp_end(struct host *h, int *sock, int err)
{
    if (*sock < 0)
        return;
    if (err < 0)
        tcpabort(h, *sock);
    else
        tcpclose(h, *sock);
    *sock = -1;
}

int app_tcp_listen(struct host *h, uint16_t port, int backlog)
{
    struct stack_sockaddr local;
    int s = tcpsocket(h);
    int err;
    if (s < 0)
        return s;
    local.addr = 0;
    local.port = port;
    err = tcpbind(h, s, &local);
    if (err >= 0)
        err = tcplisten(h, s, backlog);
    if (err < 0) {
        tcpabort(h, s);
        return err;
    }
    return s;
}

int app_tcp_ready(const struct host *h, int s)
{
    struct tcp_info info;
    int err = tcpstatus(h, s, &info);
    if (err < 0)
        return err;
    if (info.error < 0)
        return info.error;
    switch (info.state) {
    case TCP_SYN_SENT:
    case TCP_SYN_RECEIVED: return 0;
    case TCP_CLOSED:
    case TCP_LISTEN: return ERR_CONN;
    default: return 1; /* ESTABLISHED, CLOSE_WAIT, or already closing */
    }
}

uint32_t app_rate_kbps(uint32_t bytes, uint32_t us)
{
    /* bits per microsecond x 1000 = kbit/s: bytes * 8 * 1000 / us. 64 bits hold the
     * product for any 32-bit byte count. */
    uint64_t kbps;
    if (us == 0)
        return 0;
    kbps = (uint64_t)bytes * 8000u / us;
    return kbps > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)kbps;
}
