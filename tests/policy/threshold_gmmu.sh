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
run() {
	out=$("$build/bin/uvmemu" run --summary off "$@" 2>&1) || true
	if grep -q "verify pass" <<<"$out"; then
		echo "ok: $*"
	else
		echo "FAIL: $*"; echo "$out" | tail -5; fails=$((fails + 1))
	fi
}
for i in 1 2 3; do
	run --oversub 0.8 --migrate always -- "$build/bin/bfs" --footprint 16M --quiet
	run --oversub 1.25 --migrate adaptive -- "$build/bin/ra" --footprint 16M --updates 65536 --quiet
done
exit $((fails > 0))
