#!/usr/bin/env bash
# Description: nn reads Rodinia's cane4_0.db (10691 hurricane records) from
# the shared data folder, verifies, finds the record nearest to (30, 90)
# (PATTY, 1995, at 29.2 N 90.0: distance 0.8), and writes the k nearest with
# --output. Skips (77) when the data folder is absent, as in a user's
# checkout.
# usage: real_input.sh BUILD_DIR SOURCE_DIR
set -u
build=$1 src=$2
data=$src/../shared/data
file=$data/nn/cane4_0.db
bin=$build/bin/nn
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -d "$data" ] || { echo "SKIP: $data not found (real inputs are not in the repository)"; exit 77; }
[ -f "$file" ] || { echo "FAIL: $data exists but nn/cane4_0.db is missing"; exit 1; }
[ -x "$bin" ] || { echo "FAIL: $bin not built"; exit 1; }

out=$("$bin" --input "$file" --lat 30 --lng 90 --results 5 --output "$tmp/out" 2>&1); rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "FAIL: exit status $rc"; exit 1; }
grep -qF "nn: 10691 records, the 5 nearest to (30, 90)" <<<"$out" ||
	{ echo "FAIL: did not read 10691 records"; exit 1; }
grep -q "^nn: 1995  8 10 12 11 PATTY      29.2  90.0   92   62 --> Distance=0.79999" <<<"$out" ||
	{ echo "FAIL: the nearest record is not PATTY at 29.2 90.0"; exit 1; }
grep -q "^nn: verify pass" <<<"$out" || { echo "FAIL: no 'verify pass' line"; exit 1; }
# The output: 5 record numbers, distances, latitudes, longitudes.
for s in record distance latitude longitude; do
	grep -q "^# section $s 5\$" "$tmp/out" || { echo "FAIL: no section '$s 5' in the output"; cat "$tmp/out"; exit 1; }
done
exit 0
