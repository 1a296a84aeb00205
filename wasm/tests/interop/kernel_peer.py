#!/usr/bin/env python3
"""The Linux side of the interop test: TCP clients and servers on the kernel's own stack.

Runs inside the test's network namespace. Every mode prints one line with its figure and
exits 0 on success, 1 on failure.

  echo HOST PORT BYTES SEED     send BYTES random bytes, read them back, compare
  discard HOST PORT BYTES SEED  send BYTES random bytes and close
  refused HOST PORT             expect "connection refused" (an RST)
  sink PORT BYTES READYFILE     accept one connection, read until EOF, check the bytes are
                                the stack client's pattern (offset mod 251) and BYTES long
"""
import os
import random
import socket
import sys
import time

TIMEOUT_S = 120


def random_bytes(n, seed):
    return random.Random(seed).randbytes(n)


def echo(host, port, n, seed):
    data = random_bytes(n, seed)
    got = bytearray()
    t0 = time.monotonic()
    with socket.create_connection((host, port), timeout=TIMEOUT_S) as s:
        sent = 0
        s.setblocking(True)
        # Send and receive at once: the echo comes back while we are still sending, and
        # a window's worth unread would stall both sides.
        while len(got) < n:
            if sent < n:
                s.settimeout(0.05)
                try:
                    sent += s.send(data[sent:sent + 16384])
                except (BlockingIOError, socket.timeout):
                    pass
            s.settimeout(0.05 if sent < n else TIMEOUT_S)
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                if time.monotonic() - t0 > TIMEOUT_S:
                    break
                continue
            if not chunk:
                break
            got += chunk
    ok = bytes(got) == data
    print(f"echo: sent {n} bytes, got {len(got)} back, {'identical' if ok else 'DIFFERENT'}, "
          f"{time.monotonic() - t0:.2f} s")
    return ok


def discard(host, port, n, seed):
    data = random_bytes(n, seed)
    t0 = time.monotonic()
    with socket.create_connection((host, port), timeout=TIMEOUT_S) as s:
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
        # The server closes after reading everything: EOF confirms it took all of it.
        rest = s.recv(1)
    ok = rest == b""
    print(f"discard: sent {n} bytes, server closed cleanly: {ok}, {time.monotonic() - t0:.2f} s")
    return ok


def refused(host, port):
    try:
        with socket.create_connection((host, port), timeout=10):
            pass
    except ConnectionRefusedError:
        print(f"port {port}: connection refused (RST)")
        return True
    except OSError as e:
        print(f"port {port}: {e!r}, expected connection refused")
        return False
    print(f"port {port}: connection accepted, expected refused")
    return False


def sink(port, n, readyfile):
    with socket.socket() as ls:
        ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        ls.bind(("0.0.0.0", port))
        ls.listen(1)
        ls.settimeout(TIMEOUT_S)
        open(readyfile, "w").close()
        conn, _ = ls.accept()
        got = bytearray()
        with conn:
            conn.settimeout(TIMEOUT_S)
            while True:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                got += chunk
    expected = bytes(i % 251 for i in range(n))
    ok = bytes(got) == expected
    print(f"sink: received {len(got)} of {n} bytes, {'in order and intact' if ok else 'WRONG'}")
    return ok


def main(argv):
    mode = argv[1]
    if mode == "echo":
        return echo(argv[2], int(argv[3]), int(argv[4]), int(argv[5]))
    if mode == "discard":
        return discard(argv[2], int(argv[3]), int(argv[4]), int(argv[5]))
    if mode == "refused":
        return refused(argv[2], int(argv[3]))
    if mode == "sink":
        return sink(int(argv[2]), int(argv[3]), argv[4])
    raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    sys.exit(0 if main(sys.argv) else 1)
