/* A strict RFC 8259 JSON reader for scenario files: a tokenizer in the manner of jsmn.
 *
 * The engine reads scenarios in C, natively and in wasm, and must refuse exactly what a
 * careful person would call a mistake, with the line and column of it. So the reader is
 * strict where others are lenient: no comments, no trailing commas, no NaN, no leading
 * zeros, no single quotes, no byte order mark, only the four JSON whitespace characters,
 * valid UTF-8 throughout (not UTF-16), no unpaired \u surrogates, and no key twice in one object (a
 * scenario with "baud" twice is a mistake, whichever one a lenient reader would keep).
 *
 * It never allocates and keeps no state of its own: json_parse() fills the caller's array
 * of tokens, which point into the caller's source text, and the accessors read from both.
 * Numbers are never converted through floating point: json_get_u64/i64/ppm compute from
 * the decimal digits, so native and wasm agree bit for bit.
 *
 * Layout. Tokens are in document order; a container is followed by its children. An
 * object's members are each a key token (JSON_STRING) immediately followed by its value's
 * subtree; the key's and the value's parent are both the object (so the key of a value v
 * inside an object is v - 1). Iterating:
 *
 *     object: for (k = obj + 1; k < d->tok[obj].next; k = d->tok[k + 1].next) value = k + 1
 *     array:  for (e = arr + 1; e < d->tok[arr].next; e = d->tok[e].next)
 */
#ifndef JSON_H
#define JSON_H

#include <stdint.h>

enum json_type {
    JSON_NULL,
    JSON_FALSE,
    JSON_TRUE,
    JSON_NUMBER,
    JSON_STRING,
    JSON_ARRAY,
    JSON_OBJECT
};

/* "No token": the root's parent, json_object_get()'s "not there". */
#define JSON_NONE 0xFFFFFFFFu

/* Containers open at once; the 65th nested '[' or '{' is an error. Scenarios nest at most 6
 * deep (links[].faults[].match); the limit bounds what a hostile file can make the engine's
 * readers recurse through. */
#define JSON_MAX_DEPTH 64

/* Members of one object. Duplicate keys are found by comparing each key with the earlier
 * ones of its object, so this bounds that work to JSON_MAX_MEMBERS comparisons per key
 * (scenario objects have at most a few dozen members). */
#define JSON_MAX_MEMBERS 256

struct json_token {
    uint8_t type;    /* enum json_type */
    uint32_t start;  /* byte offset in the source; strings: the first byte after the quote */
    uint32_t len;    /* bytes of the source span; strings: raw (still escaped), no quotes;
                      * containers: from the bracket to the closing bracket included */
    uint32_t size;   /* arrays: elements; objects: members; strings: bytes of the
                      * unescaped UTF-8 value (json_string_copy needs size + 1); else 0 */
    uint32_t next;   /* index of the token after this whole subtree (the next sibling) */
    uint32_t parent; /* the enclosing array or object; JSON_NONE for the root */
};

/* Bytes of json_error.path, its NUL included; a longer path is cut short. */
#define JSON_PATH_MAX 160

struct json_error {
    uint32_t offset;     /* byte offset of the problem in the source */
    uint32_t line;       /* 1-based; lines end at '\n' */
    uint32_t column;     /* 1-based, in characters: a UTF-8 sequence counts once */
    const char *message; /* static text without position, e.g. "expected ',' or '}'" */
    /* "duplicate key" only: the key as written, src[key_start .. key_start + key_len)
     * (still escaped, ready to quote), and the offset of its first occurrence's opening
     * quote (offset is the second one's). Otherwise 0, 0 and JSON_NONE. */
    uint32_t key_start, key_len, first_offset;
    /* The value being read when the problem was found, as "links[0].faults[1].p": the
     * containers open there from the root (object members by key, array elements by
     * index), then the member whose key was read or the element that was due; "" for the
     * document itself (a problem before the first value or after the last). A duplicate
     * key's path ends with that key. */
    char path[JSON_PATH_MAX];
};

struct json_doc {
    const char *src;
    uint32_t src_len;
    struct json_token *tok;
    uint32_t n; /* tokens used; 0 after a failed parse, so every accessor then refuses */
};

