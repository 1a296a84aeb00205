#!/usr/bin/env python3
"""Hostile input for the firmware, straight onto its serial line (the simavr runner's pty).

    python3 firmware/tests/slip_probe.py PTY CHECK [ARG]

Each check sends something a well-behaved peer would not, then pings the board: the
board must answer the ping, whatever came before it. One line per check with what was
sent and what came back; exit status 0 when the check held, 1 when not.

  ping                  one ICMP echo request, answered
  segment BYTES         a TCP connection to echo (port 7) opened by hand, then one segment
                        of BYTES bytes, more than the window the board offers: the board
                        must accept what fits, drop the rest and acknowledge the part it
                        took (RFC 9293 3.10.7.4), then answer a ping
  busy BYTES            the same, but a window's worth first and BYTES right behind it, so
                        that they arrive while the board answers the first: some of them
                        must be acknowledged
  shortlong             a full segment, a short one and a full one, back to back on one
                        connection: the short one arrives whole while the first is answered,
                        and the third behind it must not be lost (all three acknowledged)
  garbage               2000 random bytes that are no frame (with stray ENDs and ESCs)
  truncated             the first half of a frame, then silence, then a ping
  oversize              a frame of 1500 bytes, beyond the 576-byte MTU
  badescape             a frame with ESC followed by a byte that is no escape

Only Python's standard library: the SLIP framing, IPv4, ICMP and TCP are built here.
"""
import os
import random
import select
import struct
import sys
import time
import tty

HOST = bytes((10, 0, 7, 1))
BOARD = bytes((10, 0, 7, 2))
END, ESC, ESC_END, ESC_ESC = 0xC0, 0xDB, 0xDC, 0xDD
PROTO_ICMP, PROTO_TCP = 1, 6
FIN, SYN, RST, PSH, ACK = 0x01, 0x02, 0x04, 0x08, 0x10
REPLY_WAIT_S = 2.0  # a 576-byte frame takes 108 ms each way at 57600 baud


def checksum(b):
    b += b"\0" * (len(b) % 2)
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def ipv4(proto, payload, ident=1):
    h = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), ident, 0, 64, proto, 0,
                    HOST, BOARD)
    return h[:10] + struct.pack("!H", checksum(h)) + h[12:] + payload


def icmp_echo(ident, seq, data):
    m = struct.pack("!BBHHH", 8, 0, 0, ident, seq) + data
    return ipv4(PROTO_ICMP, m[:2] + struct.pack("!H", checksum(m)) + m[4:])


