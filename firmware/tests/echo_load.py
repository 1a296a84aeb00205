#!/usr/bin/env python3
"""N parallel TCP echo clients on the kernel's own stack, as in the seed's measurement.

    python3 firmware/tests/echo_load.py HOST PORT CONNECTIONS SECONDS [WARMUP]

Every connection sends as fast as the kernel takes it and reads the echo. Each sends its
own stream (a 251-byte cycle starting at an offset of its own), and every byte that comes
back is checked against what was sent: a byte out of place fails the run.

The clock starts once every connection is established (or CONNECT_WAIT_S after the
first connect(), for a server that takes fewer at a time) and the warm-up is over, and
runs SECONDS; only bytes echoed inside that window count. The warm-up leaves out TCP's
start, as a long stream would: slow start, and the first RTT samples taken while the
line's queue fills, whose too-short timeouts resend segments that were only waiting. It
lasts WARMUP seconds (default 5), and until every connection has had WARMUP_RTTS full
segments echoed, each a round trip that gives Linux's estimator a sample: RFC 6298 gives
each new sample a weight of 1/4 in RTTVAR, so after 8 of them the start's samples weigh
(3/4)^8 = 10 % in the variation that sets the timeout. With many connections sharing the
line each round trip is long (20 connections: about 2 s), so their start lasts longer
than a fixed time allows for. A connection lost meanwhile does not hold it up, and it
ends after WARMUP_MAX_S whatever the connections have had. At the end the connections
are reset (SO_LINGER 0), so the next run finds the server free at once instead of
behind a queue of unsent data.

Prints one line:
  load: N connections (E established), R bytes/s echoed, min/max per connection A/B,
        warm-up W s, Linux's smoothed RTT, segments Linux resent while counting, ...
and exits 0 when the echo was intact and every connection got at least one byte back.
"""
import errno
import selectors
import socket
import struct
import sys
import time

CONNECT_WAIT_S = 10.0
WARMUP_RTTS = 8
WARMUP_MAX_S = 60.0
# struct tcp_info (linux/tcp.h): tcpi_snd_mss, tcpi_rtt (smoothed RTT, us), tcpi_total_retrans
TCP_INFO_LEN = 104
TCPI_SND_MSS_AT = 16
TCPI_RTT_AT = 68
TCPI_TOTAL_RETRANS_AT = 100
CYCLE = 251
PATTERN = bytes(i % CYCLE for i in range(CYCLE + 16384 + CYCLE))
CHUNK = 16384


class Conn:
    def __init__(self, host, port, index):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setblocking(False)
        self.sock.connect_ex((host, port))
        self.start = (index * 37) % CYCLE  # where in the cycle this stream begins
        self.sent = 0
        self.echoed = 0
        self.counted = 0
        self.connected = False
        self.bad = False
        self.ended = None  # why the connection ended early (an errno name)

    def expected(self, offset, n):
        at = (self.start + offset) % CYCLE
        return PATTERN[at:at + n]

    def send(self):
        """False once the connection is gone (reset by the server)."""
        at = (self.start + self.sent) % CYCLE
        try:
            self.sent += self.sock.send(PATTERN[at:at + CHUNK])
        except BlockingIOError:
            pass
        except OSError as e:
            self.ended = errno.errorcode.get(e.errno, str(e))
            return False
        return True

    def receive(self, counting):
        try:
            data = self.sock.recv(65536)
        except BlockingIOError:
            return True
        except OSError as e:
            self.ended = errno.errorcode.get(e.errno, str(e))
            return False
        if not data:
            self.ended = "closed by the server"
            return False
        for i in range(0, len(data), CHUNK):
            part = data[i:i + CHUNK]
            if part != self.expected(self.echoed + i, len(part)):
                self.bad = True
        self.echoed += len(data)
        if counting:
            self.counted += len(data)
        return True

    def tcp_info(self):
        """(Linux's smoothed RTT in s, segments it has resent, its MSS), or None once closed."""
        try:
            info = self.sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, TCP_INFO_LEN)
        except OSError:
            return None
        rtt_us, = struct.unpack_from("I", info, TCPI_RTT_AT)
        resent, = struct.unpack_from("I", info, TCPI_TOTAL_RETRANS_AT)
        mss, = struct.unpack_from("I", info, TCPI_SND_MSS_AT)
        return rtt_us / 1e6, resent, mss

    def reset(self):
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.sock.close()


