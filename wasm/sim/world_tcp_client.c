/* What a tcp_client shows its user: lines worded as telnet(1) and the C library's
 * strerror() word them on Linux, and the bytes it received as they came (TREC_APP_DATA).
 *
 *   Connected to 10.0.7.2:7
 *   connect to 10.0.7.2:8: Connection refused       RST in answer to the SYN
 *   connect to 10.0.7.2:7: Connection timed out     no answer to the SYN and its retries
 *   Connection closed by foreign host.              the peer's FIN, after all its data
 *   Connection closed.                              our FIN first, then the peer's
 *   Connection reset by peer                        RST on an established connection
 */
#include "world_internal.h"

#include <stdio.h>

/* strerror()'s words for the errors a connection can end with. */
static const char *world_tcp_error_text(int err, int connected)
{
    switch (err) {
    case ERR_RST: return connected ? "Connection reset by peer" : "Connection refused";
    case ERR_TIMEOUT: return "Connection timed out";
    case ERR_RTE: return "Network is unreachable";
    case ERR_MEM: return "Cannot allocate memory";
    default: return stack_err_name(err);
    }
}

void world_tcp_client_sink(void *ctx, uint8_t event, const uint8_t *data, uint16_t n)
{
    struct world_app *a = ctx;
    struct world *w = a->w;
    const struct world_app_config *c = &w->cfg.apps[a->index];
    const struct app_tcp_client_report *r = &a->s.tcp_client.report;
    char peer[24], line[96];
    uint32_t ip = c->to_addr;

    snprintf(peer, sizeof peer, "%u.%u.%u.%u:%u", (unsigned)(ip >> 24), (unsigned)(ip >> 16 & 0xFF),
             (unsigned)(ip >> 8 & 0xFF), (unsigned)(ip & 0xFF), (unsigned)c->port);
    switch (event) {
    case APP_TCP_CLIENT_DATA: world_app_data(w, a->index, data, n); return;
    case APP_TCP_CLIENT_CONNECTED: snprintf(line, sizeof line, "Connected to %s", peer); break;
    case APP_TCP_CLIENT_PEER_CLOSED:
        snprintf(line, sizeof line, "Connection closed by foreign host.");
        break;
    case APP_TCP_CLIENT_CLOSED: snprintf(line, sizeof line, "Connection closed."); break;
    default:
        if (r->connected)
            snprintf(line, sizeof line, "%s", world_tcp_error_text(r->error, 1));
        else
            snprintf(line, sizeof line, "connect to %s: %s", peer,
                     world_tcp_error_text(r->error, 0));
        break;
    }
    world_app_record(w, a->index, TREC_APP_LINE, 0, 0, 0, 0, line);
}
