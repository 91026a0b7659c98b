#!/usr/bin/env bash
# README command 2: set up, build everything, and run the whole test suite.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${AGXSIM_BUILD_DIR:-$root/build}"
bash "$root/scripts/build.sh"
cd "$build"
ctest -j"$(nproc)" --output-on-failure "$@"
