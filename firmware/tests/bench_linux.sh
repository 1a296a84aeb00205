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
PTY=$OUT/uart

make --no-print-directory firmware firmware-sim || { echo "bench: build failed"; exit 1; }
rm -rf "$OUT"
mkdir -p "$OUT"

source firmware/tests/simavr_board.sh
board_start "$OUT" || { echo "bench: simavr did not start"; exit 1; }

LINUX_PEER_OUT=$OUT bash firmware/tests/linux_peer.sh "$PTY" "${BENCH_SECONDS:-30}" 1 2 5 10 20 30 50
rc=$?
board_stop
board_figures "$OUT"
exit $rc
