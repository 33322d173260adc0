#!/usr/bin/env bash
# Description: runs a graph workload natively on a real road network from the
# shared data folder and checks that it read the whole graph and verifies.
# Skips (77) when the data folder is absent, as in a user's checkout.
# usage: real_input.sh BUILD_DIR SOURCE_DIR WORKLOAD FILE EXPECTED_LINE
set -u
build=$1 src=$2 name=$3 file=$4 expect=$5
data=$src/../shared/data
bin=$build/bin/$name

[ -d "$data" ] || { echo "SKIP: $data not found (real inputs are not in the repository)"; exit 77; }
[ -f "$data/$file" ] || { echo "FAIL: $data exists but $file is missing"; exit 1; }
[ -x "$bin" ] || { echo "FAIL: $bin not built"; exit 1; }

out=$("$bin" --input "$data/$file" 2>&1); rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "FAIL: exit status $rc"; exit 1; }
grep -qF "$name: $expect" <<<"$out" || { echo "FAIL: no line '$name: $expect'"; exit 1; }
grep -q "^$name: verify pass" <<<"$out" || { echo "FAIL: no 'verify pass' line"; exit 1; }
exit 0
