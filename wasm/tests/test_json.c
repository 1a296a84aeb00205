/* The strict JSON reader: token trees, every error with its position, escapes, UTF-8, and
 * the exact number conversions.
 *
 * Offsets and token spans were counted by hand from the literal sources; line:column of
 * the multi-line and non-ASCII cases, and every expected number conversion, were computed
 * independently with Python (decimal.Decimal with ROUND_HALF_UP for parts per million).
 */
#include <stdint.h>
#include <string.h>

#include "json.h"
#include "unit.h"

#define CAP 300

/* Parses a literal (embedded NULs included) into a caller's doc and tokens. */
#define PARSE(d, tok, lit, e) json_parse((d), (lit), (uint32_t)(sizeof(lit) - 1), (tok), CAP, (e))

static int expect_error(const char *src, uint32_t len, const char *msg, uint32_t off, uint32_t line,
                        uint32_t col)
{
    struct json_token tok[CAP];
    struct json_doc d;
    struct json_error e;
    memset(&e, 0, sizeof e);
    if (json_parse(&d, src, len, tok, CAP, &e) != -1) {
        printf("    parsed, expected \"%s\"\n", msg);
        return 0;
    }
    if (!e.message || strcmp(e.message, msg) != 0 || e.offset != off || e.line != line ||
        e.column != col || d.n != 0) {
        printf("    got \"%s\" at %u (%u:%u), expected \"%s\" at %u (%u:%u)\n",
               e.message ? e.message : "(null)", (unsigned)e.offset, (unsigned)e.line,
               (unsigned)e.column, msg, (unsigned)off, (unsigned)line, (unsigned)col);
        return 0;
    }
    return 1;
}

#define ERR(lit, msg, off, line, col) \
    CHECK(expect_error((lit), (uint32_t)(sizeof(lit) - 1), (msg), (off), (line), (col)))

/* Parses src, which must be one string, and returns its token in *d (tok must outlive). */
static int one_string(struct json_doc *d, struct json_token *tok, const char *src, uint32_t len)
{
    struct json_error e;
    if (json_parse(d, src, len, tok, CAP, &e) != 0) {
        printf("    \"%s\" at %u\n", e.message, (unsigned)e.offset);
        return 0;
    }
    return d->n == 1 && tok[0].type == JSON_STRING;
}

static void test_scalars_at_top_level(void)
{
    struct json_token tok[CAP];
    struct json_doc d;
    CHECK_EQ(PARSE(&d, tok, "null", NULL), 0);
    CHECK_EQ(d.n, 1);
    CHECK_EQ(tok[0].type, JSON_NULL);
    CHECK_EQ(tok[0].start, 0);
    CHECK_EQ(tok[0].len, 4);
    CHECK_EQ(tok[0].next, 1);
    CHECK_EQ(tok[0].parent, JSON_NONE);
    CHECK_EQ(PARSE(&d, tok, "true", NULL), 0);
    CHECK_EQ(tok[0].type, JSON_TRUE);
    CHECK_EQ(PARSE(&d, tok, "false", NULL), 0);
    CHECK_EQ(tok[0].type, JSON_FALSE);
    CHECK_EQ(tok[0].len, 5);
    /* RFC 8259 section 2: whitespace around the value is the four characters. */
    CHECK_EQ(PARSE(&d, tok, " \t\r\n 42 \n", NULL), 0);
    CHECK_EQ(tok[0].type, JSON_NUMBER);
    CHECK_EQ(tok[0].start, 5);
    CHECK_EQ(tok[0].len, 2);
    CHECK_EQ(PARSE(&d, tok, "\"hi\"", NULL), 0);
    CHECK_EQ(tok[0].type, JSON_STRING);
    CHECK_EQ(tok[0].start, 1);
    CHECK_EQ(tok[0].len, 2);
    CHECK_EQ(tok[0].size, 2);
    CHECK_EQ(d.src_len, 4);
}

static void test_token_tree(void)
{
    /*           0         1         2
     *           0123456789012345678901234567 */
    const char *s = "{\"a\":[1,{\"b\":null}],\"c\":\"d\"}";
    static const struct json_token want[9] = {
        { JSON_OBJECT, 0, 28, 2, 9, JSON_NONE }, /* the whole */
        { JSON_STRING, 2, 1, 1, 2, 0 },          /* "a" */
        { JSON_ARRAY, 5, 14, 2, 7, 0 },          /* [1,{"b":null}] */
        { JSON_NUMBER, 6, 1, 0, 4, 2 },          /* 1 */
        { JSON_OBJECT, 8, 10, 1, 7, 2 },         /* {"b":null} */
        { JSON_STRING, 10, 1, 1, 6, 4 },         /* "b" */
        { JSON_NULL, 13, 4, 0, 7, 4 },           /* null */
        { JSON_STRING, 21, 1, 1, 8, 0 },         /* "c" */
        { JSON_STRING, 25, 1, 1, 9, 0 },         /* "d" */
    };
    struct json_token tok[CAP];
    struct json_doc d;
    uint32_t i;
    CHECK_EQ(json_parse(&d, s, (uint32_t)strlen(s), tok, CAP, NULL), 0);
    CHECK_EQ(d.n, 9);
    for (i = 0; i < 9; i++) {
        CHECK_EQ(tok[i].type, want[i].type);
        CHECK_EQ(tok[i].start, want[i].start);
        CHECK_EQ(tok[i].len, want[i].len);
        CHECK_EQ(tok[i].size, want[i].size);
        CHECK_EQ(tok[i].next, want[i].next);
        CHECK_EQ(tok[i].parent, want[i].parent);
    }
}

