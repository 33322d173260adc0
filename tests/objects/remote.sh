#!/usr/bin/env bash
# Description: objects an object manager keeps remote (preferred location
# host + accessed-by) stay mapped on the GPU across launches: the manager
# moves a range to the host only when it becomes remote, not at every launch.
# threek under --objects host reads 29 distinct blocks over four launches
# (x: 16, y: 8, z: 5), each with one thread, so it takes exactly 29 GPU
# faults that map a block remotely, none at the last launch, which repeats
# the first (sampled accesses, the emulator's remote-access counting, are
# not counted here: their number depends on time); and it verifies.
set -u
build=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
uvmemu=$build/bin/uvmemu
"$uvmemu" profile --out "$dir/p" --summary off -- "$build/tests/bin/threek" >/dev/null 2>&1 ||
	{ echo "FAIL: uvmemu profile failed"; exit 1; }
"$uvmemu" run --objects host --objects-profile "$dir/p" --summary off --report "$dir/r.json" \
	--trace "$dir/t" --trace-faults on -- "$build/tests/bin/threek" ||
	{ echo "FAIL: threek under --objects host"; exit 1; }
per_launch=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["side"] == "gpu" && $c["outcome"] != "sampled" { n[$c["launch"]]++ }
	END { printf "%d %d %d %d", n[0], n[1], n[2], n[3] }' "$dir/t/faults.csv")
[ "$per_launch" = "20 5 4 0" ] || {
	echo "FAIL: GPU faults per launch '$per_launch', want '20 5 4 0' (one per block not yet mapped)"
	exit 1; }
grep -q '"objects": "host"' "$dir/r.json" || { echo "FAIL: the report does not name host"; exit 1; }
echo "faults per launch $per_launch: remote objects stayed mapped"
