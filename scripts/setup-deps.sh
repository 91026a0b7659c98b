#!/usr/bin/env bash
# Installs the build dependencies from Debian 12's packages, only if missing.
# Idempotent: when everything is present it asks apt nothing and returns at once.
set -euo pipefail

packages=(cmake make g++ pkg-config libsystemc-dev libboost-dev libcli11-dev catch2 nlohmann-json3-dev libboost-iostreams-dev libzstd-dev)
# The sweep's cluster test runs a one-node Slurm (scripts/slurm-local.sh).
packages+=(slurmctld slurmd slurm-client munge)

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
