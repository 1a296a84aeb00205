#!/usr/bin/env bash
# `npm test`: installs what is missing, builds, and runs every check a change can break.
# Each step prints its own figures; a summary of the steps closes the run.
set -uo pipefail
cd "$(dirname "$0")/.."

results=()
failed=0
step() {
  local name=$1
  shift
  echo
  echo "=== $name"
  local t0=$SECONDS
  if "$@"; then
    results+=("ok    $name ($((SECONDS - t0)) s)")
  else
    results+=("FAIL  $name ($((SECONDS - t0)) s)")
    failed=$((failed + 1))
  fi
}

step "setup (Debian and npm packages)" bash scripts/setup.sh || true
if [ "$failed" -gt 0 ]; then
  echo "setup failed; nothing else can run" >&2
  exit 1
fi
step "native build, warnings are errors" make --no-print-directory -j2 native
step "C unit tests under ASan/UBSan" make --no-print-directory -j2 test-c
step "engine compiled by emcc to wasm, warnings are errors" bash scripts/emcc-env.sh make --no-print-directory -j2 wasm-engine
step "firmware built by avr-gcc (the page's emulated Arduino runs it)" make --no-print-directory firmware
step "TypeScript type check (strict)" npx tsc -p tsconfig.json
step "layering: the core depends on no view, no folder cycles (scripts/check-layers.ts)" npx tsx scripts/check-layers.ts
step "lint and format: ESLint, Prettier, clang-format" bash scripts/check-format.sh
step "TypeScript tests: dissectors vs tshark, scenarios, engine, CLI" npx vitest run
step "replays against the seeds' numbers" node bin/stackscope.mjs replay
step "the page in Chromium (Playwright)" npx playwright test
step "fuzzing, every target (libFuzzer, ASan/UBSan)" bash scripts/run-fuzz.sh "${FUZZ_SECONDS:-25}"
step "interop with the Linux kernel over TUN" bash wasm/tests/interop/run.sh
step "firmware under simavr against the native stack" bash firmware/tests/run_simavr.sh

echo
echo "=== summary"
printf '%s\n' "${results[@]}"
[ "$failed" -eq 0 ]
