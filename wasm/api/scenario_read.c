#include "scenario_read.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sr_fail(struct scenario_reader *r, const char *path, const char *field, const char *fmt, ...)
{
    va_list ap;
    int n;
    if (r->failed)
        return -1;
    r->failed = 1;
    if (field)
        n = snprintf(r->err, r->errlen, "%s%s%s: ", path, path[0] ? "." : "", field);
    else
        n = snprintf(r->err, r->errlen, "%s: ", path[0] ? path : "(top level)");
    if (n < 0 || (size_t)n >= r->errlen)
        return -1;
    va_start(ap, fmt);
    vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

int sr_open(struct scenario_reader *r, const char *json, uint32_t len, uint32_t max_tokens,
            const char *what, char *err, size_t errlen)
{
    struct json_error je;
    memset(r, 0, sizeof *r);
    r->err = err;
    r->errlen = errlen;
    r->doc.tok = malloc(max_tokens * sizeof(struct json_token));
    if (!r->doc.tok) {
        snprintf(err, errlen, "%sout of memory", what);
        return -1;
    }
    if (json_parse(&r->doc, json, len, r->doc.tok, max_tokens, &je) != 0) {
        snprintf(err, errlen, "%sline %u, column %u: %s", what, (unsigned)je.line,
                 (unsigned)je.column, je.message);
        return -1;
    }
    return 0;
}

void sr_close(struct scenario_reader *r)
{
    free(r->doc.tok);
    r->doc.tok = NULL;
}

static const char *sr_type(const struct scenario_reader *r, uint32_t t)
{
    return json_type_name(r->doc.tok[t].type);
}

int sr_object(struct scenario_reader *r, uint32_t obj, const char *path,
              const char *const *allowed)
{
    const struct json_doc *d = &r->doc;
    uint32_t k;
    if (d->tok[obj].type != JSON_OBJECT)
        return sr_fail(r, path, NULL, "must be an object, not %s", sr_type(r, obj));
    for (k = obj + 1; k < d->tok[obj].next; k = d->tok[k + 1].next) {
        const char *const *a;
        for (a = allowed; *a; a++)
            if (json_string_eq(d, k, *a))
                break;
        if (!*a) {
            char key[64];
            if (json_string_copy(d, k, key, sizeof key) != 0)
                strcpy(key, "...");
            return sr_fail(r, path, key, "unknown field \"%s\"", key);
        }
    }
    return 0;
}

uint32_t sr_get(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
                int required)
{
    uint32_t t = json_object_get(&r->doc, obj, key);
    if (t == JSON_NONE && required)
        sr_fail(r, path, key, "is required");
    return t;
}

int sr_uint(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
            uint64_t min, uint64_t max, int required, uint64_t *out)
{
    uint64_t v;
    uint32_t t = sr_get(r, obj, path, key, required);
    if (t == JSON_NONE)
        return required ? -1 : 0;
    if (json_get_u64(&r->doc, t, &v) != 0 || v < min || v > max)
        return sr_fail(r, path, key, "must be an integer from %llu to %llu",
                       (unsigned long long)min, (unsigned long long)max);
    *out = v;
    return 0;
}

int sr_u32(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
           uint32_t min, uint32_t max, int required, uint32_t *out)
{
    uint64_t v = *out;
    if (sr_uint(r, obj, path, key, min, max, required, &v) != 0)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

int sr_bool(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
            uint8_t *out)
{
    int v;
    uint32_t t = sr_get(r, obj, path, key, 0);
    if (t == JSON_NONE)
        return 0;
    if (json_get_bool(&r->doc, t, &v) != 0)
        return sr_fail(r, path, key, "must be true or false, not %s", sr_type(r, t));
    *out = (uint8_t)v;
    return 0;
}

int sr_enum(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
            const char *const *names, int required, int *out)
{
    int i;
    char list[256];
    size_t n = 0;
    uint32_t t = sr_get(r, obj, path, key, required);
    if (t == JSON_NONE)
        return required ? -1 : 0;
    for (i = 0; names[i]; i++)
        if (json_string_eq(&r->doc, t, names[i])) {
            *out = i;
            return 0;
        }
    list[0] = 0;
    for (i = 0; names[i] && n < sizeof list; i++) {
        int k = snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", names[i]);
        n += k > 0 ? (size_t)k : 0;
    }
    return sr_fail(r, path, key, "must be one of: %s", list);
}

int sr_name(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
            int required, char *out)
{
    char buf[64];
    size_t i;
    uint32_t t = sr_get(r, obj, path, key, required);
    if (t == JSON_NONE)
        return required ? -1 : 0;
    if (json_string_copy(&r->doc, t, buf, sizeof buf) != 0 || strlen(buf) == 0 ||
        strlen(buf) >= 16)
        return sr_fail(r, path, key, "must be a name of 1 to 15 characters");
    for (i = 0; buf[i]; i++) {
        char c = buf[i];
        int ok = (c >= 'a' && c <= 'z') || (i > 0 && ((c >= '0' && c <= '9') || c == '_' || c == '-'));
        if (!ok)
            return sr_fail(r, path, key,
                           "\"%s\" is not a name: a lowercase letter, then letters, digits, _ or -",
                           buf);
    }
    strcpy(out, buf);
    return 0;
}

int sr_string(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
              char *out, uint32_t cap)
{
    uint32_t t = sr_get(r, obj, path, key, 0);
    if (t == JSON_NONE)
        return 0;
    if (r->doc.tok[t].type != JSON_STRING)
        return sr_fail(r, path, key, "must be a string, not %s", sr_type(r, t));
    if (json_string_copy(&r->doc, t, out, cap) != 0)
        return sr_fail(r, path, key, "must be a string of at most %u bytes", cap - 1);
    return 0;
}

/* A decimal number of 1 to 3 digits without a leading zero, at most max: the characters
 * read, or 0 if there is none. */
static int sr_decimal(const char *s, unsigned max, unsigned *out)
{
    int n = 0;
    unsigned v = 0;
    while (n < 3 && s[n] >= '0' && s[n] <= '9')
        v = v * 10u + (unsigned)(s[n++] - '0');
    if (n == 0 || (n > 1 && s[0] == '0') || (s[n] >= '0' && s[n] <= '9') || v > max)
        return 0;
    *out = v;
    return n;
}

int sr_ipv4_parse(const char *text, uint32_t *addr, uint8_t *prefix)
{
    const char *s = text;
    uint32_t a = 0;
    unsigned v, i;
    int n;
    for (i = 0; i < 4; i++) {
        if (i > 0 && *s++ != '.')
            return -1;
        n = sr_decimal(s, 255, &v);
        if (n == 0)
            return -1;
        a = a << 8 | v;
        s += n;
    }
    if (prefix) {
        if (*s++ != '/' || (n = sr_decimal(s, 32, &v)) == 0 || v < 1)
            return -1;
        s += n;
        *prefix = (uint8_t)v;
    }
    if (*s != 0)
        return -1;
    *addr = a;
    return 0;
}

int sr_cidr(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
            uint32_t *addr, uint8_t *prefix)
{
    char buf[32];
    uint32_t t = sr_get(r, obj, path, key, 1);
    if (t == JSON_NONE)
        return -1;
    if (json_string_copy(&r->doc, t, buf, sizeof buf) != 0 || sr_ipv4_parse(buf, addr, prefix) != 0)
        return sr_fail(r, path, key, "must be an IPv4 address with a prefix length, like \"10.0.7.1/24\"");
    return 0;
}