static void test_iteration_and_object_get(void)
{
    const char *s = "{\"a\":[1,{\"b\":null}],\"c\":\"d\",\"e\":[[],{}]}";
    static const char *const keys[3] = { "a", "c", "e" };
    struct json_token tok[CAP];
    struct json_doc d;
    uint32_t k, e, i = 0;
    CHECK_EQ(json_parse(&d, s, (uint32_t)strlen(s), tok, CAP, NULL), 0);
    for (k = 1; k < tok[0].next; k = tok[k + 1].next) {
        CHECK(i < 3);
        CHECK(json_string_eq(&d, k, keys[i]));
        CHECK_EQ(json_object_get(&d, 0, keys[i]), k + 1);
        i++;
    }
    CHECK_EQ(i, 3);
    CHECK_EQ(json_object_get(&d, 0, "a"), 2);
    CHECK_EQ(json_object_get(&d, 0, "c"), 8);
    CHECK_EQ(json_object_get(&d, 0, "x"), JSON_NONE);
    CHECK_EQ(json_object_get(&d, 0, ""), JSON_NONE);
    /* A key of a nested object is not a member of the outer one. */
    CHECK_EQ(json_object_get(&d, 0, "b"), JSON_NONE);
    CHECK_EQ(json_object_get(&d, 4, "b"), 6);
    CHECK_EQ(json_object_get(&d, 2, "b"), JSON_NONE); /* an array */
    CHECK_EQ(json_object_get(&d, 999, "a"), JSON_NONE);
    /* "e": [[],{}] is tokens 10 .. 12; the array iterates over the two empties. */
    CHECK_EQ(json_object_get(&d, 0, "e"), 10);
    CHECK_EQ(tok[10].size, 2);
    i = 0;
    for (e = 11; e < tok[10].next; e = tok[e].next)
        i++;
    CHECK_EQ(i, 2);
    CHECK_EQ(tok[11].type, JSON_ARRAY);
    CHECK_EQ(tok[11].size, 0);
    CHECK_EQ(tok[11].len, 2);
    CHECK_EQ(tok[12].type, JSON_OBJECT);
    CHECK_EQ(tok[12].next, 13);
    CHECK_EQ(d.n, 13);
}

static void test_empty_containers_and_spaces(void)
{
    struct json_token tok[CAP];
    struct json_doc d;
    CHECK_EQ(PARSE(&d, tok, "[ ]", NULL), 0);
    CHECK_EQ(d.n, 1);
    CHECK_EQ(tok[0].len, 3);
    CHECK_EQ(tok[0].size, 0);
    CHECK_EQ(PARSE(&d, tok, "{\n}", NULL), 0);
    CHECK_EQ(tok[0].type, JSON_OBJECT);
    CHECK_EQ(tok[0].size, 0);
    CHECK_EQ(PARSE(&d, tok, " { \"k\" : [ 1 , 2 ] } ", NULL), 0);
    CHECK_EQ(d.n, 5);
    CHECK_EQ(tok[0].start, 1);
    CHECK_EQ(tok[0].len, 19);
    CHECK_EQ(tok[2].start, 9);
    CHECK_EQ(tok[2].len, 9);
    CHECK_EQ(tok[2].size, 2);
    /* Form feed and NBSP are not JSON whitespace. */
    ERR("\f1", "expected a value", 0, 1, 1);
    ERR("\xC2\xA0"
        "1",
        "expected a value", 0, 1, 1);
    ERR("[1,\v2]", "expected a value", 3, 1, 4);
}

static void test_structural_errors(void)
{
    ERR("", "expected a value", 0, 1, 1);
    ERR("   ", "expected a value", 3, 1, 4);
    ERR("]", "expected a value", 0, 1, 1);
    ERR("}", "expected a value", 0, 1, 1);
    ERR("[1,]", "trailing comma", 2, 1, 3);
    ERR("{\"a\":1,}", "trailing comma", 6, 1, 7);
    ERR("[,1]", "expected a value", 1, 1, 2);
    ERR("[1,,2]", "expected a value", 3, 1, 4);
    ERR("[1 2]", "expected ',' or ']'", 3, 1, 4);
    ERR("[1", "expected ',' or ']'", 2, 1, 3);
    ERR("[1}", "expected ',' or ']'", 2, 1, 3);
    ERR("{\"a\" 1}", "expected ':'", 5, 1, 6);
    ERR("{\"a\"", "expected ':'", 4, 1, 5);
    ERR("{\"a\":}", "expected a value", 5, 1, 6);
    ERR("{\"a\":", "expected a value", 5, 1, 6);
    ERR("{\"a\":1 \"b\":2}", "expected ',' or '}'", 7, 1, 8);
    ERR("{\"a\":1]", "expected ',' or '}'", 6, 1, 7);
    ERR("{", "expected a string key or '}'", 1, 1, 2);
    ERR("{1:2}", "expected a string key or '}'", 1, 1, 2);
    ERR("{a:1}", "expected a string key or '}'", 1, 1, 2);
    ERR("{\"a\":1,2:3}", "expected a string key", 7, 1, 8);
    ERR("{'a':1}", "strings use double quotes", 1, 1, 2);
    ERR("['a']", "strings use double quotes", 1, 1, 2);
    ERR("[1] // note", "comments are not allowed", 4, 1, 5);
    ERR("[1, /* x */ 2]", "comments are not allowed", 4, 1, 5);
    ERR("{/* x */}", "comments are not allowed", 1, 1, 2);
    ERR("[1 /* x */]", "comments are not allowed", 3, 1, 4);
    ERR("{\"a\":1}x", "trailing characters after the value", 7, 1, 8);
    ERR("1 2", "trailing characters after the value", 2, 1, 3);
    ERR("[1]]", "trailing characters after the value", 3, 1, 4);
    ERR("{}{}", "trailing characters after the value", 2, 1, 3);
    /* RFC 8259 section 8.1 lets a reader ignore a BOM; a strict one names it. */
    ERR("\xEF\xBB\xBF{}", "byte order mark is not allowed", 0, 1, 1);
}

/* RFC 8259 section 8.1: JSON text is UTF-8. The encoding is judged before the grammar, so a
 * UTF-16 file is called that instead of "expected a value". */
