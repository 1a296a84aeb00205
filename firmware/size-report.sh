#!/usr/bin/env bash
# Prints the firmware's flash and RAM use against the Uno's limits, and the RAM left for
# the C stack (interrupts included), with the worst case the simavr test last measured.
set -euo pipefail
elf=$1
FLASH=32256 # 32 KB less the 512-byte bootloader (optiboot) of the Uno
RAM=2048
read -r text data bss < <(avr-size "$elf" | awk 'NR == 2 {print $1, $2, $3}')
flash=$((text + data))
static=$((data + bss))
left=$((RAM - static))
printf 'firmware: flash %d of %d bytes (%d%%): code %d, initialised data %d\n' \
  "$flash" "$FLASH" $((flash * 100 / FLASH)) "$text" "$data"
printf 'firmware: RAM %d of %d bytes static (.data %d, .bss %d); %d left for the C stack\n' \
  "$static" "$RAM" "$data" "$bss" "$left"
if command -v python3 >/dev/null; then
  bound=$(python3 "$(dirname "$0")/stack_depth.py" "$elf" | sed -n 's/^stack_depth: bound \([0-9]*\) bytes/\1/p')
  [ -n "$bound" ] && printf 'firmware: C stack by static analysis (deepest call chain + interrupt): at most %d bytes; %d bytes to spare\n' \
    "$bound" $((left - bound))
fi
measured=$(dirname "$elf")/stack-depth.txt
if [ -f "$measured" ]; then
  depth=$(cat "$measured")
  printf 'firmware: deepest C stack measured under simavr: %d bytes; %d bytes to spare\n' \
    "$depth" $((left - depth))
else
  echo "firmware: C stack depth not measured yet (npm run test:firmware measures it)"
fi
[ "$flash" -le "$FLASH" ] && [ "$static" -lt "$RAM" ]
