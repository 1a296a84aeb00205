#!/usr/bin/env bash
# Installs what stackscope needs to build and test, and nothing that is already there.
# Called by `npm start` (scripts/start.sh) and `npm test` (scripts/test.sh); safe to run again.
#
# On Debian/Ubuntu as root (or with sudo) it installs the Debian packages itself. Elsewhere it
# stops and prints the exact line to run.
set -euo pipefail
cd "$(dirname "$0")/.."

# command -> Debian package that provides it
declare -A NEED=(
  [gcc]=gcc
  [make]=make
  [clang]=clang
  [clang-format]=clang-format
  [emcc]=emscripten
  [tshark]=tshark
  [dumpcap]=tshark
  [chromium]=chromium
  [ping]=iputils-ping
  [ip]=iproute2
  [avr-gcc]=gcc-avr
  [simavr]=simavr
)
# libFuzzer and the sanitizer runtimes come with clang's runtime package, not as commands.
NEED_FILES=(
  "/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a:libclang-rt-14-dev"
)

missing=()
for cmd in "${!NEED[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${NEED[$cmd]}")
done
for entry in "${NEED_FILES[@]}"; do
  file=${entry%%:*}
  pkg=${entry##*:}
  # Any clang version's fuzzer runtime will do; the path above is Debian 12's.
  if ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 \
     && [ ! -f "$file" ]; then
    missing+=("$pkg")
  fi
done
# The Arduino firmware's build and its simavr test: headers and the Arduino core, which no
# command stands for.
NEED_PATHS=(
  "/usr/lib/avr/include/avr/io.h:avr-libc"
  "/usr/share/arduino/hardware/arduino/avr/cores/arduino/Arduino.h:arduino-core-avr"
  "/usr/include/simavr/sim_avr.h:libsimavr-dev"
  "/usr/include/libelf.h:libelf-dev"
)
for entry in "${NEED_PATHS[@]}"; do
  [ -e "${entry%%:*}" ] || missing+=("${entry##*:}")
done
# Deduplicate, keep order stable for the printed line.
if [ ${#missing[@]} -gt 0 ]; then
  mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
fi

if [ ${#missing[@]} -gt 0 ]; then
  line="apt-get install -y --no-install-recommends ${missing[*]}"
  if [ -r /etc/debian_version ] && command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then
      if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        echo "setup: these Debian packages are missing: ${missing[*]}" >&2
        echo "setup: run as root: $line" >&2
        exit 1
      fi
    fi
    echo "setup: installing Debian packages: ${missing[*]}"
    # tshark asks whether non-root users may capture; answer before it asks.
    echo "wireshark-common wireshark-common/install-setuid boolean false" | $SUDO debconf-set-selections
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "setup: this is not a Debian-like system; install the equivalents of:" >&2
    echo "  ${missing[*]}" >&2
    echo "setup: on Debian or Ubuntu that is: sudo $line" >&2
    exit 1
  fi
else
  echo "setup: Debian packages already present"
fi

# npm packages: install when node_modules is missing or older than the lockfile.
if [ -f package-lock.json ]; then
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    echo "setup: installing npm packages"
    npm ci --no-audit --no-fund --loglevel=error
  else
    echo "setup: npm packages already present"
  fi
fi
