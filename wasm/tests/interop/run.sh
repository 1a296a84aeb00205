#!/usr/bin/env bash
# The Linux interop test: our stack (stackscope-tun) on a TUN device in a network
# namespace this script creates, the kernel's own TCP/IP on the other side (and raw packets
# from kernel_peer.py: stray fragments, garbage). Only the
# namespace's addresses are used (kernel 10.0.7.1/24, stack 10.0.7.2, MTU 576), and
# everything is removed afterwards, also on failure. Prints one line per check with its
# figure. Needs root (namespaces, TUN); where that is missing it says SKIPPED, and fails
# under CI=true because CI here can run it.
set -uo pipefail
cd "$(dirname "$0")/../../.."

BIN=build/native/stackscope-tun
PEER="python3 wasm/tests/interop/kernel_peer.py"
NS="ssinterop$$"
OUT=build/interop
KERNEL=10.0.7.1
STACK=10.0.7.2
MB=1048576

skip() {
  echo "interop: SKIPPED: $1"
  if [ "${CI:-}" = "true" ]; then
    echo "interop: CI can run this test; a skip is a failure here"
    exit 1
  fi
  exit 0
}

[ "$(id -u)" -eq 0 ] || skip "needs root for network namespaces and TUN"
[ -c /dev/net/tun ] || skip "no /dev/net/tun"
command -v dumpcap >/dev/null || skip "dumpcap (tshark) is not installed"
[ -x "$BIN" ] || { echo "interop: $BIN missing: run make native first"; exit 1; }

pids=()
cleanup() {
  for p in "${pids[@]+"${pids[@]}"}"; do kill "$p" 2>/dev/null; done
  wait 2>/dev/null
  ip netns del "$NS" 2>/dev/null
}
trap cleanup EXIT

ip netns add "$NS" || skip "cannot create a network namespace"
in_ns() { ip netns exec "$NS" "$@"; }
in_ns ip link set lo up
# The kernel would send IPv6 router solicitations first; this stack speaks IPv4 only.
in_ns sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
in_ns ip tuntap add dev tun0 mode tun || skip "cannot create a TUN device"
in_ns ip addr add "$KERNEL/24" dev tun0
in_ns ip link set tun0 mtu 576 up

rm -rf "$OUT"
mkdir -p "$OUT"
# Background jobs run `ip netns exec` itself (not the in_ns function, which would put a
# subshell between $! and the process to stop).
ip netns exec "$NS" dumpcap -q -P -i tun0 -w "$OUT/interop.pcap" 2>"$OUT/dumpcap.log" &
pids+=($!)
sleep 1

failures=0
passes=0
stack_retx=0
check() { # name, command...
  local name=$1
  shift
  if "$@"; then
    echo "ok   $name"
    passes=$((passes + 1))
  else
    echo "FAIL $name"
    failures=$((failures + 1))
  fi
}

start_stack() { # log file, extra options...
  local log=$1
  shift
  ip netns exec "$NS" "$BIN" --dev tun0 --addr "$STACK" --mtu 576 "$@" >"$log" 2>&1 &
  stack_pid=$!
  pids+=("$stack_pid")
  sleep 0.3
}
stop_stack() { # log file
  kill -TERM "$stack_pid" 2>/dev/null
  wait "$stack_pid" 2>/dev/null
  cat "$1" | sed 's/^/       stack: /'
  local n
  n=$(awk '/^retransmissions: / {print $2}' "$1")
  stack_retx=$((stack_retx + ${n:-0}))
}

ping_check() { # payload size
  local out
  out=$(in_ns ping -n -c 3 -i 0.2 -W 3 -s "$1" "$STACK" 2>&1)
  local line
  line=$(echo "$out" | grep 'packets transmitted')
  echo "     ping -s $1: $line; $(echo "$out" | grep rtt)"
  echo "$line" | grep -q '3 packets transmitted, 3 received'
}

# Two fragments that never complete, sent before the pings: each used to hold one of the
# stack's two reassembly slots for the 15 s timeout, so no fragmented ping got through.
# Now the oldest incomplete datagram makes room for a new one.
stray_check() {
  in_ns $PEER strays tun0 "$KERNEL" "$STACK" 2 || return 1
  local t0 t1
  t0=$(date +%s%N)
  ping_check 1472 || return 1
  t1=$(date +%s%N)
  echo "     all answered $(((t1 - t0) / 1000000)) ms after the strays (the reassembly timeout is 15 s)"
}

# 1-3: the stack as a server, no loss. --reass-max 8028: the kernel's pings of up to 8000
# bytes reach it in fragments of the 576-byte MTU (15 of them), and it reassembles them.
start_stack "$OUT/stack-server.log" --reass-max 8028
for size in 0 56 548 1400 3000 8000; do
  check "kernel ping, payload $size" ping_check "$size"
done
check "two stray fragments, then kernel pings of 1472 bytes: all answered at once" stray_check
check "kernel TCP client, 1 MB through echo (port 7)" in_ns $PEER echo "$STACK" 7 $MB 1
check "kernel TCP client, 1 MB into discard (port 9)" in_ns $PEER discard "$STACK" 9 $MB 2
check "kernel TCP client, port 8 refused" in_ns $PEER refused "$STACK" 8
stop_stack "$OUT/stack-server.log"

