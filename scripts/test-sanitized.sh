#!/usr/bin/env bash
# Runs the unit and CLI tests under AddressSanitizer and
# UndefinedBehaviorSanitizer (docs/testing.md), and each fuzz target briefly.
#
#   scripts/test-sanitized.sh [FUZZ_SECONDS]
#
# It installs clang and libFuzzer (scripts/setup-deps.sh with
# AGXSIM_FUZZ_DEPS=1) and builds into build-fuzz/
# ($AGXSIM_FUZZ_BUILD_DIR), the fuzz build of scripts/fuzz.sh, which holds
# agxsim and the unit tests too; then runs the unit tests there, the CLI
# tests of the Release build (build/, scripts/build.sh) against that
# sanitized agxsim, and every fuzz target for FUZZ_SECONDS (default 20; 0
# skips fuzzing). Without them (apt could not install them) it builds with
# g++ and -DAGXSIM_SANITIZE=ON into build-asan/ and runs the same tests,
# without fuzzing.
#
# Left out, because under the sanitizers they take minutes each and run
# nothing the other tests do not: the shipped-data validation guards
# (`cli: validate m1-max on the shipped data`, the quad-group tables, every
# shipped file, a14), the register-cache trade of docs/validation.md, the
# sweep study of docs/sweeps.md and the sweeps resumed after a kill.
# The unsanitized suite (scripts/test.sh) runs them.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fuzz_seconds="${1:-20}"
case "$fuzz_seconds" in
    '' | *[!0-9]*)
        echo "usage: scripts/test-sanitized.sh [FUZZ_SECONDS]" >&2
        exit 2
        ;;
esac
AGXSIM_FUZZ_DEPS=1 bash "$root/scripts/setup-deps.sh"

probe_dir="$(mktemp -d)"
trap 'rm -rf "$probe_dir"' EXIT
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' \
    >"$probe_dir/probe.cpp"
if command -v clang++ >/dev/null 2>&1 &&
    clang++ -fsanitize=fuzzer,address,undefined "$probe_dir/probe.cpp" -o "$probe_dir/probe" \
        >/dev/null 2>&1; then
    build="${AGXSIM_FUZZ_BUILD_DIR:-$root/build-fuzz}"
    if [ ! -f "$build/CMakeCache.txt" ]; then
        CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
            -DCMAKE_CXX_FLAGS=-gline-tables-only -DAGXSIM_FUZZ=ON >/dev/null
    fi
    fuzz=1
else
    echo "sanitized tests: clang with libFuzzer is not installed: g++ build, no fuzzing"
    build="${AGXSIM_ASAN_BUILD_DIR:-$root/build-asan}"
    if [ ! -f "$build/CMakeCache.txt" ]; then
        cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
            -DCMAKE_CXX_FLAGS=-g1 -DAGXSIM_SANITIZE=ON >/dev/null
    fi
    fuzz=0
fi
targets=(agxsim agx_unit_tests)
# The fuzz targets in the same build, which then keeps both cores busy to its end.
[ "$fuzz" -eq 1 ] && [ "$fuzz_seconds" -gt 0 ] && targets+=(fuzz_targets)
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}"
# The CLI tests drive the agxsim executable, which is what they test: they run
# from the Release build's test binary against the sanitized agxsim
# (AGXSIM_TEST_EXE, tests/cli/cli_run.hpp), so the test binary is not built a
# second time with the sanitizers (a minute on 2 cores).
release="${AGXSIM_BUILD_DIR:-$root/build}"
bash "$root/scripts/build.sh" --target agx_cli_tests

# A leak or undefined behaviour fails the test that ran into it.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
status=0
# Left out (docs/testing.md, "Sanitizers"): tests that repeat, over whole
# shipped tables or many large runs, code paths a smaller test covers here,
# and take minutes each under the sanitizers: the shipped-data validation
# guards, the register-cache trade, the sweep study, the resumed and sharded
# sweeps, the largest compiled twins, the memory file run again through a
# user's config and through `suite run` (the m1 memory guard runs it once),
# the reference CSV guard, the GEMM sizes, the clock-domain and address-map
# comparisons, the multi-wave ILP trace, the runaway loop (its watchdog
# waits out wall time), the full-against-sampled table (the sampled run
# of every library kernel is covered here by the functional-mode test), the
# kernel library's README table and the functional run of every kernel
# (the sampled run of every kernel here runs each in detail and, in its
# skipped waves, through the same functional executor), every numeric config
# key moving a statistic (688 runs of the examples and kernels the other
# tests run; under the sanitizers 100 s, a quarter of this run), the
# kernel recorder's flat memory (its figure is the process's peak memory,
# which the sanitizers' shadow memory and quarantine make meaningless) and
# the plots' PNG rendering (a sweep of 60 runs; the sweep-and-plot test
# that stays runs the same code on fewer) and each timing class's keys (494
# runs of a 2,048-instruction trace: the engine code they reach, every
# sanitized kernel run reaches).
left_out='on the shipped data|on the quad-group tables|on every shipped file|validate a14'
left_out+='|register-cache trade|docs/sweeps.md|resume after|shards run into their own files'
left_out+='|compiled twin: (stream_triad|transpose|sgemm)'
left_out+="|a user's config runs the shipped memory file|figure for every memory row"
left_out+='|reference CSV files as they are|GEMM across sizes|clock domains:|address mapping: 4 KB'
left_out+='|trace gen carries a multi-wave launch|loops forever stops by default'
left_out+='|full against sampled'
left_out+="|the kernel library's README table|each numeric key of the machine moves"
left_out+="|functional run: every library kernel|kernel record writes as the simds run"
left_out+='|plots: each kind renders to PNG|each timing class.s latency, issue interval'
(cd "$build" && ctest -j"$(nproc)" --output-on-failure --timeout 900 -R '^unit:' \
    -E "$left_out") || status=$?
(cd "$release" && AGXSIM_TEST_EXE="$build/agxsim" ctest -j"$(nproc)" --output-on-failure \
    --timeout 900 -R '^cli:' -E "$left_out") || status=$?

if [ "$fuzz" -eq 1 ] && [ "$fuzz_seconds" -gt 0 ]; then
    AGXSIM_FUZZ_BUILD_DIR="$build" AGXSIM_FUZZ_JOBS="$(nproc)" \
        bash "$root/scripts/fuzz.sh" "$fuzz_seconds" || status=1
fi
exit "$status"
