#!/usr/bin/env bash
# Runs every C unit test program given, then prints the total in the form test runners
# and CI read: "C tests: N passed, M failed".
set -u
passed=0
failed=0
broken=()
for bin in "$@"; do
  out=$("$bin" 2>&1)
  rc=$?
  echo "$out" | grep -v '^  ok ' 
  line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
  if [ -z "$line" ]; then
    # Crashed (a sanitizer report) before printing its count.
    broken+=("$bin (exit $rc)")
    failed=$((failed + 1))
    continue
  fi
  p=${line%% passed*}
  f=${line#*passed, }
  f=${f%% failed}
  passed=$((passed + p))
  failed=$((failed + f))
  [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && { broken+=("$bin (exit $rc)"); failed=$((failed + 1)); }
done
for b in "${broken[@]+"${broken[@]}"}"; do echo "crashed or failed without a count: $b"; done
echo "C tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
