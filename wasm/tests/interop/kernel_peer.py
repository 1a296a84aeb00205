#!/usr/bin/env python3
"""The Linux side of the interop test: TCP clients and servers on the kernel's own stack,
and raw IPv4 packets the kernel would never send, written to the TUN device through a
packet socket (AF_PACKET), so they reach the stack exactly as built: no checksum or length
filled in, no fragment reassembled on the way.

Runs inside the test's network namespace. Every mode prints one line with its figure and
exits 0 on success, 1 on failure.

  echo HOST PORT BYTES SEED     send BYTES random bytes, read them back, compare
  discard HOST PORT BYTES SEED  send BYTES random bytes and close
  refused HOST PORT             expect "connection refused" (an RST)
  sink PORT BYTES READYFILE     accept one connection, read until EOF, check the bytes are
                                the stack client's pattern (offset mod 251) and BYTES long
  strays DEV SRC DST N          N fragments of ICMP echo requests whose other fragments
                                never come (fragment zero first, then middle ones)
  garbage DEV SRC DST N SEED    N malformed packets: bad checksums, header lengths, total
                                lengths and offsets, other versions, random options,
                                random fragments, truncated and random bytes
"""
import os
import random
import socket
import struct
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


ETH_P_IP = 0x0800
IPPROTO_ICMP = 1


def checksum(data):
    """The Internet checksum (RFC 1071) of `data`."""
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def ip_header(src, dst, proto, ident, frag, payload_len, options=b"", ttl=64):
    """An IPv4 header with a correct checksum; `frag` is flags and offset (RFC 791 3.1)."""
    ihl = 5 + len(options) // 4
    h = struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, 0, ihl * 4 + payload_len, ident, frag, ttl,
                    proto, 0, socket.inet_aton(src), socket.inet_aton(dst)) + options
    return h[:10] + struct.pack("!H", checksum(h)) + h[12:]


def echo_request(ident, seq, data):
    """An ICMP echo request (RFC 792) with its checksum."""
    m = struct.pack("!BBHHH", 8, 0, 0, ident, seq) + data
    return m[:2] + struct.pack("!H", checksum(m)) + m[4:]


def packet_socket(dev):
    """Writes go out of `dev` as given: on a TUN device, to the program reading it."""
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_IP))
    s.bind((dev, ETH_P_IP))
    return s


def strays(dev, src, dst, n):
    """Fragments of datagrams that will never be complete: the reassembler keeps each until
    its timeout, unless it makes room for newer ones."""
    with packet_socket(dev) as s:
        for i in range(n):
            ident = 0xBEE0 + i
            if i == 0:  # fragment zero: 552 bytes of an echo request, more to come
                payload = echo_request(0x5151, 1, bytes(range(256)) * 3)[:552]
                frag = 0x2000
            else:  # a middle fragment, at offset 552
                payload = bytes((i + k) & 0xFF for k in range(552))
                frag = 0x2000 | (552 // 8)
            s.send(ip_header(src, dst, IPPROTO_ICMP, ident, frag, len(payload)) + payload)
    print(f"strays: {n} fragments sent to {dst}, none of them completable")
    return True


def garbage_packet(rng, i, src, dst):
    """Packet i of the garbage: the kind cycles, the contents are random."""
    kind = i % 10
    data = rng.randbytes(rng.randrange(0, 200))
    proto = rng.choice([1, 6, 17, rng.randrange(256)])
    ident = rng.randrange(65536)
    req = echo_request(ident, i, data)
    good = ip_header(src, dst, IPPROTO_ICMP, ident, 0, len(req)) + req
    if kind == 0:  # header checksum with one bit flipped
        bad = struct.unpack("!H", good[10:12])[0] ^ (1 << rng.randrange(16))
        return good[:10] + struct.pack("!H", bad) + good[12:]
    if kind == 1:  # header length below 5 words
        return bytes([0x40 | rng.randrange(5)]) + good[1:]
    if kind == 2:  # header length past the end of the packet
        short = good[:rng.randrange(20, 60)]
        return bytes([0x40 | 15]) + short[1:]
    if kind == 3:  # total length past the frame, or shorter than the header
        tot = rng.choice([len(good) + rng.randrange(1, 1000), rng.randrange(0, 20)])
        h = bytearray(good[:20])
        h[2:4] = struct.pack("!H", tot)
        h[10:12] = b"\0\0"
        h[10:12] = struct.pack("!H", checksum(bytes(h)))
        return bytes(h) + good[20:]
    if kind == 4:  # not version 4
        return bytes([(rng.choice([0, 5, 6, 15]) << 4) | 5]) + good[1:]
    if kind == 5:  # random options (1 .. 10 words), any content
        opts = rng.randbytes(4 * rng.randrange(1, 11))
        if rng.random() < 0.5:
            return ip_header(src, dst, IPPROTO_ICMP, ident, 0, len(req), opts) + req
        return ip_header(src, dst, proto, ident, 0, len(data), opts) + data
    if kind == 6:  # a random fragment, mostly within 8 KB: it takes a reassembly slot
        payload = rng.randbytes(rng.randrange(0, 540))
        frag = (0x2000 if rng.random() < 0.7 else 0) | rng.randrange(1024 if rng.random() < 0.8 else 8192)
        return ip_header(src, dst, proto, ident, frag, len(payload)) + payload
    if kind == 7:  # offsets that end past 65535, or an odd length with more to come
        if rng.random() < 0.5:
            payload = rng.randbytes(rng.randrange(8, 540))
            frag = rng.randrange(8100, 8192) | (0x2000 if rng.random() < 0.5 else 0)
        else:
            payload = rng.randbytes(8 * rng.randrange(1, 60) + rng.randrange(1, 8))
            frag = 0x2000 | rng.randrange(0, 100)
        return ip_header(src, dst, proto, ident, frag, len(payload)) + payload
    if kind == 8:  # cut short of a header
        return good[:rng.randrange(1, 20)]
    return bytes([0x45]) + rng.randbytes(rng.randrange(19, 500))  # random bytes after 0x45


def garbage(dev, src, dst, n, seed):
    rng = random.Random(seed)
    sent = 0
    with packet_socket(dev) as s:
        for i in range(n):
            s.send(garbage_packet(rng, i, src, dst))
            sent += 1
            if i % 50 == 49:
                time.sleep(0.02)  # the TUN queue holds 500; let the stack read
    print(f"garbage: {sent} malformed packets sent to {dst}")
    return sent == n


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
    if mode == "strays":
        return strays(argv[2], argv[3], argv[4], int(argv[5]))
    if mode == "garbage":
        return garbage(argv[2], argv[3], argv[4], int(argv[5]), int(argv[6]))
    raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    sys.exit(0 if main(sys.argv) else 1)
