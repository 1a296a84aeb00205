/* A bounded text builder: decimal numbers and strings into a caller's buffer, without
 * printf (so the same code runs on the Arduino and in wasm, and costs little: the
 * simulator writes a comment for every captured frame). What does not fit is cut off;
 * the text is always NUL-terminated.
 */
#ifndef STACK_TEXT_FMT_H
#define STACK_TEXT_FMT_H

#include <stddef.h>
#include <stdint.h>

struct fmt {
    char *buf;
    size_t len, pos; /* pos: characters written, at most len - 1 */
};

void fmt_init(struct fmt *f, char *buf, size_t len);
void fmt_char(struct fmt *f, char c);
void fmt_str(struct fmt *f, const char *s);
/* Decimal, at least `width` digits (zero-padded). */
void fmt_u64(struct fmt *f, uint64_t v, uint8_t width);
/* "31.361": microseconds as milliseconds with three decimals. */
void fmt_ms3(struct fmt *f, uint32_t us);

#endif