static void test_encoding_errors(void)
{
    static const char utf16[] =
        "UTF-16 text (it starts with a UTF-16 byte order mark); JSON text is UTF-8";
    static const char nul[] = "NUL byte (UTF-16 text?); JSON text is UTF-8";
    ERR("\xFF\xFE{\0}\0", utf16, 0, 1, 1);
    ERR("\xFE\xFF\0{\0}", utf16, 0, 1, 1);
    /* UTF-16 without a BOM: every other byte is NUL, the first right after the brace (LE)
     * or before it (BE). A NUL is not the end of the text. */
    ERR("{\0\n\0}\0", nul, 1, 1, 2);
    ERR("\0{\0}", nul, 0, 1, 1);
    ERR("1\0", nul, 1, 1, 2);
    /* Inside a string a NUL is a control character too; the encoding rule says it first. */
    ERR("\"a\0b\"", nul, 2, 1, 3);
    /* Bad UTF-8 anywhere, not only in strings. */
    ERR("[1, \xFF]", "invalid UTF-8", 4, 1, 5);
    ERR("\n\n  \xC3(", "invalid UTF-8", 4, 3, 3);
}

/* The path of the value being read when the reader stops, as the scenario readers name
 * fields. */
static int expect_path(const char *src, const char *path)
{
    struct json_token tok[CAP];
    struct json_doc d;
    struct json_error e;
    if (json_parse(&d, src, (uint32_t)strlen(src), tok, CAP, &e) != -1 ||
        strcmp(e.path, path) != 0) {
        printf("    %s: path \"%s\", expected \"%s\"\n", src, e.path, path);
        return 0;
    }
    return 1;
}

static void test_error_paths(void)
{
    CHECK(expect_path("{\"links\":[{\"baud\": NaN}]}", "links[0].baud"));
    CHECK(expect_path("{\"a\":1,\"b\":[1,2,-Infinity]}", "b[2]"));
    CHECK(expect_path("{\"a\":{\"x\":1},\"b\":[{},{\"c\":\"\\ud800\"}]}", "b[1].c"));
    /* A duplicate key's path ends with it; the key may be escaped. */
    CHECK(expect_path("{\"h\":[{\"n\":1,\"\\u006e\":2}]}", "h[0].n"));
    /* Between members: the container; a trailing comma: the container, not an element. */
    CHECK(expect_path("{\"a\":{\"x\":1 \"y\":2}}", "a"));
    CHECK(expect_path("{\"a\":[1,2,]}", "a"));
    CHECK(expect_path("{\"a\":{\"x\":1,}}", "a"));
    /* A key that is read but not followed by ':' is named; one cut short is not. */
    CHECK(expect_path("{\"a\":{\"x\" 1}}", "a.x"));
    CHECK(expect_path("{\"a\":{\"x", "a"));
    /* The document: before its value, after it. */
    CHECK(expect_path("", ""));
    CHECK(expect_path("{} x", ""));
    CHECK(expect_path("[[1],[2],[3,x]]", "[2][1]"));
}

static void test_literal_errors(void)
{
    ERR("nul", "invalid literal", 0, 1, 1);
    ERR("True", "invalid literal", 0, 1, 1);
    /* What JavaScript writes for non-finite numbers gets a message of its own. */
    ERR("NaN", "NaN and Infinity are not numbers in JSON", 0, 1, 1);
    ERR("Infinity", "NaN and Infinity are not numbers in JSON", 0, 1, 1);
    ERR("[1, NaN]", "NaN and Infinity are not numbers in JSON", 4, 1, 5);
    ERR("undefined", "invalid literal", 0, 1, 1);
    ERR("[truex]", "invalid literal", 1, 1, 2);
    ERR("[null1]", "invalid literal", 1, 1, 2);
    ERR("[true,fals]", "invalid literal", 6, 1, 7);
}

static void test_number_errors(void)
{
    ERR("01", "leading zeros are not allowed", 1, 1, 2);
    ERR("00", "leading zeros are not allowed", 1, 1, 2);
    ERR("-01", "leading zeros are not allowed", 2, 1, 3);
    ERR("[1,007]", "leading zeros are not allowed", 4, 1, 5);
    ERR("1.", "invalid number", 2, 1, 3);
    ERR("1.e5", "invalid number", 2, 1, 3);
    ERR(".5", "invalid number", 0, 1, 1);
    ERR("+1", "invalid number", 0, 1, 1);
    ERR("1e", "invalid number", 2, 1, 3);
    ERR("1e+", "invalid number", 3, 1, 4);
    ERR("1E-x", "invalid number", 3, 1, 4);
    ERR("-", "invalid number", 1, 1, 2);
    ERR("[-]", "invalid number", 2, 1, 3);
    ERR("-Infinity", "NaN and Infinity are not numbers in JSON", 0, 1, 1);
    ERR("1x", "invalid number", 1, 1, 2);
    ERR("0x10", "invalid number", 1, 1, 2);
    ERR("1.5.3", "invalid number", 3, 1, 4);
    ERR("1-2", "invalid number", 1, 1, 2);
    ERR("[1e5e5]", "invalid number", 4, 1, 5);
}

static void test_string_errors(void)
{
    ERR("\"abc", "unterminated string", 0, 1, 1);
    ERR("[\"a\\", "unterminated string", 1, 1, 2);
    ERR("\"\\u12", "unterminated string", 0, 1, 1);
    ERR("{\"a\":\"b}", "unterminated string", 5, 1, 6);
    ERR("\"a\nb\"", "control character in string", 2, 1, 3);
    ERR("\"\t\"", "control character in string", 1, 1, 2);
    ERR("\"\x1f\"", "control character in string", 1, 1, 2);
    ERR("\"\\x\"", "invalid escape", 1, 1, 2);
    ERR("\"\\'\"", "invalid escape", 1, 1, 2);
    ERR("\"\\U0041\"", "invalid escape", 1, 1, 2);
    ERR("\"ab\\u12G4\"", "invalid escape", 3, 1, 4);
    ERR("\"\\u12\"", "invalid escape", 1, 1, 2);
    ERR("\"\\ud800\"", "unpaired surrogate in \\u escape", 1, 1, 2);
    ERR("\"\\uDBFF\"", "unpaired surrogate in \\u escape", 1, 1, 2);
    ERR("\"\\udc00\"", "unpaired surrogate in \\u escape", 1, 1, 2);
    ERR("\"x\\ud800x\"", "unpaired surrogate in \\u escape", 2, 1, 3);
    ERR("\"\\ud800\\u0041\"", "unpaired surrogate in \\u escape", 1, 1, 2);
    ERR("\"\\ud800\\ud800\"", "unpaired surrogate in \\u escape", 1, 1, 2);
    /* The low half first, then the high: two unpaired halves, not a pair. */
    ERR("\"\\ude00\\ud83d\"", "unpaired surrogate in \\u escape", 1, 1, 2);
}

