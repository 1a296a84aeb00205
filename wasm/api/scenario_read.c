#include "scenario_read.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The token at `path` (under r->root), or the deepest part of it the document has: a
 * missing member or element leaves the object or array that lacks it. */
static uint32_t sr_find(const struct scenario_reader *r, const char *path)
{
    const struct json_doc *d = &r->doc;
    const char *s = path;
    uint32_t t = 0;
    if (strncmp(s, r->root, strlen(r->root)) == 0)
        s += strlen(r->root);
    while (*s) {
        uint32_t next = JSON_NONE;
        if (*s == '.')
            s++;
        if (*s == '[') {
            char *end;
            unsigned long i = strtoul(s + 1, &end, 10);
            if (*end != ']' || d->tok[t].type != JSON_ARRAY)
                break;
            if (i < d->tok[t].size)
                for (next = t + 1; i > 0; i--)
                    next = d->tok[next].next;
            s = end + 1;
        } else {
            char key[256];
            size_t n = strcspn(s, ".[");
            if (n >= sizeof key)
                break;
            memcpy(key, s, n);
            key[n] = '\0';
            s += n;
            next = json_object_get(d, t, key);
        }
        if (next == JSON_NONE)
            break;
        t = next;
    }
    return t;
}

/* "line 12, column 9: " of the value at path, into buf. */
static int sr_where(const struct scenario_reader *r, const char *path, char *buf, size_t cap)
{
    const struct json_token *t = &r->doc.tok[sr_find(r, path)];
    uint32_t line, col;
    /* A string's token starts after its quote; the value starts at the quote. */
    json_line_col(r->doc.src, r->doc.src_len, t->type == JSON_STRING ? t->start - 1 : t->start,
                  &line, &col);
    return snprintf(buf, cap, "line %u, column %u: ", (unsigned)line, (unsigned)col);
}

int sr_fail(struct scenario_reader *r, const char *path, const char *field, const char *fmt, ...)
{
    char full[192];
    va_list ap;
    int n = 0, k;
    if (r->failed)
        return -1;
    r->failed = 1;
    snprintf(full, sizeof full, "%s%s%s", path, path[0] && field ? "." : "", field ? field : "");
    if (r->positions)
        n = sr_where(r, full, r->err, r->errlen);
    if (n >= 0 && (size_t)n < r->errlen && full[0]) {
        k = snprintf(r->err + n, r->errlen - (size_t)n, "%s: ", full);
        n = k < 0 ? -1 : n + k;
    }
    if (n < 0 || (size_t)n >= r->errlen)
        return -1;
    va_start(ap, fmt);
    vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

int sr_open(struct scenario_reader *r, const char *json, uint32_t len, uint32_t max_tokens,
            const char *root, int positions, char *err, size_t errlen)
{
    struct json_error je;
    memset(r, 0, sizeof *r);
    r->err = err;
    r->errlen = errlen;
    r->root = root;
    r->positions = positions;
    r->doc.tok = malloc(max_tokens * sizeof(struct json_token));
    if (!r->doc.tok) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (json_parse(&r->doc, json, len, r->doc.tok, max_tokens, &je) != 0) {
        const char *dot = root[0] && je.path[0] && je.path[0] != '[' ? "." : "";
        int n =
            snprintf(err, errlen, "line %u, column %u: ", (unsigned)je.line, (unsigned)je.column);
        if (n > 0 && (size_t)n < errlen && (root[0] || je.path[0]))
            n += snprintf(err + n, errlen - (size_t)n, "%s%s%s: ", root, dot, je.path);
        if (n > 0 && (size_t)n < errlen)
            snprintf(err + n, errlen - (size_t)n, "%s", je.message);
        return -1;
    }
    return 0;
}

void sr_close(struct scenario_reader *r)
{
    free(r->doc.tok);
    r->doc.tok = NULL;
}

/* Restricted Damerau-Levenshtein distance (a transposition is one edit), as editDistance()
 * in schema_errors.ts; b is a known field, at most SR_FIELD_MAX characters. */
#define SR_FIELD_MAX 32
static unsigned sr_edit_distance(const char *a, const char *b)
{
    unsigned rows[3][SR_FIELD_MAX + 1];
    size_t la = strlen(a), lb = strlen(b), i, j;
    if (lb > SR_FIELD_MAX)
        return ~0u;
    for (j = 0; j <= lb; j++)
        rows[0][j] = (unsigned)j;
    for (i = 1; i <= la; i++) {
        unsigned *cur = rows[i % 3], *prev = rows[(i - 1) % 3], *prev2 = rows[(i + 1) % 3];
        cur[0] = (unsigned)i;
        for (j = 1; j <= lb; j++) {
            unsigned v = prev[j] + 1, cost = a[i - 1] != b[j - 1];
            if (cur[j - 1] + 1 < v)
                v = cur[j - 1] + 1;
            if (prev[j - 1] + cost < v)
                v = prev[j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                prev2[j - 2] + 1 < v)
                v = prev2[j - 2] + 1;
            cur[j] = v;
        }
    }
    return rows[la % 3][lb];
}

static int sr_same_ignoring_case(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
        char y = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;
        if (x != y)
            return 0;
    }
    return *a == *b;
}

