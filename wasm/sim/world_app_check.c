/* What an application found when it compared the bytes it received with those it
 * expected: the run summary shows it and a mismatch fails `stackscope run`. */
#include "world_internal.h"

static int world_check(uint64_t checked, uint64_t mismatched, uint64_t *c, uint64_t *m)
{
    *c = checked;
    *m = mismatched;
    return 1;
}

int world_app_check(const struct world *w, uint32_t app, uint64_t *checked, uint64_t *mismatched)
{
    const struct world_app *a;
    const struct world_app_config *c;
    if (app >= w->cfg.n_apps || !w->apps[app].started)
        return 0;
    a = &w->apps[app];
    c = &w->cfg.apps[app];
    switch (c->type) {
    case WORLD_APP_TCP_ECHO_CLIENT: {
        const struct app_echo_client_report *r = &a->s.echo_client.report;
        /* Every byte that came back is compared; a discard client reads nothing. */
        return !c->send_only && world_check(r->bytes_received, r->mismatches, checked, mismatched);
    }
    case WORLD_APP_BULK_RECEIVER:
        return world_check(a->s.bulk_receiver.report.checked, a->s.bulk_receiver.report.mismatches,
                           checked, mismatched);
    case WORLD_APP_REQRESP_CLIENT:
        return world_check(a->s.rr_client.report.resp_bytes, a->s.rr_client.report.resp_mismatches,
                           checked, mismatched);
    case WORLD_APP_REQRESP_SERVER:
        return world_check(a->s.rr_server.report.req_bytes, a->s.rr_server.report.req_mismatches,
                           checked, mismatched);
    default: return 0;
    }
}
