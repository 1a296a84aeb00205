/* Bulk transfer with "DONE"/"OK", the mTCP seed's throughput application. */
#include "app_bulk.h"

#include <string.h>

#include "app_common.h"
#include "host.h"

static const uint8_t bulk_done[4] = { 'D', 'O', 'N', 'E' };
static const uint8_t bulk_ok[2] = { 'O', 'K' };
/* The alphabet twice: the pattern from any letter on, 26 bytes at a time. */
static const uint8_t bulk_letters[52] = "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz";

enum { BS_CONNECTING, BS_SENDING, BS_WAIT_OK, BS_DONE };
enum { BR_IDLE, BR_RECEIVING, BR_SEND_OK, BR_WAIT_CLOSE };

uint8_t app_bulk_pattern(uint32_t offset)
{
    return bulk_letters[offset % 26u];
}

/* ---- sender ---- */

static void sender_finish(struct app_bulk_sender *a, struct host *h, int err)
{
    app_tcp_end(h, &a->sock, err);
    a->state = BS_DONE;
    a->report.done = 1;
    a->report.error = err;
}

int app_bulk_sender_start(struct app_bulk_sender *a, struct host *h,
                          const struct stack_sockaddr *receiver, uint32_t bytes)
{
    memset(a, 0, sizeof *a);
    a->receiver = *receiver;
    if (a->receiver.port == 0)
        a->receiver.port = APP_BULK_PORT;
    a->len = bytes;
    a->report.started_at = h->now;
    a->sock = app_tcp_open(h, 0, &a->receiver);
    if (a->sock < 0) {
        int err = a->sock;
        a->sock = -1;
        sender_finish(a, h, err);
        return err;
    }
    a->state = BS_CONNECTING;
    return ERR_OK;
}

/* The stream's bytes [off, off + n): the pattern, then "DONE". The pattern repeats every
 * 26 bytes: its first 26 come from the alphabet, the rest are copies of what is already
 * written, doubling. A bulk transfer runs this for every segment, so it is not worked
 * out byte by byte (docs/performance.md). */
static void sender_stream(const struct app_bulk_sender *a, uint8_t *p, uint32_t off, uint16_t n)
{
    uint16_t data = off >= a->len ? 0 : a->len - off < n ? (uint16_t)(a->len - off) : n;
    uint16_t done = data < 26u ? data : 26u, i;
    memcpy(p, bulk_letters + off % 26u, done);
    while (done < data) {
        uint16_t k = data - done < done ? (uint16_t)(data - done) : done;
        memcpy(p + done, p, k);
        done = (uint16_t)(done + k);
    }
    for (i = data; i < n; i++)
        p[i] = bulk_done[off + i - a->len];
}

/* How many bytes to make for the next tcpsend: what the send buffer takes now (tcpsend
 * takes as much and no more), and at least one, so that a full buffer or a broken
 * connection still gets its answer from tcpsend. */
static uint16_t sender_next_len(const struct app_bulk_sender *a, struct host *h, uint32_t left)
{
    struct tcp_info info;
    uint32_t k = left < APP_BULK_CHUNK ? left : APP_BULK_CHUNK;
    if (tcpstatus(h, a->sock, &info) == ERR_OK && info.snd_space < k)
        k = info.snd_space ? info.snd_space : 1u;
    return (uint16_t)k;
}

/* Queues data then "DONE" until the send buffer is full; returns an error or 0. */
static int sender_fill(struct app_bulk_sender *a, struct host *h)
{
    uint32_t stream_len = a->len + sizeof bulk_done;
    while (a->sent < stream_len) {
        uint8_t chunk[APP_BULK_CHUNK];
        uint16_t k = sender_next_len(a, h, stream_len - a->sent);
        int n;
        sender_stream(a, chunk, a->sent, k);
        n = tcpsend(h, a->sock, chunk, k);
        if (n == ERR_WOULDBLOCK || n == 0)
            return 0;
        if (n < 0)
            return n;
        if (a->sent == 0)
            a->report.first_send_at = h->now;
        a->sent += (uint32_t)n;
        if (a->report.bytes < a->len) {
            a->report.bytes = a->sent < a->len ? a->sent : a->len;
            if (a->report.bytes == a->len) {
                /* The seed's sender stopped its clock here: the data is in the buffer. */
                a->report.queued_at = h->now;
                a->report.queue_us = h->now - a->report.first_send_at;
                a->report.queue_kbps = app_rate_kbps(a->len, a->report.queue_us);
            }
        }
    }
    return 0;
}

