# The firmware's hex in simavr with UART0 on a pty, for the scripts that talk to it
# (run_simavr.sh, bench_linux.sh). Sourced, not run:
#   board_start OUT   starts it: the pty is OUT/uart, the log OUT/simavr.log; returns
#                     non-zero (the log printed) if it did not come up
#   board_stop        stops it (board_start also arranges this for the script's exit)
#   board_figures     simavr's own figures from the log, once stopped
BOARD_SIM=build/firmware/stackscope-simavr
BOARD_ELF=build/firmware/stackscope-echo.elf
sim_pid=

board_stop() {
  if [ -n "$sim_pid" ]; then
    kill -TERM "$sim_pid" 2>/dev/null
    wait "$sim_pid" 2>/dev/null
  fi
  sim_pid=
}

board_start() {
  local out=$1
  trap board_stop EXIT
  # rx_overruns (serial_link.c): bytes the UART's ring had no room for, and
  # frames_given_up (frame_rx.c): frames given up for the one under way; read at the end
  "$BOARD_SIM" --link "$out/uart" --peek rx_overruns:2 --peek frames_given_up:2 "$BOARD_ELF" >"$out/simavr.log" 2>&1 &
  sim_pid=$!
  # The board is ready as soon as simavr runs it (no bootloader here): wait for the pty.
  for _ in $(seq 100); do
    grep -q "UART0 on" "$out/simavr.log" 2>/dev/null && return 0
    kill -0 "$sim_pid" 2>/dev/null || break
    sleep 0.1
  done
  grep -q "UART0 on" "$out/simavr.log" && return 0
  cat "$out/simavr.log"
  return 1
}

board_figures() {
  grep '^simavr:' "$1/simavr.log" | grep -v 'UART0 on\|rx_overruns\|frames_given_up' | sed 's/^/     /'
  # each counter's two bytes, little-endian, as a number
  sed -n 's/^simavr: rx_overruns[^:]*: \([0-9A-F]*\) \([0-9A-F]*\)$/\2\1/p' "$1/simavr.log" |
    while read -r hex; do echo "     simavr: the UART's ring overran by $((16#$hex)) bytes (rx_overruns)"; done
  sed -n 's/^simavr: frames_given_up[^:]*: \([0-9A-F]*\) \([0-9A-F]*\)$/\2\1/p' "$1/simavr.log" |
    while read -r hex; do echo "     simavr: $((16#$hex)) frames waiting given up for the one coming in (frames_given_up)"; done
}
