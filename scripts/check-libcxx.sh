#!/usr/bin/env bash
# An Apple-like toolchain check: builds the project with clang and LLVM's
# libc++ (Debian's), the standard library of Apple's toolchain, so that code
# libstdc++ accepts and libc++ does not (an include libstdc++ makes in passing,
# an overload libc++ lacks) fails here rather than on a Mac. scripts/test.sh
# runs it.
#
#   scripts/check-libcxx.sh
#
# It installs clang, libc++ and libc++abi (scripts/setup-deps.sh with
# AGXSIM_LIBCXX_DEPS=1) and builds into build-libcxx/
# ($AGXSIM_LIBCXX_BUILD_DIR) at -O0 without debug information, which is all a
# build check needs.
#   Compiled: every translation unit of the libraries (sim/, isa/,
#   validation/lib/, and validation/probe/ but metal_backend.mm, which needs
#   macOS and Metal), of the CLI (sim/cli/, the object library agx_cli), and
#   the probe's main.cpp and metal_unavailable.cpp.
#   Linked: the static libraries, and agxsim-probe, which uses nothing of
#   SystemC or Boost.Iostreams; it must need libc++ and not libstdc++, and it
#   runs (one kernel printed, the FADD32 benchmarks on the fake backend).
#   Not linked: agxsim, which needs SystemC and Boost.Iostreams, built by
#   Debian against libstdc++. SystemC's interface passes standard-library
#   types (sc_object::print and dump take a std::ostream&), which are other
#   types under libc++, so the link fails; Boost.Iostreams would load
#   libstdc++ beside libc++. On macOS those libraries come built against
#   libc++ and agxsim links.
#   Left out: the benchmark (bench/, which links SystemC too) and the test
#   suites.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${AGXSIM_LIBCXX_BUILD_DIR:-$root/build-libcxx}"
AGXSIM_LIBCXX_DEPS=1 bash "$root/scripts/setup-deps.sh"
if [ ! -f "$build/CMakeCache.txt" ]; then
    CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug \
        -DCMAKE_CXX_FLAGS_DEBUG=-O0 -DCMAKE_CXX_FLAGS=-stdlib=libc++ \
        -DCMAKE_EXE_LINKER_FLAGS=-stdlib=libc++ \
        -DAGXSIM_BUILD_TESTS=OFF >/dev/null
fi
# agx_cli links every library layer, so building it builds them all.
cmake --build "$build" -j"$(nproc)" --target agx_cli agxsim-probe

probe="$build/validation/probe/agxsim-probe"
libs="$(readelf -d "$probe" | grep NEEDED)"
if ! grep -qF 'libc++' <<<"$libs" || grep -qF 'libstdc++' <<<"$libs"; then
    echo "libc++ check: agxsim-probe should need libc++ and not libstdc++; it needs:" >&2
    echo "$libs" >&2
    exit 1
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
run_probe() {
    if ! "$probe" "$@" >"$out/log" 2>&1; then
        cat "$out/log" >&2
        echo "libc++ check: agxsim-probe $* failed" >&2
        exit 1
    fi
}
run_probe gen --only float_instructions/FADD32/latency
run_probe run --backend fake --only FADD32 --out "$out/fake.json"
echo "libc++ check: libraries, CLI and probe compile with clang and libc++; agxsim-probe links and runs"
