#!/usr/bin/env bash
# README command 2 and CI: set up, build everything (and Mesa's AGX compiler,
# once), and run the whole test suite; then the libc++ build check
# (scripts/check-libcxx.sh); then the unit and CLI tests again under ASan and
# UBSan, and each fuzz target for 5 s (scripts/test-sanitized.sh,
# docs/testing.md). AGXSIM_LIBCXX_CHECK=0 and AGXSIM_SANITIZED_TESTS=0 leave
# those parts out. Arguments go to the first part's CTest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${AGXSIM_BUILD_DIR:-$root/build}"
bash "$root/scripts/build.sh"
# Mesa's AGX compiler for the compiled-kernel tests: built once into a cache
# outside the clone (scripts/setup-agx-compiler.sh); where it cannot be
# built those tests skip, saying why, and everything else runs.
if compiler_dir=$(bash "$root/scripts/setup-agx-compiler.sh"); then
    export AGXSIM_AGX_COMPILER_DIR="$compiler_dir"
else
    echo "agxsim: the compiled-kernel tests will be skipped" >&2
fi
cd "$build"
status=0
ctest -j"$(nproc)" --output-on-failure "$@" || status=$?
# A skipped test says why in its output; CTest shows only that it skipped.
grep -h "^agxsim-skip: " Testing/Temporary/LastTest.log 2>/dev/null | sed 's/^agxsim-skip: /skipped: /' || true
# The Apple-like toolchain check: the libraries, the CLI and the probe with
# clang and libc++ (scripts/check-libcxx.sh; AGXSIM_LIBCXX_CHECK=0 leaves it out).
if [ "${AGXSIM_LIBCXX_CHECK:-1}" != 0 ]; then
    bash "$root/scripts/check-libcxx.sh" || status=1
fi
if [ "${AGXSIM_SANITIZED_TESTS:-1}" != 0 ]; then
    bash "$root/scripts/test-sanitized.sh" 5 || status=1
fi
exit "$status"
