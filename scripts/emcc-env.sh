#!/usr/bin/env bash
# Runs a command with the environment Debian's emscripten needs: its emcc looks for its
# JavaScript dependencies (acorn, ...) through NODE_PATH and fails without it.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
exec "$@"