/* The known field a misspelt one most likely meant, or NULL: closest() and suffixMatch() of
 * schema_errors.ts ("bauds" -> "baud" within one edit in four characters, at most three;
 * "flags" -> "tcp_flags", a field written without its prefix). */
static const char *sr_hint(const char *word, const char *const *allowed)
{
    const char *const *a;
    const char *best = NULL, *suffix = NULL;
    size_t n = strlen(word);
    unsigned best_d = ~0u, limit = n / 4 < 1 ? 1 : n / 4 > 3 ? 3 : (unsigned)(n / 4);
    int suffixes = 0;
    for (a = allowed; *a; a++) {
        unsigned d = sr_same_ignoring_case(word, *a) ? 0 : sr_edit_distance(word, *a);
        size_t la = strlen(*a);
        if (d < best_d) {
            best = *a;
            best_d = d;
        }
        if (la > n + 1 && (*a)[la - n - 1] == '_' && strcmp(*a + la - n, word) == 0) {
            suffix = *a;
            suffixes++;
        }
    }
    if (best_d <= limit)
        return best;
    return suffixes == 1 ? suffix : NULL;
}

int sr_object(struct scenario_reader *r, uint32_t obj, const char *path, const char *const *allowed)
{
    const struct json_doc *d = &r->doc;
    uint32_t k;
    if (d->tok[obj].type != JSON_OBJECT)
        return sr_fail(r, path, NULL, "must be an object");
    for (k = obj + 1; k < d->tok[obj].next; k = d->tok[k + 1].next) {
        const char *const *a;
        for (a = allowed; *a; a++)
            if (json_string_eq(d, k, *a))
                break;
        if (!*a) {
            char key[128];
            const char *hint;
            if (json_string_copy(d, k, key, sizeof key) != 0)
                strcpy(key, "...");
            hint = sr_hint(key, allowed);
            if (hint)
                return sr_fail(r, path, key, "unknown field \"%s\" (did you mean \"%s\"?)", key,
                               hint);
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

int sr_has(const struct scenario_reader *r, uint32_t obj, const char *key)
{
    return json_object_get(&r->doc, obj, key) != JSON_NONE;
}

int sr_uint(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
            uint64_t min, uint64_t max, int required, uint64_t *out)
{
    uint64_t v;
    uint32_t t = sr_get(r, obj, path, key, required);
    if (t == JSON_NONE)
        return required ? -1 : 0;
    if (json_get_u64(&r->doc, t, &v) != 0 || v < min || v > max)
        return sr_fail(r, path, key, "must be an integer between %llu and %llu",
                       (unsigned long long)min, (unsigned long long)max);
    *out = v;
    return 0;
}

int sr_u32(struct scenario_reader *r, uint32_t obj, const char *path, const char *key, uint32_t min,
           uint32_t max, int required, uint32_t *out)
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
        return sr_fail(r, path, key, "must be true or false");
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

int sr_name_value(struct scenario_reader *r, uint32_t t, const char *path, const char *field,
                  char *out)
{
    char buf[64];
    size_t i, n = json_string_copy(&r->doc, t, buf, sizeof buf) == 0 ? strlen(buf) : 0;
    for (i = 0; i < n; i++) {
        char c = buf[i];
        if (!((c >= 'a' && c <= 'z') ||
              (i > 0 && ((c >= '0' && c <= '9') || c == '_' || c == '-'))))
            break;
    }
    if (n == 0 || n > 15 || i < n)
        return sr_fail(r, path, field,
                       "must be a name of at most 15 characters: a lowercase "
                       "letter, then lowercase letters, digits, \"_\" or \"-\"");
    strcpy(out, buf);
    return 0;
}

int sr_name(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
            int required, char *out)
{
    uint32_t t = sr_get(r, obj, path, key, required);
    if (t == JSON_NONE)
        return required ? -1 : 0;
    return sr_name_value(r, t, path, key, out);
}

int sr_string(struct scenario_reader *r, uint32_t obj, const char *path, const char *key, char *out,
              uint32_t cap)
{
    uint32_t t = sr_get(r, obj, path, key, 0);
    if (t == JSON_NONE)
        return 0;
    if (r->doc.tok[t].type != JSON_STRING)
        return sr_fail(r, path, key, "must be a string");
    if (json_string_copy(&r->doc, t, out, cap) != 0)
        return sr_fail(r, path, key, "must be a string of at most %u bytes", cap - 1);
    return 0;
}

uint32_t sr_array(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
                  uint32_t min, uint32_t max, int required, uint32_t *n)
{
    uint32_t t = sr_get(r, obj, path, key, required);
    *n = 0;
    if (t == JSON_NONE)
        return JSON_NONE;
    if (r->doc.tok[t].type != JSON_ARRAY) {
        sr_fail(r, path, key, "must be an array");
        return JSON_NONE;
    }
    *n = r->doc.tok[t].size;
    if (*n < min || *n > max) {
        /* The words of countMessage() in schema_errors.ts. */
        if (min == 0)
            sr_fail(r, path, key, "must have at most %u entr%s", max, max == 1 ? "y" : "ies");
        else
            sr_fail(r, path, key, "must have between %u and %u entries", min, max);
        return JSON_NONE;
    }
    return t;
}

/* why[0..cap) = fmt ..., and -1. */
static int sr_why(char *why, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int sr_why(char *why, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, cap, fmt, ap);
    va_end(ap);
    return -1;
}

/* One part of "a.b.c.d", s[0..n): a decimal 0 .. 255 without a leading zero. */
static int sr_octet(const char *s, size_t n, uint32_t *v, char *why, size_t cap)
{
    size_t i;
    *v = 0;
    for (i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return sr_why(why, cap, "\"%.*s\" is not a number 0 .. 255", (int)n, s);
        if (*v < 1000)
            *v = *v * 10u + (uint32_t)(s[i] - '0');
    }
    if (n == 0)
        return sr_why(why, cap, "\"\" is not a number 0 .. 255");
    if (n > 1 && s[0] == '0')
        return sr_why(why, cap, "\"%.*s\" has a leading zero", (int)n, s);
    if (*v > 255)
        return sr_why(why, cap, "%.*s is not in 0 .. 255", (int)n, s);
    return 0;
}

int sr_ipv4_parse(const char *text, uint32_t *addr, uint8_t *prefix, char *why, size_t cap)
{
    const char *slash = prefix ? strchr(text, '/') : NULL, *s = text, *end;
    uint32_t a = 0, v;
    int dots = 0;
    size_t len;
    if (prefix && !slash)
        return sr_why(why, cap, "the \"/len\" prefix length is missing");
    end = slash ? slash : text + strlen(text);
    for (s = text; s < end; s++)
        dots += *s == '.';
    if (dots != 3)
        return sr_why(why, cap, "\"%.*s\" is not four numbers separated by dots", (int)(end - text),
                      text);
    for (s = text; s <= end; s += len + 1) {
        len = strcspn(s, ".");
        if (s + len > end)
            len = (size_t)(end - s);
        if (sr_octet(s, len, &v, why, cap) != 0)
            return -1;
        a = a << 8 | v;
    }
    if (prefix) {
        const char *p = slash + 1;
        len = strlen(p);
        if (len == 0 || strspn(p, "0123456789") != len)
            return sr_why(why, cap, "prefix length \"%s\" is not a number 1 .. 32", p);
        v = len > 2 ? 99 : (uint32_t)atoi(p);
        if (v < 1 || v > 32 || (len > 1 && p[0] == '0'))
            return sr_why(why, cap, "prefix length %s is not in 1 .. 32", p);
        *prefix = (uint8_t)v;
    }
    *addr = a;
    return 0;
}

int sr_cidr(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
            uint32_t *addr, uint8_t *prefix)
{
    char buf[64], why[96];
    uint32_t t = sr_get(r, obj, path, key, 1);
    static const char expect[] = "must be an IPv4 address and prefix length, like \"10.0.7.1/24\"";
    if (t == JSON_NONE)
        return -1;
    if (json_string_copy(&r->doc, t, buf, sizeof buf) != 0)
        return sr_fail(r, path, key, "%s", expect);
    if (sr_ipv4_parse(buf, addr, prefix, why, sizeof why) != 0)
        return sr_fail(r, path, key, "%s: %s", expect, why);
    return 0;
}

void sr_ip_text(uint32_t a, char *buf, size_t cap)
{
    snprintf(buf, cap, "%u.%u.%u.%u", (unsigned)(a >> 24), (unsigned)(a >> 16 & 0xFF),
             (unsigned)(a >> 8 & 0xFF), (unsigned)(a & 0xFF));
}

struct sr_side sr_side(const struct scenario_reader *r, uint32_t obj, const char *field,
                       uint64_t value)
{
    struct sr_side s;
    s.field = field;
    s.value = value;
    s.given = sr_has(r, obj, field);
    s.note = NULL;
    return s;
}

int sr_order(struct scenario_reader *r, const char *path, const struct sr_side *lo,
             const struct sr_side *hi, int strict)
{
    const struct sr_side *other = lo->given ? hi : lo;
    if (strict ? lo->value < hi->value : lo->value <= hi->value)
        return 0;
    return sr_fail(r, path, lo->given ? lo->field : hi->field, "must be %s %s (%llu%s)",
                   lo->given ? (strict ? "less than" : "at most")
                             : (strict ? "more than" : "at least"),
                   other->field, (unsigned long long)other->value,
                   other->given  ? ""
                   : other->note ? other->note
                                 : ", the default");
}

int sr_addr_problem(uint32_t addr, uint8_t prefix, char *why, size_t cap)
{
    char ip[16];
    uint32_t first = addr >> 24, host_bits = prefix >= 32 ? 0 : 0xFFFFFFFFu >> prefix;
    sr_ip_text(addr, ip, sizeof ip);
    if (first == 0)
        return sr_why(why, cap, "%s is in 0.0.0.0/8 (\"this network\"), which no host may use", ip);
    if (first == 127)
        return sr_why(why, cap, "%s is a loopback address (127.0.0.0/8)", ip);
    if (first >= 224)
        return sr_why(why, cap, "%s is a multicast or reserved address (224.0.0.0 and up)", ip);
    /* A /31 (RFC 3021) or /32 has no subnet or broadcast address. */
    if (prefix <= 30 && (addr & host_bits) == 0)
        return sr_why(why, cap, "%s is the address of the subnet %s/%u itself, not of a host", ip,
                      ip, (unsigned)prefix);
    if (prefix <= 30 && (addr & host_bits) == host_bits)
        return sr_why(why, cap, "%s is the broadcast address of its /%u subnet", ip,
                      (unsigned)prefix);
    return 0;
}