# 4: the stack as a client, 10 % loss each way.
client_job() { # extra stack options...
  rm -f "$OUT/sink.ready"
  ip netns exec "$NS" $PEER sink 5001 $MB "$OUT/sink.ready" >"$OUT/sink.log" 2>&1 &
  local sink_pid=$!
  pids+=("$sink_pid")
  for _ in $(seq 50); do [ -f "$OUT/sink.ready" ] && break; sleep 0.1; done
  in_ns timeout 300 "$BIN" --dev tun0 --addr "$STACK" --mtu 576 --loss 0.1 --seed 7 \
    --connect "$KERNEL:5001" --send $MB "$@" >"$OUT/stack-client.log" 2>&1
  local rc=$?
  wait "$sink_pid"
  local sink_rc=$?
  sed 's/^/       stack: /' "$OUT/stack-client.log"
  sed 's/^/       kernel: /' "$OUT/sink.log"
  local n
  n=$(awk '/^retransmissions: / {print $2}' "$OUT/stack-client.log")
  stack_retx=$((stack_retx + ${n:-0}))
  [ "$rc" -eq 0 ] && [ "$sink_rc" -eq 0 ]
}
check "stack TCP client, 1 MB to a kernel server, 10 % loss each way" client_job

# 5: the stack as a server, kernel client, 10 % loss each way.
start_stack "$OUT/stack-lossy.log" --loss 0.1 --seed 11
check "kernel TCP client, 1 MB through echo, 10 % loss each way" in_ns $PEER echo "$STACK" 7 $MB 3
stop_stack "$OUT/stack-lossy.log"

# 6-7: the same with SACK on (the kernel offers it, net.ipv4.tcp_sack): the stack's
# loss recovery (RFC 6675) as a sender, its SACK blocks (RFC 2018) as a receiver.
check "stack TCP client with SACK, 1 MB to a kernel server, 10 % loss each way" client_job --sack
start_stack "$OUT/stack-lossy-sack.log" --loss 0.1 --seed 13 --sack
check "kernel TCP client, 1 MB through echo with SACK, 10 % loss each way" in_ns $PEER echo "$STACK" 7 $MB 4
stop_stack "$OUT/stack-lossy-sack.log"

# 8: what tshark makes of the capture.
sleep 0.5
kill -TERM "${pids[0]}" 2>/dev/null
wait "${pids[0]}" 2>/dev/null
tshark_check() {
  local prefs=(-o tcp.analyze_sequence_numbers:TRUE -o ip.check_checksum:TRUE
               -o tcp.check_checksum:TRUE -o udp.check_checksum:TRUE)
  local frames bad retx
  frames=$(tshark -r "$OUT/interop.pcap" "${prefs[@]}" -T fields -e frame.number 2>/dev/null | wc -l)
  bad=$(tshark -r "$OUT/interop.pcap" "${prefs[@]}" -Y \
    '_ws.malformed || ip.checksum.status == 2 || tcp.checksum.status == 2 || icmp.checksum.status == 2 || udp.checksum.status == 2' \
    -T fields -e frame.number 2>/dev/null | wc -l)
  retx=$(tshark -r "$OUT/interop.pcap" "${prefs[@]}" -Y "tcp.analysis.retransmission && ip.src == $STACK" \
    -T fields -e frame.number 2>/dev/null | wc -l)
  echo "     tshark: $frames frames captured, $bad malformed or with a bad checksum"
  echo "     retransmissions from the stack: tshark flags $retx, the stack counted $stack_retx" \
       "(frames the stack dropped itself never reach the capture, so the counts differ)"
  [ "$frames" -gt 0 ] && [ "$bad" -eq 0 ]
}
check "capture read by tshark: no malformed frame, no bad checksum" tshark_check

sack_check() {
  local perm blocks bad
  perm=$(tshark -r "$OUT/interop.pcap" -Y "tcp.options.sack_perm && ip.src == $STACK" \
    -T fields -e frame.number 2>/dev/null | wc -l)
  blocks=$(tshark -r "$OUT/interop.pcap" -Y "tcp.options.sack_le && ip.src == $STACK" \
    -T fields -e frame.number 2>/dev/null | wc -l)
  echo "     SACK: the stack offered SACK-permitted in $perm SYNs and sent SACK blocks in $blocks segments"
  [ "$perm" -gt 0 ] && [ "$blocks" -gt 0 ]
}
check "capture: the stack negotiated SACK and sent SACK blocks" sack_check

# 9: garbage, after the capture (tshark would rightly call it malformed): 1000 packets with
# bad checksums, header lengths, total lengths and offsets, random options and random
# fragments, written straight to the TUN device. The stack drops them, each counted (its
# drop lines below), and still answers pings and echoes 1 MB.
start_stack "$OUT/stack-garbage.log" --reass-max 8028
check "1000 garbage packets sent to the stack" in_ns $PEER garbage tun0 "$KERNEL" "$STACK" 1000 5
check "after the garbage: the stack is still running" kill -0 "$stack_pid"
for size in 56 1472 3000; do
  check "after the garbage: kernel ping, payload $size" ping_check "$size"
done
check "after the garbage: kernel TCP client, 1 MB through echo" in_ns $PEER echo "$STACK" 7 $MB 5
stop_stack "$OUT/stack-garbage.log"

echo "interop: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