static void test_utf8_validation(void)
{
    struct json_token tok[CAP];
    struct json_doc d;
    /* RFC 3629 section 4, the ends of each row of the table, all accepted. */
    CHECK(one_string(&d, tok, "\"\x7f\"", 3)); /* DEL is not a control character in JSON */
    CHECK(one_string(&d, tok, "\"\xC2\x80\xDF\xBF\"", 6));
    CHECK_EQ(tok[0].size, 4);
    CHECK(one_string(&d, tok, "\"\xE0\xA0\x80\xED\x9F\xBF\xEE\x80\x80\xEF\xBF\xBF\"", 14));
    CHECK(one_string(&d, tok, "\"\xF0\x90\x80\x80\xF0\x9F\x98\x80\xF4\x8F\xBF\xBF\"", 14));
    CHECK_EQ(tok[0].size, 12);
    /* Overlong forms. */
    ERR("\"\xC0\xAF\"", "invalid UTF-8", 1, 1, 2);
    ERR("\"\xC1\xBF\"", "invalid UTF-8", 1, 1, 2);
    ERR("\"\xE0\x80\xAF\"", "invalid UTF-8", 1, 1, 2);
    ERR("\"\xE0\x9F\xBF\"", "invalid UTF-8", 1, 1, 2);
    ERR("\"\xF0\x80\x80\xAF\"", "invalid UTF-8", 1, 1, 2);
    ERR("\"\xF0\x8F\xBF\xBF\"", "invalid UTF-8", 1, 1, 2);
    /* Encoded surrogates (CESU-8) and beyond U+10FFFF. */
    ERR("\"\xED\xA0\x80\"", "invalid UTF-8", 1, 1, 2);
    ERR("\"\xED\xBF\xBF\"", "invalid UTF-8", 1, 1, 2);
    ERR("\"\xF4\x90\x80\x80\"", "invalid UTF-8", 1, 1, 2);
    ERR("\"\xF5\x80\x80\x80\"", "invalid UTF-8", 1, 1, 2);
    ERR("\"\xFF\"", "invalid UTF-8", 1, 1, 2);
    /* A lone continuation byte, and truncated sequences (by the quote, by the end). */
    ERR("\"a\x80\"", "invalid UTF-8", 2, 1, 3);
    ERR("\"\xE2\x82\"", "invalid UTF-8", 1, 1, 2);
    ERR("\"\xF0\x9F\x98\"", "invalid UTF-8", 1, 1, 2);
    ERR("\"\xE2\x82", "invalid UTF-8", 1, 1, 2);
    ERR("\"\xC3", "invalid UTF-8", 1, 1, 2);
    ERR("\"\xE2\x82\x41\"", "invalid UTF-8", 1, 1, 2);
    /* After a valid two-byte character: the column counts it once. */
    ERR("\"\xC3\xA9\xC3\"", "invalid UTF-8", 3, 1, 3);
}

static void test_positions_lines_and_columns(void)
{
    /* Line 3 is `  "b": 2,`: its comma is the 9th character, at byte 2 + 10 + 8. */
    ERR("{\n  \"a\": 1,\n  \"b\": 2,\n}", "trailing comma", 20, 3, 9);
    /* \r\n ends a line at its \n; \r alone is whitespace within the line. */
    ERR("[1,\r\n2,\r\n]", "trailing comma", 6, 2, 2);
    ERR("[1,\r2,\r]", "trailing comma", 5, 1, 6);
    /* é is two bytes and one column. */
    ERR("[\"\xC3\xA9\", x]", "invalid literal", 7, 1, 7);
    ERR("[\t1 2]", "expected ',' or ']'", 4, 1, 5);
    {
        uint32_t line, col;
        const char *s = "a\nbc";
        json_line_col(s, 4, 0, &line, &col);
        CHECK_EQ(line, 1);
        CHECK_EQ(col, 1);
        json_line_col(s, 4, 2, &line, &col);
        CHECK_EQ(line, 2);
        CHECK_EQ(col, 1);
        json_line_col(s, 4, 4, &line, &col);
        CHECK_EQ(line, 2);
        CHECK_EQ(col, 3);
        json_line_col(s, 4, 1000, &line, &col); /* clamped to the end */
        CHECK_EQ(line, 2);
        CHECK_EQ(col, 3);
    }
}

static void test_depth_limit(void)
{
    char s[2 * (JSON_MAX_DEPTH + 1) + 1];
    struct json_token tok[CAP];
    struct json_doc d;
    struct json_error e;
    uint32_t i;
    CHECK_EQ(JSON_MAX_DEPTH, 64);
    for (i = 0; i < JSON_MAX_DEPTH; i++) {
        s[i] = '[';
        s[2 * JSON_MAX_DEPTH - 1 - i] = ']';
    }
    CHECK_EQ(json_parse(&d, s, 2 * JSON_MAX_DEPTH, tok, CAP, &e), 0);
    CHECK_EQ(d.n, JSON_MAX_DEPTH);
    CHECK_EQ(tok[JSON_MAX_DEPTH - 1].parent, JSON_MAX_DEPTH - 2);
    CHECK_EQ(tok[0].next, JSON_MAX_DEPTH);
    CHECK_EQ(tok[JSON_MAX_DEPTH - 1].next, JSON_MAX_DEPTH);
    /* One more: the 65th '[' (offset 64) is refused. */
    for (i = 0; i < JSON_MAX_DEPTH + 1; i++) {
        s[i] = '[';
        s[2 * JSON_MAX_DEPTH + 1 - i] = ']';
    }
    CHECK_EQ(json_parse(&d, s, 2 * JSON_MAX_DEPTH + 2, tok, CAP, &e), -1);
    CHECK(strcmp(e.message, "too deeply nested") == 0);
    CHECK_EQ(e.offset, 64);
    CHECK_EQ(e.column, 65);
    /* Objects count the same: 64 levels of {"a": ... } with a 1 inside. */
    {
        char o[64 * 5 + 1 + 64 + 1];
        uint32_t n = 0;
        for (i = 0; i < 64; i++) {
            memcpy(o + n, "{\"a\":", 5);
            n += 5;
        }
        o[n++] = '1';
        for (i = 0; i < 64; i++)
            o[n++] = '}';
        CHECK_EQ(json_parse(&d, o, n, tok, CAP, &e), 0);
        CHECK_EQ(d.n, 129);
        o[320] = '['; /* the innermost 1 becomes a 65th container */
        CHECK_EQ(json_parse(&d, o, n, tok, CAP, &e), -1);
        CHECK(strcmp(e.message, "too deeply nested") == 0);
        CHECK_EQ(e.offset, 320);
    }
}

