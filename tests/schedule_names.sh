#!/usr/bin/env bash
# Every test tests/test_schedule.cmake names exists: CTest ignores a property
# set on a name it does not know, so a renamed test would silently lose its
# place at the start of the run.
#   schedule_names.sh BUILD_DIR SCHEDULE_FILE
set -euo pipefail
build="$1"
schedule="$2"
listed="$(cd "$build" && ctest -N | sed -n 's/^ *Test *#[0-9]*: //p')"
status=0
count=0
while IFS= read -r name; do
    count=$((count + 1))
    if ! grep -qxF -- "$name" <<<"$listed"; then
        echo "$schedule names '$name', which is not a test" >&2
        status=1
    fi
done < <(grep -o '\[=\[[^]]*\]=\]' "$schedule" | sed 's/^\[=\[//; s/\]=\]$//' | tr ';' '\n')
if [ "$count" -eq 0 ]; then
    echo "$schedule names no test" >&2
    exit 1
fi
exit "$status"
