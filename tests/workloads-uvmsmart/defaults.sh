#!/usr/bin/env bash
# Description: each program of the UVMSmart set (workloads/uvmsmart) runs
# UVMSmart's inputs by default: its managed footprint with no arguments is the
# one those inputs give (a --dry-run each), and us-srad_v2, whose test runs
# keep its scratch arrays managed for --oversub, verifies with them in device
# memory as at its defaults: natively, and emulated under both backends with
# device memory for three quarters of J (--oversub cannot count pinned memory
# apart).
# usage: defaults.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
fail=0

# NAME BYTES: the footprint at the defaults, from UVMSmart's inputs:
#   2DCONV, NI = NJ = 1024: A, B: 2 x 1024^2 floats
#   ATAX, NX = NY = 1200: A, x, y, tmp: 1200^2 + 3 x 1200 floats
#   FDTD-2D, NX = NY = 1280, tmax 20: 20 + 1280 x 1281 x 2 + 1280^2 floats
#   StreamTriad, N = 2^20: x, y, z
#   backprop 131056: input units, partial sums, 3 weight arrays of 131057 x 17
#     floats (weights, the copy the second kernel adjusts, previous changes)
#   bfs, graph256k's 261,444 nodes: 15 bytes a node, 4 an arc (the generated
#     graph has 1,569,954 arcs, graph256k.txt 1,568,420), the flag on the device
#   hotspot 1024: 3 x 1024^2 floats
#   nw 1024: 2 x 1025^2 ints
#   pathfinder 50000 200: 50000 x 199 wall + 2 x 50000 result ints
#   srad 1024 x 1024: J alone (C and the derivatives in device memory)
#   ra, sssp, AddVectors, stencil: 3 x 2^20 floats; 2^20 vertices x (12 + 8 x 2)
#     bytes; 2 x 2^20 floats; 2 x 512 x 512 x 64 floats

while read -r name bytes; do
	out=$("$build/bin/us-$name" --dry-run 2>&1)
	got=$(sed -nE "s/^us-$name: footprint ([0-9]+) bytes.*/\1/p" <<<"$out")
	if [ "$got" = "$bytes" ]; then
		echo "ok: us-$name: footprint $got bytes"
	else
		echo "FAIL: us-$name: footprint '${got}', expected $bytes:"
		echo "$out"
		fail=1
	fi
done <<'EOT'
2dconv 8388608
atax 5774400
fdtd2d 19671120
streamtriad 12582912
backprop 27784216
bfs 10201476
hotspot 12582912
nw 8405000
pathfinder 40200000
srad_v2 4194304
ra 12582912
addvectors 8388608
sssp 29360128
stencil 134217728
EOT
out=$("$build/bin/us-srad_v2" 2>&1)
if grep -q "^us-srad_v2: C and the derivatives in device memory" <<<"$out" &&
	grep -q "^us-srad_v2: verify pass" <<<"$out"; then
	echo "ok: us-srad_v2 verifies at its defaults, scratch in device memory"
else
	echo "FAIL: us-srad_v2 at its defaults:"
	echo "$out"
	fail=1
fi

# Emulated: --oversub would count the 20 MiB of device memory against the
# 4 MiB of J (README.md), so device memory is given: 3 MiB for J.
if [ -x "$build/bin/uvmemu" ]; then
	report=$(mktemp)
	trap 'rm -f "$report"' EXIT
	for backend in remap copy; do
		out=$("$build/bin/uvmemu" run --device-mem 23M --backend $backend --check 1 \
			--report "$report" --summary off -- "$build/bin/us-srad_v2" --quiet 2>&1)
		if grep -q '"verify": "pass"' "$report" &&
			grep -Eq '"blocks_evicted": [1-9]' "$report"; then
			echo "ok: us-srad_v2 verifies at its defaults with 3 MiB for J ($backend)"
		else
			echo "FAIL: us-srad_v2 at --device-mem 23M ($backend), or nothing evicted:"
			echo "$out"
			fail=1
		fi
	done
fi
exit $fail
