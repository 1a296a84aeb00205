#include "drop_reason.h"
#include "stack_err.h"

#define DROP_REASON_TEXT(name, text) text,
#define DROP_REASON_NAME(name, text) #name,
static const char *const drop_texts[] = { DROP_REASONS(DROP_REASON_TEXT) };
static const char *const drop_names[] = { DROP_REASONS(DROP_REASON_NAME) };

const char *drop_reason_text(enum drop_reason r)
{
    return (unsigned)r < DROP_REASON_COUNT ? drop_texts[r] : "unknown";
}

const char *drop_reason_name(enum drop_reason r)
{
    return (unsigned)r < DROP_REASON_COUNT ? drop_names[r] : "DROP_UNKNOWN";
}

const char *stack_err_name(int err)
{
    static const char *const names[] = {
        "ERR_OK",   "ERR_MEM",    "ERR_BUF", "ERR_RTE",  "ERR_ARG",     "ERR_USE", "ERR_WOULDBLOCK",
        "ERR_CONN", "ERR_ISCONN", "ERR_RST", "ERR_CLSD", "ERR_TIMEOUT", "ERR_MTU", "ERR_STATE",
    };
    if (err > 0)
        return "ERR_OK";
    if ((unsigned)-err < sizeof names / sizeof names[0])
        return names[-err];
    return "ERR_UNKNOWN";
}
