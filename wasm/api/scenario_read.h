/* Typed reads of scenario fields with the range checks and messages of scenario_load.h.
 * Every reader takes the object token and its path ("links[0]") and names the field in
 * its message, in the words of the schema validator (web/src/core/scenarios/schema_errors.ts):
 * "links[0].baud: must be an integer between 50 and 4000000". A missing optional field
 * leaves *out at the default the caller put there. All return 0, or -1 once a message is
 * written (the first problem wins). */
#ifndef API_SCENARIO_READ_H
#define API_SCENARIO_READ_H

#include <stddef.h>
#include <stdint.h>

#include "json.h"

struct scenario_reader {
    struct json_doc doc;
    char *err;
    size_t errlen;
    int failed;
    const char *root; /* the document's own path: "" for a scenario, "app" for one app */
    int positions;    /* messages start with the line and column of the field in the text */
};

/* Writes "path.field: message" (the path alone when field is NULL, the message alone when
 * both are empty), after "line 12, column 9: " when the reader gives positions: those of
 * the field's value in the text, or of the object or array that lacks it (the deepest part
 * of the path the document has). The rule of locatePath() in web/src/core/scenarios/json_text.ts,
 * so both validators point at one place. */
int sr_fail(struct scenario_reader *r, const char *path, const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Parses json[0..len) into r->doc, with up to max_tokens tokens (allocated here, released
 * by sr_close) and err[0..errlen) for the messages. Returns 0, or -1 with a syntax error
 * written as "line 3, column 5: links[0].baud: NaN and Infinity are not numbers in JSON"
 * (the path of the value being read, under `root`; none when it is the document). */
int sr_open(struct scenario_reader *r, const char *json, uint32_t len, uint32_t max_tokens,
            const char *root, int positions, char *err, size_t errlen);
void sr_close(struct scenario_reader *r);

/* Checks that `obj` is an object whose keys are all in `allowed` (NULL-terminated). */
int sr_object(struct scenario_reader *r, uint32_t obj, const char *path,
              const char *const *allowed);
/* The member's value token, JSON_NONE when absent; -1 via sr_fail when required. */
uint32_t sr_get(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
                int required);
/* Whether the file gives member `key` of obj. */
int sr_has(const struct scenario_reader *r, uint32_t obj, const char *key);

int sr_uint(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
            uint64_t min, uint64_t max, int required, uint64_t *out);
int sr_u32(struct scenario_reader *r, uint32_t obj, const char *path, const char *key, uint32_t min,
           uint32_t max, int required, uint32_t *out);
int sr_bool(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
            uint8_t *out);
/* One of names[0..) (NULL-terminated); *out gets its index. */
int sr_enum(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
            const char *const *names, int required, int *out);
/* A name: [a-z][a-z0-9_-]*, at most 15 characters. */
int sr_name(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
            int required, char *out);
/* The same for token t, the value at path.field (field may be NULL: an array element). */
int sr_name_value(struct scenario_reader *r, uint32_t t, const char *path, const char *field,
                  char *out);
/* A string of 1 .. cap - 1 bytes into out; absent leaves out alone. */
int sr_string(struct scenario_reader *r, uint32_t obj, const char *path, const char *key, char *out,
              uint32_t cap);
/* An array of min .. max entries: its token and size, JSON_NONE when absent (-1 via
 * sr_fail when required, or when it is not such an array). */
uint32_t sr_array(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
                  uint32_t min, uint32_t max, int required, uint32_t *n);

/* An IPv4 address written "a.b.c.d" (prefix NULL) or "a.b.c.d/len" (len 1 .. 32): decimal
 * numbers 0 .. 255 without leading zeros (inet_aton(3) would read those as octal), nothing
 * else. The rules of web/src/core/scenarios/addr.ts. Returns 0, or -1 with why it is not one in
 * the words of addr.ts in why[0..cap) ("\"07\" has a leading zero"). */
int sr_ipv4_parse(const char *text, uint32_t *addr, uint8_t *prefix, char *why, size_t cap);
/* "a.b.c.d/len". */
int sr_cidr(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
            uint32_t *addr, uint8_t *prefix);
/* Why a well-formed address cannot be a host's, in the words of hostAddrProblem() in
 * web/src/core/scenarios/addr.ts (RFC 1122 3.2.1.3): "this network", loopback, multicast and
 * reserved, and, on a subnet of /30 or wider, that subnet's own address and broadcast.
 * Returns 0, or -1 with the reason in why[0..cap). */
int sr_addr_problem(uint32_t addr, uint8_t prefix, char *why, size_t cap);
/* "10.0.7.1" into buf (16 bytes). */
void sr_ip_text(uint32_t addr, char *buf, size_t cap);

/* One side of an ordering rule between two fields (tcp_rto_min_ms <= tcp_rto_max_ms): its
 * value, whether the file gives it, and what to say of it when it does not (NULL: ", the
 * default"). */
struct sr_side {
    const char *field;
    uint64_t value;
    int given;
    const char *note;
};
/* The side of field `field` of obj, whose value (read, or its default) is `value`. */
struct sr_side sr_side(const struct scenario_reader *r, uint32_t obj, const char *field,
                       uint64_t value);
/* lo < hi (strict) or lo <= hi under `path`, else a message that blames the field the
 * author wrote: lo if given ("must be less than tcp_timer_tick_ms (500)"), else hi ("must be
 * at least tcp_rto_min_ms (1000, the default)"); the words of order() in semantic.ts. */
int sr_order(struct scenario_reader *r, const char *path, const struct sr_side *lo,
             const struct sr_side *hi, int strict);

#endif
