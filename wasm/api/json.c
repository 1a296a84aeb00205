/* The strict JSON reader (json.h): RFC 8259 grammar, RFC 3629 UTF-8, no allocation.
 *
 * json_parse() is one loop over the source with three states (a value is due, a value has
 * ended, an object key is due) instead of recursion, so a hostile file can nest as deep as
 * it likes without touching the C stack; JSON_MAX_DEPTH is a policy, not a guard.
 */
#include "json.h"

#include <string.h>

/* esc_decode()'s failures; the parser turns them into messages. */
#define ESC_BAD       (-1) /* not one of RFC 8259 section 7's escapes, or a bad hex digit */
#define ESC_SURROGATE (-2) /* a \u surrogate that is not half of a high-low pair */
#define ESC_SHORT     (-3) /* the input ended inside the escape */

enum json_state { ST_VALUE, ST_AFTER, ST_KEY };

struct json_parser {
    const char *s;
    uint32_t len;
    uint32_t pos;
    uint32_t depth;
    uint32_t cap;
    struct json_doc *doc;
    struct json_error *err;
    /* Where the reader is, for the path of an error: the innermost open container, what is
     * due in it, the key token of the object member being read (once its key is read) and
     * the index of the array element being read. */
    uint32_t cur;
    enum json_state st;
    uint32_t key;
    uint32_t index;
};

void json_line_col(const char *src, uint32_t len, uint32_t offset, uint32_t *line, uint32_t *column)
{
    uint32_t i, l = 1, c = 1;
    if (offset > len)
        offset = len;
    for (i = 0; i < offset; i++) {
        uint8_t b = (uint8_t)src[i];
        if (b == '\n') {
            l++;
            c = 1;
        } else if ((b & 0xC0u) != 0x80u) {
            /* Continuation bytes are part of the character before them: an editor shows
             * "é" as one column. */
            c++;
        }
    }
    *line = l;
    *column = c;
}

static void error_path(const struct json_parser *p, char *out);

static int fail(struct json_parser *p, uint32_t offset, const char *message)
{
    struct json_error *e = p->err;
    if (e) {
        e->offset = offset;
        e->message = message;
        e->key_start = 0;
        e->key_len = 0;
        e->first_offset = JSON_NONE;
        json_line_col(p->s, p->len, offset, &e->line, &e->column);
        error_path(p, e->path);
    }
    p->doc->n = 0;
    return -1;
}

/* A '/' where something else was due is most likely a comment: say so. */
static int fail_unexpected(struct json_parser *p, const char *message)
{
    if (p->pos < p->len && p->s[p->pos] == '/')
        message = "comments are not allowed";
    return fail(p, p->pos, message);
}

