#!/bin/bash
# Checks that a layer's library sees its own headers and those below it, and
# that a header of a layer above it is not found (CMakeLists.txt: agx_layer).
# usage: include_direction.sh CXX "DIR;DIR;..." VISIBLE_HEADER HIDDEN_HEADER
set -u
cxx=$1 dirs=$2 visible=$3 hidden=$4
flags=()
IFS=';' read -ra list <<<"$dirs"
for d in "${list[@]}"; do [[ -n $d ]] && flags+=("-I$d"); done
try() { printf '#include "%s"\n' "$1" | "$cxx" -std=c++17 -fsyntax-only "${flags[@]}" -x c++ - 2>&1; }
if ! out=$(try "$visible"); then
    echo "FAIL: $visible should compile with these include roots: $dirs"; echo "$out"; exit 1
fi
if out=$(try "$hidden"); then
    echo "FAIL: $hidden compiled, but it belongs to a layer above: $dirs"; exit 1
fi
if ! grep -q "$hidden: No such file" <<<"$out"; then
    echo "FAIL: $hidden did not compile, but not because it was hidden:"; echo "$out"; exit 1
fi
echo "ok: $visible seen, $hidden hidden"