static void test_token_cap(void)
{
    struct json_token tok[8];
    struct json_doc d;
    struct json_error e;
    /* [1,2,3] takes 4 tokens. */
    CHECK_EQ(json_parse(&d, "[1,2,3]", 7, tok, 4, &e), 0);
    CHECK_EQ(d.n, 4);
    CHECK_EQ(json_parse(&d, "[1,2,3]", 7, tok, 3, &e), -1);
    CHECK(strcmp(e.message, "too many tokens") == 0);
    CHECK_EQ(e.offset, 5);
    CHECK_EQ(d.n, 0);
    CHECK_EQ(json_parse(&d, "[1,2,3]", 7, NULL, 0, &e), -1);
    CHECK_EQ(e.offset, 0);
    /* A key is a token: {"a":1} takes 3; with 1 the key is refused, with 2 the value. */
    CHECK_EQ(json_parse(&d, "{\"a\":1}", 7, tok, 3, &e), 0);
    CHECK_EQ(json_parse(&d, "{\"a\":1}", 7, tok, 1, &e), -1);
    CHECK(strcmp(e.message, "too many tokens") == 0);
    CHECK_EQ(e.offset, 1);
    CHECK_EQ(json_parse(&d, "{\"a\":1}", 7, tok, 2, &e), -1);
    CHECK_EQ(e.offset, 5);
}

static void test_duplicate_keys(void)
{
    struct json_token tok[CAP];
    struct json_doc d;
    struct json_error e;
    /*                   0 1 2 3 4 5 6 7 8 9 10 11 12 13 */
    CHECK_EQ(PARSE(&d, tok, "{\"a\":1,\"b\":2,\"a\":3}", &e), -1);
    CHECK(strcmp(e.message, "duplicate key") == 0);
    CHECK_EQ(e.offset, 13);
    CHECK_EQ(e.column, 14);
    CHECK_EQ(e.key_start, 14);
    CHECK_EQ(e.key_len, 1);
    CHECK_EQ(e.first_offset, 1);
    /* The same key spelled with an escape is the same key (RFC 8259 section 8.3). */
    CHECK_EQ(PARSE(&d, tok, "{\"a\":1,\"\\u0061\":2}", &e), -1);
    CHECK(strcmp(e.message, "duplicate key") == 0);
    CHECK_EQ(e.offset, 7);
    CHECK_EQ(e.key_len, 6);
    CHECK_EQ(PARSE(&d, tok, "{\"\xF0\x9F\x98\x80\":1,\"\\ud83d\\ude00\":2}", &e), -1);
    CHECK(strcmp(e.message, "duplicate key") == 0);
    CHECK_EQ(e.offset, 10);
    CHECK_EQ(e.column, 8); /* the emoji is 4 bytes, one column */
    /* After a nested value, whose subtree the check steps over. */
    CHECK_EQ(PARSE(&d, tok, "{\"a\":{\"b\":1,\"c\":[1,2]},\"b\":0,\"a\":0}", &e), -1);
    CHECK_EQ(e.offset, 29);
    CHECK_EQ(e.first_offset, 1);
    /* The empty key twice. */
    CHECK_EQ(PARSE(&d, tok, "{\"\":1,\"\":2}", &e), -1);
    CHECK_EQ(e.offset, 6);
    /* Not duplicates: case, prefixes, other objects, and no Unicode normalization (é
     * precomposed is not e + combining acute), as RFC 8259 section 8.3 compares code units. */
    CHECK_EQ(PARSE(&d, tok,
                   "{\"a\":1,\"A\":2,\"ab\":3,\"b\":{\"a\":4},\"c\":[{\"a\":5},{\"a\":6}]}", &e),
             0);
    CHECK_EQ(tok[0].size, 5);
    CHECK_EQ(PARSE(&d, tok, "{\"\\u00e9\":1,\"e\\u0301\":2}", &e), 0);
    CHECK_EQ(PARSE(&d, tok, "{\"ab\":1,\"a\\u0062c\":2,\"a\\u0063\":3}", &e), 0);
}

static void test_member_cap(void)
{
    /* {"k000":0,"k001":0,...} with 257 members: each member is 9 bytes with its comma. */
    char s[1 + 9 * 257 + 1];
    struct json_token tok[2 * 257 + 1];
    struct json_doc d;
    struct json_error e;
    uint32_t i, n = 0;
    CHECK_EQ(JSON_MAX_MEMBERS, 256);
    s[n++] = '{';
    for (i = 0; i < 257; i++) {
        s[n++] = '"';
        s[n++] = 'k';
        s[n++] = (char)('0' + i / 100);
        s[n++] = (char)('0' + i / 10 % 10);
        s[n++] = (char)('0' + i % 10);
        s[n++] = '"';
        s[n++] = ':';
        s[n++] = '0';
        s[n++] = i == 256 ? '}' : ',';
    }
    CHECK_EQ(n, sizeof s - 1);
    CHECK_EQ(json_parse(&d, s, n, tok, 2 * 257 + 1, &e), -1);
    CHECK(strcmp(e.message, "too many members in an object") == 0);
    CHECK_EQ(e.offset, 1 + 9 * 256);
    /* Without the last member: 256 are fine. */
    s[1 + 9 * 256 - 1] = '}';
    CHECK_EQ(json_parse(&d, s, 1 + 9 * 256, tok, 2 * 257 + 1, &e), 0);
    CHECK_EQ(tok[0].size, 256);
    CHECK_EQ(json_object_get(&d, 0, "k255"), 2 * 255 + 2);
}

