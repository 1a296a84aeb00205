#!/usr/bin/env bash
# The firmware's TCP echo against the Linux kernel, the seed's own setup: the board's
# serial line (PTY, stackscope-simavr's UART0) bridged to a TUN device by
# stackscope-slipbridge (user space, no SLIP module), in a network namespace made here and
# removed on exit, also on failure. Linux is 10.0.7.1, the board 10.0.7.2, MTU 576, and the
# interface's queue holds 10 datagrams, as slattach's sl0 does (see below).
#
#   firmware/tests/linux_peer.sh PTY SECONDS CONNECTIONS...
#
# For each number of connections, echo_load.py streams into echo (port 7) for SECONDS and
# counts the bytes that come back; the table gives them as a share of 57600 bit/s (5760
# bytes/s at 10 bits per byte), as the seed did, and of the line simavr really runs: its
# UART takes 11 bit times per byte at the Uno's 58823 baud (see the README), 5348 bytes/s.
# The goal, of that line: 80 % up to 20 connections, 65 % beyond (the seed: 80-85 % with
# 1 to 20 connections, 72 % with 30, 65 % with 50). Exits non-zero when a row misses it,
# the echo came back altered, a connection was reset or got nothing. Needs root.
# LINUX_PEER_TCP_RETRIES2=N sets Linux's tcp_retries2 in the namespace: Linux counts each
# time its own full queue refuses a connection's segment as an unanswered probe and ends
# the connection (ETIMEDOUT) after tcp_retries2 (15) of them (firmware/README.md).
set -uo pipefail
cd "$(dirname "$0")/../.."

[ $# -ge 3 ] || { echo "usage: linux_peer.sh PTY SECONDS CONNECTIONS..."; exit 2; }
PTY=$1
SECONDS_EACH=$2
shift 2
BRIDGE=build/firmware/stackscope-slipbridge
NS="ssfw$$"
KERNEL=10.0.7.1
BOARD=10.0.7.2
OUT=${LINUX_PEER_OUT:-build/firmware/linux-peer}

[ "$(id -u)" -eq 0 ] || { echo "linux-peer: needs root (network namespace, TUN)"; exit 1; }
[ -c /dev/net/tun ] || { echo "linux-peer: no /dev/net/tun"; exit 1; }
[ -x "$BRIDGE" ] || { echo "linux-peer: $BRIDGE missing: make firmware-sim"; exit 1; }
[ -e "$PTY" ] || { echo "linux-peer: $PTY: no such serial line"; exit 1; }

# simavr's byte time: 11 bits (its UART adds a parity bit to 8N1) of 16 * (UBRR + 1)
# cycles at 16 MHz, that is 11 * (UBRR + 1) microseconds.
ubrr=$(sed -n 's/^#define ECHO_UBRR \([0-9]*\).*/\1/p' firmware/stackscope_echo/echo_config.h)
[ -n "$ubrr" ] || { echo "linux-peer: ECHO_UBRR not found in echo_config.h"; exit 1; }
byte_us=$((11 * (ubrr + 1)))

bridge_pid=
capture_pid=
cleanup() {
  if [ -n "$capture_pid" ]; then
    kill -TERM "$capture_pid" 2>/dev/null
    wait "$capture_pid" 2>/dev/null
  fi
  if [ -n "$bridge_pid" ]; then
    kill -TERM "$bridge_pid" 2>/dev/null
    wait "$bridge_pid" 2>/dev/null
  fi
  ip netns del "$NS" 2>/dev/null
}
trap cleanup EXIT

mkdir -p "$OUT"
ip netns add "$NS" || { echo "linux-peer: cannot create a network namespace"; exit 1; }
in_ns() { ip netns exec "$NS" "$@"; }
in_ns ip link set lo up
in_ns sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
# Each row a fresh start: Linux would otherwise seed the next row's connections with the
# round trip and ssthresh it remembered from the last row's (tcp_metrics).
in_ns sysctl -q -w net.ipv4.tcp_no_metrics_save=1
[ -n "${LINUX_PEER_TCP_RETRIES2:-}" ] && in_ns sysctl -q -w net.ipv4.tcp_retries2="$LINUX_PEER_TCP_RETRIES2"
in_ns ip tuntap add dev tun0 mode tun || { echo "linux-peer: cannot create a TUN device"; exit 1; }
in_ns ip addr add "$KERNEL" peer "$BOARD" dev tun0
in_ns ip link set tun0 mtu 576 up
# sl0 stops its queue while the UART sends a frame, so datagrams wait in the kernel's
# queue of 10 and Linux's TCP sees the line's pace there (TCP small queues). A TUN device
# never stops its queue: it drops what its reader has not taken. So the kernel's queue here
# is a token bucket at the line's rate (576 of the 578 bytes of a full frame are the
# datagram's), holding 10 datagrams of the MTU, and the bridge drains the device.
tbf_rate=$((8 * 1000000 * 576 / (578 * byte_us)))
in_ns tc qdisc add dev tun0 root tbf rate "${tbf_rate}bit" burst 600 limit $((${LINUX_PEER_QUEUE:-10} * 576)) ||
  { echo "linux-peer: cannot set up the queue (tc qdisc tbf)"; exit 1; }

# LINUX_PEER_PCAP=FILE: what crossed the line, for tshark (raw IP, linktype 101).
if [ -n "${LINUX_PEER_PCAP:-}" ] && command -v dumpcap >/dev/null; then
  ip netns exec "$NS" dumpcap -q -P -i tun0 -w "$LINUX_PEER_PCAP" 2>"$OUT/dumpcap.log" &
  capture_pid=$!
  sleep 1
fi

ip netns exec "$NS" "$BRIDGE" --serial "$PTY" --dev tun0 --byte-us "$byte_us" \
  >"$OUT/bridge.log" 2>&1 &
bridge_pid=$!
sleep 0.3
kill -0 "$bridge_pid" 2>/dev/null || { cat "$OUT/bridge.log"; echo "linux-peer: the bridge did not start"; exit 1; }

# The board must answer before anything is measured.
if ! in_ns ping -n -c 3 -i 0.3 -W 2 "$BOARD" >"$OUT/ping.log" 2>&1; then
  sed 's/^/     /' "$OUT/ping.log"
  echo "linux-peer: the board does not answer ping through the bridge"
  exit 1
fi
echo "     Linux ping through the bridge: $(grep '^rtt' "$OUT/ping.log")"

seed_pct() {
  case $1 in 1 | 2) echo 80 ;; 5) echo 85 ;; 10) echo 83 ;; 20) echo 82 ;; 30) echo 72 ;; 50) echo 65 ;; *) echo - ;; esac
}
goal_pct() { if [ "$1" -le 20 ]; then echo 80; else echo 65; fi; }