/* Reads the answer; 1 once "OK" is complete, 0 while waiting, or an error. */
static int sender_read_ok(struct app_bulk_sender *a, struct host *h)
{
    uint8_t buf[sizeof bulk_ok];
    int n = tcprecv(h, a->sock, buf, (uint32_t)(sizeof bulk_ok - a->ok_got));
    if (n == ERR_WOULDBLOCK)
        return 0;
    if (n == 0)
        return ERR_CLSD; /* closed without answering */
    if (n < 0)
        return n;
    if (memcmp(buf, bulk_ok + a->ok_got, (size_t)n) != 0)
        a->report.bad_reply = 1;
    a->ok_got = (uint8_t)(a->ok_got + n);
    return a->ok_got == sizeof bulk_ok;
}

int app_bulk_sender_poll(struct app_bulk_sender *a, struct host *h, stack_time_t *next)
{
    int r;
    (void)next;
    if (a->state == BS_CONNECTING) {
        r = app_tcp_ready(h, a->sock);
        if (r < 0)
            sender_finish(a, h, r);
        if (r <= 0)
            return 0;
        a->state = BS_SENDING;
    }
    if (a->state == BS_SENDING) {
        r = sender_fill(a, h);
        if (r < 0) {
            sender_finish(a, h, r);
            return 0;
        }
        if (a->sent == a->len + sizeof bulk_done)
            a->state = BS_WAIT_OK;
    }
    if (a->state == BS_WAIT_OK) {
        r = sender_read_ok(a, h);
        if (r < 0) {
            sender_finish(a, h, r);
        } else if (r == 1) {
            a->report.ok_at = h->now;
            a->report.total_us = h->now - a->report.first_send_at;
            a->report.total_kbps = app_rate_kbps(a->len, a->report.total_us);
            sender_finish(a, h, 0);
        }
    }
    return 0;
}

/* ---- receiver ---- */

int app_bulk_receiver_start(struct app_bulk_receiver *a, struct host *h, uint16_t port)
{
    memset(a, 0, sizeof *a);
    a->sock = -1;
    a->report.mismatch_at = APP_BULK_NO_MISMATCH;
    a->listener = app_tcp_listen(h, port ? port : APP_BULK_PORT, 1);
    if (a->listener < 0) {
        a->report.error = a->listener;
        a->listener = -1;
        return a->report.error;
    }
    return ERR_OK;
}

/* Counts the bytes of p that differ from `want` (stream offset off on). */
static void receiver_mismatches(struct app_bulk_receiver *a, const uint8_t *p, const uint8_t *want,
                                uint32_t off, uint32_t n)
{
    uint32_t i;
    for (i = 0; i < n; i++)
        if (p[i] != want[i] && a->report.mismatches++ == 0)
            a->report.mismatch_at = off + i;
}

/* 1 when the n bytes at a and at b are the same: 8 bytes a turn, the differences gathered
 * and looked at once at the end (no early exit: a short loop, which compilers can widen;
 * the bytes are nearly always the same). memcmp
 * would do natively, but Emscripten's (musl's) goes byte by byte, and was 8 % of the wasm
 * engine's time on a bulk transfer. */
static int receiver_same(const uint8_t *a, const uint8_t *b, uint32_t n)
{
    uint64_t x, y, diff = 0;
    uint32_t i = 0;
    for (; i + 8u <= n; i += 8u) {
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        diff |= x ^ y;
    }
    for (; i < n; i++)
        diff |= (uint64_t)(a[i] ^ b[i]);
    return diff == 0;
}

/* Checks n data bytes, from stream offset off, against the pattern (this runs for every
 * segment of a bulk transfer). The pattern repeats every 26 bytes, so bytes whose first
 * 26 are the pattern's and each later one equals the one 26 before are all right: two
 * comparisons for a whole segment. Otherwise, 26 bytes at a time against the letters,
 * byte by byte only where they differ, so each wrong byte is counted once. */
