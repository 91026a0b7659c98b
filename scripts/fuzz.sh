#!/usr/bin/env bash
# Fuzzes every parser of user input (tests/fuzz/, docs/testing.md).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Builds the libFuzzer targets with clang, ASan and UBSan into build-fuzz/
# ($AGXSIM_FUZZ_BUILD_DIR), then runs each TARGET (default: all) for SECONDS
# (default 30) and prints its executions per second and corpus size. The
# corpus grows in build-fuzz/corpus/TARGET from the seeds in
# tests/fuzz/corpus/TARGET; a crash, a hang or an exception other than the
# project's InputError is saved as build-fuzz/findings/TARGET/crash-*
# (timeout-*, oom-*) and makes the script exit 1. tests/fuzz/dict/TARGET.dict,
# the format's keywords and mnemonics, is given to libFuzzer as -dict.
#
# $AGXSIM_FUZZ_JOBS targets run at once (default 1). Without clang or
# libFuzzer the script says so and exits 0: the ordinary build needs
# neither (scripts/setup-deps.sh installs them only with AGXSIM_FUZZ_DEPS=1).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${AGXSIM_FUZZ_BUILD_DIR:-$root/build-fuzz}"
seconds="${1:-30}"
[ $# -gt 0 ] && shift
jobs="${AGXSIM_FUZZ_JOBS:-1}"
all=(text_trace binary_trace config config_set measurement reference_csv kernel kernel_import machine_code
     launch_expression sweep_description profile_json)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")

case "$seconds" in
    '' | *[!0-9]*)
        echo "usage: scripts/fuzz.sh [SECONDS] [TARGET...] (targets: ${all[*]})" >&2
        exit 2
        ;;
esac

# clang with libFuzzer's runtime: a one-line target must link.
probe_dir="$(mktemp -d)"
trap 'rm -rf "$probe_dir"' EXIT
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' \
    >"$probe_dir/probe.cpp"
if ! command -v clang++ >/dev/null 2>&1 ||
    ! clang++ -fsanitize=fuzzer,address,undefined "$probe_dir/probe.cpp" -o "$probe_dir/probe" \
        >/dev/null 2>&1; then
    echo "fuzz: skipped: clang++ with libFuzzer is not installed" \
        "(apt-get install clang libfuzzer-14-dev, or AGXSIM_FUZZ_DEPS=1 scripts/setup-deps.sh)"
    exit 0
fi

if [ ! -f "$build/CMakeCache.txt" ]; then
    CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CXX_FLAGS=-gline-tables-only -DAGXSIM_FUZZ=ON >/dev/null
fi
build_targets=()
for t in "${targets[@]}"; do build_targets+=(--target "fuzz_$t"); done
cmake --build "$build" -j"$(nproc)" "${build_targets[@]}" >/dev/null

# Runs one target; its libFuzzer output goes to build-fuzz/logs/TARGET.log.
run_one() {
    local t="$1"
    local corpus="$build/corpus/$t" findings="$build/findings/$t" log="$build/logs/$t.log"
    mkdir -p "$corpus" "$findings" "$build/logs"
    local status=0 dict=()
    [ -f "$root/tests/fuzz/dict/$t.dict" ] && dict=(-dict="$root/tests/fuzz/dict/$t.dict")
    # The targets' scratch directories go to a TMPDIR of the target's own,
    # emptied after: libFuzzer ends a timed run without the exit handlers
    # that remove them.
    local tmp="$build/tmp/$t"
    rm -rf "$tmp" && mkdir -p "$tmp"
    (cd "$findings" && TMPDIR="$tmp" "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" \
        -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/" \
        "${dict[@]}" "$corpus" "$root/tests/fuzz/corpus/$t") >"$log" 2>&1 || status=$?
    rm -rf "$tmp"
    local execs rate units bytes
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    units=$(find "$corpus" -type f | wc -l)
    bytes=$(find "$corpus" -type f -printf '%s\n' | awk '{ s += $1 } END { printf "%d", s / 1024 }')
    if [ "$status" -eq 0 ]; then
        printf '%-14s %8s execs/s %10s runs  corpus %5s inputs %6s KB  ok\n' \
            "$t" "${rate:-?}" "${execs:-?}" "$units" "$bytes"
    else
        printf '%-14s %8s execs/s %10s runs  corpus %5s inputs %6s KB  FINDING (exit %s): %s\n' \
            "$t" "${rate:-?}" "${execs:-?}" "$units" "$bytes" "$status" \
            "$(ls -t "$findings" | head -1) in $findings, log $log"
        grep -a -m1 -E '^agxsim-fuzz: |ERROR: (libFuzzer|AddressSanitizer)|runtime error' "$log" |
            sed 's/^/    /' || true
    fi
    return "$status"
}

echo "fuzz: ${#targets[@]} target(s), ${seconds} s each, $jobs at once (logs in $build/logs)"
failed=0
running=0
for t in "${targets[@]}"; do
    run_one "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n || failed=1
        running=$((running - 1))
    fi
done
while [ "$running" -gt 0 ]; do
    wait -n || failed=1
    running=$((running - 1))
done
exit "$failed"