failures=0
printf '     %5s  %9s  %13s  %16s  %6s  %5s\n' conns "bytes/s" "of 57600 b/s" "of simavr's line" seed goal
for n in "$@"; do
  log="$OUT/load-$n.log"
  in_ns python3 firmware/tests/echo_load.py "$BOARD" 7 "$n" "$SECONDS_EACH" >"$log" 2>&1
  rc=$?
  rate=$(sed -n 's/.* \([0-9]*\) bytes\/s echoed.*/\1/p' "$log")
  if [ -z "$rate" ]; then
    sed 's/^/     /' "$log"
    failures=$((failures + 1))
    continue
  fi
  goal=$(goal_pct "$n")
  read -r line_pct uart_pct below < <(awk -v r="$rate" -v us="$byte_us" -v g="$goal" 'BEGIN {
    u = r * us / 1e4; printf "%.1f %.1f %d\n", r / 57.6, u, u < g }')
  # What else went wrong, from the load's line: connections lost, altered echo.
  closed=$(sed -n 's/.*, \([0-9]*\) refused or closed).*/\1/p' "$log")
  verdict=ok
  [ "$below" -eq 1 ] && verdict="below the goal"
  [ "${closed:-0}" -gt 0 ] && verdict="$verdict, $closed connections reset or refused"
  grep -q CORRUPTED "$log" && verdict="$verdict, echo ALTERED"
  # a connection starved for the whole measurement: the same unmet goal as a low rate
  [ "$rc" -ne 0 ] && [ "$verdict" = ok ] && verdict="a connection got nothing back"
  verdict=${verdict#ok, }
  printf '     %5d  %9d  %12s%%  %15s%%  %5s%%  %4s%%  %s\n' "$n" "$rate" "$line_pct" "$uart_pct" \
    "$(seed_pct "$n")" "$goal" "$verdict"
  echo "            $(cat "$log")"
  [ "$verdict" = ok ] || failures=$((failures + 1))
  sleep 1 # the resets of the last run cross the line
done
echo "     Linux's queue: $(in_ns tc -s qdisc show dev tun0 | sed -n 's/^ *\(Sent .*\)/\1/p')"
kill -TERM "$bridge_pid" 2>/dev/null
wait "$bridge_pid" 2>/dev/null
bridge_pid=
sed 's/^/     /' "$OUT/bridge.log"
[ "$failures" -eq 0 ]
