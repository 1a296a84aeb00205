/* The text of Linux's ping (iputils ping_common.c gather_statistics() and finish(),
 * ping.c pr_icmph()), produced with integer arithmetic only: no printf, no floating
 * point, so the same code runs on the Arduino and in wasm.
 */
#include "ping.h"

#include "host.h"
#include "icmp.h"
#include "text_fmt.h"

static void put_ip(struct fmt *f, uint32_t a)
{
    fmt_u64(f, a >> 24, 1);
    fmt_char(f, '.');
    fmt_u64(f, (a >> 16) & 0xFFu, 1);
    fmt_char(f, '.');
    fmt_u64(f, (a >> 8) & 0xFFu, 1);
    fmt_char(f, '.');
    fmt_u64(f, a & 0xFFu, 1);
}

/* gather_statistics(): fewer decimals as the time grows, rounded. */
static void put_rtt(struct fmt *f, uint32_t t)
{
    if (t >= 100000u - 50u) {
        fmt_u64(f, (t + 500u) / 1000u, 1);
    } else if (t >= 10000u - 5u) {
        fmt_u64(f, (t + 50u) / 1000u, 1);
        fmt_char(f, '.');
        fmt_u64(f, ((t + 50u) % 1000u) / 100u, 1);
    } else if (t >= 1000u) {
        fmt_u64(f, (t + 5u) / 1000u, 1);
        fmt_char(f, '.');
        fmt_u64(f, ((t + 5u) % 1000u) / 10u, 2);
    } else {
        fmt_ms3(f, t);
    }
}

size_t ping_format_rtt(uint32_t us, char *buf, size_t len)
{
    struct fmt f;
    fmt_init(&f, buf, len);
    put_rtt(&f, us);
    return f.pos;
}

/* iputils prints the loss as printf("%g", (float)(lost * 100.0 / transmitted)): the
 * quotient rounded to a double, that double rounded to a float, and the float's exact
 * value rounded to six significant digits. All three roundings are to nearest, ties to
 * even, and are done here on integers so the text is the same to the last digit (the
 * float step matters: 23 of 31 lost is 74.19354..., but the float is 74.193550... and
 * Linux prints 74.1936). */

/* Rounds the 2-bit tail `low` (plus `sticky`) off `m`, ties to even. */
static uint64_t round_bits(uint64_t m, uint64_t low, uint64_t half, int sticky)
{
    if (low > half || (low == half && (sticky || (m & 1u))))
        m++;
    return m;
}

/* The float nearest to the double nearest to num / den (num > 0, den < 2^33, the value
 * below 128), as *mf / 2^*fb with *mf < 2^24. */
static void float_of_ratio(uint64_t num, uint64_t den, uint32_t *mf, uint8_t *fb)
{
    uint64_t m = num / den, rem = num % den;
    uint8_t frac = 0;
    while (m < ((uint64_t)1 << 54)) { /* 55 significant bits: 53 + two to round with */
        rem *= 2u;
        m = m * 2u + (rem >= den ? 1u : 0u);
        if (rem >= den)
            rem -= den;
        frac++;
    }
    m = round_bits(m >> 2, m & 3u, 2u, rem != 0); /* to a double's 53 bits */
    frac = (uint8_t)(frac - 2u);
    if (m == ((uint64_t)1 << 53)) {
        m >>= 1;
        frac--;
    }
    /* to a float's 24 bits: 29 bits go */
    m = round_bits(m >> 29, m & (((uint64_t)1 << 29) - 1u), (uint64_t)1 << 28, 0);
    frac = (uint8_t)(frac - 29u);
    if (m == ((uint64_t)1 << 24)) {
        m >>= 1;
        frac--;
    }
    *mf = (uint32_t)m;
    *fb = frac;
}

/* %g of n / 2^fb (n > 0, below 128): six significant digits, ties to even, trailing
 * zeros dropped, exponent form below 1e-4. */
