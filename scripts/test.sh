#!/usr/bin/env bash
# README command 2: set up, build everything, and run the whole test suite.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${AGXSIM_BUILD_DIR:-$root/build}"
bash "$root/scripts/build.sh"
cd "$build"
status=0
ctest -j"$(nproc)" --output-on-failure "$@" || status=$?
# A skipped test says why in its output; CTest shows only that it skipped.
grep -h "^agxsim-skip: " Testing/Temporary/LastTest.log 2>/dev/null | sed 's/^agxsim-skip: /skipped: /' || true
exit "$status"
