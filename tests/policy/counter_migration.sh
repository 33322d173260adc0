#!/usr/bin/env bash
# Description: without GMMU accessors, remote accesses are counted by sampled
# faults. When a sampled fault's count meets the adaptive threshold (memory
# not yet full: t_s x used / capacity + 1), the block migrates as an access
# counter migration: the fault is not a far fault (faults.csv says "sampled",
# the report counts it in blocks_counter_migrated), and blocks read remotely
# may come along as prefetches of a later migration in their vablock. A far
# fault on a store migrates whatever the count, so the run is bfs, whose
# graph is read sparsely (HPCC ra's updates are atomics: every block it
# touches migrates at its first fault). The run verifies.
set -u
build=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0
"$build/bin/uvmemu" run --oversub 0.8 --policy adaptive --backend remap --summary off \
	--remote-sample-period 1ms --report "$dir/r.json" --trace "$dir" --trace-faults on \
	-- "$build/bin/bfs" --footprint 16M --quiet >/dev/null 2>"$dir/err" || {
	if grep -q "remap" "$dir/err"; then echo "SKIP: no remap backend here: $(head -1 "$dir/err")"; exit 77; fi
	echo "FAIL: the run failed"; cat "$dir/err"; exit 1
}
v() { sed -nE "s/^  \"$1\": \"?([^\",]*)\"?,?$/\1/p" "$dir/r.json"; }
fails=0
[ "$(v verify)" = pass ] || { echo "FAIL: did not verify"; fails=1; }
case "$(v access_counts)" in
gmmu*) echo "SKIP: GMMU accessors count every access here (no sampling)"; exit 77 ;;
esac
[ "$(v blocks_remote)" -gt 0 ] || { echo "FAIL: no block read remotely"; fails=1; }
[ "$(v blocks_counter_migrated)" -gt 0 ] || { echo "FAIL: no counter migration"; fails=1; }
# Per block, in fault order: a GPU fault after the block was read remotely
# never migrates it as a far fault (stores go through the REMOTE mapping).
bad=$(awk -F, 'NR > 1 && $2 == "gpu" {
	if ($9 == "remote" || $9 == "sampled") rem[$4] = 1
	else if ($9 == "migrated" && rem[$4]) { n++; delete rem[$4] }
	else if ($9 == "migrated") delete rem[$4]
} END { print n + 0 }' "$dir/faults.csv")
[ "$bad" = 0 ] || { echo "FAIL: $bad far faults migrated blocks that were read remotely"; fails=1; }
echo "adaptive at 80%: $(v blocks_remote) remote mappings, $(v remote_samples) sampled faults, $(v blocks_counter_migrated) counter migrations, $(v gpu_faults) far faults"
exit $fails
