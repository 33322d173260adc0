#!/usr/bin/env bash
# Description: with GMMU accessors built in, the threshold policies keep data
# exact while blocks move from remote to the device under the accessors' own
# loads: bfs with everything fitting under always, ra at 1.25x under
# adaptive. Accessors once read remote blocks through the host frames, which
# a migration frees mid-read; these runs failed their checks then.
set -u
build=$1
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0
fails=0
# The run must exit 0 as well as print its verdict: under the sanitizers an
# error reported after the verdict makes the exit status non-zero.
run() {
	local rc=0

	out=$("$build/bin/uvmemu" run --summary off "$@" 2>&1) || rc=$?
	if [ "$rc" -eq 0 ] && grep -q "verify pass" <<<"$out"; then
		echo "ok: $*"
	else
		echo "FAIL (exit $rc): $*"; echo "$out" | tail -5; fails=$((fails + 1))
	fi
}
for i in 1 2 3; do
	run --oversub 0.8 --migrate always -- "$build/bin/bfs" --footprint 16M --quiet
	run --oversub 1.25 --migrate adaptive -- "$build/bin/ra" --footprint 16M --updates 65536 --quiet
done
exit $((fails > 0))
