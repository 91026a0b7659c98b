#!/usr/bin/env bash
# Installs the build dependencies from Debian 12's packages, only if missing.
# Idempotent: when everything is present it asks apt nothing and returns at once.
set -euo pipefail

packages=(cmake make g++ pkg-config libsystemc-dev libboost-dev libcli11-dev catch2 nlohmann-json3-dev libboost-iostreams-dev libzstd-dev)
# The sweep's cluster test runs a one-node Slurm (scripts/slurm-local.sh).
packages+=(slurmctld slurmd slurm-client munge)
# The plots' test renders each kind of picture to PNG (rsvg-convert).
packages+=(librsvg2-bin)
# Optional: the libFuzzer targets (scripts/fuzz.sh) need clang, libFuzzer and
# clang's sanitizer runtimes; the ordinary build uses g++ and needs none of
# them, so they are installed only when asked for.
if [ "${AGXSIM_FUZZ_DEPS:-0}" = 1 ]; then
    packages+=(clang libfuzzer-14-dev libclang-rt-14-dev)
fi
# Optional: the libc++ build check (scripts/check-libcxx.sh) needs clang and
# LLVM's C++ library and ABI library, asked for the same way.
if [ "${AGXSIM_LIBCXX_DEPS:-0}" = 1 ]; then
    packages+=(clang libc++-dev libc++abi-dev)
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "agxsim: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
