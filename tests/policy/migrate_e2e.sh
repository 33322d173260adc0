#!/usr/bin/env bash
# Description: end to end at 1.25x oversubscription, bfs (a graph read
# sparsely, level by level) verifies under every migration policy; adaptive
# migration reads part of it remotely (remote_bytes > 0) and so moves fewer
# blocks to the device than first touch (blocks_h2d lower). (HPCC ra's
# updates are atomics, whose far faults the threshold policies migrate
# whatever the count, as the adaptive-migration paper's simulator does.)
set -u
build=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
val() { sed -nE "s/^  \"$2\": ([0-9]+),?$/\1/p" "$dir/$1.json"; }
for m in first-touch always oversub adaptive pin-host; do
	out=$("$build/bin/uvmemu" run --oversub 1.25 --migrate "$m" --summary off \
		--report "$dir/$m.json" -- "$build/bin/bfs" --footprint 16M --quiet 2>&1)
	rc=$?
	if [ $rc -ne 0 ] || ! grep -q '"verify": "pass"' "$dir/$m.json"; then
		echo "FAIL: --migrate $m: exit $rc"; echo "$out"; fails=$((fails + 1)); continue
	fi
	echo "ok: --migrate $m: blocks_h2d $(val "$m" blocks_h2d), remote_bytes $(val "$m" remote_bytes), thrashed_blocks $(val "$m" thrashed_blocks)"
done
[ $fails -eq 0 ] || exit 1
ad_remote=$(val adaptive remote_bytes) ad_h2d=$(val adaptive blocks_h2d) ft_h2d=$(val first-touch blocks_h2d)
[ "$ad_remote" -gt 0 ] || { echo "FAIL: adaptive read nothing remotely"; exit 1; }
[ "$ad_h2d" -lt "$ft_h2d" ] || { echo "FAIL: adaptive moved $ad_h2d blocks, first touch $ft_h2d"; exit 1; }
echo "adaptive: $ad_h2d blocks moved against first touch's $ft_h2d, $ad_remote bytes read remotely"
