/* stackscope-engine: the engine natively, for the determinism test (its hash must equal
 * the wasm engine's) and the benchmark (native beside wasm). The `stackscope` command
 * calls it; people use `stackscope run`.
 *
 *   stackscope-engine [--trace FILE] [--pcapng FILE] [--describe] SCENARIO.json
 *
 * Prints one line of JSON: {"hash":"...","frames":N,"records":N,"virtual_us":T,"wall_us":W}.
 * Exit status 0; 2 for a bad argument, a scenario that cannot be read or is invalid, or an
 * output path that cannot be written (one line on stderr naming it and why, as
 * `stackscope run` says it); 1 otherwise (a write that failed: no space left).
 *
 * The output paths are checked before the run, by creating a temporary file beside each
 * target; the run writes there and the temporaries are renamed over the targets once both
 * are complete, so a failed write never leaves a short file (the temporaries are
 * removed). A target that exists and is not a regular file (/dev/stdout, /dev/full) is
 * written in place. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"

#define NATIVE_USAGE \
    "usage: stackscope-engine [--trace FILE] [--pcapng FILE] [--describe] SCENARIO.json"
#define NATIVE_EXIT_FAILED 1
#define NATIVE_EXIT_USAGE  2
#define NATIVE_STEP_US     1e6

struct native_args {
    const char *trace, *pcapng, *scenario;
    int describe, help;
};

/* A file the run writes: the temporary beside `path` (NULL when written in place). */
struct native_out {
    const char *flag, *path;
    char *tmp;
    FILE *f;
    int err; /* errno of the first write that failed, 0 */
};

/* The reason, in the words `stackscope run` uses (bin/output_files.ts). */
static const char *native_reason(int err)
{
    switch (err) {
    case ENOENT: return "no such directory";
    case ENOTDIR: return "a part of the path is not a directory";
    case EISDIR: return "is a directory";
    case EACCES:
    case EPERM: return "permission denied";
    case EROFS: return "read-only file system";
    case ENOSPC: return "no space left on the device";
    case EDQUOT: return "disk quota exceeded";
    case EFBIG: return "file too large";
    case ENAMETOOLONG: return "the name is too long";
    case EIO: return "input/output error";
    case ELOOP: return "too many symbolic links";
    default: return strerror(err);
    }
}

static int native_usage_error(const char *what, const char *arg)
{
    fprintf(stderr, "stackscope-engine: %s%s (" NATIVE_USAGE ")\n", what, arg);
    return NATIVE_EXIT_USAGE;
}

/* An option's value: the next argument, unless it is missing or is itself an option. */
static int native_value(int argc, char **argv, int *i, const char **out)
{
    const char *flag = argv[*i];
    if (*i + 1 >= argc || strncmp(argv[*i + 1], "--", 2) == 0)
        return native_usage_error(flag, " needs a value");
    if (*out)
        return native_usage_error(flag, " given more than once");
    *out = argv[++*i];
    return 0;
}

static int native_parse_args(int argc, char **argv, struct native_args *a)
{
    int i, rc = 0;
    memset(a, 0, sizeof *a);
    for (i = 1; i < argc && rc == 0; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            a->help = 1;
        else if (strcmp(argv[i], "--trace") == 0)
            rc = native_value(argc, argv, &i, &a->trace);
        else if (strcmp(argv[i], "--pcapng") == 0)
            rc = native_value(argc, argv, &i, &a->pcapng);
        else if (strcmp(argv[i], "--describe") == 0 && !a->describe)
            a->describe = 1;
        else if (strcmp(argv[i], "--describe") == 0)
            rc = native_usage_error(argv[i], " given more than once");
        else if (argv[i][0] == '-' && argv[i][1] != 0)
            rc = native_usage_error("unknown option ", argv[i]);
        else if (a->scenario)
            rc = native_usage_error("one scenario only; an extra argument: ", argv[i]);
        else
            a->scenario = argv[i];
    }
    if (rc == 0 && !a->help && !a->scenario)
        rc = native_usage_error("no scenario file given", "");
    return rc;
}

