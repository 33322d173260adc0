#!/usr/bin/env bash
# Description: the report's round-trip histogram stays exact when blocks come
# back more than 255 times: two 2 MB buffers prefetched in turn into 2 MB of
# device memory, 300 times each, so each of their 64 blocks makes about 300
# round trips. Every block is in exactly one bucket, the top one ("255": 255
# or more), and no bucket goes negative. Issue 35, defect 3: a block already
# in the top bucket was taken out of it on each further trip and never put
# back, and the bucket wrapped to 18446744073709437056.
set -u
build=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
command -v jq >/dev/null || { echo "SKIP: jq reads the report"; exit 77; }

out=$("$build/bin/uvmemu" run --summary off --device-mem 2M --link unlimited --fault-latency 0 \
	--report "$dir/r.json" -- "$build/tests/bin/rel_pingpong" 300); rc=$?
[ $rc -eq 0 ] || { echo "FAIL: pingpong exited $rc: $out"; exit 1; }
echo "$out"
hist=$(jq -c .round_trips "$dir/r.json")
distinct=$(jq '[.allocations[].distinct_blocks_thrashed] | add' "$dir/r.json")
echo "round_trips $hist, distinct blocks thrashed $distinct, blocks evicted $(jq .blocks_evicted "$dir/r.json")"
[ "$distinct" = 64 ] || { echo "FAIL: $distinct distinct blocks thrashed, want the 64 of both buffers"; fails=$((fails + 1)); }
[ "$(jq '[.round_trips[]] | add' "$dir/r.json")" = "$distinct" ] ||
	{ echo "FAIL: the buckets hold $(jq '[.round_trips[]] | add' "$dir/r.json") blocks, want $distinct"; fails=$((fails + 1)); }
[ "$(jq '.round_trips["255"]' "$dir/r.json")" = 64 ] ||
	{ echo "FAIL: the top bucket holds $(jq '.round_trips["255"]' "$dir/r.json") blocks, want 64"; fails=$((fails + 1)); }
[ $fails -eq 0 ]
