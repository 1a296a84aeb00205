#!/usr/bin/env bash
# The habits `npm test` keeps: ESLint on the TypeScript (eslint.config.js), Prettier's
# layout of the TypeScript, JavaScript and CSS (.prettierrc.json), clang-format's of the C
# (.clang-format). Prints what differs; `npm run format` applies both formatters.
set -uo pipefail
cd "$(dirname "$0")/.."

failed=0
npx eslint --max-warnings 0 . || failed=1
npx prettier --check --log-level warn . || { echo "prettier: run npm run format"; failed=1; }
mapfile -t c_files < <(git ls-files '*.c' '*.h' '*.ino')
if ! clang-format --dry-run --Werror "${c_files[@]}"; then
  echo "clang-format: run npm run format"
  failed=1
fi
[ "$failed" -eq 0 ] && echo "format: ESLint, Prettier and clang-format find nothing (${#c_files[@]} C files)"
exit "$failed"
