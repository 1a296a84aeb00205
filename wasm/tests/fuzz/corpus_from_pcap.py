#!/usr/bin/env python3
"""Adds real Linux frames to the fuzz_ip_input seed corpus.

Reads a classic pcap of raw IPv4 (linktype 101, as the interop test's dumpcap writes on
tun0) and copies the first frames of each kind sent by the kernel (10.0.7.1): SYNs with
Linux's options (MSS, SACK permitted, timestamps, window scale), data, FINs, pings and
their fragments.

    python3 wasm/tests/fuzz/corpus_from_pcap.py build/interop/interop.pcap
"""
import os
import struct
import sys

OUT = os.path.join(os.path.dirname(__file__), "corpus", "fuzz_ip_input")
KERNEL = bytes([10, 0, 7, 1])


def frames(path):
    with open(path, "rb") as f:
        header = f.read(24)
        magic, = struct.unpack("<I", header[:4])
        endian = "<" if magic in (0xA1B2C3D4, 0xA1B23C4D) else ">"
        linktype, = struct.unpack(endian + "I", header[20:24])
        if linktype not in (101, 228):
            raise SystemExit(f"linktype {linktype}: expected raw IPv4 (101 or 228)")
        while True:
            rec = f.read(16)
            if len(rec) < 16:
                return
            _, _, incl, _ = struct.unpack(endian + "IIII", rec)
            yield f.read(incl)


def kind(d):
    proto = d[9]
    frag = struct.unpack(">H", d[6:8])[0] & 0x3FFF
    if frag:
        return ("frag", proto, frag & 0x2000 != 0)
    if proto == 6:
        hl = (d[0] & 15) * 4
        return ("tcp", d[hl + 13], len(d) > hl + (d[hl + 12] >> 4) * 4)
    return ("other", proto, d[20] if len(d) > 20 else 0)


def main(path):
    os.makedirs(OUT, exist_ok=True)
    seen = {}
    for d in frames(path):
        if len(d) < 20 or d[12:16] != KERNEL:
            continue
        k = kind(d)
        if seen.get(k, 0) >= 2:
            continue
        seen[k] = seen.get(k, 0) + 1
        name = os.path.join(OUT, f"linux-{sum(seen.values()):03d}")
        with open(name, "wb") as f:
            f.write(d)
    print(f"{sum(seen.values())} Linux frames written to {OUT}")


if __name__ == "__main__":
    main(sys.argv[1])
