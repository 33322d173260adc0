#!/usr/bin/env bash
# Description: hotspot reads Rodinia's temp_512/power_512 (one float per
# line), runs natively and verifies bit for bit against its CPU reference,
# with a whole and a partial pyramid of time steps. Skips (77) when the shared
# data folder is absent, as in a user's checkout.
# usage: hotspot_real_input.sh BUILD_DIR SOURCE_DIR
set -u
build=$1 src=$2
data=$src/../shared/data/hotspot
bin=$build/bin/hotspot
export UVMEMU_SUMMARY=off

if [ ! -r "$data/temp_512" ] || [ ! -r "$data/power_512" ]; then
	echo "SKIP: $data/temp_512 and power_512 not found (the shared data folder is absent)"
	exit 77
fi
[ -x "$bin" ] || { echo "FAIL: $bin not built"; exit 1; }

rc=0
# Rodinia's own run is 2 steps per launch; 7 steps of 3 end on a partial one.
for args in "--iterations 20 --pyramid 2" "--iterations 7 --pyramid 3"; do
	out=$("$bin" --temp "$data/temp_512" --power "$data/power_512" $args 2>&1)
	st=$?
	echo "$out"
	[ $st -eq 0 ] || { echo "FAIL: exit $st with $args"; rc=1; continue; }
	# The grid comes from the files: 512 x 512 cells, 3 grids of floats.
	grep -q "^hotspot: footprint 3145728 bytes" <<<"$out" ||
		{ echo "FAIL: the grid read is not 512 x 512"; rc=1; }
	grep -q "^hotspot: verify pass" <<<"$out" || { echo "FAIL: no 'verify pass'"; rc=1; }
done
exit $rc