def tcp(sport, dport, seq, ack, flags, data=b"", window=8192, mss=None):
    opts = struct.pack("!BBH", 2, 4, mss) if mss else b""
    h = struct.pack("!HHIIBBHHH", sport, dport, seq & 0xFFFFFFFF, ack & 0xFFFFFFFF,
                    (5 + len(opts) // 4) << 4, flags, window, 0, 0) + opts
    pseudo = HOST + BOARD + struct.pack("!BBH", 0, PROTO_TCP, len(h) + len(data))
    c = checksum(pseudo + h + data)
    return ipv4(PROTO_TCP, h[:16] + struct.pack("!H", c) + h[18:] + data)


def slip(dgram):
    body = dgram.replace(bytes([ESC]), bytes([ESC, ESC_ESC])).replace(
        bytes([END]), bytes([ESC, ESC_END]))
    return bytes([END]) + body + bytes([END])


class Line:
    """The pty, raw, with a SLIP decoder for what the board sends."""

    def __init__(self, path):
        self.fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.fd)
        self.pending = bytearray()

    def send(self, raw):
        view = memoryview(raw)
        while view:
            n = os.write(self.fd, view)
            view = view[n:]

    def frames(self, seconds):
        """Datagrams received within `seconds`, as they come."""
        end = time.monotonic() + seconds
        while True:
            while END in self.pending:
                i = self.pending.index(END)
                raw, self.pending = bytes(self.pending[:i]), self.pending[i + 1:]
                if raw:
                    yield raw.replace(bytes([ESC, ESC_END]), bytes([END])).replace(
                        bytes([ESC, ESC_ESC]), bytes([ESC]))
            left = end - time.monotonic()
            if left <= 0:
                return
            r, _, _ = select.select([self.fd], [], [], left)
            if r:
                self.pending += os.read(self.fd, 4096)

    def expect(self, match, seconds=REPLY_WAIT_S):
        """The first datagram for which match() is true, or None."""
        for d in self.frames(seconds):
            if match(d):
                return d
        return None

    def quiet(self, seconds):
        """Reads and forgets what arrives for `seconds`."""
        for _ in self.frames(seconds):
            pass


def parse_tcp(d):
    if len(d) < 40 or d[9] != PROTO_TCP or d[12:16] != BOARD:
        return None
    t = d[(d[0] & 15) * 4:]
    sport, dport, seq, ack, off, flags, win = struct.unpack("!HHIIBBH", t[:16])
    return {"sport": sport, "dport": dport, "seq": seq, "ack": ack, "flags": flags,
            "win": win, "data": t[(off >> 4) * 4:]}


def ping(line, seq=1):
    data = bytes(range(48))
    t0 = time.monotonic()
    line.send(slip(icmp_echo(0x5353, seq, data)))
    reply = line.expect(lambda d: len(d) >= 28 and d[9] == PROTO_ICMP and d[20] == 0 and
                        struct.unpack("!HH", d[24:28]) == (0x5353, seq) and d[28:] == data)
    if reply is None:
        print("     ping: no reply within %.1f s" % REPLY_WAIT_S)
        return False
    print("     ping: answered in %.1f ms" % ((time.monotonic() - t0) * 1000))
    return True


def check_ping(line):
    return ping(line)


def handshake(line):
    """Opens a connection to echo (port 7) by hand: (sport, iss, irs, window) or None."""
    sport, iss = random.randint(20000, 60000), random.getrandbits(32)
    line.send(slip(tcp(sport, 7, iss, 0, SYN, mss=536)))
    synack = line.expect(lambda d: (t := parse_tcp(d)) is not None and t["dport"] == sport and
                         t["flags"] & (SYN | ACK) == SYN | ACK)
    if synack is None:
        print("     no SYN-ACK from port 7")
        return None
    sa = parse_tcp(synack)
    line.send(slip(tcp(sport, 7, iss + 1, sa["seq"] + 1, ACK)))
    return sport, iss, sa["seq"], sa["win"]


def acked(line, sport, iss, seconds=REPLY_WAIT_S):
    """The highest of our bytes the board acknowledged within `seconds` (0: none)."""
    top = 0
    for d in line.frames(seconds):
        t = parse_tcp(d)
        if t is not None and t["dport"] == sport and t["flags"] & ACK:
            top = max(top, (t["ack"] - iss - 1) & 0xFFFFFFFF)
    return top


def close(line, sport, iss, irs, nxt):
    """Resets the connection at the board's RCV.NXT (an exact RST, RFC 5961 3.2)."""
    line.send(slip(tcp(sport, 7, iss + 1 + nxt, irs + 1, RST)))
    line.quiet(0.3)  # the board's echo, if it was on its way


def check_segment(line, size):
    """A window's overflow in one segment: what fits taken and acknowledged (RFC 9293
    3.10.7.4 trims the rest), then a ping."""
    size = int(size)
    opened = handshake(line)
    if opened is None:
        return False
    sport, iss, irs, window = opened
    line.send(slip(tcp(sport, 7, iss + 1, irs + 1, PSH | ACK, random.randbytes(size))))
    taken = min(size, window)
    top = acked(line, sport, iss)
    close(line, sport, iss, irs, top)
    print("     segment: %d bytes into a window of %d: %d acknowledged (%d expected)"
          % (size, window, top, taken))
    return top == taken and ping(line)


def check_busy(line, size):
    """A segment that arrives while the board is still answering the one before it (the
    line is full duplex): a window's worth, then SIZE bytes right behind it. Some of the
    second must be taken, and a ping answered after."""
    size = int(size)
    opened = handshake(line)
    if opened is None:
        return False
    sport, iss, irs, window = opened
    first = min(64, window)
    line.send(slip(tcp(sport, 7, iss + 1, irs + 1, PSH | ACK, random.randbytes(first))) +
              slip(tcp(sport, 7, iss + 1 + first, irs + 1, PSH | ACK, random.randbytes(size))))
    top = acked(line, sport, iss)
    close(line, sport, iss, irs, top)
    print("     busy: %d bytes, then %d right behind them, into a window of %d: %d acknowledged"
          % (first, size, window, top))
    return top > first and ping(line)


def check_shortlong(line):
    """A short segment between two full ones, back to back: the short one is whole while
    the board answers the first, the third arrives behind it and fills the buffer to its
    end; the board must take it too (frame_rx.c rotates the buffer), so that all three are
    acknowledged, then answer a ping."""
    opened = handshake(line)
    if opened is None:
        return False
    sport, iss, irs, window = opened
    sizes = (536, 100, 536)
    frames, at = b"", 0
    for n in sizes:
        frames += slip(tcp(sport, 7, iss + 1 + at, irs + 1, PSH | ACK, random.randbytes(n)))
        at += n
    line.send(frames)
    top = acked(line, sport, iss, 3 * REPLY_WAIT_S)
    close(line, sport, iss, irs, top)
    print("     shortlong: %s bytes back to back into a window of %d: %d acknowledged (%d expected)"
          % (" + ".join(map(str, sizes)), window, top, at))
    return top == at and ping(line)


def check_garbage(line):
    rnd = random.Random(18)
    junk = bytes(rnd.choice((END, ESC, rnd.getrandbits(8), rnd.getrandbits(8)))
                 for _ in range(2000))
    line.send(junk)
    line.quiet(0.5)
    print("     garbage: %d random bytes sent (%d END, %d ESC)"
          % (len(junk), junk.count(END), junk.count(ESC)))
    return ping(line, 2)


def check_truncated(line):
    frame = slip(icmp_echo(0x5353, 99, bytes(200)))
    line.send(frame[:len(frame) // 2])
    line.quiet(0.2)  # longer than the firmware waits for the rest of a frame
    print("     truncated: %d of %d bytes of a frame sent, then silence" % (len(frame) // 2,
                                                                           len(frame)))
    return ping(line, 3)


def check_oversize(line):
    frame = slip(icmp_echo(0x5353, 98, bytes(1472)))
    line.send(frame)
    line.quiet(0.5)
    print("     oversize: a frame of %d bytes (a %d-byte datagram) sent" % (len(frame),
                                                                            len(frame) - 2))
    return ping(line, 4)


def check_badescape(line):
    frame = bytearray(slip(icmp_echo(0x5353, 97, bytes(100))))
    frame[50:50] = bytes([ESC, 0x41])
    line.send(bytes(frame))
    line.quiet(0.3)
    print("     badescape: a frame with ESC 0x41 in it sent")
    return ping(line, 5)


CHECKS = {"ping": check_ping, "segment": check_segment, "busy": check_busy,
          "shortlong": check_shortlong,
          "garbage": check_garbage,
          "truncated": check_truncated, "oversize": check_oversize,
          "badescape": check_badescape}


def main():
    if len(sys.argv) < 3 or sys.argv[2] not in CHECKS:
        sys.exit("usage: slip_probe.py PTY {%s} [ARG]" % ",".join(CHECKS))
    line = Line(sys.argv[1])
    sys.exit(0 if CHECKS[sys.argv[2]](line, *sys.argv[3:]) else 1)


if __name__ == "__main__":
    main()