static void put_g(struct fmt *f, uint32_t n, uint8_t fb)
{
    uint64_t den = (uint64_t)1 << fb, rem = n % den, ip = n / den;
    uint8_t dig[7], nd = 0, i, last;
    int e10 = -1, carry;
    if (ip) {
        uint8_t tmp[4], k = 0;
        while (ip) {
            tmp[k++] = (uint8_t)(ip % 10u);
            ip /= 10u;
        }
        e10 = k - 1;
        while (k && nd < 7)
            dig[nd++] = tmp[--k];
    } else {
        for (;;) { /* skip the leading zeros after the point */
            rem *= 10u;
            if (rem / den) {
                dig[nd++] = (uint8_t)(rem / den);
                rem %= den;
                break;
            }
            e10--;
        }
    }
    while (nd < 7) {
        rem *= 10u;
        dig[nd++] = (uint8_t)(rem / den);
        rem %= den;
    }
    carry = dig[6] > 5 || (dig[6] == 5 && (rem != 0 || (dig[5] & 1u)));
    for (i = 6; carry && i-- > 0;) {
        carry = dig[i] == 9;
        dig[i] = (uint8_t)(carry ? 0 : dig[i] + 1);
    }
    if (carry) { /* 9.99999x -> 10.0000 */
        dig[0] = 1;
        e10++;
    }
    for (last = 5; last > 0 && dig[last] == 0; last--)
        ;
    if (e10 < -4) {
        fmt_char(f, (char)('0' + dig[0]));
        if (last > 0)
            fmt_char(f, '.');
        for (i = 1; i <= last; i++)
            fmt_char(f, (char)('0' + dig[i]));
        fmt_str(f, "e-");
        fmt_u64(f, (uint64_t)(-e10), 2);
        return;
    }
    if (e10 < 0) {
        fmt_str(f, "0.");
        for (i = 0; (int)i < -e10 - 1; i++)
            fmt_char(f, '0');
    }
    for (i = 0; i <= last || (int)i <= e10; i++) {
        if (e10 >= 0 && (int)i == e10 + 1)
            fmt_char(f, '.');
        fmt_char(f, (char)('0' + dig[i]));
    }
}

static void put_loss(struct fmt *f, uint32_t transmitted, uint32_t received)
{
    uint32_t lost = received < transmitted ? transmitted - received : 0;
    uint32_t mf;
    uint8_t fb;
    if (lost == 0) {
        fmt_char(f, '0');
        return;
    }
    float_of_ratio((uint64_t)lost * 100u, transmitted, &mf, &fb);
    put_g(f, mf, fb);
}

size_t ping_format_loss(uint32_t transmitted, uint32_t received, char *buf, size_t len)
{
    struct fmt f;
    fmt_init(&f, buf, len);
    if (transmitted)
        put_loss(&f, transmitted, received);
    return f.pos;
}

/* pr_icmph() in iputils ping.c, for the two types a ping can get back about itself. */
static void put_icmp_error(struct fmt *f, const struct ping_event *ev)
{
    if (ev->icmp_type == ICMP_TIME_EXCEEDED) {
        fmt_str(f, ev->icmp_code == ICMP_EXC_FRAGTIME ? "Frag reassembly time exceeded"
                                                      : "Time to live exceeded");
        return;
    }
    switch (ev->icmp_code) {
    case 0: fmt_str(f, "Destination Net Unreachable"); break;
    case 1: fmt_str(f, "Destination Host Unreachable"); break;
    case ICMP_UNREACH_PROTOCOL: fmt_str(f, "Destination Protocol Unreachable"); break;
    case ICMP_UNREACH_PORT: fmt_str(f, "Destination Port Unreachable"); break;
    case ICMP_UNREACH_FRAG_NEEDED:
        fmt_str(f, "Frag needed and DF set (mtu = ");
        fmt_u64(f, ev->mtu, 1);
        fmt_char(f, ')');
        break;
    case 5: fmt_str(f, "Source Route Failed"); break;
    default:
        fmt_str(f, "Dest Unreachable, Bad Code: ");
        fmt_u64(f, ev->icmp_code, 1);
        break;
    }
}

