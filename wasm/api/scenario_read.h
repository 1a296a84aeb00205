/* Typed reads of scenario fields with the range checks and messages of scenario_load.h.
 * Every reader takes the object token and its path ("links[0]") and names the field in
 * its message: "links[0].baud: must be an integer from 50 to 4000000". A missing optional
 * field leaves *out at the default the caller put there. All return 0, or -1 once a message
 * is written (the first problem wins). */
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
};

int sr_fail(struct scenario_reader *r, const char *path, const char *field, const char *fmt, ...);

/* Parses json[0..len) into r->doc, with up to max_tokens tokens (allocated here, released
 * by sr_close) and err[0..errlen) for the messages. Returns 0, or -1 with a syntax error
 * written as "<what>line 3, column 5: ..." (what: "" or a path and ": "). */
int sr_open(struct scenario_reader *r, const char *json, uint32_t len, uint32_t max_tokens,
            const char *what, char *err, size_t errlen);
void sr_close(struct scenario_reader *r);

/* Checks that `obj` is an object whose keys are all in `allowed` (NULL-terminated). */
int sr_object(struct scenario_reader *r, uint32_t obj, const char *path,
              const char *const *allowed);
/* The member's value token, JSON_NONE when absent; -1 via sr_fail when required. */
uint32_t sr_get(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
                int required);

int sr_uint(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
            uint64_t min, uint64_t max, int required, uint64_t *out);
int sr_u32(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
           uint32_t min, uint32_t max, int required, uint32_t *out);
int sr_bool(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
            uint8_t *out);
/* One of names[0..) (NULL-terminated); *out gets its index. */
int sr_enum(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
            const char *const *names, int required, int *out);
/* A name: [a-z][a-z0-9_-]*, at most 15 characters. */
int sr_name(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
            int required, char *out);
int sr_string(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
              char *out, uint32_t cap);
/* An IPv4 address written "a.b.c.d" (prefix NULL) or "a.b.c.d/len" (len 1 .. 32): decimal
 * numbers 0 .. 255 without leading zeros (inet_aton(3) would read those as octal), nothing
 * else. The rules of web/src/scenarios/addr.ts. Returns 0, or -1 if text is not one. */
int sr_ipv4_parse(const char *text, uint32_t *addr, uint8_t *prefix);
/* "a.b.c.d/len". */
int sr_cidr(struct scenario_reader *r, uint32_t obj, const char *path, const char *key,
            uint32_t *addr, uint8_t *prefix);

#endif