static void test_escapes_unescape(void)
{
    struct json_token tok[CAP];
    struct json_doc d;
    char buf[64];
    static const char want[] = "a\"b\\c/d\b\f\n\r\t";
    CHECK(one_string(&d, tok, "\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"", 22));
    CHECK_EQ(tok[0].len, 20);
    CHECK_EQ(tok[0].size, 12);
    CHECK_EQ(json_string_copy(&d, 0, buf, sizeof buf), 0);
    CHECK_MEM(buf, want, sizeof want);
    CHECK(json_string_eq(&d, 0, want));
    /* \u: one, two, three bytes of UTF-8, upper- and lower-case hex. */
    CHECK(one_string(&d, tok, "\"\\u0041\\u00e9\\u20AC\\uFFFF\"", 26));
    CHECK_EQ(tok[0].size, 1 + 2 + 3 + 3);
    CHECK_EQ(json_string_copy(&d, 0, buf, sizeof buf), 0);
    CHECK_MEM(buf, "A\xC3\xA9\xE2\x82\xAC\xEF\xBF\xBF", 10);
    /* Surrogate pairs: U+1F600 = D83D DE00 -> F0 9F 98 80; U+10FFFF = DBFF DFFF ->
     * F4 8F BF BF; U+10000 = D800 DC00 -> F0 90 80 80. */
    CHECK(one_string(&d, tok, "\"\\ud83d\\uDE00\\uDBFF\\uDFFF\\uD800\\uDC00\"", 38));
    CHECK_EQ(tok[0].size, 12);
    CHECK_EQ(json_string_copy(&d, 0, buf, sizeof buf), 0);
    CHECK_MEM(buf, "\xF0\x9F\x98\x80\xF4\x8F\xBF\xBF\xF0\x90\x80\x80", 13);
    CHECK(json_string_eq(&d, 0, "\xF0\x9F\x98\x80\xF4\x8F\xBF\xBF\xF0\x90\x80\x80"));
    CHECK(!json_string_eq(&d, 0, "\xF0\x9F\x98\x80"));
}

static void test_string_copy_limits(void)
{
    struct json_token tok[CAP];
    struct json_doc d;
    char buf[8];
    CHECK(one_string(&d, tok, "\"abc\\n\"", 7));
    CHECK_EQ(tok[0].size, 4);
    memset(buf, 'x', sizeof buf);
    CHECK_EQ(json_string_copy(&d, 0, buf, 5), 0); /* exactly size + 1 */
    CHECK_MEM(buf, "abc\n\0x", 6);
    CHECK_EQ(json_string_copy(&d, 0, buf, 4), -1);
    CHECK_EQ(json_string_copy(&d, 0, buf, 0), -1);
    CHECK_EQ(json_string_copy(&d, 1, buf, 8), -1); /* no such token */
    CHECK(one_string(&d, tok, "\"\"", 2));
    CHECK_EQ(json_string_copy(&d, 0, buf, 1), 0);
    CHECK_EQ(buf[0], '\0');
    CHECK(json_string_eq(&d, 0, ""));
    /* U+0000 is valid JSON but no C string can hold it. */
    CHECK(one_string(&d, tok, "\"pc\\u0000x\"", 11));
    CHECK_EQ(tok[0].size, 4);
    CHECK_EQ(json_string_copy(&d, 0, buf, sizeof buf), -1);
    CHECK(!json_string_eq(&d, 0, "pc"));
    CHECK(!json_string_eq(&d, 0, "pcx"));
    /* Not strings. */
    CHECK_EQ(json_parse(&d, "[1,\"a\"]", 7, tok, CAP, NULL), 0);
    CHECK_EQ(json_string_copy(&d, 0, buf, sizeof buf), -1);
    CHECK_EQ(json_string_copy(&d, 1, buf, sizeof buf), -1);
    CHECK(!json_string_eq(&d, 1, "1"));
    CHECK(json_string_eq(&d, 2, "a"));
}

static void test_number_forms(void)
{
    static const char *const ok[] = { "0",
                                      "-0",
                                      "1e5",
                                      "1E5",
                                      "1.5E-3",
                                      "-1.5e+3",
                                      "0.0",
                                      "0e0",
                                      "-0.0E-0",
                                      "123456789012345678901234567890",
                                      "1e999999999999999999999" };
    struct json_token tok[CAP];
    struct json_doc d;
    uint32_t i;
    for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        CHECK_EQ(json_parse(&d, ok[i], (uint32_t)strlen(ok[i]), tok, CAP, NULL), 0);
        CHECK_EQ(tok[0].type, JSON_NUMBER);
        CHECK_EQ(tok[0].len, strlen(ok[i]));
    }
    CHECK_EQ(PARSE(&d, tok, "[-0,1.5E-3]", NULL), 0);
    CHECK_EQ(tok[1].start, 1);
    CHECK_EQ(tok[1].len, 2);
    CHECK_EQ(tok[2].start, 4);
    CHECK_EQ(tok[2].len, 6);
}

struct num_case {
    const char *src;
    int ok;
    uint64_t u;
};

static int check_u64(const struct num_case *c)
{
    struct json_token tok[4];
    struct json_doc d;
    uint64_t v = 12345;
    int r;
    if (json_parse(&d, c->src, (uint32_t)strlen(c->src), tok, 4, NULL) != 0)
        return 0;
    r = json_get_u64(&d, 0, &v);
    if (r != (c->ok ? 0 : -1) || (c->ok && v != c->u) || (!c->ok && v != 12345)) {
        printf("    json_get_u64(%s) = %d, %llu\n", c->src, r, (unsigned long long)v);
        return 0;
    }
    return 1;
}

static void test_get_u64(void)
{
    static const struct num_case cases[] = {
        { "0", 1, 0 },
        { "7", 1, 7 },
        { "18446744073709551615", 1, UINT64_MAX },
        { "18446744073709551616", 0, 0 },
        { "99999999999999999999", 0, 0 },
        { "100000000000000000000", 0, 0 },
        { "-0", 1, 0 },
        { "-0.0e5", 1, 0 },
        { "-1", 0, 0 },
        { "1.5", 0, 0 },
        { "1e6", 1, 1000000 },
        { "1.0", 1, 1 },
        { "10E-1", 1, 1 },
        { "120e-1", 1, 12 },
        { "125e-1", 0, 0 },
        { "1e19", 1, 10000000000000000000ull },
        { "1e20", 0, 0 },
        { "2e19", 0, 0 }, /* 20 digits, but above 2^64-1 */
        { "1.8e19", 1, 18000000000000000000ull },
        { "0.0e999999", 1, 0 },
        { "0.000e5", 1, 0 },
        { "1844674407370955161.5e1", 1, UINT64_MAX },
        { "1844674407370955161.6e1", 0, 0 },
        { "184467440737095516150e-1", 1, UINT64_MAX },
        { "0.18446744073709551615e20", 1, UINT64_MAX },
        { "1e-999999999999", 0, 0 },
        { "1e999999999999999999999", 0, 0 },
        { "0.5", 0, 0 },
        { "0.1e1", 1, 1 },
    };
    struct json_token tok[4];
    struct json_doc d;
    uint64_t v = 5;
    uint32_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK(check_u64(&cases[i]));
    CHECK_EQ(json_parse(&d, "[\"1\",true,null]", 15, tok, 4, NULL), 0);
    CHECK_EQ(json_get_u64(&d, 0, &v), -1);
    CHECK_EQ(json_get_u64(&d, 1, &v), -1);
    CHECK_EQ(json_get_u64(&d, 2, &v), -1);
    CHECK_EQ(json_get_u64(&d, 3, &v), -1);
    CHECK_EQ(json_get_u64(&d, 4, &v), -1);
    CHECK_EQ(v, 5);
}

static void test_get_i64(void)
{
    static const struct {
        const char *src;
        int ok;
        int64_t v;
    } cases[] = {
        { "9223372036854775807", 1, INT64_MAX },
        { "9223372036854775808", 0, 0 },
        { "-9223372036854775808", 1, INT64_MIN },
        { "-92233720368547758.08e2", 1, INT64_MIN },
        { "-9223372036854775809", 0, 0 },
        { "-18446744073709551615", 0, 0 },
        { "-0", 1, 0 },
        { "-1e3", 1, -1000 },
        { "-1.5", 0, 0 },
        { "42", 1, 42 },
        { "-42", 1, -42 },
    };
    struct json_token tok[4];
    struct json_doc d;
    uint32_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t v = 77;
        CHECK_EQ(json_parse(&d, cases[i].src, (uint32_t)strlen(cases[i].src), tok, 4, NULL), 0);
        if (cases[i].ok) {
            CHECK_EQ(json_get_i64(&d, 0, &v), 0);
            CHECK(v == cases[i].v);
        } else {
            CHECK_EQ(json_get_i64(&d, 0, &v), -1);
            CHECK_EQ(v, 77);
        }
    }
    CHECK_EQ(json_parse(&d, "\"-1\"", 4, tok, 4, NULL), 0);
    {
        int64_t v;
        CHECK_EQ(json_get_i64(&d, 0, &v), -1);
    }
}

