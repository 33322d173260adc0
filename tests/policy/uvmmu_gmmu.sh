#!/usr/bin/env bash
# Description: with GMMU accessors built in, --fault-path uvmmu resolves
# non-resident accesses in the worker threads by calling into the runtime
# (uvmmu_direct_faults counts them, no userfaultfd message), and the data
# stays exact at 1.5x with random and lru2m eviction, under both backends.
set -u
build=$1
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0
fails=0
report=$(mktemp)
trap 'rm -f "$report"' EXIT
# The run must exit 0 as well as print its verdict: under the sanitizers an
# error reported after the verdict makes the exit status non-zero.
run() {
	local rc=0

	out=$("$build/bin/uvmemu" run --summary off --policy uvmmu --oversub 1.5 \
		--report "$report" "$@" 2>&1) || rc=$?
	if [ "$rc" -ne 0 ] || ! grep -q "verify pass" <<<"$out"; then
		echo "FAIL (exit $rc): $*"; echo "$out" | tail -5; fails=$((fails + 1))
	elif ! grep -Eq '"uvmmu_direct_faults": [1-9]' "$report"; then
		echo "FAIL: $*: no fault was resolved by the accessors"; fails=$((fails + 1))
	else
		echo "ok: $*"
	fi
}
for evict in random lru2m; do
	for backend in remap copy; do
		run --evict $evict --backend $backend -- "$build/bin/vecadd" --footprint 8M --quiet
		run --evict $evict --backend $backend -- "$build/bin/ra" --footprint 8M --updates 32768 --quiet
	done
done
exit $((fails > 0))
