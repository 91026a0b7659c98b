#!/usr/bin/env bash
# Test: no test case's name holds ';'. catch_discover_tests hands CTest the
# names as a list, which ';' splits: each half would then run no test at all
# and still pass.
#
#   tests/check_test_names.sh SOURCE_DIR
set -euo pipefail
found=0
while IFS= read -r -d '' f; do
    if grep -Pzo 'TEST_CASE\(\s*"[^"\n]*;' "$f" >/dev/null; then
        echo "$f: a TEST_CASE name holds ';'"
        found=1
    fi
done < <(find "$1/tests" -name '*.cpp' -print0)
exit "$found"
