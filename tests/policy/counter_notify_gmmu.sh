#!/usr/bin/env bash
# Description: with GMMU accessors built in, a REMOTE block whose access count
# reaches the migration threshold notifies the driver at once, as a GPU's
# access counters do, instead of waiting for the driver's periodic scan.
# With the scan pushed past the run's end (--counter-scan-period 10s), stream
# under --migrate always (t_s = 8) still migrates its blocks by their counts,
# each after a few warp accesses (and the accesses of warps in flight while
# it moves), with the prefetcher's picks around them as a far fault's, and
# reads under half its footprint remotely: at most a tenth of the blocks
# mapped remotely are still remote at the end. Without notifications this
# run migrated none and read 9.7x its footprint remotely (stream's
# iterations read every array again).
set -u
build=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0
"$build/bin/uvmemu" run --oversub 0.5 --migrate always --counter-scan-period 10s --summary off \
	--report "$dir/r.json" -- "$build/bin/stream" --footprint 16M --quiet >/dev/null ||
	{ echo "FAIL: the run failed"; exit 1; }
read -r verify remote migrated left bytes foot < <(jq -r \
	'[.verify, .blocks_remote, .blocks_counter_migrated, .remote_blocks, .remote_bytes, .footprint_bytes] | @tsv' \
	"$dir/r.json")
echo "stream 16M, always, no scan: $remote blocks mapped remotely, $migrated migrated by their counts, $left remote at the end, $bytes of $foot bytes read remotely"
fails=0
[ "$verify" = pass ] || { echo "FAIL: verify $verify"; fails=1; }
awk -v r="$remote" -v m="$migrated" -v l="$left" 'BEGIN { exit !(r > 0 && m > 0 && l <= 0.1 * r) }' ||
	{ echo "FAIL: $migrated of $remote remote blocks migrated by their counts, $left still remote"; fails=1; }
awk -v b="$bytes" -v f="$foot" 'BEGIN { exit !(b > 0 && b < 0.5 * f) }' ||
	{ echo "FAIL: $bytes bytes read remotely, not under half of $foot"; fails=1; }
# The same migrations under the tree prefetcher and none: under --migrate
# always no fault migrates, so every block prefetched came with a block
# that its count moved (the adaptive-migration paper's simulator treats
# such a count as a far fault, prefetch included); without the prefetcher
# the counts move every block themselves.
for p in tree none; do
	"$build/bin/uvmemu" run --oversub 0.5 --migrate always --prefetch $p \
		--counter-scan-period 10s --summary off --report "$dir/$p.json" \
		-- "$build/bin/stream" --footprint 16M --quiet >/dev/null ||
		{ echo "FAIL: the run with --prefetch $p failed"; exit 1; }
done
read -r tp tm < <(jq -r '[.blocks_prefetched, .blocks_counter_migrated] | @tsv' "$dir/tree.json")
read -r np nm < <(jq -r '[.blocks_prefetched, .blocks_counter_migrated] | @tsv' "$dir/none.json")
echo "counts' migrations: tree $tm blocks and $tp prefetched with them; none $nm and $np"
awk -v tp="$tp" -v tm="$tm" -v np="$np" -v nm="$nm" \
	'BEGIN { exit !(tp > 0 && np == 0 && tm < nm) }' ||
	{ echo "FAIL: counter migrations do not bring the prefetcher's picks"; fails=1; }
exit $fails
