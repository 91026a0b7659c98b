#!/usr/bin/env bash
# A sweep through a real Slurm: starts a one-node Slurm on this machine
# (scripts/slurm-local.sh), submits a 12-point sweep as a 3-task job array,
# waits for it, collects the shards and checks the merged results against
# the same sweep run locally (every column but host_seconds).
#
# Exit 77 (CTest: skipped) with the reason when this machine cannot run the
# daemons; never a pass without the array having run.
set -euo pipefail
agxsim="$1"
root="$2"
work="$(mktemp -d "${TMPDIR:-/tmp}/agxsim-slurm-XXXXXX")"
cleanup() {
    bash "$root/scripts/slurm-local.sh" stop "$work/slurm" || true
    rm -rf "$work"
}
trap cleanup EXIT

if ! conf="$(bash "$root/scripts/slurm-local.sh" start "$work/slurm" 2>"$work/why")"; then
    echo "agxsim-skip: sweep on Slurm: $(tail -n 1 "$work/why")"
    exit 77
fi
export SLURM_CONF="$conf"

cat >"$work/sweep.json" <<JSON
{
  "name": "slurm-check",
  "workloads": ["$root/traces/kernels/saxpy.agxk",
                {"path": "$root/traces/kernels/collatz.agxk", "set": {"launch.n": 2048}}],
  "axes": [
    {"key": "core.active_simds", "values": [1, 2, 3]},
    {"key": "core.register_cache.entries", "values": [8, 22]}
  ]
}
JSON

"$agxsim" sweep slurm "$work/sweep.json" --out "$work/cluster" --shards 3 --wait
"$agxsim" sweep collect "$work/cluster"
"$agxsim" sweep run "$work/sweep.json" --out "$work/local" -j 2 --no-progress

# Every column but host_seconds, rows in point order.
strip() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "host_seconds") h = i }
             { out = ""; for (i = 1; i <= NF; i++) if (i != h) out = out (out == "" ? "" : ",") $i; print out }' "$1" |
        { read -r header; echo "$header"; sort -t, -k1,1n; }
}
strip "$work/cluster/results.csv" >"$work/cluster.txt"
strip "$work/local/results.csv" >"$work/local.txt"
rows="$(($(wc -l <"$work/cluster.txt") - 1))"
[ "$rows" -eq 12 ] || { echo "expected 12 rows from the cluster, got $rows"; exit 1; }
for i in 0 1 2; do
    [ -s "$work/cluster/shards/$i-of-3.csv" ] || { echo "shard $i wrote nothing"; exit 1; }
done
diff "$work/cluster.txt" "$work/local.txt"
echo "sweep on Slurm: 12 points in 3 array tasks, the same figures as the local run"
