#!/usr/bin/env bash
# Configures (once) and builds agxsim in Release into build/. Incremental: a
# second run with nothing changed only checks timestamps.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${AGXSIM_BUILD_DIR:-$root/build}"
bash "$root/scripts/setup-deps.sh"
if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" -j"$(nproc)" "$@"