/* The whole file, NUL-terminated, or NULL with errno set (a directory: EISDIR). */
static char *native_read_file(const char *path, uint32_t *len)
{
    struct stat st;
    char *buf;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    if (fstat(fileno(f), &st) != 0 || S_ISDIR(st.st_mode) || st.st_size > 0x7FFFFFFF) {
        int err = S_ISDIR(st.st_mode) ? EISDIR : st.st_size > 0x7FFFFFFF ? EFBIG : errno;
        fclose(f);
        errno = err;
        return NULL;
    }
    buf = malloc((size_t)st.st_size + 1);
    if (buf && fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
        int err = ferror(f) ? errno : EIO;
        free(buf);
        buf = NULL;
        errno = err;
    } else if (buf) {
        buf[st.st_size] = 0;
        *len = (uint32_t)st.st_size;
    }
    fclose(f);
    return buf;
}

static int native_out_fail(const struct native_out *o, int err, int status)
{
    fprintf(stderr, "stackscope-engine: %s %s: cannot write: %s\n", o->flag, o->path,
            native_reason(err));
    return status;
}

/* ".NAME.PID.tmp" in the target's directory. */
static char *native_tmp_name(const char *target)
{
    const char *slash = strrchr(target, '/');
    size_t dir = slash ? (size_t)(slash - target) + 1 : 0, n = strlen(target) + 32;
    char *tmp = malloc(n);
    if (tmp)
        snprintf(tmp, n, "%.*s.%s.%ld.tmp", (int)dir, target, target + dir, (long)getpid());
    return tmp;
}

/* Opens what o will write, before the run. 0, or the exit status with the message said. */
static int native_out_open(struct native_out *o, const char *flag, const char *path)
{
    struct stat st;
    char *real = NULL;
    int fd, exists = stat(path, &st) == 0;
    memset(o, 0, sizeof *o);
    o->flag = flag;
    o->path = path;
    if (path[0] == 0) {
        fprintf(stderr, "stackscope-engine: %s : cannot write: the name is empty\n", flag);
        return NATIVE_EXIT_USAGE;
    }
    if (exists && S_ISDIR(st.st_mode))
        return native_out_fail(o, EISDIR, NATIVE_EXIT_USAGE);
    if (exists && !S_ISREG(st.st_mode)) {
        o->f = fopen(path, "wb");
        return o->f ? 0 : native_out_fail(o, errno, NATIVE_EXIT_USAGE);
    }
    /* A symbolic link is followed: the file it names is replaced, not the link. */
    if (exists)
        real = realpath(path, NULL);
    o->tmp = native_tmp_name(real ? real : path);
    free(real);
    if (!o->tmp)
        return native_out_fail(o, ENOMEM, NATIVE_EXIT_FAILED);
    fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL, exists ? st.st_mode & 07777 : 0666);
    if (fd < 0 || !(o->f = fdopen(fd, "wb"))) {
        int err = errno;
        if (fd >= 0)
            close(fd);
        free(o->tmp);
        o->tmp = NULL;
        return native_out_fail(o, err, NATIVE_EXIT_USAGE);
    }
    return 0;
}

static void native_out_write(struct native_out *o, const void *p, size_t n)
{
    if (o->f && !o->err && n && fwrite(p, 1, n, o->f) != n)
        o->err = errno ? errno : EIO;
}

/* Flushes and closes: 0, or -1 with o->err set. A full disk may only show here. */
static int native_out_close(struct native_out *o)
{
    FILE *f = o->f;
    o->f = NULL;
    if (!f)
        return o->err ? -1 : 0;
    if (!o->err && (fflush(f) != 0 || (o->tmp && fsync(fileno(f)) != 0)))
        o->err = errno;
    if (fclose(f) != 0 && !o->err)
        o->err = errno;
    return o->err ? -1 : 0;
}

