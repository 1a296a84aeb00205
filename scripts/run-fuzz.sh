#!/usr/bin/env bash
# Runs every libFuzzer target: first over its saved regression inputs (crashers found
# before, which must stay fixed), then for SECONDS seconds of new fuzzing starting from the
# seed corpus of real frames in wasm/tests/fuzz/corpus/. Prints the executions per target.
#   scripts/run-fuzz.sh [SECONDS]     (default 25; `npm run fuzz:long -- 3600` for longer)
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-25}
make --no-print-directory -j2 fuzz-bins || exit 1

failed=0
for bin in build/fuzz/fuzz_*; do
  name=$(basename "$bin")
  seeds=wasm/tests/fuzz/corpus/$name
  regressions=wasm/tests/fuzz/regressions/$name
  work=build/fuzz/work/$name
  mkdir -p "$work/corpus" "$seeds"
  if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
    if ! "$bin" "$regressions"/* >"$work/regressions.log" 2>&1; then
      echo "$name: a regression input fails again:"
      tail -n 30 "$work/regressions.log"
      failed=$((failed + 1))
      continue
    fi
  fi
  log="$work/fuzz.log"
  "$bin" -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$work/" \
    -max_len=4096 "$work/corpus" "$seeds" >"$log" 2>&1 &
  wait $! ; rc=$?
  execs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log")
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
  if [ "$rc" -ne 0 ]; then
    echo "$name: CRASH after ${execs:-?} executions; input saved in $work/ (add it to $regressions/)"
    grep -m1 -A 15 'ERROR\|==ERROR\|runtime error' "$log"
    failed=$((failed + 1))
  else
    echo "$name: ${execs:-0} executions in $seconds s, $cov, no crash"
  fi
done
[ "$failed" -eq 0 ]