static int check_ppm(const char *src, int ok, uint32_t want)
{
    struct json_token tok[4];
    struct json_doc d;
    uint32_t v = 4242;
    int r;
    if (json_parse(&d, src, (uint32_t)strlen(src), tok, 4, NULL) != 0)
        return 0;
    r = json_get_ppm(&d, 0, &v);
    if (r != (ok ? 0 : -1) || (ok && v != want) || (!ok && v != 4242)) {
        printf("    json_get_ppm(%s) = %d, %u\n", src, r, (unsigned)v);
        return 0;
    }
    return 1;
}

static void test_get_ppm(void)
{
    struct json_token tok[4];
    struct json_doc d;
    uint32_t v;
    CHECK(check_ppm("0", 1, 0));
    CHECK(check_ppm("1", 1, 1000000));
    CHECK(check_ppm("1.0", 1, 1000000));
    CHECK(check_ppm("10e-1", 1, 1000000));
    CHECK(check_ppm("0.1e1", 1, 1000000));
    CHECK(check_ppm("100e-2", 1, 1000000));
    CHECK(check_ppm("0.05", 1, 50000));
    CHECK(check_ppm("0.05e1", 1, 500000));
    CHECK(check_ppm("1e-3", 1, 1000));
    CHECK(check_ppm("1e-6", 1, 1));
    CHECK(check_ppm("0.000001", 1, 1));
    /* Halves round up: 0.5 ppm -> 1, 1.5 -> 2, 2.5 -> 3. */
    CHECK(check_ppm("0.0000005", 1, 1));
    CHECK(check_ppm("5e-7", 1, 1));
    CHECK(check_ppm("0.0000015", 1, 2));
    CHECK(check_ppm("0.00000150", 1, 2));
    CHECK(check_ppm("0.0000025", 1, 3));
    CHECK(check_ppm("0.00000049999", 1, 0));
    CHECK(check_ppm("0.0000004999999999999999999", 1, 0));
    CHECK(check_ppm("0.9999995", 1, 1000000));
    CHECK(check_ppm("0.9999994999", 1, 999999));
    CHECK(check_ppm("0.123456789", 1, 123457));
    CHECK(check_ppm("0.1234565", 1, 123457));
    CHECK(check_ppm("0.1234564999", 1, 123456));
    CHECK(check_ppm("0.333333333", 1, 333333));
    CHECK(check_ppm("1e-400", 1, 0));
    CHECK(check_ppm("-0", 1, 0));
    CHECK(check_ppm("-0.0", 1, 0));
    CHECK(check_ppm("1.0000001", 0, 0));
    CHECK(check_ppm("2", 0, 0));
    CHECK(check_ppm("1.5", 0, 0));
    CHECK(check_ppm("10", 0, 0));
    CHECK(check_ppm("11e-1", 0, 0));
    CHECK(check_ppm("-0.5", 0, 0));
    CHECK(check_ppm("-1e-9", 0, 0));
    CHECK(check_ppm("1e999999999999", 0, 0));
    CHECK_EQ(json_parse(&d, "[\"0.5\",false]", 13, tok, 4, NULL), 0);
    CHECK_EQ(json_get_ppm(&d, 1, &v), -1);
    CHECK_EQ(json_get_ppm(&d, 2, &v), -1);
}