/* Parses src[0 .. len) as one JSON value (any type, RFC 8259 section 2) into tok[0 .. cap).
 * Returns 0, or -1 with *err filled (err may be NULL). The encoding is checked before the
 * grammar (RFC 8259 section 8.1), at the first offending byte:
 *   "UTF-16 text (it starts with a UTF-16 byte order mark); JSON text is UTF-8",
 *   "byte order mark is not allowed", "NUL byte (UTF-16 text?); JSON text is UTF-8",
 *   "invalid UTF-8". Then the grammar's messages:
 *   "expected a value", "expected a string key", "expected a string key or '}'",
 *   "expected ':'", "expected ',' or ']'", "expected ',' or '}'", "trailing comma",
 *   "trailing characters after the value", "comments are not allowed",
 *   "strings use double quotes", "invalid literal",
 *   "NaN and Infinity are not numbers in JSON" (at the N, the I or the - before it),
 *   "invalid number", "leading zeros are not allowed", "unterminated string",
 *   "control character in string", "invalid escape", "unpaired surrogate in \\u escape",
 *   "too deeply nested", "too many tokens",
 *   "too many members in an object", "duplicate key".
 * An unterminated string is reported at its opening quote, a bad escape at its backslash,
 * bad UTF-8 at the first byte of the sequence, a duplicate key at its opening quote, an
 * invalid literal at its first letter; everything else at the offending byte. */
int json_parse(struct json_doc *doc, const char *src, uint32_t len, struct json_token *tok,
               uint32_t cap, struct json_error *err);

/* The 1-based line and column of a byte offset (clamped to the source), counted as in
 * json_error: for the engine's own messages about a token ("links[0].baud" at tok.start). */
void json_line_col(const char *src, uint32_t len, uint32_t offset, uint32_t *line,
                   uint32_t *column);

/* "null", "boolean" (both JSON_FALSE and JSON_TRUE), "number", "string", "array",
 * "object"; "invalid" for anything else. For "expected a number, got a string". */
const char *json_type_name(uint8_t type);

/* The value of member `key` (compared unescaped) of object token `obj`, or JSON_NONE when
 * there is no such member or `obj` is not an object. */
uint32_t json_object_get(const struct json_doc *d, uint32_t obj, const char *key);

/* 1 if token t is a string whose unescaped value is exactly s, else 0. A string holding
 * \u0000 never equals a C string. */
int json_string_eq(const struct json_doc *d, uint32_t t, const char *s);

/* Unescapes string token t (\uXXXX, surrogate pairs included, to UTF-8) into buf and
 * NUL-terminates it; its length is tok[t].size. Returns 0, or -1 if t is not a string,
 * buf has fewer than size + 1 bytes, or the value holds U+0000 (which a C string cannot
 * carry: "pc\u0000x" must not quietly become "pc"). */
int json_string_copy(const struct json_doc *d, uint32_t t, char *buf, uint32_t cap);

/* 1 or 0 for true or false. Returns 0, or -1 if t is not a boolean. */
int json_get_bool(const struct json_doc *d, uint32_t t, int *out);

/* Numbers are read by value, as JSON Schema's "integer" does: any literal whose exact value
 * is an integer counts, so 1e6, 1.0 and 10E-1 read as 1000000, 1 and 1, and -0 reads as 0.
 * json_get_u64: 0 .. 2^64-1; json_get_i64: -2^63 .. 2^63-1. Returns 0, or -1 if t is not a
 * number, is fractional (1.5, 1e-1) or out of range. */
int json_get_u64(const struct json_doc *d, uint32_t t, uint64_t *out);
int json_get_i64(const struct json_doc *d, uint32_t t, int64_t *out);

/* A number 0 .. 1 (a probability: 0.05, 1, 0, 1e-3) as parts per million, rounded to the
 * nearest with halves up (0.0000005 is 1 ppm), computed exactly from the digits. Returns 0,
 * or -1 if t is not a number or its exact value is outside 0 .. 1 (1.0000001 is refused,
 * although it would round to 1000000). */
int json_get_ppm(const struct json_doc *d, uint32_t t, uint32_t *out);

#endif
