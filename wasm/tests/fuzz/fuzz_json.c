/* libFuzzer target: the strict JSON reader (wasm/api/json.c).
 *
 * The input is the document itself, so the seed corpus is plain JSON files. Beyond "does
 * not crash", every parse is checked against properties the reader promises:
 *   - a failure names a static message and a position inside the source, and leaves no
 *     tokens to read;
 *   - a success is a well-formed tree: spans inside the source, next/parent/size agree with
 *     each other, nesting within JSON_MAX_DEPTH, object keys are strings;
 *   - every string unescapes to exactly `size` bytes of valid UTF-8 that json_string_eq
 *     accepts, or holds U+0000 and is refused;
 *   - keys are unique, so json_object_get finds each member's own value;
 *   - the three number readers agree with each other and with strtod;
 *   - one token fewer than the document needs is "too many tokens".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_TOKENS  4096
#define FUZZ_MAX_LEN 65536

/* The fuzzer's own token array; the reader under test keeps nothing. */
static struct json_token tokens[FUZZ_TOKENS];

static int utf8_valid(const uint8_t *s, uint32_t n)
{
    uint32_t i = 0;
    while (i < n) {
        uint32_t cp, len, k;
        uint8_t c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
            cp = c & 0x1Fu;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            cp = c & 0x0Fu;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            cp = c & 0x07u;
        } else {
            return 0;
        }
        if (i + len > n)
            return 0;
        for (k = 1; k < len; k++) {
            if ((s[i + k] & 0xC0u) != 0x80u)
                return 0;
            cp = (cp << 6) | (s[i + k] & 0x3Fu);
        }
        /* Decoded, then judged: the shortest form, no surrogates, not beyond U+10FFFF. */
        if ((len == 3 && cp < 0x800u) || (len == 4 && cp < 0x10000u) || cp > 0x10FFFFu ||
            (cp >= 0xD800u && cp <= 0xDFFFu))
            return 0;
        i += len;
    }
    return 1;
}

static int has_escaped_nul(const char *raw, uint32_t len)
{
    uint32_t i;
    for (i = 0; i + 6 <= len; i++) {
        if (raw[i] == '\\') {
            if (memcmp(raw + i, "\\u0000", 6) == 0)
                return 1;
            i++; /* skip the escaped character: "\\\\u0000" is not U+0000 */
        }
    }
    return 0;
}

static void check_string(const struct json_doc *d, uint32_t t)
{
    const struct json_token *k = &d->tok[t];
    char *buf = malloc((size_t)k->size + 1);
    if (!buf)
        abort();
    if (json_string_copy(d, t, buf, k->size + 1) == 0) {
        if (strlen(buf) != k->size || !utf8_valid((const uint8_t *)buf, k->size) ||
            !json_string_eq(d, t, buf) || has_escaped_nul(d->src + k->start, k->len))
            abort();
        /* One byte short does not fit. */
        if (json_string_copy(d, t, buf, k->size) != -1)
            abort();
    } else if (!has_escaped_nul(d->src + k->start, k->len)) {
        abort();
    }
    free(buf);
}

static void check_number(const struct json_doc *d, uint32_t t)
{
    const struct json_token *k = &d->tok[t];
    uint64_t u;
    int64_t s;
    uint32_t ppm;
    char lit[128];
    double x = 0;
    int has_u = json_get_u64(d, t, &u) == 0;
    int has_s = json_get_i64(d, t, &s) == 0;
    int has_p = json_get_ppm(d, t, &ppm) == 0;
    int has_x = k->len < sizeof lit;
    if (has_x) {
        memcpy(lit, d->src + k->start, k->len);
        lit[k->len] = '\0';
        x = strtod(lit, NULL);
    }
    if (has_u && u <= (uint64_t)INT64_MAX && (!has_s || s != (int64_t)u))
        abort();
    if (has_s && s >= 0 && (!has_u || u != (uint64_t)s))
        abort();
    if (has_u && u <= 1 && (!has_p || ppm != (uint32_t)u * 1000000u))
        abort();
    if (has_p && ppm > 1000000u)
        abort();
    if (has_x) {
        /* Below 2^53 a double holds the integer exactly, and strtod rounds correctly. */
        if (has_u && u < (1ull << 53) && x != (double)u)
            abort();
        if (has_s && s > -(1ll << 53) && s < (1ll << 53) && x != (double)s)
            abort();
        if (has_p &&
            (x < 0 || x > 1 || (x * 1e6 - ppm > 0.5 + 1e-6) || (ppm - x * 1e6 > 0.5 + 1e-6)))
            abort();
        if (!has_p && lit[0] != '-' && x <= 0.999)
            abort();
    }
}

