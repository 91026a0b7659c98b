#!/usr/bin/env bash
# README command 2 and CI: set up, build everything, and run the whole test
# suite; then the unit and CLI tests again under ASan and UBSan, and each
# fuzz target for 20 s (scripts/test-sanitized.sh, docs/testing.md).
# AGXSIM_SANITIZED_TESTS=0 leaves the second part out. Arguments go to the
# first part's CTest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${AGXSIM_BUILD_DIR:-$root/build}"
bash "$root/scripts/build.sh"
cd "$build"
status=0
ctest -j"$(nproc)" --output-on-failure "$@" || status=$?
# A skipped test says why in its output; CTest shows only that it skipped.
grep -h "^agxsim-skip: " Testing/Temporary/LastTest.log 2>/dev/null | sed 's/^agxsim-skip: /skipped: /' || true
if [ "${AGXSIM_SANITIZED_TESTS:-1}" != 0 ]; then
    bash "$root/scripts/test-sanitized.sh" 20 || status=1
fi
exit "$status"