static void test_bool_and_type_names(void)
{
    struct json_token tok[8];
    struct json_doc d;
    int b = 7;
    CHECK_EQ(json_parse(&d, "[true,false,null,0]", 19, tok, 8, NULL), 0);
    CHECK_EQ(json_get_bool(&d, 1, &b), 0);
    CHECK_EQ(b, 1);
    CHECK_EQ(json_get_bool(&d, 2, &b), 0);
    CHECK_EQ(b, 0);
    b = 7;
    CHECK_EQ(json_get_bool(&d, 3, &b), -1);
    CHECK_EQ(json_get_bool(&d, 4, &b), -1);
    CHECK_EQ(json_get_bool(&d, 0, &b), -1);
    CHECK_EQ(b, 7);
    CHECK(strcmp(json_type_name(JSON_NULL), "null") == 0);
    CHECK(strcmp(json_type_name(JSON_FALSE), "boolean") == 0);
    CHECK(strcmp(json_type_name(JSON_TRUE), "boolean") == 0);
    CHECK(strcmp(json_type_name(JSON_NUMBER), "number") == 0);
    CHECK(strcmp(json_type_name(JSON_STRING), "string") == 0);
    CHECK(strcmp(json_type_name(JSON_ARRAY), "array") == 0);
    CHECK(strcmp(json_type_name(JSON_OBJECT), "object") == 0);
    CHECK(strcmp(json_type_name(7), "invalid") == 0);
}

static void test_failed_parse_leaves_nothing_to_read(void)
{
    struct json_token tok[CAP];
    struct json_doc d;
    uint64_t u;
    CHECK_EQ(PARSE(&d, tok, "{\"a\":1}", NULL), 0);
    CHECK_EQ(json_object_get(&d, 0, "a"), 2);
    /* The same tokens, a failed parse (err may be NULL): every accessor refuses. */
    CHECK_EQ(PARSE(&d, tok, "{\"a\":1,}", NULL), -1);
    CHECK_EQ(d.n, 0);
    CHECK_EQ(json_object_get(&d, 0, "a"), JSON_NONE);
    CHECK_EQ(json_get_u64(&d, 2, &u), -1);
    CHECK(!json_string_eq(&d, 1, "a"));
}

static void test_hand_made_token_stays_in_its_span(void)
{
    /* A token json_parse() did not make, ending inside an escape: the accessors read the
     * backslash as it stands and nothing past the span (ASan would see it). */
    static const char src[3] = { 'a', 'b', '\\' };
    struct json_token t = { JSON_STRING, 0, 3, 3, 1, JSON_NONE };
    struct json_doc d = { src, 3, &t, 1 };
    char buf[4];
    CHECK_EQ(json_string_copy(&d, 0, buf, sizeof buf), 0);
    CHECK_MEM(buf, "ab\\", 4);
    CHECK(json_string_eq(&d, 0, "ab\\"));
}

static void test_scenario_fragment(void)
{
    /* A link as docs/scenario-format.md writes it. */
    const char *s =
        "{ \"name\": \"serial0\", \"type\": \"serial\", \"a\": \"pc\", \"b\": \"mcu\",\n"
        "  \"baud\": 9600, \"latency_us\": [0, 1500],\n"
        "  \"faults\": [ { \"action\": \"drop\", \"p\": 0.05 } ] }";
    struct json_token tok[CAP];
    struct json_doc d;
    char name[16];
    uint64_t baud, lat;
    uint32_t faults, f, p, ppm;
    CHECK_EQ(json_parse(&d, s, (uint32_t)strlen(s), tok, CAP, NULL), 0);
    CHECK_EQ(json_string_copy(&d, json_object_get(&d, 0, "name"), name, sizeof name), 0);
    CHECK(strcmp(name, "serial0") == 0);
    CHECK(json_string_eq(&d, json_object_get(&d, 0, "type"), "serial"));
    CHECK_EQ(json_get_u64(&d, json_object_get(&d, 0, "baud"), &baud), 0);
    CHECK_EQ(baud, 9600);
    CHECK_EQ(tok[json_object_get(&d, 0, "latency_us")].size, 2);
    CHECK_EQ(json_get_u64(&d, json_object_get(&d, 0, "latency_us") + 2, &lat), 0);
    CHECK_EQ(lat, 1500);
    faults = json_object_get(&d, 0, "faults");
    CHECK_EQ(tok[faults].type, JSON_ARRAY);
    f = faults + 1;
    p = json_object_get(&d, f, "p");
    CHECK_EQ(json_get_ppm(&d, p, &ppm), 0);
    CHECK_EQ(ppm, 50000);
    CHECK_EQ(tok[f].next, d.n);
    {
        uint32_t line, col;
        json_line_col(s, (uint32_t)strlen(s), tok[p].start, &line, &col);
        CHECK_EQ(line, 3);
        CHECK_EQ(col, 40);
    }
}

UNIT_MAIN(UNIT(test_scalars_at_top_level), UNIT(test_token_tree),
          UNIT(test_iteration_and_object_get), UNIT(test_empty_containers_and_spaces),
          UNIT(test_structural_errors), UNIT(test_literal_errors), UNIT(test_number_errors),
          UNIT(test_string_errors), UNIT(test_utf8_validation), UNIT(test_encoding_errors),
          UNIT(test_error_paths), UNIT(test_positions_lines_and_columns), UNIT(test_depth_limit),
          UNIT(test_token_cap), UNIT(test_duplicate_keys), UNIT(test_member_cap),
          UNIT(test_escapes_unescape), UNIT(test_string_copy_limits), UNIT(test_number_forms),
          UNIT(test_get_u64), UNIT(test_get_i64), UNIT(test_get_ppm),
          UNIT(test_bool_and_type_names), UNIT(test_failed_parse_leaves_nothing_to_read),
          UNIT(test_hand_made_token_stays_in_its_span), UNIT(test_scenario_fragment))