static void check_tree(const struct json_doc *d, uint32_t len)
{
    uint32_t i;
    if (d->n == 0 || d->tok[0].parent != JSON_NONE || d->tok[0].next != d->n)
        abort();
    for (i = 0; i < d->n; i++) {
        const struct json_token *k = &d->tok[i];
        uint32_t depth = 0, p, c, count = 0;
        if (k->next <= i || k->next > d->n || k->start > len || k->len > len - k->start)
            abort();
        if (i > 0) {
            const struct json_token *pt;
            if (k->parent >= i)
                abort();
            pt = &d->tok[k->parent];
            if ((pt->type != JSON_ARRAY && pt->type != JSON_OBJECT) || k->next > pt->next)
                abort();
            /* A child's span is inside its parent's. */
            if (k->start < pt->start || k->start + k->len > pt->start + pt->len)
                abort();
        }
        for (p = k->parent; p != JSON_NONE; p = d->tok[p].parent)
            depth++;
        if (depth > JSON_MAX_DEPTH)
            abort();
        switch (k->type) {
        case JSON_ARRAY:
            for (c = i + 1; c < k->next; c = d->tok[c].next) {
                if (d->tok[c].parent != i)
                    abort();
                count++;
            }
            if (count != k->size || c != k->next)
                abort();
            break;
        case JSON_OBJECT:
            if (k->size > JSON_MAX_MEMBERS)
                abort();
            for (c = i + 1; c < k->next; c = d->tok[c + 1].next) {
                char key[256];
                if (d->tok[c].type != JSON_STRING || d->tok[c].next != c + 1 || c + 1 >= k->next ||
                    d->tok[c].parent != i || d->tok[c + 1].parent != i)
                    abort();
                if (json_string_copy(d, c, key, sizeof key) == 0 &&
                    json_object_get(d, i, key) != c + 1)
                    abort();
                count++;
            }
            if (count != k->size || c != k->next)
                abort();
            break;
        case JSON_STRING:
            if (d->src[k->start - 1] != '"' || d->src[k->start + k->len] != '"')
                abort();
            check_string(d, i);
            break;
        case JSON_NUMBER: check_number(d, i); break;
        case JSON_NULL:
        case JSON_FALSE:
        case JSON_TRUE: {
            int b;
            if ((json_get_bool(d, i, &b) == 0) != (k->type != JSON_NULL))
                abort();
            break;
        }
        default: abort();
        }
        if (k->type != JSON_ARRAY && k->type != JSON_OBJECT && k->next != i + 1)
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct json_doc d;
    struct json_error e;
    uint32_t len, n;
    if (size > FUZZ_MAX_LEN)
        return 0;
    /* The source is libFuzzer's buffer of exactly `size` bytes, unterminated: ASan catches
     * any read past the end. */
    len = (uint32_t)size;
    if (json_parse(&d, (const char *)data, len, tokens, FUZZ_TOKENS, &e) != 0) {
        if (!e.message || e.offset > len || e.line < 1 || e.column < 1 || e.column > len + 1 ||
            d.n != 0 || memchr(e.path, '\0', sizeof e.path) == NULL)
            abort();
        if (strcmp(e.message, "duplicate key") == 0 &&
            (e.first_offset >= e.offset || e.key_start != e.offset + 1 ||
             e.key_len > len - e.key_start))
            abort();
        return 0;
    }
    check_tree(&d, len);
    n = d.n;
    if (json_parse(&d, (const char *)data, len, tokens, n - 1, &e) != -1 ||
        strcmp(e.message, "too many tokens") != 0)
        abort();
    return 0;
}
