#!/usr/bin/env bash
# `npm start`: installs what is missing, builds the wasm engine and the firmware, and serves the page with
# Vite's dev server, which prints the address to open (http://127.0.0.1:5173/).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/emcc-env.sh make --no-print-directory -j2 wasm-engine
make --no-print-directory firmware # the emulated Arduino runs the real firmware's image
exec npx vite
