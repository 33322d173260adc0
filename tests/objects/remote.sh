#!/usr/bin/env bash
# Description: objects an object manager keeps remote (preferred location
# host + accessed-by) stay mapped on the GPU across launches, as CUDA keeps
# them, instead of faulting again at every launch: threek under --objects
# host reads 29 distinct blocks over four launches (x: 16, y: 8, z: 5), each
# with one thread, so it takes exactly 29 GPU faults, none of them at the
# last launch, which repeats the first; and it verifies.
set -u
build=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
uvmemu=$build/bin/uvmemu
"$uvmemu" profile --out "$dir/p" --summary off -- "$build/tests/bin/threek" >/dev/null 2>&1 ||
	{ echo "FAIL: uvmemu profile failed"; exit 1; }
"$uvmemu" run --objects host --objects-profile "$dir/p" --summary off --report "$dir/r.json" \
	-- "$build/tests/bin/threek" || { echo "FAIL: threek under --objects host"; exit 1; }
faults=$(sed -nE 's/^  "gpu_faults": ([0-9]+),?$/\1/p' "$dir/r.json")
[ "$faults" = 29 ] || { echo "FAIL: $faults GPU faults, want 29 (one per block read)"; exit 1; }
grep -q '"objects": "host"' "$dir/r.json" || { echo "FAIL: the report does not name host"; exit 1; }
echo "29 faults: remote objects stayed mapped"
