#!/usr/bin/env bash
# Test: the simulated columns of the agxsim_bench output that
# docs/performance.md shows in its code blocks are the benchmark's own. Every
# row agxsim_bench prints must be in the doc, and every benchmark row of the
# doc must give the same first two figures as printed (SIMD-instructions or
# instructions; cycles or the trace file's size, to 3-4 significant digits):
# the model computes them, nothing times them, so a change that moves one as
# printed fails here until the doc is updated. Host times and rates are left
# alone.
#
#   bench/check_docs.sh AGXSIM_BENCH SOURCE_DIR
set -euo pipefail
bench="$1"
doc="$2/docs/performance.md"
out="$(mktemp)"
err="$(mktemp)"
trap 'rm -f "$out" "$err"' EXIT
if ! "$bench" --runs 1 >"$out" 2>"$err"; then
    echo "agxsim_bench failed:"
    cat "$out" "$err"
    exit 1
fi

# Rows as "name<TAB>figure<TAB>figure": the name is the first 20 columns,
# trimmed; a figure is a number and its unit. With blocks=1, only lines
# inside ``` code blocks count.
rows() {
    awk -v blocks="$1" '
        /^```/ { inblock = !inblock; next }
        (!blocks || inblock) && length($0) > 20 {
            name = substr($0, 1, 20); sub(/ +$/, "", name)
            split(substr($0, 21), f, " +")
            i = (f[1] == "") ? 2 : 1
            if (f[i] ~ /^[0-9.]+$/ && f[i + 2] ~ /^[0-9.]+$/)
                print name "\t" f[i] " " f[i + 1] "\t" f[i + 2] " " f[i + 3]
        }' "$2"
}

declare -A have
while IFS=$'\t' read -r name a b; do have["$name"]="$a | $b"; done < <(rows 0 "$out")
if [ "${#have[@]}" -lt 10 ]; then
    echo "agxsim_bench printed fewer than 10 rows:"
    cat "$out"
    exit 1
fi

# The doc's code blocks hold nothing but agxsim_bench output, so a row the
# benchmark does not print (renamed, removed) is stale too.
status=0
checked=0
declare -A shown
while IFS=$'\t' read -r name a b; do
    shown["$name"]=1
    if [ -z "${have[$name]+x}" ]; then
        echo "docs/performance.md: '$name' is not a row agxsim_bench prints"
        status=1
        continue
    fi
    checked=$((checked + 1))
    if [ "${have[$name]}" != "$a | $b" ]; then
        echo "docs/performance.md: '$name' shows $a | $b; agxsim_bench gives ${have[$name]}"
        status=1
    fi
done < <(rows 1 "$doc")
for name in "${!have[@]}"; do
    if [ -z "${shown[$name]+x}" ]; then
        echo "docs/performance.md: agxsim_bench's row '$name' is missing"
        status=1
    fi
done
echo "$checked rows of docs/performance.md checked against agxsim_bench"
exit "$status"