size_t ping_format_event(const struct ping_event *ev, char *buf, size_t len)
{
    struct fmt f;
    fmt_init(&f, buf, len);
    switch (ev->kind) {
    case PING_EV_REPLY:
    case PING_EV_DUP:
        fmt_u64(&f, ev->bytes, 1);
        fmt_str(&f, " bytes from ");
        put_ip(&f, ev->from);
        fmt_str(&f, ": icmp_seq=");
        fmt_u64(&f, ev->seq, 1);
        fmt_str(&f, " ttl=");
        fmt_u64(&f, ev->ttl, 1);
        if (ev->timing) {
            fmt_str(&f, " time=");
            put_rtt(&f, ev->rtt_us);
            fmt_str(&f, " ms");
        }
        if (ev->kind == PING_EV_DUP)
            fmt_str(&f, " (DUP!)");
        break;
    case PING_EV_ERROR:
        fmt_str(&f, "From ");
        put_ip(&f, ev->from);
        fmt_str(&f, " icmp_seq=");
        fmt_u64(&f, ev->seq, 1);
        fmt_char(&f, ' ');
        put_icmp_error(&f, ev);
        break;
    default:
        fmt_str(&f, "ping: sendmsg: ");
        fmt_str(&f, ev->err == ERR_MTU   ? "Message too long"
                    : ev->err == ERR_RTE ? "Network is unreachable"
                                         : stack_err_name(ev->err));
        break;
    }
    return f.pos;
}

size_t ping_format_summary(const struct host *h, char *buf, size_t len)
{
    const struct ping_state *p = &h->icmp.ping;
    struct ping_stats st;
    const char *comma = "";
    struct fmt f;

    ping_get_stats(h, &st);
    fmt_init(&f, buf, len);
    fmt_str(&f, "--- ");
    put_ip(&f, p->dst);
    fmt_str(&f, " ping statistics ---\n");
    fmt_u64(&f, st.transmitted, 1);
    fmt_str(&f, " packets transmitted, ");
    fmt_u64(&f, st.received, 1);
    fmt_str(&f, " received");
    if (st.duplicates) {
        fmt_str(&f, ", +");
        fmt_u64(&f, st.duplicates, 1);
        fmt_str(&f, " duplicates");
    }
    if (st.errors) {
        fmt_str(&f, ", +");
        fmt_u64(&f, st.errors, 1);
        fmt_str(&f, " errors");
    }
    if (st.transmitted) {
        fmt_str(&f, ", ");
        put_loss(&f, st.transmitted, st.received);
        fmt_str(&f, "% packet loss, time ");
        fmt_u64(&f, st.time_ms, 1);
        fmt_str(&f, "ms");
    }
    fmt_char(&f, '\n');
    if (st.received && st.timing) {
        fmt_str(&f, "rtt min/avg/max/mdev = ");
        fmt_ms3(&f, st.min_us);
        fmt_char(&f, '/');
        fmt_ms3(&f, st.avg_us);
        fmt_char(&f, '/');
        fmt_ms3(&f, st.max_us);
        fmt_char(&f, '/');
        fmt_ms3(&f, st.mdev_us);
        fmt_str(&f, " ms");
        comma = ", ";
    }
    if (st.pipe > 1) {
        fmt_str(&f, comma);
        fmt_str(&f, "pipe ");
        fmt_u64(&f, st.pipe, 1);
        comma = ", ";
    }
    if (st.received && !p->interval_us && st.transmitted > 1) {
        /* A flood (interval 0): mean gap between requests and the RTT EWMA. */
        fmt_str(&f, comma);
        fmt_str(&f, "ipg/ewma ");
        fmt_ms3(&f, (p->last_send - p->start) / (st.transmitted - 1u));
        fmt_char(&f, '/');
        fmt_ms3(&f, st.ewma_us);
        fmt_str(&f, " ms");
    }
    fmt_char(&f, '\n');
    return f.pos;
}

size_t ping_format_header(const struct host *h, char *buf, size_t len)
{
    const struct ping_state *p = &h->icmp.ping;
    struct fmt f;
    fmt_init(&f, buf, len);
    fmt_str(&f, "PING ");
    put_ip(&f, p->dst);
    fmt_str(&f, " (");
    put_ip(&f, p->dst);
    fmt_str(&f, ") ");
    fmt_u64(&f, p->payload, 1);
    fmt_char(&f, '(');
    fmt_u64(&f, (uint32_t)p->payload + ICMP_HLEN + IP_HLEN, 1);
    fmt_str(&f, ") bytes of data.");
    return f.pos;
}
