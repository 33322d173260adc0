#!/usr/bin/env bash
# Description: with emu-gpu's GMMU accessors built in (every access counted),
# adaptive migration changes nothing when the footprint fits: blocks read
# remotely while the threshold is above 1 migrate as soon as their counts
# meet it (access-counter-driven migration), so the run ends with no block
# mapped remotely, moves the same blocks as first touch, and verifies.
set -u
build=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# The sanitizer build preloads an instrumented library ahead of the runtime.
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0
for m in first-touch adaptive; do
	"$build/bin/uvmemu" run --oversub 0.5 --migrate "$m" --summary off --report "$dir/$m.json" \
		-- "$build/bin/stream" --footprint 16M --quiet >/dev/null ||
		{ echo "FAIL: --migrate $m did not run"; exit 1; }
done
v() { sed -nE "s/^  \"$2\": \"?([^\",]*)\"?,?$/\1/p" "$dir/$1.json"; }
fails=0
[ "$(v adaptive verify)" = pass ] || { echo "FAIL: adaptive did not verify"; fails=1; }
[ "$(v adaptive access_counts)" = "gmmu accessors (per warp transaction)" ] || { echo "FAIL: counts are not from accessors: $(v adaptive access_counts)"; fails=1; }
[ "$(v adaptive remote_blocks)" = 0 ] || { echo "FAIL: $(v adaptive remote_blocks) blocks still remote"; fails=1; }
[ "$(v adaptive blocks_h2d)" = "$(v first-touch blocks_h2d)" ] ||
	{ echo "FAIL: adaptive moved $(v adaptive blocks_h2d) blocks, first touch $(v first-touch blocks_h2d)"; fails=1; }
echo "adaptive: $(v adaptive blocks_remote) blocks read remotely for a while, $(v adaptive blocks_counter_migrated) migrated by their counts, $(v adaptive remote_blocks) remote at exit"
exit $fails
