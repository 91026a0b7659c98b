#!/usr/bin/env bash
# README command 1: set up, build, and run the default job (the M1 config on
# the FADD16 ILP-4 example at 88 simds per core), printing the summary.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/build.sh" --target agxsim >/dev/null
exec "${AGXSIM_BUILD_DIR:-$root/build}/agxsim" run "$root/traces/examples/fadd16_ilp4.trace" --config m1 "$@"