/* Removes the temporary, if it was not renamed. */
static void native_out_discard(struct native_out *o)
{
    if (o->f)
        fclose(o->f);
    o->f = NULL;
    if (o->tmp)
        unlink(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
}

/* The file the temporary takes the place of: the path, or the file its link names. */
static int native_out_commit(struct native_out *o)
{
    char *real;
    int rc;
    if (!o->tmp)
        return 0;
    real = realpath(o->path, NULL);
    rc = rename(o->tmp, real ? real : o->path);
    if (rc != 0)
        o->err = errno;
    free(real);
    if (rc == 0) {
        free(o->tmp);
        o->tmp = NULL;
    }
    return rc;
}

static int native_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (strcmp(a, b) == 0)
        return 1;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

static double native_wall_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* Runs to the end, each slice's trace and capture written to `trace` and `pcap` and then
 * cleared, so memory stays at one slice's worth; stops early once a write failed. Returns
 * 0, or ENGINE_ERR_FAILED when the engine ran out of memory (engine_error says why). */
static int native_run(struct engine *e, struct native_out *trace, struct native_out *pcap)
{
    int rc = 0;
    while (rc == 0 && !trace->err && !pcap->err) {
        rc = engine_run(e, engine_now(e) + NATIVE_STEP_US);
        native_out_write(trace, engine_trace_ptr(e), engine_trace_len(e));
        engine_trace_clear(e);
        native_out_write(pcap, engine_pcapng_ptr(e), engine_pcapng_len(e));
        engine_pcapng_clear(e);
    }
    return rc < 0 ? rc : 0;
}

/* Both files complete, then both renamed: 0, or the exit status with the message said. */
static int native_finish(struct native_out *trace, struct native_out *pcap)
{
    if (native_out_close(trace) != 0)
        return native_out_fail(trace, trace->err, NATIVE_EXIT_FAILED);
    if (native_out_close(pcap) != 0)
        return native_out_fail(pcap, pcap->err, NATIVE_EXIT_FAILED);
    if (native_out_commit(trace) != 0)
        return native_out_fail(trace, trace->err, NATIVE_EXIT_FAILED);
    if (native_out_commit(pcap) != 0)
        return native_out_fail(pcap, pcap->err, NATIVE_EXIT_FAILED);
    return 0;
}

/* Opens the outputs asked for (an unused one stays empty and writes nothing). */
static int native_open_outputs(const struct native_args *a, struct native_out *trace,
                               struct native_out *pcap)
{
    int rc = 0;
    memset(trace, 0, sizeof *trace);
    memset(pcap, 0, sizeof *pcap);
    if (a->trace && a->pcapng && native_same_file(a->trace, a->pcapng)) {
        fprintf(stderr, "stackscope-engine: --trace and --pcapng both name %s\n", a->pcapng);
        return NATIVE_EXIT_USAGE;
    }
    if (a->trace)
        rc = native_out_open(trace, "--trace", a->trace);
    if (rc == 0 && a->pcapng)
        rc = native_out_open(pcap, "--pcapng", a->pcapng);
    return rc;
}

/* Loads the scenario into e, runs it and writes what was asked for. t0: when e was made,
 * so the time reported spans engine creation to the end, as the wasm side's does. */
static int native_main(const struct native_args *a, struct engine *e, const char *json,
                       uint32_t len, double t0)
{
    struct native_out trace, pcap;
    double t1;
    int rc = engine_load(e, json, len);
    if (rc != ENGINE_OK) {
        fprintf(stderr, "%s: %s\n", a->scenario, engine_error(e));
        return NATIVE_EXIT_USAGE;
    }
    rc = native_open_outputs(a, &trace, &pcap);
    if (rc == 0 && a->describe)
        printf("%s\n", engine_describe(e));
    if (rc == 0 && native_run(e, &trace, &pcap) != 0) {
        fprintf(stderr, "%s: %s\n", a->scenario, engine_error(e));
        rc = NATIVE_EXIT_FAILED;
    }
    if (rc == 0) {
        t1 = native_wall_us();
        rc = native_finish(&trace, &pcap);
        if (rc == 0)
            printf("{\"hash\":\"%s\",\"frames\":%.0f,\"trace_bytes\":%.0f,\"virtual_us\":%.0f,"
                   "\"wall_us\":%.0f}\n",
                   engine_hash(e), engine_frames(e), engine_trace_total(e), engine_now(e), t1 - t0);
    }
    native_out_discard(&trace);
    native_out_discard(&pcap);
    return rc;
}

int main(int argc, char **argv)
{
    struct native_args a;
    struct engine *e;
    uint32_t len = 0;
    char *json;
    double t0;
    int rc = native_parse_args(argc, argv, &a);
    if (rc != 0)
        return rc;
    if (a.help) {
        printf(NATIVE_USAGE "\n");
        return 0;
    }
    json = native_read_file(a.scenario, &len);
    if (!json) {
        fprintf(stderr, "%s: cannot read the file (%s)\n", a.scenario, strerror(errno));
        return NATIVE_EXIT_USAGE;
    }
    t0 = native_wall_us();
    e = engine_create();
    /* Without --pcapng nobody takes the capture: building it was a third of a bulk run. */
    if (e && !a.pcapng)
        engine_capture(e, 0);
    rc = e ? native_main(&a, e, json, len, t0) : NATIVE_EXIT_FAILED;
    if (e)
        engine_destroy(e);
    free(json);
    return rc;
}
