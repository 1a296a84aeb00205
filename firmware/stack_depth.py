#!/usr/bin/env python3
"""Static upper bound of the firmware's C stack, from its disassembly.

    python3 firmware/stack_depth.py build/firmware/stackscope-echo.elf

For every function: the bytes its prologue takes (pushed registers, the frame it carves
out of SP, the return address), and whom it calls. The deepest chain from main(), plus the
deepest interrupt handler (they do not nest: the AVR clears I on entry), is the bound.

Calls through pointers (icall) cannot be read from the code; the firmware makes two, to the
functions listed in INDIRECT: the netif output function (the stack sends a datagram) and
the receiver the sender runs while it waits for the UART. A name in INDIRECT that the
firmware no longer has is an error, so the list cannot silently go stale. Recursion would
make the bound meaningless and is reported if found.
avr-gcc's 64-bit and division helpers (__udivmodsi4 and friends) push nothing beyond what
the disassembly shows, so they are counted like any other function.
"""
import re
import subprocess
import sys

# Targets of the indirect calls (icall) anywhere in the firmware.
INDIRECT = ("serial_link_output", "receive_meanwhile")

FUNC = re.compile(r"^([0-9a-f]+) <(.+)>:$")
INSN = re.compile(r"^\s+([0-9a-f]+):\s+((?:[0-9a-f]{2} )+)\s*\t(\S+)\s*(.*)$")


def parse(lines):
    funcs = {}
    cur = None
    for line in lines:
        m = FUNC.match(line)
        if m:
            cur = funcs.setdefault(m.group(2), {"push": 0, "frame": 0, "calls": set(),
                                                "icall": False, "after_in": False})
            continue
        m = INSN.match(line)
        if not m or cur is None:
            continue
        op, args = m.group(3), m.group(4)
        if op == "push":
            cur["push"] += 1
        elif op == "in" and args.startswith("r28, 0x3d"):
            cur["after_in"] = True  # frame pointer loaded from SP: a frame follows
        elif cur["after_in"] and op in ("sbiw", "subi") and args.startswith("r28, 0x"):
            cur["frame"] += int(args.split(",")[1].split(";")[0].strip(), 16)
            cur["after_in"] = False
        elif op == "rcall" and args.startswith(".+0"):
            cur["frame"] += 2  # gcc's way of reserving two bytes
        elif op in ("call", "rcall", "jmp", "rjmp") and "<" in args:
            target = args.split("<")[1].split(">")[0]
            if "+" not in target and op in ("call", "rcall"):
                cur["calls"].add(target)
        elif op in ("icall", "eicall"):
            cur["icall"] = True
    return funcs


def base(name):
    return name.split(".")[0]


def main():
    elf = sys.argv[1]
    lines = subprocess.run(["avr-objdump", "-d", elf], capture_output=True, text=True,
                           check=True).stdout.splitlines()
    funcs = parse(lines)
    indirect = {n for n in funcs if base(n) in INDIRECT}
    missing = set(INDIRECT) - {base(n) for n in indirect}
    if missing:
        raise SystemExit("stack_depth: no function %s in %s: update INDIRECT"
                         % (", ".join(sorted(missing)), elf))
    cost = {n: f["push"] + f["frame"] + 2 for n, f in funcs.items()}
    memo = {}

    def deepest(name, path):
        if name in path:
            raise SystemExit("stack_depth: recursion through " + " -> ".join(path + (name,)))
        if name in memo:
            return memo[name]
        f = funcs.get(name)
        callees = set(f["calls"]) if f else set()
        if f and f["icall"]:
            callees |= indirect
        best = (0, [])
        for c in callees:
            d = deepest(c, path + (name,))
            if d[0] > best[0]:
                best = d
        memo[name] = (cost.get(name, 0) + best[0], [name] + best[1])
        return memo[name]

    depth, chain = deepest("main", ())
    isr = max((deepest(n, ()) for n in funcs if re.match(r"__vector_\d+$", n)),
              key=lambda d: d[0])
    print("stack_depth: deepest chain %d bytes: %s" % (depth, " > ".join(base(n) for n in chain)))
    print("stack_depth: deepest interrupt %d bytes: %s" % (isr[0], " > ".join(isr[1])))
    print("stack_depth: bound %d bytes" % (depth + isr[0]))


if __name__ == "__main__":
    main()
