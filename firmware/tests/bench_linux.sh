#!/usr/bin/env bash
# The seed's TCP measurement against the firmware under simavr, with Linux as the peer:
# 1, 2, 5, 10, 20, 30 and 50 parallel connections streaming into echo, BENCH_SECONDS
# (default 30) each, through stackscope-slipbridge (linux_peer.sh prints the table). Then
# simavr's own figures: how close to real time it ran (a loaded machine slows the board,
# and with it the rate) and the deepest C stack. Needs root.
#
#   npm run bench:firmware
set -uo pipefail
cd "$(dirname "$0")/../.."

OUT=build/firmware/bench
SIM=build/firmware/stackscope-simavr
ELF=build/firmware/stackscope-echo.elf
PTY=$OUT/uart

make --no-print-directory firmware firmware-sim || { echo "bench: build failed"; exit 1; }
rm -rf "$OUT"
mkdir -p "$OUT"

sim_pid=
cleanup() {
  if [ -n "$sim_pid" ]; then kill "$sim_pid" 2>/dev/null; wait "$sim_pid" 2>/dev/null; fi
}
trap cleanup EXIT

"$SIM" --link "$PTY" "$ELF" >"$OUT/simavr.log" 2>&1 &
sim_pid=$!
for _ in $(seq 100); do
  grep -q "UART0 on" "$OUT/simavr.log" 2>/dev/null && break
  sleep 0.1
done
grep -q "UART0 on" "$OUT/simavr.log" || { cat "$OUT/simavr.log"; echo "bench: simavr did not start"; exit 1; }

LINUX_PEER_OUT=$OUT bash firmware/tests/linux_peer.sh "$PTY" "${BENCH_SECONDS:-30}" 1 2 5 10 20 30 50
rc=$?
kill -TERM "$sim_pid" 2>/dev/null
wait "$sim_pid" 2>/dev/null
sim_pid=
grep '^simavr:' "$OUT/simavr.log" | grep -v 'UART0 on' | sed 's/^/     /'
exit $rc