static void receiver_check(struct app_bulk_receiver *a, const uint8_t *p, uint32_t off, uint32_t n)
{
    const uint8_t *want = bulk_letters + off % 26u;
    uint32_t i, k, head = n < 26u ? n : 26u;
    a->report.checked += n;
    if (receiver_same(p, want, head) && receiver_same(p + head, p, n - head))
        return;
    for (i = 0; i < n; i += k) {
        k = n - i < 26u ? n - i : 26u;
        if (memcmp(p + i, want, k) != 0)
            receiver_mismatches(a, p + i, want, off + i, k);
    }
}

/* Takes received bytes through a four-byte window: a byte leaving the window is data,
 * checked against the pattern; the window itself is checked for "DONE". The byte at
 * stream offset t sits in slot t mod 4. With n new bytes, the window's oldest min(n, 4)
 * leave first, then all but the last four of the new ones. */
static void receiver_take(struct app_bulk_receiver *a, const uint8_t *buf, uint16_t n)
{
    uint32_t i, old = n < 4u ? n : 4u;
    for (i = 0; i < old; i++)
        if (a->total + i >= 4u)
            receiver_check(a, &a->win[(a->total + i) & 3u], a->total + i - 4u, 1);
    if (n > 4u)
        receiver_check(a, buf, a->total, n - 4u);
    for (i = n - old; i < n; i++)
        a->win[(a->total + i) & 3u] = buf[i];
    a->total += n;
}

static int receiver_saw_done(const struct app_bulk_receiver *a)
{
    uint8_t i;
    if (a->total < 4)
        return 0;
    for (i = 0; i < 4; i++) {
        /* oldest first: the ring slot of byte total-4+i */
        if (a->win[(a->total + i) & 3u] != bulk_done[i])
            return 0;
    }
    return 1;
}

static void receiver_end(struct app_bulk_receiver *a, struct host *h, int err)
{
    if (err < 0) {
        tcpabort(h, a->sock);
        a->report.error = err;
    } else {
        tcpclose(h, a->sock);
        a->report.sessions++;
        a->report.done = 1;
    }
    a->sock = -1;
    a->state = BR_IDLE;
}

int app_bulk_receiver_poll(struct app_bulk_receiver *a, struct host *h, stack_time_t *next)
{
    (void)next;
    if (a->listener < 0)
        return 0;
    if (a->state == BR_IDLE) {
        int s = tcpaccept(h, a->listener);
        uint16_t sessions = a->report.sessions;
        if (s < 0)
            return 0;
        memset(&a->report, 0, sizeof a->report);
        a->report.sessions = sessions;
        a->report.mismatch_at = APP_BULK_NO_MISMATCH;
        a->sock = s;
        a->total = 0;
        a->ok_off = 0;
        a->state = BR_RECEIVING;
    }
    for (;;) {
        uint8_t buf[APP_BULK_CHUNK];
        int n;
        if (a->state == BR_SEND_OK) {
            n = tcpsend(h, a->sock, bulk_ok + a->ok_off, (uint32_t)(sizeof bulk_ok - a->ok_off));
            if (n == ERR_WOULDBLOCK)
                return 0;
            if (n < 0) {
                receiver_end(a, h, n);
                return 0;
            }
            a->ok_off = (uint8_t)(a->ok_off + n);
            if (a->ok_off < sizeof bulk_ok)
                return 0;
            a->report.ok_sent = 1;
            a->report.ok_at = h->now;
            a->report.elapsed_us = h->now - a->report.first_byte_at;
            a->report.kbps = app_rate_kbps(a->report.bytes, a->report.elapsed_us);
            a->state = BR_WAIT_CLOSE;
        }
        n = tcprecv(h, a->sock, buf, sizeof buf);
        if (n == ERR_WOULDBLOCK)
            return 0;
        if (n < 0) {
            receiver_end(a, h, n);
            return 0;
        }
        if (n == 0) {
            /* The sender closed: after "OK" this is the normal end, before it the transfer
             * was cut short. */
            receiver_end(a, h, a->state == BR_WAIT_CLOSE ? 0 : ERR_CLSD);
            return 0;
        }
        if (a->state == BR_WAIT_CLOSE) {
            a->report.extra += (uint32_t)n;
            continue;
        }
        if (a->total == 0)
            a->report.first_byte_at = h->now;
        receiver_take(a, buf, (uint16_t)n);
        if (receiver_saw_done(a)) {
            a->report.bytes = a->total - 4;
            a->state = BR_SEND_OK;
        }
    }
}
