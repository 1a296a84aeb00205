#include "text_fmt.h"

void fmt_init(struct fmt *f, char *buf, size_t len)
{
    f->buf = buf;
    f->len = len;
    f->pos = 0;
    if (len)
        buf[0] = '\0';
}

void fmt_char(struct fmt *f, char c)
{
    if (f->pos + 1 < f->len) {
        f->buf[f->pos++] = c;
        f->buf[f->pos] = '\0';
    }
}

void fmt_str(struct fmt *f, const char *s)
{
    while (*s)
        fmt_char(f, *s++);
}

void fmt_u64(struct fmt *f, uint64_t v, uint8_t width)
{
    char d[21];
    uint8_t n = 0;
    do {
        d[n++] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v);
    while (n < width && n < sizeof d)
        d[n++] = '0';
    while (n)
        fmt_char(f, d[--n]);
}

void fmt_ms3(struct fmt *f, uint32_t us)
{
    fmt_u64(f, us / 1000u, 1);
    fmt_char(f, '.');
    fmt_u64(f, us % 1000u, 3);
}
