#!/usr/bin/env bash
# Description: under the emulator, a workload's kernels take real far faults
# that the driver services in batches. `uvmemu run --oversub 1.5` runs the
# workload at its small test size; its report must say the result verified,
# that GPU faults happened, and that there were fewer GPU batches than GPU
# faults (faults from many CTAs gathered into one batch), counting every CPU
# fault as a batch of its own (vecadd's CPU faults alone are 134-138 batches).
# The far-fault latency is 1 ms (45 us at D = 22), so that gathering is the
# model's: the real-time driver wakes on time, and in a 45 us wait few CTAs
# reach their own faults on a 2-core machine.
# usage: emulated.sh BUILD_DIR SOURCE_DIR WORKLOAD
set -u
build=$1 src=$2 name=$3
bin=$build/bin/$name
[ -x "$bin" ] || { echo "FAIL: $bin not built"; exit 1; }
[ -x "$build/bin/uvmemu" ] || { echo "FAIL: $build/bin/uvmemu not built"; exit 1; }
args=$(cat "$src/workloads/$name/test-args")
report=$(mktemp)
trap 'rm -f "$report"' EXIT

"$build/bin/uvmemu" run --oversub 1.5 --fault-latency 1ms --report "$report" --summary off -- "$bin" $args --quiet
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: $name exited with $rc"; cat "$report"; exit 1; }

# A top-level field of the report, read by a JSON parser.
if command -v jq >/dev/null; then
	field() { jq -r ".$1 // empty" "$report"; }
elif command -v python3 >/dev/null; then
	field() {
		python3 -c 'import json, sys; v = json.load(open(sys.argv[1])).get(sys.argv[2]); print("" if v is None else v)' "$report" "$1"
	}
else
	echo "SKIP: neither jq nor python3 to read the JSON report"; exit 77
fi
[ "$(field verify)" = pass ] || { echo "FAIL: report does not say verify pass"; cat "$report"; exit 1; }
faults=$(field gpu_faults)
batches=$(field batches)
cpu=$(field cpu_faults)
echo "$name: gpu_faults=$faults cpu_faults=$cpu batches=$batches"
[ -n "$faults" ] && [ -n "$batches" ] || { echo "FAIL: no gpu_faults or batches in the report"; cat "$report"; exit 1; }
[ "$faults" -gt 0 ] || { echo "FAIL: no GPU faults: the kernels did not run on the device view"; exit 1; }
[ "$batches" -gt 0 ] || { echo "FAIL: faults but no batches"; exit 1; }
[ $((batches - ${cpu:-0})) -lt "$faults" ] ||
	{ echo "FAIL: $((batches - ${cpu:-0})) GPU batches or more for $faults GPU faults: faults did not gather"; exit 1; }
exit 0