static void skip_ws(struct json_parser *p)
{
    /* RFC 8259 section 2: exactly these four; no form feed, no NBSP. */
    while (p->pos < p->len) {
        char c = p->s[p->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            break;
        p->pos++;
    }
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int is_alnum(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int hex_val(char c)
{
    if (is_digit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static int hex4(const char *s, uint32_t i, uint32_t end, uint32_t *cp)
{
    uint32_t j, v = 0;
    for (j = 0; j < 4; j++) {
        int h;
        if (i + j >= end)
            return ESC_SHORT;
        h = hex_val(s[i + j]);
        if (h < 0)
            return ESC_BAD;
        v = v * 16u + (uint32_t)h;
    }
    *cp = v;
    return 0;
}

/* Decodes the escape at s[i] == '\\' into UTF-8. Returns the bytes written (1 .. 4) and
 * sets *used to the source bytes it took, or an ESC_ error. The parser validates with it
 * and the accessors unescape with it, so both always agree on what a string means. */
static int esc_decode(const char *s, uint32_t i, uint32_t end, uint8_t out[4], uint32_t *used)
{
    uint32_t cp, lo;
    int r;
    if (i + 1 >= end)
        return ESC_SHORT;
    *used = 2;
    switch (s[i + 1]) {
    case '"': out[0] = '"'; return 1;
    case '\\': out[0] = '\\'; return 1;
    case '/': out[0] = '/'; return 1;
    case 'b': out[0] = 0x08; return 1;
    case 'f': out[0] = 0x0C; return 1;
    case 'n': out[0] = 0x0A; return 1;
    case 'r': out[0] = 0x0D; return 1;
    case 't': out[0] = 0x09; return 1;
    case 'u': break;
    default: return ESC_BAD;
    }
    r = hex4(s, i + 2, end, &cp);
    if (r < 0)
        return r;
    *used = 6;
    if (cp >= 0xDC00u && cp <= 0xDFFFu)
        return ESC_SURROGATE;
    if (cp >= 0xD800u && cp <= 0xDBFFu) {
        /* RFC 8259 section 7: a character outside the BMP is a high-low pair. A lone half
         * has no UTF-8 form (RFC 3629 section 3), so it is refused, not passed on. */
        if (i + 7 >= end || s[i + 6] != '\\' || s[i + 7] != 'u' || hex4(s, i + 8, end, &lo) != 0 ||
            lo < 0xDC00u || lo > 0xDFFFu)
            return ESC_SURROGATE;
        cp = 0x10000u + ((cp - 0xD800u) << 10) + (lo - 0xDC00u);
        *used = 12;
    }
    if (cp < 0x80u) {
        out[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800u) {
        out[0] = (uint8_t)(0xC0u | (cp >> 6));
        out[1] = (uint8_t)(0x80u | (cp & 0x3Fu));
        return 2;
    }
    if (cp < 0x10000u) {
        out[0] = (uint8_t)(0xE0u | (cp >> 12));
        out[1] = (uint8_t)(0x80u | ((cp >> 6) & 0x3Fu));
        out[2] = (uint8_t)(0x80u | (cp & 0x3Fu));
        return 3;
    }
    out[0] = (uint8_t)(0xF0u | (cp >> 18));
    out[1] = (uint8_t)(0x80u | ((cp >> 12) & 0x3Fu));
    out[2] = (uint8_t)(0x80u | ((cp >> 6) & 0x3Fu));
    out[3] = (uint8_t)(0x80u | (cp & 0x3Fu));
    return 4;
}

/* The length of the well-formed UTF-8 sequence of 2 .. 4 bytes at s[0], or 0. RFC 3629
 * section 4's table: it leaves out overlong forms (C0, C1, E0 80..9F, F0 80..8F),
 * surrogates (ED A0..BF) and anything above U+10FFFF (F4 90.., F5..FF). */
static uint32_t utf8_len(const uint8_t *s, uint32_t avail)
{
    uint8_t c = s[0], lo = 0x80, hi = 0xBF;
    uint32_t n, i;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4;
    else
        return 0;
    if (c == 0xE0)
        lo = 0xA0;
    else if (c == 0xED)
        hi = 0x9F;
    else if (c == 0xF0)
        lo = 0x90;
    else if (c == 0xF4)
        hi = 0x8F;
    if (avail < n || s[1] < lo || s[1] > hi)
        return 0;
    for (i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return n;
}

/* Validates the string whose opening quote is at p->pos and fills t's span and unescaped
 * size; p->pos ends after the closing quote. */
static int scan_string(struct json_parser *p, struct json_token *t)
{
    uint32_t quote = p->pos, i = p->pos + 1, size = 0;
    for (;;) {
        uint8_t c;
        if (i >= p->len)
            return fail(p, quote, "unterminated string");
        c = (uint8_t)p->s[i];
        if (c == '"')
            break;
        if (c < 0x20) {
            /* RFC 8259 section 7: control characters must be escaped; a raw newline is
             * usually a missing closing quote. */
            return fail(p, i, "control character in string");
        }
        if (c == '\\') {
            uint8_t out[4];
            uint32_t used;
            int r = esc_decode(p->s, i, p->len, out, &used);
            if (r == ESC_SHORT)
                return fail(p, quote, "unterminated string");
            if (r == ESC_SURROGATE)
                return fail(p, i, "unpaired surrogate in \\u escape");
            if (r < 0)
                return fail(p, i, "invalid escape");
            size += (uint32_t)r;
            i += used;
        } else if (c < 0x80) {
            size++;
            i++;
        } else {
            /* check_encoding() has found the whole text well-formed. */
            uint32_t n = utf8_len((const uint8_t *)p->s + i, p->len - i);
            size += n;
            i += n;
        }
    }
    t->start = quote + 1;
    t->len = i - quote - 1;
    t->size = size;
    p->pos = i + 1;
    return 0;
}

/* JavaScript writes what JSON has no number for (RFC 8259 section 6) as NaN and Infinity. */
#define NON_FINITE "NaN and Infinity are not numbers in JSON"

static int starts_non_finite(const char *s, uint32_t avail)
{
    return (avail >= 3 && memcmp(s, "NaN", 3) == 0) ||
           (avail >= 8 && memcmp(s, "Infinity", 8) == 0);
}

/* RFC 8259 section 6: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static int scan_number(struct json_parser *p, struct json_token *t)
{
    const char *s = p->s;
    uint32_t i = p->pos, len = p->len;
    if (s[i] == '-')
        i++;
    if (starts_non_finite(s + i, len - i))
        return fail(p, p->pos, NON_FINITE);
    if (i >= len || !is_digit(s[i]))
        return fail(p, i, "invalid number");
    if (s[i] == '0') {
        i++;
        if (i < len && is_digit(s[i]))
            return fail(p, i, "leading zeros are not allowed");
    } else {
        while (i < len && is_digit(s[i]))
            i++;
    }
    if (i < len && s[i] == '.') {
        i++;
        if (i >= len || !is_digit(s[i]))
            return fail(p, i, "invalid number");
        while (i < len && is_digit(s[i]))
            i++;
    }
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < len && (s[i] == '+' || s[i] == '-'))
            i++;
        if (i >= len || !is_digit(s[i]))
            return fail(p, i, "invalid number");
        while (i < len && is_digit(s[i]))
            i++;
    }
    /* "1x", "1.2.3", "0x10", "1-2": say "number" rather than "expected ','". */
    if (i < len && (is_alnum(s[i]) || s[i] == '.' || s[i] == '+' || s[i] == '-'))
        return fail(p, i, "invalid number");
    t->start = p->pos;
    t->len = i - p->pos;
    p->pos = i;
    return 0;
}

static int scan_literal(struct json_parser *p, struct json_token *t)
{
    static const char *const words[3] = { "null", "false", "true" };
    static const uint8_t types[3] = { JSON_NULL, JSON_FALSE, JSON_TRUE };
    uint32_t k;
    for (k = 0; k < 3; k++) {
        uint32_t n = (uint32_t)strlen(words[k]);
        if (p->len - p->pos >= n && memcmp(p->s + p->pos, words[k], n) == 0 &&
            (p->pos + n == p->len || !is_alnum(p->s[p->pos + n]))) {
            t->type = types[k];
            t->start = p->pos;
            t->len = n;
            p->pos += n;
            return 0;
        }
    }
    if (starts_non_finite(p->s + p->pos, p->len - p->pos))
        return fail(p, p->pos, NON_FINITE);
    /* True, nul, undefined, a bare word. */
    return fail(p, p->pos, "invalid literal");
}

/* A new token at the end of the array, counted in its parent if that is an array (an
 * object counts its keys instead). */
static uint32_t new_token(struct json_parser *p, uint8_t type, uint32_t parent)
{
    struct json_doc *d = p->doc;
    struct json_token *t;
    if (d->n >= p->cap) {
        fail(p, p->pos, "too many tokens");
        return JSON_NONE;
    }
    t = &d->tok[d->n];
    t->type = type;
    t->start = p->pos;
    t->len = 0;
    t->size = 0;
    t->next = d->n + 1;
    t->parent = parent;
    if (parent != JSON_NONE && d->tok[parent].type == JSON_ARRAY)
        d->tok[parent].size++;
    return d->n++;
}

/* One unescaped byte at a time from a string token, for comparisons without a buffer. */
struct ustr {
    const char *s;
    uint32_t pos, end;
    uint8_t buf[4];
    int i, n;
};

static void ustr_init(struct ustr *u, const char *src, const struct json_token *t)
{
    u->s = src;
    u->pos = t->start;
    u->end = t->start + t->len;
    u->i = u->n = 0;
}

static int ustr_next(struct ustr *u)
{
    uint8_t c;
    uint32_t used;
    if (u->i < u->n)
        return u->buf[u->i++];
    if (u->pos >= u->end)
        return -1;
    c = (uint8_t)u->s[u->pos];
    if (c != '\\') {
        u->pos++;
        return c;
    }
    u->n = esc_decode(u->s, u->pos, u->end, u->buf, &used);
    if (u->n < 0) {
        /* Only a token json_parse() did not make can get here; read it as it stands. */
        u->n = 1;
        u->buf[0] = c;
        used = 1;
    }
    u->pos += used;
    u->i = 1;
    return u->buf[0];
}

static int keys_equal(const char *src, const struct json_token *a, const struct json_token *b)
{
    struct ustr ua, ub;
    int ca;
    if (a->size != b->size)
        return 0;
    /* Escapes always take more source bytes than they produce, so len == size means the
     * raw bytes are the value. */
    if (a->len == a->size && b->len == b->size)
        return memcmp(src + a->start, src + b->start, a->len) == 0;
    ustr_init(&ua, src, a);
    ustr_init(&ub, src, b);
    do {
        ca = ustr_next(&ua);
        if (ca != ustr_next(&ub))
            return 0;
    } while (ca >= 0);
    return 1;
}

/* Appends text to the path being built in out[0 .. JSON_PATH_MAX), cut short if it is full. */
static void path_put(char *out, uint32_t *n, const char *text, uint32_t len)
{
    uint32_t i;
    for (i = 0; i < len && *n + 1 < JSON_PATH_MAX; i++)
        out[(*n)++] = text[i];
    out[*n] = '\0';
}

static void path_key(const struct json_parser *p, uint32_t key, char *out, uint32_t *n)
{
    struct ustr u;
    int c;
    if (*n > 0)
        path_put(out, n, ".", 1);
    ustr_init(&u, p->s, &p->doc->tok[key]);
    while ((c = ustr_next(&u)) > 0) {
        char b = (char)c;
        path_put(out, n, &b, 1);
    }
}

static void path_index(char *out, uint32_t *n, uint32_t index)
{
    char buf[16];
    uint32_t k = sizeof buf;
    buf[--k] = ']';
    do {
        buf[--k] = (char)('0' + index % 10u);
        index /= 10u;
    } while (index > 0);
    buf[--k] = '[';
    path_put(out, n, buf + k, (uint32_t)sizeof buf - k);
}

/* The path of the value being read when the reader stopped, in the notation of
 * "links[0].faults[1].p": the open containers from the root, then the member being read.
 * Earlier siblings of an open container are complete, so their next links count them. */
static void error_path(const struct json_parser *p, char *out)
{
    const struct json_token *tok = p->doc->tok;
    uint32_t chain[JSON_MAX_DEPTH], depth = 0, n = 0, c;
    out[0] = '\0';
    for (c = p->cur; c != JSON_NONE && depth < JSON_MAX_DEPTH; c = tok[c].parent)
        chain[depth++] = c;
    while (depth-- > 0) {
        uint32_t parent = tok[chain[depth]].parent, e, i = 0;
        if (parent == JSON_NONE)
            continue;
        if (tok[parent].type == JSON_OBJECT) {
            path_key(p, chain[depth] - 1, out, &n);
            continue;
        }
        for (e = parent + 1; e != chain[depth]; e = tok[e].next)
            i++;
        path_index(out, &n, i);
    }
    if (p->cur == JSON_NONE)
        return;
    if (tok[p->cur].type == JSON_OBJECT && p->key != JSON_NONE)
        path_key(p, p->key, out, &n);
    else if (tok[p->cur].type == JSON_ARRAY && p->st == ST_VALUE)
        path_index(out, &n, p->index);
}

/* Reads an object key at p->pos (a '"') into the object `obj`. */
static int scan_key(struct json_parser *p, uint32_t obj)
{
    struct json_doc *d = p->doc;
    uint32_t k, j;
    if (d->tok[obj].size >= JSON_MAX_MEMBERS)
        return fail(p, p->pos, "too many members in an object");
    k = new_token(p, JSON_STRING, obj);
    if (k == JSON_NONE || scan_string(p, &d->tok[k]) < 0)
        return -1;
    p->key = k;
    /* RFC 8259 section 4 leaves duplicate names to the reader; here one is a mistake in the
     * scenario, so it is reported rather than resolved. Earlier members' subtrees are
     * complete, so their next links are set. */
    for (j = obj + 1; j < k; j = d->tok[j + 1].next) {
        if (keys_equal(p->s, &d->tok[j], &d->tok[k])) {
            fail(p, d->tok[k].start - 1, "duplicate key");
            if (p->err) {
                p->err->key_start = d->tok[k].start;
                p->err->key_len = d->tok[k].len;
                p->err->first_offset = d->tok[j].start - 1;
            }
            return -1;
        }
    }
    d->tok[obj].size++;
    return 0;
}

/* A value is complete: the member or element that was being read is over. */
static void value_done(struct json_parser *p)
{
    p->st = ST_AFTER;
    p->key = JSON_NONE;
}

/* Reads the value at p->pos. A scalar is complete afterwards (ST_AFTER); a container is
 * opened and becomes p->cur, unless it is empty. */
static int scan_value(struct json_parser *p)
{
    struct json_doc *d = p->doc;
    char c;
    uint32_t t;
    int r;
    if (p->pos >= p->len)
        return fail(p, p->pos, "expected a value");
    c = p->s[p->pos];
    if (c == '\'')
        return fail(p, p->pos, "strings use double quotes");
    if (c == '+' || c == '.')
        return fail(p, p->pos, "invalid number");
    if (c != '[' && c != '{' && c != '"' && c != '-' && !is_alnum(c))
        return fail_unexpected(p, "expected a value");
    if ((c == '[' || c == '{') && p->depth >= JSON_MAX_DEPTH)
        return fail(p, p->pos, "too deeply nested");
    t = new_token(p,
                  c == '['   ? JSON_ARRAY
                  : c == '{' ? JSON_OBJECT
                  : c == '"' ? JSON_STRING
                             : JSON_NUMBER,
                  p->cur);
    if (t == JSON_NONE)
        return -1;
    if (c != '[' && c != '{') {
        r = c == '"'                  ? scan_string(p, &d->tok[t])
            : c == '-' || is_digit(c) ? scan_number(p, &d->tok[t])
                                      : scan_literal(p, &d->tok[t]);
        if (r == 0)
            value_done(p);
        return r;
    }
    p->depth++;
    p->pos++;
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == (c == '[' ? ']' : '}')) {
        d->tok[t].len = p->pos + 1 - d->tok[t].start;
        d->tok[t].next = d->n;
        p->depth--;
        p->pos++;
        value_done(p);
        return 0;
    }
    p->cur = t;
    p->key = JSON_NONE;
    p->st = c == '[' ? ST_VALUE : ST_KEY;
    return 0;
}

/* Closes the container p->cur at its bracket, p->pos. */
static void close_container(struct json_parser *p)
{
    struct json_token *tok = p->doc->tok;
    tok[p->cur].len = p->pos + 1 - tok[p->cur].start;
    tok[p->cur].next = p->doc->n;
    p->depth--;
    p->cur = tok[p->cur].parent;
    p->pos++;
    value_done(p);
}

/* RFC 8259 section 8.1: JSON text exchanged between systems is UTF-8. Said before the
 * grammar is read, so a UTF-16 file (whose every other byte is NUL) or a BOM gets its own
 * message instead of "expected a value". */
static int check_encoding(struct json_parser *p)
{
    const uint8_t *s = (const uint8_t *)p->s;
    uint32_t i = 0;
    if (p->len >= 2 && ((s[0] == 0xFF && s[1] == 0xFE) || (s[0] == 0xFE && s[1] == 0xFF)))
        return fail(p, 0,
                    "UTF-16 text (it starts with a UTF-16 byte order mark); JSON text is UTF-8");
    /* A reader may ignore a UTF-8 BOM; a strict one says it is there. */
    if (p->len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
        return fail(p, 0, "byte order mark is not allowed");
    while (i < p->len) {
        uint32_t n = 1;
        if (s[i] == 0)
            return fail(p, i, "NUL byte (UTF-16 text?); JSON text is UTF-8");
        if (s[i] >= 0x80 && (n = utf8_len(s + i, p->len - i)) == 0)
            return fail(p, i, "invalid UTF-8");
        i += n;
    }
    return 0;
}

int json_parse(struct json_doc *doc, const char *src, uint32_t len, struct json_token *tok,
               uint32_t cap, struct json_error *err)
{
    struct json_parser p;
    uint32_t comma = JSON_NONE; /* where the ',' before the due element is */
    doc->src = src;
    doc->src_len = len;
    doc->tok = tok;
    doc->n = 0;
    p.s = src;
    p.len = src ? len : 0;
    p.pos = 0;
    p.depth = 0;
    p.cap = cap;
    p.doc = doc;
    p.err = err;
    p.cur = JSON_NONE;
    p.st = ST_VALUE;
    p.key = JSON_NONE;
    p.index = 0;
    if (check_encoding(&p) < 0)
        return -1;
    skip_ws(&p);
    for (;;) {
        int obj = p.cur != JSON_NONE && tok[p.cur].type == JSON_OBJECT;
        if (p.st == ST_VALUE) {
            if (comma != JSON_NONE && p.pos < p.len && p.s[p.pos] == ']') {
                p.st = ST_AFTER; /* the array is at fault, not an element */
                return fail(&p, comma, "trailing comma");
            }
            comma = JSON_NONE;
            if (p.cur != JSON_NONE && !obj)
                p.index = tok[p.cur].size;
            if (scan_value(&p) < 0)
                return -1;
            skip_ws(&p);
        } else if (p.st == ST_KEY) {
            if (comma != JSON_NONE && p.pos < p.len && p.s[p.pos] == '}')
                return fail(&p, comma, "trailing comma");
            if (p.pos < p.len && p.s[p.pos] == '\'')
                return fail(&p, p.pos, "strings use double quotes");
            if (p.pos >= p.len || p.s[p.pos] != '"')
                return fail_unexpected(&p, comma != JSON_NONE ? "expected a string key"
                                                              : "expected a string key or '}'");
            comma = JSON_NONE;
            if (scan_key(&p, p.cur) < 0)
                return -1;
            skip_ws(&p);
            p.st = ST_VALUE;
            if (p.pos >= p.len || p.s[p.pos] != ':')
                return fail_unexpected(&p, "expected ':'");
            p.pos++;
            skip_ws(&p);
        } else if (p.cur == JSON_NONE) {
            if (p.pos < p.len)
                return fail_unexpected(&p, "trailing characters after the value");
            return 0;
        } else if (p.pos < p.len && p.s[p.pos] == ',') {
            comma = p.pos++;
            skip_ws(&p);
            p.st = obj ? ST_KEY : ST_VALUE;
        } else if (p.pos < p.len && p.s[p.pos] == (obj ? '}' : ']')) {
            close_container(&p);
            skip_ws(&p);
        } else {
            return fail_unexpected(&p, obj ? "expected ',' or '}'" : "expected ',' or ']'");
        }
    }
}

const char *json_type_name(uint8_t type)
{
    static const char *const names[] = { "null",   "boolean", "boolean", "number",
                                         "string", "array",   "object" };
    return type <= JSON_OBJECT ? names[type] : "invalid";
}

static const struct json_token *token(const struct json_doc *d, uint32_t t, uint8_t type)
{
    if (!d || t >= d->n || d->tok[t].type != type)
        return NULL;
    return &d->tok[t];
}

uint32_t json_object_get(const struct json_doc *d, uint32_t obj, const char *key)
{
    const struct json_token *o = token(d, obj, JSON_OBJECT);
    uint32_t k;
    if (!o)
        return JSON_NONE;
    for (k = obj + 1; k < o->next; k = d->tok[k + 1].next)
        if (json_string_eq(d, k, key))
            return k + 1;
    return JSON_NONE;
}

int json_string_eq(const struct json_doc *d, uint32_t t, const char *s)
{
    const struct json_token *k = token(d, t, JSON_STRING);
    struct ustr u;
    uint32_t i;
    if (!k || strlen(s) != k->size)
        return 0;
    ustr_init(&u, d->src, k);
    for (i = 0; i < k->size; i++)
        if (ustr_next(&u) != (uint8_t)s[i])
            return 0;
    return 1;
}

int json_string_copy(const struct json_doc *d, uint32_t t, char *buf, uint32_t cap)
{
    const struct json_token *k = token(d, t, JSON_STRING);
    struct ustr u;
    uint32_t i;
    if (!k || cap < 1 || k->size > cap - 1)
        return -1;
    ustr_init(&u, d->src, k);
    for (i = 0; i < k->size; i++) {
        int c = ustr_next(&u);
        if (c <= 0) {
            buf[0] = '\0';
            return -1;
        }
        buf[i] = (char)c;
    }
    buf[i] = '\0';
    return 0;
}

int json_get_bool(const struct json_doc *d, uint32_t t, int *out)
{
    if (!d || t >= d->n || (d->tok[t].type != JSON_TRUE && d->tok[t].type != JSON_FALSE))
        return -1;
    *out = d->tok[t].type == JSON_TRUE;
    return 0;
}

/* A number literal as its significant digits and a power of ten: the value is
 * 0.d1 d2 .. dn * 10^(n + exp10), with d1 != 0 and dn != 0 (n == 0 means zero). Digits are
 * indexed across the '.' so nothing is copied. */
struct decimal {
    const char *s;
    uint32_t int_start, n_int, frac_start;
    uint32_t first, n; /* index of d1 among all digits, and how many significant digits */
    int64_t exp10;     /* the value is sig * 10^exp10, sig the integer d1 .. dn */
    int neg;
};

static int digit_at(const struct decimal *m, uint32_t i)
{
    return (i < m->n_int ? m->s[m->int_start + i] : m->s[m->frac_start + i - m->n_int]) - '0';
}

static int decimal_of(const struct json_doc *d, uint32_t t, struct decimal *m)
{
    const struct json_token *k = token(d, t, JSON_NUMBER);
    uint32_t i, end, n_frac = 0, total, trail = 0;
    int64_t e = 0;
    int eneg = 0;
    if (!k)
        return -1;
    m->s = d->src;
    i = k->start;
    end = k->start + k->len;
    m->neg = d->src[i] == '-';
    i += (uint32_t)m->neg;
    m->int_start = i;
    while (i < end && is_digit(d->src[i]))
        i++;
    m->n_int = i - m->int_start;
    m->frac_start = i + 1;
    if (i < end && d->src[i] == '.') {
        for (i++; i < end && is_digit(d->src[i]); i++)
            n_frac++;
    }
    if (i < end) { /* the exponent */
        i++;
        if (d->src[i] == '+' || d->src[i] == '-')
            eneg = d->src[i++] == '-';
        /* Saturating: past 10^9 the answer (out of range, or zero) no longer changes. */
        for (; i < end; i++)
            if (e < 1000000000)
                e = e * 10 + (d->src[i] - '0');
        if (eneg)
            e = -e;
    }
    total = m->n_int + n_frac;
    for (m->first = 0; m->first < total && digit_at(m, m->first) == 0; m->first++)
        ;
    while (trail < total - m->first && digit_at(m, total - 1 - trail) == 0)
        trail++;
    m->n = total - m->first - trail;
    m->exp10 = e - (int64_t)n_frac + (int64_t)trail;
    return 0;
}

/* |value| as an integer, or -1 if it is fractional or above 2^64-1. */
static int decimal_mag(const struct decimal *m, uint64_t *out)
{
    uint64_t v = 0;
    uint32_t i;
    int64_t z;
    if (m->n == 0) {
        *out = 0;
        return 0;
    }
    /* 2^64-1 has 20 digits. */
    if (m->exp10 < 0 || (int64_t)m->n + m->exp10 > 20)
        return -1;
    for (i = 0; i < m->n; i++) {
        uint64_t dg = (uint64_t)digit_at(m, m->first + i);
        if (v > (UINT64_MAX - dg) / 10u)
            return -1;
        v = v * 10u + dg;
    }
    for (z = 0; z < m->exp10; z++) {
        if (v > UINT64_MAX / 10u)
            return -1;
        v *= 10u;
    }
    *out = v;
    return 0;
}

int json_get_u64(const struct json_doc *d, uint32_t t, uint64_t *out)
{
    struct decimal m;
    if (decimal_of(d, t, &m) < 0 || (m.neg && m.n != 0))
        return -1;
    return decimal_mag(&m, out);
}

int json_get_i64(const struct json_doc *d, uint32_t t, int64_t *out)
{
    struct decimal m;
    uint64_t v;
    if (decimal_of(d, t, &m) < 0 || decimal_mag(&m, &v) < 0)
        return -1;
    if (!m.neg) {
        if (v > (uint64_t)INT64_MAX)
            return -1;
        *out = (int64_t)v;
    } else {
        if (v > (uint64_t)INT64_MAX + 1u)
            return -1;
        /* -(v - 1) - 1 stays in range for v == 2^63. */
        *out = v == 0 ? 0 : -(int64_t)(v - 1u) - 1;
    }
    return 0;
}

int json_get_ppm(const struct json_doc *d, uint32_t t, uint32_t *out)
{
    struct decimal m;
    int64_t mag, keep;
    uint32_t v = 0, i;
    if (decimal_of(d, t, &m) < 0)
        return -1;
    if (m.n == 0) {
        *out = 0;
        return 0;
    }
    if (m.neg)
        return -1;
    /* The value is 0.d1.. * 10^mag: below 1 when mag <= 0, exactly 1 only as "1". */
    mag = (int64_t)m.n + m.exp10;
    if (mag > 0) {
        if (mag != 1 || m.n != 1 || digit_at(&m, m.first) != 1)
            return -1;
        *out = 1000000u;
        return 0;
    }
    /* ppm = sig * 10^(exp10 + 6): the first `keep` digits (at most 6, as mag <= 0) are the
     * integer part and the next one decides the rounding, halves up. */
    keep = (int64_t)m.n + m.exp10 + 6;
    if (keep < 0) {
        *out = 0;
        return 0;
    }
    for (i = 0; (int64_t)i < keep; i++)
        v = v * 10u + (i < m.n ? (uint32_t)digit_at(&m, m.first + i) : 0u);
    if ((int64_t)m.n > keep && digit_at(&m, m.first + (uint32_t)keep) >= 5)
        v++;
    *out = v;
    return 0;
}