def warmed_up(live, since, warmup):
    """Whether the warm-up begun at `since` is over (the top of this file)."""
    waited = time.monotonic() - since
    if waited < warmup:
        return False
    if waited >= WARMUP_MAX_S:
        return True
    for c in live:
        info = c.tcp_info()
        if info and c.echoed < WARMUP_RTTS * info[2]:
            return False
    return True


def resent_by_linux(conns):
    return sum(info[1] for info in (c.tcp_info() for c in conns) if info)


def why_ended(conns):
    """'; ended: ETIMEDOUT 4, ...' for the connections that ended early, else ''."""
    why = {}
    for c in conns:
        if c.ended:
            why[c.ended] = why.get(c.ended, 0) + 1
    return "; ended: " + ", ".join("%s %d" % kv for kv in sorted(why.items())) if why else ""


def run(host, port, n, seconds, warmup):
    sel = selectors.DefaultSelector()
    conns = [Conn(host, port, i) for i in range(n)]
    for c in conns:
        sel.register(c.sock, selectors.EVENT_READ | selectors.EVENT_WRITE, c)
    t_connect = time.monotonic()
    t_ready = None  # every connection up (or the wait over): the warm-up begins
    t_start = None
    t_end = None
    resent_at_start = 0
    lost = 0
    while True:
        now = time.monotonic()
        if t_ready is None and (all(c.connected for c in conns) or
                                now - t_connect >= CONNECT_WAIT_S):
            t_ready = now
        if t_start is None and t_ready is not None and warmed_up(
                [k.data for k in sel.get_map().values()], t_ready, warmup):
            t_start = now
            t_end = t_start + seconds
            resent_at_start = resent_by_linux(conns)
        if t_end is not None and now >= t_end:
            break
        timeout = (t_end - now) if t_end is not None else 0.5
        for key, events in sel.select(timeout=min(timeout, 0.5)):
            c = key.data
            if events & selectors.EVENT_WRITE:
                if not c.connected:
                    err = c.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                    if err:
                        c.ended = errno.errorcode.get(err, str(err))
                        sel.unregister(c.sock)  # refused or timed out
                        lost += 1
                        continue
                    c.connected = True
                if not c.send():
                    sel.unregister(c.sock)
                    lost += 1
                    continue
            if events & selectors.EVENT_READ and not c.receive(t_start is not None and
                                                               now >= t_start):
                sel.unregister(c.sock)
                lost += 1
    elapsed = time.monotonic() - t_start
    resent = resent_by_linux(conns) - resent_at_start
    rtts = [info[0] for info in (c.tcp_info() for c in conns) if info]
    for c in conns:
        c.reset()
    counted = [c.counted for c in conns]
    established = sum(c.connected for c in conns)
    bad = sum(c.bad for c in conns)
    rate = sum(counted) / elapsed
    print("load: %d connections (%d established, %d refused or closed), %.0f bytes/s "
          "echoed over %.1f s after %.1f s of warm-up, per connection min %d max %d bytes, "
          "Linux's smoothed RTT %.2f-%.2f s, %d segments resent by Linux while counting, %s"
          % (n, established, lost, rate, elapsed, t_start - t_ready, min(counted), max(counted),
             min(rtts, default=0), max(rtts, default=0), resent,
             "every byte as sent" if not bad else "%d streams CORRUPTED" % bad)
          + why_ended(conns))
    return not bad and min(counted) > 0


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit("usage: echo_load.py HOST PORT CONNECTIONS SECONDS [WARMUP]")
    host, port, n, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    warmup = float(sys.argv[5]) if len(sys.argv) == 6 else 5.0
    sys.exit(0 if run(host, port, n, seconds, warmup) else 1)


if __name__ == "__main__":
    main()
